package ops

import (
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/knowledge"
)

// This file gives lostupdate ent's reads and writes of columns: an
// entity read by the client's Get or a query's Only or First, and the
// SetX steps of an update of one row (UpdateOneID(id), UpdateOne(e),
// e.Update()) that its Save or Exec runs.

// entRead makes a read of the entity the ent call returns: Get(ctx, id)
// (the row with that id), or Only/First of a query whose Where steps
// pin it. Its fields hold the columns; ent names them (Field<F>).
func entRead(call *ssa.Call, obj *types.Func, row *knowledge.Call, info *knowledge.EntInfo) *ColumnRead {
	if info == nil || info.Entity == nil || info.Entity.Table == "" || info.Entity.Model == nil {
		return nil
	}
	name := strings.TrimSuffix(row.Func.Name, "X")
	var keys []KeyValue
	var handle ssa.Value
	args := call.Common().Args
	switch {
	case info.Builder == knowledge.EntEntityClient && name == "Get" && len(args) == 3:
		keys = []KeyValue{{Column: "id", Value: args[2]}}
		handle = Root(args[0])
	case info.Builder == knowledge.EntQuery && (name == "Only" || name == "First"):
		op := entRow(call, row, info)
		if op == nil {
			return nil
		}
		keys, handle = op.Keys, op.Handle
	default:
		return nil
	}
	entity := EntityResult(call)
	if entity == nil {
		return nil
	}
	e := info.Entity
	rd := &ColumnRead{Instr: call, Table: e.Table, ModelAddr: entity, Keys: keys, Handle: handle, Lib: "ent",
		Desc:     "the ent " + row.Func.Name + " of " + e.Table,
		ColumnOf: e.Column}
	if st, ok := e.Model.Type().Underlying().(*types.Struct); ok {
		for i := 0; i < st.NumFields(); i++ {
			f := st.Field(i)
			if col, ok := e.Column(f.Name()); ok && f.Exported() {
				rd.Cols = append(rd.Cols, ReadCol{Column: col, Addr: &ssa.FieldAddr{X: entity, Field: i}})
			}
		}
	}
	return rd
}

// entityResult returns the *Entity a Get, Only or First call returns
// (result 0 of the tuple, or the value of an X variant).
func EntityResult(call *ssa.Call) ssa.Value {
	if _, ok := call.Type().(*types.Tuple); !ok {
		return call
	}
	for _, ref := range *call.Referrers() {
		if ex, ok := ref.(*ssa.Extract); ok && ex.Index == 0 {
			return ex
		}
	}
	return nil
}

// entWrites makes the writes of an ent update of one row: one per SetX
// step, keyed by the id UpdateOneID was given, or on the entity
// UpdateOne (or the entity's Update) was given. Where steps guard it.
func entWrites(call ssa.CallInstruction, row *knowledge.Call, info *knowledge.EntInfo) []*ColumnWrite {
	if info == nil || info.Entity == nil || info.Entity.Table == "" || info.Builder != knowledge.EntUpdateOne || info.Op != knowledge.Update {
		return nil
	}
	switch row.Func.Name {
	case "Save", "SaveX", "Exec", "ExecX":
	default:
		return nil
	}
	args := call.Common().Args
	if len(args) == 0 {
		return nil
	}
	type set struct {
		column, field string
		value         ssa.Value
	}
	var sets []set
	var keys []KeyValue
	var entity, handle ssa.Value
	guarded := false
	steps, ok := entChain(args[0])
	if !ok || len(steps) == 0 || !steps[len(steps)-1].starts() {
		return nil
	}
	for _, st := range steps {
		if st.starts() {
			switch {
			case st.name == "UpdateOneID" && len(st.args) == 2:
				keys = []KeyValue{{Column: "id", Value: st.args[1]}}
				handle = Root(st.args[0])
			case st.name == "UpdateOne" && len(st.args) == 2:
				entity = knowledge.Unwrap(st.args[1])
			case st.name == "Update" && st.info.Builder == knowledge.EntModel:
				entity = knowledge.Unwrap(st.args[0]) // (*Account).Update()
			default:
				return nil
			}
			break
		}
		switch st.row.Kind {
		case knowledge.Chain:
			if st.row.Func.Name != "Where" {
				return nil
			}
			guarded = true
		case knowledge.SetStep:
			if st.info.Column == "" || st.info.Clear || len(st.args) < 2 {
				return nil
			}
			sets = append(sets, set{st.info.Column, st.info.Field, st.args[1]})
		case knowledge.AddStep:
			// AddX is atomic; it writes no value computed in Go.
		default:
			return nil
		}
	}
	if keys == nil && entity == nil {
		return nil
	}
	var out []*ColumnWrite
	for _, s := range sets {
		w := &ColumnWrite{Instr: call, Table: info.Entity.Table, Column: s.column, Value: s.value, Keys: keys, Handle: handle,
			Lib: "ent", Guarded: guarded, Desc: "the ent update of " + info.Entity.Table}
		if entity != nil {
			w.ModelAddr = entity
		}
		out = append(out, w)
	}
	return out
}
