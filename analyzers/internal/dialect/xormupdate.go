package dialect

import (
	"go/constant"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/knowledge"
	"github.com/idemlint/idemlint/analyzers/internal/ops"
	"github.com/idemlint/idemlint/analyzers/internal/sqltext"
	"github.com/idemlint/idemlint/analyzers/internal/ssaval"
)

// The Method an xorm update is recorded with says how it meets the
// version check Update adds by itself (session_update.go: only for a
// struct bean, and not after NoVersionCheck).
const (
	xormUpdateStruct  = "Update"
	xormUpdateMap     = "Update(map)"
	xormUpdateNoCheck = "NoVersionCheck().Update"
)

// xormUpdate summarises Update(bean, condiBeans...): the chain's ID,
// Where, And and builder.Eq conditions and the condition bean's non-zero
// fields pin the row (the bean's own primary key does not: without them
// every row is updated); a struct bean writes its non-zero fields or the
// Cols, a map its keys; Incr, Decr and SetExpr add their SET; a struct
// bean with a version field compares and bumps it unless NoVersionCheck.
func xormUpdate(call ssa.CallInstruction, site knowledge.Site) *ops.Update {
	if site.Row.Func.Pkg != xormPkg || site.Row.Func.Name != "Update" {
		return nil
	}
	c, ok := xormChainOf(site)
	if !ok {
		return nil
	}
	bean := ssaval.Unwrap(site.RoleArg(knowledge.Model))
	u := &ops.Update{Lib: "xorm", Method: xormUpdateStruct, Handle: c.handle, Count: ops.CountUseOf(call), WhereUnknown: c.unknown}
	mm, isMap := bean.(*ssa.MakeMap)
	b, ok := c.beanOf(call.Parent().Prog, bean)
	switch {
	case isMap:
		u.Method = xormUpdateMap
		if u.Table = c.tableOf(call.Parent().Prog, nil); u.Table == "" {
			return nil
		}
		u.Assigns = mapKeys(mm)
	case ok:
		u.Table = b.table
		if len(c.cols) > 0 {
			u.Assigns = append(u.Assigns, c.cols...)
		} else {
			u.Assigns = append(u.Assigns, "*")
		}
		if col, _, has := b.version(); has {
			if c.noVersion {
				u.Method = xormUpdateNoCheck
			} else {
				u.Compares = append(u.Compares, col)
				u.Bumps = append(u.Bumps, col)
			}
		}
	default:
		return nil
	}
	u.Bumps = append(u.Bumps, c.incr...)
	for _, col := range c.exprs {
		list := sqltext.ParseSetList(col + " = " + c.exprText[col])
		if list != nil && !list.Unknown && len(list.Assignments) == 1 && list.Assignments[0].Value.ReadsColumn(col) {
			u.Bumps = append(u.Bumps, col)
		} else {
			u.Assigns = append(u.Assigns, col)
		}
	}
	if !xormUpdateWhere(u, c, b, site) {
		return nil
	}
	u.Desc = "the xorm Update of " + u.Table
	return u
}

// xormUpdateWhere adds the columns the WHERE of an update compares.
func xormUpdateWhere(u *ops.Update, c *xormChain, b xormBean, site knowledge.Site) bool {
	for _, f := range c.fragments {
		cond := sqltext.ParseCondition(f.text)
		if cond == nil || cond.Unknown {
			u.WhereUnknown = true
			continue
		}
		for _, cmp := range cond.Comparisons {
			if cmp.Conjunct && cmp.Equality() {
				u.Compares = append(u.Compares, cmp.Column.Name)
				u.Keyed = u.Keyed || cmp.Operand.Kind == sqltext.OperandPlaceholder
			}
		}
	}
	for _, k := range c.eq {
		u.Compares, u.Keyed = append(u.Compares, k.Column), true
	}
	if c.id != nil {
		pk, ok := b.pk()
		if !ok {
			return false
		}
		u.Compares, u.Keyed = append(u.Compares, pk), true
	}
	if conds, ok := site.Variadic(1); ok && len(conds) == 1 {
		keys, ok := c.condBean(b, conds[0], site)
		if !ok {
			u.WhereUnknown = true
		}
		for _, k := range keys {
			u.Compares, u.Keyed = append(u.Compares, k.Column), true
		}
	} else if !ok || len(conds) > 1 {
		u.WhereUnknown = true
	}
	return true
}

// condBean returns the columns an update's condition bean pins: its
// non-zero fields, named by its own type's tags.
func (c *xormChain) condBean(b xormBean, bean ssa.Value, site knowledge.Site) ([]ops.KeyValue, bool) {
	call := callOf(site)
	if call == nil {
		return nil, false
	}
	cb, ok := xormBeanOf(call.Parent().Prog, ops.ModelType(bean), c.naming)
	if !ok {
		cb = b
	}
	return beanConds(cb, bean, call)
}

// mapKeys returns the constant keys of a map literal, "*" for any other.
func mapKeys(mm *ssa.MakeMap) []string {
	var out []string
	for _, ref := range *mm.Referrers() {
		if up, ok := ref.(*ssa.MapUpdate); ok {
			if k, ok := ssaval.Unwrap(up.Key).(*ssa.Const); ok && k.Value != nil && k.Value.Kind() == constant.String {
				out = append(out, constant.StringVal(k.Value))
			} else {
				out = append(out, "*")
			}
		}
	}
	return out
}

// xormWrites makes the writes of Update(&bean) of a bean read in the
// function: each field stored since (within the Cols when there are
// some; not those Incr, Decr or SetExpr set, nor the version xorm bumps).
// An update with a Where, And or builder.Eq condition, or a condition
// bean, besides ID is guarded: it compares more than the key; so is one
// of a bean with a version field, which xorm compares by itself.
func xormWrites(fn *ssa.Function, call *ssa.Call, site knowledge.Site) []*ops.ColumnWrite {
	if site.Row.Func.Pkg != xormPkg || site.Row.Func.Name != "Update" {
		return nil
	}
	addr := ssaval.Unwrap(site.RoleArg(knowledge.Model))
	c, ok := xormChainOf(site)
	if !ok || c.unknown || c.tableType != nil {
		return nil
	}
	b, ok := c.beanOf(fn.Prog, addr)
	if !ok {
		return nil
	}
	conds, ok := site.Variadic(1)
	if !ok {
		return nil
	}
	base := ops.ColumnWrite{Instr: call, Table: b.table, Model: b.typ, ModelAddr: addr, Handle: c.handle, Lib: "xorm",
		Desc: "the xorm Update of " + b.table, Guarded: len(c.fragments) > 0 || len(c.eq) > 0 || len(conds) > 0}
	if pk, ok := b.pk(); ok && c.id != nil {
		base.Keys = []ops.KeyValue{{Column: pk, Value: c.id}}
	}
	verCol, _, versioned := b.version()
	base.Guarded = base.Guarded || (versioned && !c.noVersion)
	var out []*ops.ColumnWrite
	for _, st := range ops.FieldStores(fn, addr) {
		f := ssaval.FieldOf(st.Addr.(*ssa.FieldAddr))
		if f == nil {
			continue
		}
		col, ok := b.column(f.Name())
		if !ok || strings.EqualFold(col, verCol) || containsFold(c.incr, col) || containsFold(c.exprs, col) ||
			(len(c.cols) > 0 && !containsFold(c.cols, col)) {
			continue
		}
		w := base
		w.Field, w.Column, w.Value, w.Store = f.Name(), col, st.Val, st
		out = append(out, &w)
	}
	return out
}

// xormWholeModel returns the bean of an Update(&bean) with no Cols, which
// writes every non-zero field of the bean, for summaries.
func xormWholeModel(site knowledge.Site) (ssa.Value, bool) {
	if site.Row.Func.Pkg != xormPkg || site.Row.Func.Name != "Update" {
		return nil, false
	}
	c, ok := xormChainOf(site)
	if !ok || c.unknown || len(c.cols) > 0 || len(c.incr) > 0 || len(c.exprs) > 0 {
		return nil, false
	}
	bean := ssaval.Unwrap(site.RoleArg(knowledge.Model))
	return bean, ops.ModelType(bean) != nil && isModelPtr(bean)
}

// xormModelColumns names the table and columns of a bean type, for
// helpers' summaries, by the naming fn's package sees; a TableName method
// leaves the table unknown here (no program to build its body).
func xormModelColumns(fn *ssa.Function, t types.Type) (string, func(string) (string, bool)) {
	b, ok := xormBeanOf(nil, t, xormNamingAt(fn))
	if !ok {
		return "", nil
	}
	return b.table, b.column
}
