package dialect

import (
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/knowledge"
	"github.com/idemlint/idemlint/analyzers/internal/ops"
	"github.com/idemlint/idemlint/analyzers/internal/ssaval"
)

// xormRow classifies an xorm finisher: Get, GetOrError, Exist or Count
// pinning columns (ID, Where and And fragments, builder.Eq, the condition
// bean's non-zero fields) is a lookup; Insert or InsertOne of one bean an
// insert. Get, Exist and Count say they found nothing by their result 0
// (has == false, count == 0), never by an error; GetOrError by
// ErrNotExist. Update pinning columns is a lookup too (ops.RowOp.ByUpdate):
// the affected count it returns is 0 when no row matched, the test of an
// update-then-insert (xormUpdateRow). Nil when a step is not followed or
// no key is known.
func xormRow(site knowledge.Site) *ops.RowOp {
	row := site.Row
	if row.Func.Pkg != xormPkg {
		return nil
	}
	if row.Func.Name == "Update" {
		return xormUpdateRow(site)
	}
	op := &ops.RowOp{Lib: "xorm", FromLibrary: true, NilResult: -1}
	var bean ssa.Value
	ok := true
	switch row.Func.Name {
	case "Get", "GetOrError":
		// Get(&a, &b...) scans the columns into several values.
		op.Kind, op.CountsFound = ops.Lookup, row.Func.Name == "Get"
		bean, ok = oneVariadic(site, 0)
		ok = ok && bean != nil
	case "Exist", "Count":
		op.Kind, op.CountsFound = ops.Lookup, true
		bean, ok = oneVariadic(site, 0)
	case "Insert":
		op.Kind = ops.Insert
		bean, ok = oneVariadic(site, 0)
		ok = ok && bean != nil
	case "InsertOne":
		op.Kind, bean = ops.Insert, site.Arg(0)
	default:
		return nil
	}
	if !ok {
		return nil
	}
	c, ok := xormChainOf(site)
	if !ok || c.unknown {
		return nil
	}
	b, ok := c.beanOf(progOf(site), bean)
	if !ok {
		return nil
	}
	op.Table, op.Handle = b.table, c.handle
	if op.Kind == ops.Insert {
		if _, isSlice := ssaval.Unwrap(bean).Type().Underlying().(*types.Slice); isSlice {
			return nil // a multi-row insert
		}
		for _, k := range ops.ModelKeys(bean) {
			if col, ok := b.column(k.Field); ok {
				op.Keys = append(op.Keys, ops.KeyValue{Column: col, Value: k.Value})
			}
		}
		op.Desc = "the xorm " + row.Func.Name + " into " + b.table
	} else {
		keys, ok := c.keys(b, bean, site)
		if !ok {
			return nil
		}
		op.Keys = keys
		op.Desc = "the xorm " + row.Func.Name + " of " + b.table
	}
	if op.Keyless() {
		return nil
	}
	return op
}

// xormUpdateRow makes the lookup of Update(bean, condiBeans...): the
// columns its WHERE pins (the chain's ID, Where, And and builder.Eq
// conditions and the condition bean's non-zero fields; the bean's own
// fields are what it sets), found nothing when the count it returns is 0.
// Under MySQL an UPDATE that changes no value counts 0 too, which makes
// the insert after it fail on the key even without a concurrent caller.
func xormUpdateRow(site knowledge.Site) *ops.RowOp {
	c, ok := xormChainOf(site)
	if !ok || c.unknown {
		return nil
	}
	// A map bean names no table: Table's does.
	bean := ssaval.Unwrap(site.RoleArg(knowledge.Model))
	if _, isMap := bean.(*ssa.MakeMap); isMap {
		bean = nil
	}
	b, ok := c.beanOf(progOf(site), bean)
	if !ok {
		return nil
	}
	keys, ok := c.keys(b, nil, site)
	if !ok {
		return nil
	}
	conds, ok := site.Variadic(1)
	switch {
	case !ok || len(conds) > 1:
		return nil
	case len(conds) == 1:
		more, ok := c.condBean(b, conds[0], site)
		if !ok {
			return nil
		}
		keys = append(keys, more...)
	}
	if len(keys) == 0 {
		return nil
	}
	return &ops.RowOp{Kind: ops.Lookup, ByUpdate: true, Lib: "xorm", FromLibrary: true, CountsFound: true, NilResult: -1,
		Table: b.table, Handle: c.handle, Keys: keys, Desc: "the xorm Update of " + b.table}
}

// keys returns the columns a lookup or update pins: ID's primary key, the
// fragments' and builder.Eq's columns, and the condition bean's non-zero
// fields (unless NoAutoCondition); false when one is not understood.
func (c *xormChain) keys(b xormBean, bean ssa.Value, site knowledge.Site) ([]ops.KeyValue, bool) {
	op := &ops.RowOp{}
	for _, f := range c.fragments {
		if !ops.FragmentKeys(op, f.text, f.binds) {
			return nil, false
		}
	}
	keys := append(op.Keys, c.eq...)
	if c.id != nil {
		pk, ok := b.pk()
		if !ok {
			return nil, false
		}
		keys = append(keys, ops.KeyValue{Column: pk, Value: c.id})
	}
	if bean != nil && !c.noAutoCond {
		call := callOf(site)
		if call == nil {
			return nil, false
		}
		conds, ok := beanConds(b, bean, call)
		if !ok {
			return nil, false
		}
		keys = append(keys, conds...)
	}
	return keys, true
}

// xormRead makes the read of Get(&bean): the row lands in the bean's
// fields, named by xorm's tags.
func xormRead(call *ssa.Call, site knowledge.Site) *ops.ColumnRead {
	if site.Row.Func.Pkg != xormPkg || site.Row.Func.Name != "Get" {
		return nil
	}
	bean, ok := oneVariadic(site, 0)
	if !ok || bean == nil {
		return nil
	}
	addr := ssaval.Unwrap(bean)
	if _, isPtr := addr.Type().Underlying().(*types.Pointer); !isPtr {
		return nil
	}
	c, ok := xormChainOf(site)
	if !ok || c.unknown {
		return nil
	}
	b, ok := c.beanOf(call.Parent().Prog, addr)
	if !ok || !types.Identical(b.typ, ops.ModelType(addr)) {
		return nil
	}
	keys, ok := c.keys(b, addr, site)
	if !ok {
		return nil
	}
	return &ops.ColumnRead{Instr: call, Table: b.table, Model: b.typ, ModelAddr: addr, Keys: keys, Handle: c.handle,
		Lib: "xorm", Desc: "the xorm Get of " + b.table, ColumnOf: b.column}
}

// callOf returns the call instruction of site: a referrer of its
// receiver (a Row hook is given the site only).
func callOf(site knowledge.Site) ssa.CallInstruction {
	recv := site.Receiver()
	if recv == nil || recv.Referrers() == nil {
		return nil
	}
	for _, ref := range *recv.Referrers() {
		if call, ok := ref.(ssa.CallInstruction); ok && call.Common() == site.Call {
			return call
		}
	}
	return nil
}

// progOf returns the program of the function that makes the call at
// site, which builds a TableName method's body; nil when not known.
func progOf(site knowledge.Site) *ssa.Program {
	if call := callOf(site); call != nil {
		return call.Parent().Prog
	}
	return nil
}
