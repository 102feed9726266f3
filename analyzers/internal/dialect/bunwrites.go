package dialect

import (
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/knowledge"
	"github.com/idemlint/idemlint/analyzers/internal/ops"
	"github.com/idemlint/idemlint/analyzers/internal/sqltext"
	"github.com/idemlint/idemlint/analyzers/internal/ssaval"
)

const bunPkg = "github.com/uptrace/bun"

// bunModelColumn returns a function naming the column of a field of the
// bun model t, with its table; nil when t has no table tag.
func bunModelColumn(t types.Type) (string, func(string) (string, bool)) {
	if t == nil {
		return "", nil
	}
	st, ok := t.Underlying().(*types.Struct)
	if !ok {
		return "", nil
	}
	table := bunTable(st)
	if table == "" {
		return "", nil
	}
	return table, func(field string) (string, bool) {
		c := bunColumn(st, field)
		return c, c != ""
	}
}

// bunRead makes a read of SelectQuery Scan into the query's model.
func bunRead(call *ssa.Call, site knowledge.Site) *ops.ColumnRead {
	if site.Row.Func.Pkg != bunPkg || site.Row.Func.Recv != "SelectQuery" || site.Row.Func.Name != "Scan" {
		return nil
	}
	if vals, ok := site.Variadic(1); !ok || len(vals) > 0 {
		return nil
	}
	rd := &ops.ColumnRead{Instr: call, Lib: "bun"}
	handle, _, ok := bunChain(site, []string{"NewSelect"}, func(name string, _ *ssa.Call, step knowledge.Site) bool {
		if name == "Model" {
			rd.ModelAddr = ssaval.Unwrap(step.Arg(0))
		}
		return true
	})
	if !ok {
		return nil
	}
	rd.Handle = handle
	rd.Model = ops.ModelType(rd.ModelAddr)
	if _, ok := rd.Model.(*types.Named); !ok || rd.ModelAddr == nil {
		return nil
	}
	if _, isPtr := rd.ModelAddr.Type().Underlying().(*types.Pointer); !isPtr {
		return nil
	}
	rd.Table, rd.ColumnOf = bunModelColumn(rd.Model)
	if rd.ColumnOf == nil {
		return nil
	}
	rd.Desc = "the bun Scan of " + rd.Table
	return rd
}

// bunWrites makes the writes of an UpdateQuery Exec or Scan: each
// Set("c = ?", v) or SetColumn("c", "?", v) step with its value, or, with
// none, each field of the model stored since it was read (restricted to
// the Column steps' columns when there are some).
func bunWrites(fn *ssa.Function, call *ssa.Call, site knowledge.Site) []*ops.ColumnWrite {
	if site.Row.Func.Pkg != bunPkg || site.Row.Func.Recv != "UpdateQuery" {
		return nil
	}
	base := ops.ColumnWrite{Instr: call, Lib: "bun"}
	var sets []*ops.ColumnWrite
	var only []string
	setSteps := false
	handle, _, ok := bunChain(site, []string{"NewUpdate"}, func(name string, c *ssa.Call, step knowledge.Site) bool {
		switch name {
		case "Model":
			base.ModelAddr = ssaval.Unwrap(step.Arg(0))
		case "WherePK", "Returning", "OmitZero":
		case "Where":
			text, ok := ssaval.ConstString(step.Arg(0))
			if !ok {
				return false
			}
			cond := sqltext.ParseCondition(text)
			if cond.Unknown {
				base.Guarded = true
			}
			for _, cmp := range cond.Comparisons {
				if !strings.EqualFold(cmp.Column.Name, "id") {
					base.Guarded = true
				}
			}
		case "Column":
			for _, a := range c.Common().Args[1:] {
				vals, ok := sliceOrConst(a)
				if !ok {
					return false
				}
				only = append(only, vals...)
			}
		case "Set":
			setSteps = true
			text, ok := ssaval.ConstString(step.Arg(0))
			if !ok {
				return false
			}
			list := sqltext.ParseSetList(text)
			if list.Unknown {
				return true
			}
			binds, ok := step.Variadic(1)
			if !ok {
				return true
			}
			for _, a := range list.Assignments {
				if a.SelfReferential {
					return true
				}
				p, ok := a.Value.Placeholder()
				if !ok || p.Position < 1 || p.Position > len(binds) || binds[p.Position-1] == nil {
					return true
				}
				w := base
				w.Column, w.Value = a.Column, binds[p.Position-1]
				sets = append(sets, &w)
			}
		case "SetColumn", "Value":
			setSteps = true
			col, ok1 := ssaval.ConstString(step.Arg(0))
			text, ok2 := ssaval.ConstString(step.Arg(1))
			binds, ok3 := step.Variadic(2)
			if !ok1 || !ok2 || !ok3 || strings.TrimSpace(text) != "?" || len(binds) != 1 || binds[0] == nil {
				return true
			}
			w := base
			w.Column, w.Value = col, binds[0]
			sets = append(sets, &w)
		default:
			return false
		}
		return true
	})
	if !ok {
		return nil
	}
	base.Handle = handle
	if base.ModelAddr == nil {
		return nil
	}
	base.Model = ops.ModelType(base.ModelAddr)
	table, columnOf := bunModelColumn(base.Model)
	if columnOf == nil {
		return nil
	}
	base.Table = table
	base.Desc = "the bun update of " + table
	var out []*ops.ColumnWrite
	if setSteps {
		for _, w := range sets {
			w.Model, w.ModelAddr, w.Table, w.Desc, w.Guarded = base.Model, base.ModelAddr, table, base.Desc, base.Guarded
			out = append(out, w)
		}
		return out
	}
	for _, st := range ops.FieldStores(fn, base.ModelAddr) {
		f := ssaval.FieldOf(st.Addr.(*ssa.FieldAddr))
		if f == nil {
			continue
		}
		col, ok := columnOf(f.Name())
		if !ok || (len(only) > 0 && !containsFold(only, col)) {
			continue
		}
		w := base
		w.Field, w.Column, w.Value, w.Store = f.Name(), col, st.Val, st
		out = append(out, &w)
	}
	return out
}

// sliceOrConst returns the constant strings of a variadic argument.
func sliceOrConst(v ssa.Value) ([]string, bool) {
	slice, ok := v.(*ssa.Slice)
	if !ok {
		if c, ok := v.(*ssa.Const); ok && c.IsNil() {
			return nil, true
		}
		return nil, false
	}
	alloc, ok := slice.X.(*ssa.Alloc)
	if !ok {
		return nil, false
	}
	var out []string
	for _, ref := range *alloc.Referrers() {
		ia, ok := ref.(*ssa.IndexAddr)
		if !ok {
			continue
		}
		for _, use := range *ia.Referrers() {
			if st, ok := use.(*ssa.Store); ok {
				s, ok := ssaval.ConstString(st.Val)
				if !ok {
					return nil, false
				}
				out = append(out, s)
			}
		}
	}
	return out, true
}

func containsFold(list []string, s string) bool {
	for _, x := range list {
		if strings.EqualFold(x, s) {
			return true
		}
	}
	return false
}

// bunWholeModel returns the model of a NewUpdate().Model(m) with no Set,
// Value or Column step, which writes the model whole.
func bunWholeModel(site knowledge.Site) (ssa.Value, bool) {
	if site.Row.Func.Pkg != bunPkg || site.Row.Func.Recv != "UpdateQuery" {
		return nil, false
	}
	var model ssa.Value
	_, started, ok := bunChain(site, []string{"NewUpdate"}, func(name string, _ *ssa.Call, step knowledge.Site) bool {
		switch name {
		case "Model":
			model = ssaval.Unwrap(step.Arg(0))
		case "WherePK", "Returning", "OmitZero":
		default:
			return false
		}
		return true
	})
	return model, ok && started && model != nil
}

// bunChain walks a bun query's builder chain back from the finisher's
// receiver, calling visit with each step (the method's name, its call and
// its site) until the step that starts the chain, one named in starts
// (NewSelect, NewUpdate), whose receiver (the bun.DB, bun.Tx or bun.Conn)
// it returns as the handle; started says whether the walk got there (the
// chain may begin where it cannot be followed, or be too long). ok is
// false when a receiver is not a library call, or visit returns false (a
// step not understood).
func bunChain(site knowledge.Site, starts []string, visit func(name string, call *ssa.Call, step knowledge.Site) bool) (handle ssa.Value, started, ok bool) {
	v := site.Receiver()
	for i := 0; i < ops.MaxTrace && v != nil; i++ {
		call, ok := ssaval.Unwrap(v).(*ssa.Call)
		if !ok {
			return nil, false, false
		}
		step, ok := knowledge.Resolve(call.Common())
		if !ok || step.Row == nil {
			return nil, false, false
		}
		name := step.Row.Func.Name
		if slices.Contains(starts, name) {
			if recv := step.Receiver(); recv != nil {
				handle = ops.Root(recv)
			}
			return handle, true, true
		}
		if !visit(name, call, step) {
			return nil, false, false
		}
		v = step.Receiver()
	}
	return nil, false, true
}
