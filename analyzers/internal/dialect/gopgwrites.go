package dialect

import (
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/knowledge"
	"github.com/idemlint/idemlint/analyzers/internal/ops"
	"github.com/idemlint/idemlint/analyzers/internal/sqltext"
	"github.com/idemlint/idemlint/analyzers/internal/ssaval"
)

// gopgUpdateSteps is what the steps of an Update (UpdateNotZero) chain
// say, read once for the hooks below. Update writes Set's assignments
// when there are any, else the model's columns (Column's, or all its data
// columns), each replaced by Value's expression for its column
// (orm/update.go mustAppendSet, appendSetStruct); it requires a Where or
// WherePK step.
type gopgUpdateSteps struct {
	model, handle ssa.Value
	wheres        []knowledge.Site // Where steps
	wherePK       bool
	columns       []string         // Column steps' columns
	sets, values  []knowledge.Site // Set and Value steps
}

// gopgUpdateChain reads the chain of an Update or UpdateNotZero with no
// values to scan RETURNING into; false for anything else, or a step not
// understood (WhereOr, a Column given as a slice...).
func gopgUpdateChain(site knowledge.Site) (*gopgUpdateSteps, bool) {
	row := site.Row
	if row.Func.Recv != "Query" || (row.Func.Name != "Update" && row.Func.Name != "UpdateNotZero") {
		return nil, false
	}
	if vals, ok := site.Variadic(0); !ok || len(vals) > 0 {
		return nil, false
	}
	s := &gopgUpdateSteps{}
	var ok bool
	s.model, s.handle, ok = gopgChain(site, func(name string, step knowledge.Site) bool {
		switch name {
		case "Where":
			s.wheres = append(s.wheres, step)
		case "WherePK":
			s.wherePK = true
		case "Column":
			cols, ok := sliceOrConst(step.Arg(0))
			s.columns = append(s.columns, cols...)
			return ok
		case "Set":
			s.sets = append(s.sets, step)
		case "Value":
			s.values = append(s.values, step)
		case "Context", "Returning":
		default:
			return false
		}
		return true
	})
	return s, ok && s.model != nil
}

// gopgUpdate summarises the UPDATE an Update or UpdateNotZero runs: the
// model's table, the columns its Where fragments and WherePK pin (the
// model's primary key), and those its Set and Value steps or the model
// write.
func gopgUpdate(call ssa.CallInstruction, site knowledge.Site) *ops.Update {
	s, ok := gopgUpdateChain(site)
	if !ok {
		return nil
	}
	t := ops.ModelType(s.model)
	table, columnOf := gopgModelColumns(t)
	if columnOf == nil {
		return nil
	}
	u := &ops.Update{Lib: "gopg", Method: site.Row.Func.Name, Table: table, Handle: s.handle}
	for _, w := range s.wheres {
		text, ok := ssaval.ConstString(w.RoleArg(knowledge.Cond))
		if !ok {
			return nil
		}
		cond := sqltext.ParseCondition(text)
		if cond == nil || cond.Unknown {
			u.WhereUnknown = true
			continue
		}
		for _, cmp := range cond.Comparisons {
			if cmp.Conjunct && cmp.Equality() {
				u.Compares = append(u.Compares, cmp.Column.Name)
				if cmp.Operand.Kind == sqltext.OperandPlaceholder {
					u.Keyed = true
				}
			}
		}
	}
	if s.wherePK {
		u.Keyed = true
		u.Compares = append(u.Compares, gopgPKs(t)...)
	}
	for _, set := range s.sets {
		text, ok := ssaval.ConstString(set.RoleArg(knowledge.SQL))
		if !ok {
			return nil
		}
		list := sqltext.ParseSetList(text)
		if list == nil || list.Unknown {
			return nil
		}
		for _, a := range list.Assignments {
			gopgAssign(u, a.Column, a.Value)
		}
	}
	if len(s.sets) == 0 {
		for _, v := range s.values {
			col, ok1 := ssaval.ConstString(v.Arg(0))
			text, ok2 := ssaval.ConstString(v.Arg(1))
			expr := sqltext.ParseExpr(text)
			if !ok1 || !ok2 || expr == nil {
				return nil
			}
			gopgAssign(u, col, *expr)
		}
		switch {
		case len(s.columns) > 0:
			for _, col := range s.columns {
				if !containsFold(u.Bumps, col) && !containsFold(u.Constants, col) && !containsFold(u.Assigns, col) {
					u.Assigns = append(u.Assigns, col)
				}
			}
		default:
			u.Assigns = append(u.Assigns, "*") // every data column of the model
		}
	}
	u.Desc = "the go-pg update of " + table
	u.Count = ops.CountUseOf(call)
	return u
}

// gopgAssign records column = value on u.
func gopgAssign(u *ops.Update, col string, value sqltext.Expr) {
	switch {
	case value.ReadsColumn(col):
		u.Bumps = append(u.Bumps, col)
	case value.Kind == sqltext.ExprPlaceholder || len(value.Placeholders) > 0:
		u.Assigns = append(u.Assigns, col)
	default:
		u.Constants = append(u.Constants, col)
	}
}

// gopgWrites makes the column writes of an Update: each Set("c = ?", v)
// with its value when there are Set steps; else each field of the model
// stored in the function (within the Column steps' columns), or Value's
// bound value for its column. A Where comparing anything but the model's
// primary key guards the write.
func gopgWrites(fn *ssa.Function, call *ssa.Call, site knowledge.Site) []*ops.ColumnWrite {
	s, ok := gopgUpdateChain(site)
	if !ok {
		return nil
	}
	t := ops.ModelType(s.model)
	table, columnOf := gopgModelColumns(t)
	if columnOf == nil {
		return nil
	}
	base := ops.ColumnWrite{Instr: call, Lib: "gopg", Table: table, Model: t, ModelAddr: s.model, Handle: s.handle,
		Desc: "the go-pg update of " + table}
	pks := gopgPKs(t)
	for _, w := range s.wheres {
		text, ok := ssaval.ConstString(w.RoleArg(knowledge.Cond))
		cond := sqltext.ParseCondition(text)
		if !ok || cond == nil || cond.Unknown {
			base.Guarded = true
			continue
		}
		for _, cmp := range cond.Comparisons {
			if !containsFold(pks, cmp.Column.Name) {
				base.Guarded = true
			}
		}
	}
	var out []*ops.ColumnWrite
	write := func(col string, v ssa.Value) {
		if v != nil {
			w := base
			w.Column, w.Value = col, v
			out = append(out, &w)
		}
	}
	if len(s.sets) > 0 {
		for _, set := range s.sets {
			text, ok1 := ssaval.ConstString(set.RoleArg(knowledge.SQL))
			binds, ok2 := set.Variadic(1)
			list := sqltext.ParseSetList(text)
			if !ok1 || !ok2 || list == nil || list.Unknown {
				continue
			}
			for _, a := range list.Assignments {
				p, ok := a.Value.Placeholder()
				if a.SelfReferential || !ok || p.Position < 1 || p.Position > len(binds) {
					continue
				}
				write(a.Column, binds[p.Position-1])
			}
		}
		return out
	}
	replaced := map[string]bool{}
	for _, v := range s.values {
		col, ok1 := ssaval.ConstString(v.Arg(0))
		text, ok2 := ssaval.ConstString(v.Arg(1))
		binds, ok3 := v.Variadic(2)
		if !ok1 || !ok2 || !ok3 {
			return nil
		}
		replaced[strings.ToLower(col)] = true
		if strings.TrimSpace(text) == "?" && len(binds) == 1 {
			write(col, binds[0])
		}
	}
	for _, st := range ops.FieldStores(fn, s.model) {
		f := ssaval.FieldOf(st.Addr.(*ssa.FieldAddr))
		if f == nil {
			continue
		}
		col, ok := columnOf(f.Name())
		if !ok || replaced[strings.ToLower(col)] || (len(s.columns) > 0 && !containsFold(s.columns, col)) {
			continue
		}
		w := base
		w.Field, w.Column, w.Value, w.Store = f.Name(), col, st.Val, st
		out = append(out, &w)
	}
	return out
}

// gopgWholeModel returns the model of an Update that writes it whole: no
// Set, Value or Column step.
func gopgWholeModel(site knowledge.Site) (ssa.Value, bool) {
	s, ok := gopgUpdateChain(site)
	if !ok || len(s.sets) > 0 || len(s.values) > 0 || len(s.columns) > 0 || len(s.wheres) > 0 {
		return nil, false
	}
	return ssaval.Unwrap(s.model), true
}

// gopgCount says how the caller uses the count of ExecOne (ExecOneContext),
// which returns pg.ErrNoRows when the statement affected no row (base.go
// execOne: internal.AssertOneRow): reading its error checks the count.
// The other statements' results carry it as database/sql's do.
func gopgCount(call ssa.CallInstruction, site knowledge.Site) (ops.CountUse, bool) {
	if site.Row.Func.Name != "ExecOne" && site.Row.Func.Name != "ExecOneContext" {
		return 0, false
	}
	if err := ops.ErrOf(call); err != nil && err.Referrers() != nil {
		for _, ref := range *err.Referrers() {
			if _, debug := ref.(*ssa.DebugRef); !debug {
				return ops.CountChecked, true
			}
		}
	}
	return ops.CountUseOf(call), true
}
