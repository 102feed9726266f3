package ops

import (
	"maps"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/knowledge"
	"github.com/idemlint/idemlint/analyzers/internal/ssaval"
)

// Inserts made by a callback that a call runs: db.Transaction(func(tx
// *gorm.DB) error { return tx.Create(u).Error }), a service's own
// transaction helper given a closure. For the function making the call,
// the closure's insert happens at the call, after whatever it looked up
// before; its keys are the closure's free variables, which are the
// caller's values (keyOf follows them).

// callbackInserts returns the inserts of the callbacks call runs inside a
// transaction, as made by call (RowOp.At is the insert in the callback).
// A unique violation the callback catches handles the race as it would
// at the insert (HandlesUnique).
func (e *extractor) callbackInserts(call ssa.CallInstruction) []*RowOp {
	var out []*RowOp
	for _, cb := range e.txCallbacks(call) {
		for _, op := range e.Rows(cb) {
			if op.Kind != Insert {
				continue
			}
			lifted := *op
			lifted.Instr = call
			if op.At != nil {
				lifted.At = op.At
			} else {
				lifted.At = op.Instr
			}
			lifted.HandlesUnique = op.HandlesUnique || e.ChecksUnique(cb, errOf(op.Instr))
			// A model the closure captured and inserts whole is keyed by
			// its fields, as the caller holds them (u.Username in its
			// lookup).
			lifted.Keys = append(slices.Clone(op.Keys), capturedKeys(op.Inserted, op.Keys)...)
			out = append(out, &lifted)
		}
	}
	return out
}

// txCallbacks returns the functions call runs as a transaction's
// callback: a library's (GORM Transaction, pgx.BeginFunc) or a helper's
// whose summary says it runs its func parameter in one (Summary.TxRuns).
func (e *extractor) txCallbacks(call ssa.CallInstruction) []*ssa.Function {
	common := call.Common()
	if site, ok := knowledge.Resolve(common); ok && site.Row != nil {
		if site.Row.Kind != knowledge.TxFunc {
			return nil
		}
		if cb, ok := callbackFunc(site.RoleArg(knowledge.Callback)); ok {
			return []*ssa.Function{cb}
		}
		return nil
	}
	cs := e.callSummary(call)
	if cs == nil {
		return nil
	}
	var out []*ssa.Function
	for _, r := range cs.s.TxRuns {
		if r.Callback < 0 || r.Callback >= len(cs.args) {
			continue
		}
		if cb, ok := callbackFunc(cs.args[r.Callback]); ok {
			out = append(out, cb)
		}
	}
	return out
}

// capturedKeys returns, for a model a closure inserts whole that it
// captured from the function making it, a key for each of the model's
// fields that neither function stores and have does not hold: the field
// as the maker holds it (keyOf follows the free variable back). Nil for a
// model the closure made itself.
func capturedKeys(inserted ssa.Value, have []KeyValue) []KeyValue {
	if inserted == nil {
		return nil
	}
	v := ssaval.Unwrap(inserted)
	root := keyOf(v)
	if root.base == nil || len(root.path) != 0 || root.base.Parent() == nil || root.base.Parent() == v.Parent() {
		return nil
	}
	st, ok := structOf(v.Type())
	if !ok {
		return nil
	}
	var out []KeyValue
	if alloc, ok := root.base.(*ssa.Alloc); ok {
		// Fields a helper copies into the model (form.FillTo(user)).
		out = copiedKeysIn(root.base.Parent(), alloc, have)
		have = append(slices.Clone(have), out...)
	}
	stored := fieldsStoredIn(root.base.Parent(), root.base)
	maps.Copy(stored, fieldsStoredIn(v.Parent(), root.base))
	for i := 0; i < st.NumFields(); i++ {
		f := st.Field(i)
		if !f.Exported() || f.Embedded() || stored[f.Name()] || slices.ContainsFunc(have, func(k KeyValue) bool { return k.Field == f.Name() }) {
			continue
		}
		out = append(out, KeyValue{Field: f.Name(), Value: &boundField{Base: v, Field: f.Name(), typ: f.Type(), index: i}})
	}
	return out
}

// fieldsStoredIn returns the names of the fields of base that fn stores
// (u.Username = ..., through any variable holding base).
func fieldsStoredIn(fn *ssa.Function, base ssa.Value) map[string]bool {
	out := map[string]bool{}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			st, ok := instr.(*ssa.Store)
			if !ok {
				continue
			}
			fa, ok := st.Addr.(*ssa.FieldAddr)
			if !ok {
				continue
			}
			if k := keyOf(fa.X); k.base == base && len(k.path) == 0 {
				if f := ssaval.FieldOf(fa); f != nil {
					out[f.Name()] = true
				}
			}
		}
	}
	return out
}
