package dialect

import (
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/knowledge"
	"github.com/idemlint/idemlint/analyzers/internal/ops"
	"github.com/idemlint/idemlint/analyzers/internal/sqltext"
	"github.com/idemlint/idemlint/analyzers/internal/ssaval"
)

// gopgRow classifies a go-pg finisher: Select, First or Last of a single
// struct model (which return pg.ErrNoRows when nothing matched), Exists
// or Count, with Where fragments or WherePK pinning columns, is a lookup;
// Insert of a model built in the function (or given to it) an insert,
// made idempotent by OnConflict. SelectOrInsert is neither: it catches
// the integrity violation of its insert and selects again (orm/query.go),
// the fix checkinsert would give.
func gopgRow(site knowledge.Site) *ops.RowOp {
	row := site.Row
	if row.Func.Recv != "Query" {
		return nil
	}
	op := &ops.RowOp{Lib: "gopg", FromLibrary: true, NilResult: -1}
	switch row.Func.Name {
	case "Select", "First", "Last":
		if vals, ok := site.Variadic(0); !ok || len(vals) > 0 {
			return nil // scanning into other destinations
		}
		op.Kind = ops.Lookup
	case "Exists", "Count":
		op.Kind, op.CountsFound = ops.Lookup, true
	case "Insert":
		if vals, ok := site.Variadic(0); !ok || len(vals) > 0 {
			return nil
		}
		op.Kind = ops.Insert
	default:
		return nil
	}
	wherePK := false
	model, handle, ok := gopgChain(site, func(name string, step knowledge.Site) bool {
		switch name {
		case "Where":
			text, ok := ssaval.ConstString(step.RoleArg(knowledge.Cond))
			if !ok {
				return false
			}
			binds, ok := step.Variadic(1)
			return ok && ops.FragmentKeys(op, text, binds)
		case "WherePK":
			wherePK = true
		case "OnConflict":
			text, ok := ssaval.ConstString(step.RoleArg(knowledge.SQL))
			c := sqltext.ParseConflict("CONFLICT " + text)
			if !ok || c.Unknown {
				op.Conflict = &ops.RowConflict{Unknown: true}
			} else {
				op.Conflict = &ops.RowConflict{Columns: c.TargetColumns}
			}
		case "Context", "Column", "ExcludeColumn", "Limit", "Order", "For", "Returning", "Relation":
		default:
			return false
		}
		return true
	})
	if !ok {
		return nil
	}
	op.Handle = handle
	t := ops.ModelType(model)
	if op.Kind == ops.Lookup && !op.CountsFound && !gopgSingle(model) {
		return nil // a slice model's Select finds nothing without an error
	}
	// A single model's Select, First or Last returns pg.ErrNoRows.
	op.ErrWhenNotFound = op.Kind == ops.Lookup && !op.CountsFound
	table, columnOf := gopgModelColumns(t)
	if columnOf == nil {
		return nil
	}
	op.Table = table
	if op.Kind == ops.Insert || wherePK {
		pks := gopgPKs(t)
		for _, k := range ops.ModelKeys(model) {
			col, ok := columnOf(k.Field)
			if ok && (op.Kind == ops.Insert || containsFold(pks, col)) {
				op.Keys = append(op.Keys, ops.KeyValue{Column: col, Value: k.Value})
			}
		}
	}
	if op.Keyless() {
		return nil
	}
	if op.Kind == ops.Lookup {
		op.Desc = "the go-pg " + row.Func.Name + " of " + table
	} else {
		op.Desc = "the go-pg insert into " + table
	}
	return op
}

// gopgSingle reports whether a model is a pointer to one struct (not to a
// slice), whose Select runs QueryOne.
func gopgSingle(model ssa.Value) bool {
	if model == nil {
		return false
	}
	p, ok := model.Type().Underlying().(*types.Pointer)
	if !ok {
		return false
	}
	_, ok = p.Elem().Underlying().(*types.Struct)
	return ok
}

// gopgRead makes the read of a Select (First, Last) into the query's
// single struct model.
func gopgRead(call *ssa.Call, site knowledge.Site) *ops.ColumnRead {
	switch name := site.Row.Func.Name; {
	case site.Row.Func.Recv != "Query", name != "Select" && name != "First" && name != "Last":
		return nil
	}
	if vals, ok := site.Variadic(0); !ok || len(vals) > 0 {
		return nil // scanning into other destinations
	}
	model, handle, ok := gopgChain(site, func(string, knowledge.Site) bool { return true })
	if !ok || !gopgSingle(model) {
		return nil
	}
	rd := &ops.ColumnRead{Instr: call, Lib: "gopg", ModelAddr: model, Handle: handle, Model: ops.ModelType(model)}
	rd.Table, rd.ColumnOf = gopgModelColumns(rd.Model)
	if rd.ColumnOf == nil {
		return nil
	}
	rd.Desc = "the go-pg " + site.Row.Func.Name + " of " + rd.Table
	return rd
}

// gopgChain walks an *orm.Query chain back from the finisher's receiver
// to the handle's Model (or ModelContext) call that made the query,
// calling visit with each step of the query in between (its method's name
// and site). It returns the model (the last Model argument given: a query
// step Model(m) replaces the handle's) and the handle: the receiver of the
// handle's Model, or the argument of a DB(db) step, which the query then
// runs on. ok is false when a receiver is not a go-pg call, the chain
// does not start at a handle within ops.MaxTrace steps, visit returns
// false, or a query of the chain is used elsewhere too: go-pg's steps
// change the query they return (orm/query.go), so q.Where(...) with its
// result dropped, or q handed to a function, adds to the statement steps
// this walk does not see.
func gopgChain(site knowledge.Site, visit func(name string, step knowledge.Site) bool) (model, handle ssa.Value, ok bool) {
	v, user := site.Receiver(), site.Call
	for i := 0; i < ops.MaxTrace && v != nil; i++ {
		call, isCall := v.(*ssa.Call)
		if !isCall || !gopgOnlyUse(call, user) {
			return nil, nil, false
		}
		step, resolved := knowledge.Resolve(call.Common())
		if !resolved || step.Row == nil || !strings.HasPrefix(step.Row.Func.Pkg, gopgPkg) {
			return nil, nil, false
		}
		name := step.Row.Func.Name
		if model == nil && (name == "Model" || name == "ModelContext") {
			i, _ := step.Row.Param(knowledge.Model)
			if vals, ok := step.Variadic(i); ok && len(vals) == 1 {
				model = vals[0]
			}
		}
		if step.Row.Func.Recv != "Query" {
			if name != "Model" && name != "ModelContext" {
				return nil, nil, false
			}
			if handle == nil {
				handle = ops.Root(step.Receiver())
			}
			return model, handle, model != nil
		}
		switch name {
		case "DB":
			if handle == nil {
				handle = ops.Root(step.RoleArg(knowledge.Handle))
			}
		case "Model":
		default:
			if !visit(name, step) {
				return nil, nil, false
			}
		}
		v, user = step.Receiver(), step.Call
	}
	return nil, nil, false
}

// gopgOnlyUse reports whether the query a step returned is used by the
// call user alone (debug references aside).
func gopgOnlyUse(query *ssa.Call, user *ssa.CallCommon) bool {
	for _, ref := range *query.Referrers() {
		switch r := ref.(type) {
		case *ssa.DebugRef:
		case ssa.CallInstruction:
			if r.Common() != user {
				return false
			}
		default:
			return false
		}
	}
	return true
}
