package dialect

import (
	"go/constant"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/knowledge"
	"github.com/idemlint/idemlint/analyzers/internal/ops"
	"github.com/idemlint/idemlint/analyzers/internal/ssaval"
)

const (
	xormPkg        = "xorm.io/xorm"
	xormBuilderPkg = "xorm.io/builder"
	xormNamesPkg   = "xorm.io/xorm/names"
)

// An xormFragment is a Where or And condition given as SQL with ? binds.
type xormFragment struct {
	text  string
	binds []ssa.Value
}

// An xormChain is what the steps before a finisher set on the session's
// next statement: each step stores into the session and returns it
// (session_cond.go, session_cols.go), and the finisher reads them all.
type xormChain struct {
	// handle is the root of the session or engine the chain starts on.
	handle ssa.Value
	// table is Table("name"); tableType Table(bean).
	table     string
	tableType types.Type
	// fragments are Where and And conditions; eq the columns of
	// builder.Eq conditions; id the value given to ID.
	fragments []xormFragment
	eq        []ops.KeyValue
	id        ssa.Value
	// cols are the Cols and MustCols columns; incr the columns Incr and
	// Decr change atomically, exprs those SetExpr sets.
	cols, incr, exprs []string
	exprText          map[string]string
	// noVersion: NoVersionCheck; noAutoCond: NoAutoCondition; lock:
	// ForUpdate; unknown: a step that makes the rows or columns not
	// followed here (Or, In, NotIn, Join, SQL, Omit, a condition
	// that is not a constant fragment or a builder.Eq).
	noVersion, noAutoCond, lock, unknown bool
	// naming is what the package making the call sees of the engine's
	// mappers.
	naming xormNaming
}

// xormChainOf walks the chain of the finisher at site back to the value
// it starts on; false when a step is too long a chain to follow.
func xormChainOf(site knowledge.Site) (*xormChain, bool) {
	c := &xormChain{exprText: map[string]string{}}
	v := site.Receiver()
	for i := 0; v != nil; i++ {
		if i >= ops.MaxTrace {
			return nil, false
		}
		call, ok := ssaval.Unwrap(v).(*ssa.Call)
		if !ok {
			break
		}
		step, ok := knowledge.Resolve(call.Common())
		if !ok || step.Row == nil || step.Row.Func.Pkg != xormPkg || step.Row.Result != knowledge.ChainResult {
			break
		}
		c.step(step)
		v = step.Receiver()
	}
	if recv := site.Receiver(); recv != nil {
		c.handle = ops.Root(recv)
	}
	if call := callOf(site); call != nil {
		c.naming = xormNamingAt(call.Parent())
	}
	return c, true
}

// step records one chain step.
func (c *xormChain) step(step knowledge.Site) {
	switch step.Row.Func.Name {
	case "Where", "And":
		cond := step.RoleArg(knowledge.Cond)
		if text, ok := ssaval.ConstString(cond); ok {
			binds, ok := step.Variadic(1)
			if !ok {
				c.unknown = true
			}
			c.fragments = append(c.fragments, xormFragment{text: text, binds: binds})
		} else if keys, ok := builderEq(cond); ok {
			c.eq = append(c.eq, keys...)
		} else {
			c.unknown = true
		}
	case "ID":
		c.id = ssaval.Unwrap(step.RoleArg(knowledge.Value))
	case "Table":
		arg := step.RoleArg(knowledge.Model)
		if name, ok := ssaval.ConstString(arg); ok {
			c.table = name
		} else if t := ops.ModelType(arg); t != nil {
			c.tableType = t
		} else {
			c.unknown = true
		}
	case "Cols", "MustCols":
		cols, ok := sliceOrConst(step.Arg(0))
		if !ok {
			c.unknown = true
		}
		c.cols = append(c.cols, cols...)
	case "Incr", "Decr", "SetExpr":
		col, ok := ssaval.ConstString(step.RoleArg(knowledge.Column))
		if !ok {
			c.unknown = true
			return
		}
		if step.Row.Func.Name != "SetExpr" {
			c.incr = append(c.incr, col)
			return
		}
		c.exprs = append(c.exprs, col)
		if text, ok := ssaval.ConstString(step.RoleArg(knowledge.SQL)); ok {
			c.exprText[col] = text
		}
	case "NoVersionCheck":
		c.noVersion = true
	case "NoAutoCondition":
		c.noAutoCond = true
	case "ForUpdate":
		c.lock = true
	case "Limit", "OrderBy", "Desc", "Asc", "Context", "Unscoped", "Select", "AllCols":
	default: // Or, In, NotIn, Join, SQL, Omit
		c.unknown = true
	}
}

// builderEq returns the columns and values of a builder.Eq{"col": v}
// literal (a map of constant keys), or false.
func builderEq(v ssa.Value) ([]ops.KeyValue, bool) {
	v = ssaval.Unwrap(v)
	if ci, ok := v.(*ssa.ChangeInterface); ok {
		v = ssaval.Unwrap(ci.X) // the builder.Cond an And returned, passed as any
	}
	if call, ok := v.(*ssa.Call); ok {
		return builderAnd(call)
	}
	mm, ok := ssaval.Unwrap(v).(*ssa.MakeMap)
	if !ok {
		return nil, false
	}
	named, ok := types.Unalias(mm.Type()).(*types.Named)
	if !ok || named.Obj().Pkg() == nil || named.Obj().Pkg().Path() != xormBuilderPkg || named.Obj().Name() != "Eq" {
		return nil, false
	}
	var keys []ops.KeyValue
	for _, ref := range *mm.Referrers() {
		up, ok := ref.(*ssa.MapUpdate)
		if !ok {
			continue
		}
		k, ok := ssaval.Unwrap(up.Key).(*ssa.Const)
		if !ok || k.Value == nil || k.Value.Kind() != constant.String {
			return nil, false
		}
		// A key quoted for MySQL (builder.Eq{"`key`": k}) names the
		// column key.
		col := strings.Trim(constant.StringVal(k.Value), "`\"")
		keys = append(keys, ops.KeyValue{Column: col, Value: ssaval.Unwrap(up.Value)})
	}
	return keys, true
}

// builderAnd returns the columns and values of a conjunction of
// builder.Eq conditions: builder.Eq{...}.And(builder.Eq{...}) or
// builder.And(eq1, eq2), every row matching each; false for anything
// else.
func builderAnd(call *ssa.Call) ([]ops.KeyValue, bool) {
	callee := call.Common().StaticCallee()
	if callee == nil || callee.Name() != "And" {
		return nil, false
	}
	obj, ok := callee.Object().(*types.Func)
	if !ok || obj.Pkg() == nil || obj.Pkg().Path() != xormBuilderPkg {
		return nil, false
	}
	args := call.Common().Args
	var conds []ssa.Value
	if sig := obj.Type().(*types.Signature); sig.Recv() != nil {
		// (Eq).And(conds...): the receiver, then the variadic slice.
		if len(args) != 2 {
			return nil, false
		}
		conds = append(conds, args[0])
		args = args[1:]
	}
	if len(args) != 1 {
		return nil, false
	}
	vals := ops.SliceValues(args[0])
	if vals == nil {
		return nil, false
	}
	conds = append(conds, vals...)
	var keys []ops.KeyValue
	for _, c := range conds {
		k, ok := builderEq(c)
		if !ok {
			return nil, false
		}
		keys = append(keys, k...)
	}
	return keys, true
}

// beanOf returns the bean the statement is about: Table's, else the
// finisher's argument v (a pointer to a struct, or a struct), else a
// table Table("name") names with no bean (Table("user").Exist()).
func (c *xormChain) beanOf(prog *ssa.Program, v ssa.Value) (xormBean, bool) {
	t := c.tableType
	if t == nil {
		t = ops.ModelType(v)
	}
	if t == nil {
		return xormBean{table: c.table}, v == nil && c.table != ""
	}
	b, ok := xormBeanOf(prog, t, c.naming)
	if ok && c.table != "" {
		b.table = c.table
	}
	return b, ok
}

// tableOf names the statement's table: Table("name"), or the bean's.
func (c *xormChain) tableOf(prog *ssa.Program, v ssa.Value) string {
	if c.table != "" {
		return c.table
	}
	if b, ok := c.beanOf(prog, v); ok {
		return b.table
	}
	return ""
}

// beanConds returns the fields of a condition bean (Get(&User{Email: e})
// queries by the bean's non-zero fields) stored before the call, as
// columns of b; false when the bean's stores are not visible or a field's
// column is not known.
func beanConds(b xormBean, bean ssa.Value, call ssa.Instruction) ([]ops.KeyValue, bool) {
	v := ssaval.Unwrap(bean)
	if load, ok := v.(*ssa.UnOp); ok {
		v = load.X
	}
	alloc, ok := v.(*ssa.Alloc)
	if !ok {
		return nil, false
	}
	var out []ops.KeyValue
	for _, a := range ops.LiteralAllocs(alloc) {
		for _, st := range ops.FieldStores(call.Parent(), a) {
			// A field stored after the call is a value read, not a
			// condition.
			if !ops.Reaches(st, call, nil) || ops.Reaches(call, st, nil) {
				continue
			}
			f := ssaval.FieldOf(st.Addr.(*ssa.FieldAddr))
			if f == nil {
				continue
			}
			col, ok := b.column(f.Name())
			if !ok {
				return nil, false
			}
			out = append(out, ops.KeyValue{Column: col, Value: st.Val})
		}
	}
	return out, true
}

// oneVariadic returns the value passed for variadic parameter i when
// there is at most one (Get(&u), Insert(&u), Exist()); false when there
// are more, or the slice is not built in place (Insert(beans...)).
func oneVariadic(site knowledge.Site, i int) (ssa.Value, bool) {
	vals, ok := site.Variadic(i)
	switch {
	case !ok || len(vals) > 1:
		return nil, false
	case len(vals) == 0:
		return nil, true
	}
	return vals[0], true
}
