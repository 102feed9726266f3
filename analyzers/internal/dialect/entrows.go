package dialect

import (
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/knowledge"
	"github.com/idemlint/idemlint/analyzers/internal/ops"
	"github.com/idemlint/idemlint/analyzers/internal/ssaval"
)

type entStep struct {
	call *ssa.Call
	name string
	row  *knowledge.Call
	info *knowledge.EntInfo
	args []ssa.Value // the receiver first
}

// entRow classifies a finisher of an ent-generated builder: Only, First,
// Exist or Count of a query whose Where steps pin fields with equality
// predicates is a lookup; Save or Exec of a create (or of its upsert) an
// insert of the fields its Set steps give. An OnConflict step makes the
// insert idempotent. Nil when a step is not understood or the table is not
// known.
func entRow(call ssa.CallInstruction, row *knowledge.Call, info *knowledge.EntInfo) *ops.RowOp {
	if info == nil || info.Entity == nil || info.Entity.Table == "" {
		return nil
	}
	name := row.Func.Name
	op := &ops.RowOp{Table: info.Entity.Table, Lib: "ent", FromLibrary: true, NilResult: -1}
	switch {
	case row.Kind == knowledge.Find && info.Builder == knowledge.EntQuery:
		switch name {
		case "Only", "First", "OnlyID", "FirstID":
			op.ErrWhenNotFound = row.ErrNoRow // a *NotFoundError
		case "Exist", "Count":
			op.CountsFound = true
		default:
			return nil
		}
		op.Kind = ops.Lookup
	case row.Kind == knowledge.Insert && (info.Builder == knowledge.EntCreate || info.Builder == knowledge.EntUpsertOne):
		switch name {
		case "Save", "Exec", "ID":
		default:
			return nil
		}
		op.Kind = ops.Insert
	default:
		return nil
	}
	args := call.Common().Args
	if len(args) == 0 {
		return nil
	}
	steps, ok := entChain(args[0])
	if !ok {
		return nil
	}
	for _, st := range steps {
		if st.info.Builder == knowledge.EntEntityClient {
			op.Handle = ops.Root(st.args[0])
			break
		}
		switch st.row.Kind {
		case knowledge.Chain:
			if st.row.Func.Name == "Where" {
				op.Keys = append(op.Keys, entPredicates(st.call)...)
			}
		case knowledge.SetStep:
			if st.info.Column != "" && len(st.args) > 1 && !st.info.Clear && !st.info.Excluded {
				op.Keys = append(op.Keys, ops.KeyValue{Column: st.info.Column, Value: st.args[1]})
			}
		case knowledge.ConflictStep:
			op.Conflict = &ops.RowConflict{Unknown: true}
		case knowledge.LockStep:
		default:
			return nil
		}
	}
	if len(op.Keys) == 0 {
		return nil
	}
	if op.Kind == ops.Lookup {
		op.Desc = "the ent " + name + " of " + op.Table
	} else {
		op.Desc = "the ent create of " + op.Table
	}
	return op
}

// entPredicates returns the equality predicates on fields a Where step is
// given (account.EmailEQ(email), account.Email(email)).
func entPredicates(where *ssa.Call) []ops.KeyValue {
	args := where.Common().Args
	if len(args) < 2 {
		return nil
	}
	site, ok := knowledge.Resolve(where.Common())
	var preds []ssa.Value
	if ok {
		preds, ok = site.Variadic(0)
	}
	if !ok {
		// Not resolved as a row: the variadic slice is the last argument.
		preds = ops.SliceValues(args[len(args)-1])
	}
	var keys []ops.KeyValue
	for _, p := range preds {
		pc, ok := ssaval.Unwrap(p).(*ssa.Call)
		if !ok {
			continue
		}
		callee := pc.Common().StaticCallee()
		if callee == nil {
			continue
		}
		obj, _ := callee.Object().(*types.Func)
		_, info := knowledge.EntCall(obj)
		if info == nil || info.PredOp != "=" || info.Column == "" || len(pc.Common().Args) != 1 {
			continue
		}
		keys = append(keys, ops.KeyValue{Column: info.Column, Value: pc.Common().Args[0]})
	}
	return keys
}

// starts reports whether the step starts a chain: a method of the entity
// client (Query, UpdateOneID, Create...) or of an entity ((*Account).Update).
func (s entStep) starts() bool {
	return s.info.Builder == knowledge.EntEntityClient || s.info.Builder == knowledge.EntModel
}

// entChain returns the steps of the ent builder chain whose last step is
// v, from v back to the step that starts it (see starts), which is then
// the last of steps. ok is false when a call on the way is not an ent
// builder method; a chain that begins with something else (a builder
// kept in a variable) ends with a step that does not start it.
func entChain(v ssa.Value) (steps []entStep, ok bool) {
	for i := 0; i < ops.MaxTrace; i++ {
		c, isCall := ssaval.Unwrap(v).(*ssa.Call)
		if !isCall {
			return steps, true
		}
		callee := c.Common().StaticCallee()
		if callee == nil {
			return steps, false
		}
		obj, _ := callee.Object().(*types.Func)
		row, info := knowledge.EntCall(obj)
		args := c.Common().Args
		if row == nil || info == nil || len(args) == 0 {
			return steps, false
		}
		step := entStep{call: c, name: callee.Name(), row: row, info: info, args: args}
		steps = append(steps, step)
		if step.starts() {
			return steps, true
		}
		v = args[0]
	}
	return steps, false
}
