package dialect

import (
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/knowledge"
	"github.com/idemlint/idemlint/analyzers/internal/ops"
	"github.com/idemlint/idemlint/analyzers/internal/ssaval"
)

// ent's reads and writes of columns, for lostupdate and noversion: an
// entity read by the client's Get or a query's Only or First, and the SetX
// steps of an update of one row (UpdateOneID(id), UpdateOne(e),
// e.Update()) that its Save or Exec runs.

// entRead makes a read of the entity the ent call returns: Get(ctx, id)
// (the row with that id), or Only/First of a query whose Where steps
// pin it. Its fields hold the columns; ent names them (Field<F>).
func entRead(call *ssa.Call, obj *types.Func, row *knowledge.Call, info *knowledge.EntInfo) *ops.ColumnRead {
	if info == nil || info.Entity == nil || info.Entity.Table == "" || info.Entity.Model == nil {
		return nil
	}
	name := strings.TrimSuffix(row.Func.Name, "X")
	var keys []ops.KeyValue
	var handle ssa.Value
	args := call.Common().Args
	switch {
	case info.Builder == knowledge.EntEntityClient && name == "Get" && len(args) == 3:
		keys = []ops.KeyValue{{Column: "id", Value: args[2]}}
		handle = ops.Root(args[0])
	case info.Builder == knowledge.EntQuery && (name == "Only" || name == "First"):
		op := entRow(call, row, info)
		if op == nil {
			return nil
		}
		keys, handle = op.Keys, op.Handle
	default:
		return nil
	}
	entity := ops.EntityResult(call)
	if entity == nil {
		return nil
	}
	e := info.Entity
	rd := &ops.ColumnRead{Instr: call, Table: e.Table, ModelAddr: entity, Keys: keys, Handle: handle, Lib: "ent",
		Desc:     "the ent " + row.Func.Name + " of " + e.Table,
		ColumnOf: e.Column}
	if st, ok := e.Model.Type().Underlying().(*types.Struct); ok {
		for i := 0; i < st.NumFields(); i++ {
			f := st.Field(i)
			if col, ok := e.Column(f.Name()); ok && f.Exported() {
				rd.Cols = append(rd.Cols, ops.ReadCol{Column: col, Addr: &ssa.FieldAddr{X: entity, Field: i}})
			}
		}
	}
	return rd
}

// entWrites makes the writes of an ent update of one row: one per SetX
// step, keyed by the id UpdateOneID was given, or on the entity
// UpdateOne (or the entity's Update) was given. Where steps guard it.
func entWrites(call ssa.CallInstruction, row *knowledge.Call, info *knowledge.EntInfo) []*ops.ColumnWrite {
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
	var keys []ops.KeyValue
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
				keys = []ops.KeyValue{{Column: "id", Value: st.args[1]}}
				handle = ops.Root(st.args[0])
			case st.name == "UpdateOne" && len(st.args) == 2:
				entity = ssaval.Unwrap(st.args[1])
			case st.name == "Update" && st.info.Builder == knowledge.EntModel:
				entity = ssaval.Unwrap(st.args[0]) // (*Account).Update()
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
	var out []*ops.ColumnWrite
	for _, s := range sets {
		w := &ops.ColumnWrite{Instr: call, Table: info.Entity.Table, Column: s.column, Value: s.value, Keys: keys, Handle: handle,
			Lib: "ent", Guarded: guarded, Desc: "the ent update of " + info.Entity.Table}
		if entity != nil {
			w.ModelAddr = entity
		}
		out = append(out, w)
	}
	return out
}

// entUpdate summarises the finisher of an ent update builder: Save or
// Exec of UpdateOneID(id), UpdateOne(m) or Update() with its Where, SetX,
// ClearX and AddX steps. A miss of UpdateOne(ID) is a NotFoundError,
// which callers see as an error: its count is not followed.
func entUpdate(call ssa.CallInstruction, row *knowledge.Call, info *knowledge.EntInfo) *ops.Update {
	if info == nil || info.Entity == nil || info.Entity.Table == "" || info.Op != knowledge.Update {
		return nil
	}
	switch row.Func.Name {
	case "Save", "SaveX", "Exec", "ExecX":
	default:
		return nil
	}
	if info.Builder != knowledge.EntUpdate && info.Builder != knowledge.EntUpdateOne {
		return nil
	}
	u := &ops.Update{Lib: "ent", Table: info.Entity.Table, Method: row.Func.Name, Count: ops.CountUnknown}
	if info.Entity.Pkg != nil {
		u.EntPkg = info.Entity.Pkg.Name()
	}
	u.Desc = "the ent update of " + u.Table
	args := call.Common().Args
	if len(args) == 0 {
		return nil
	}
	steps, ok := entChain(args[0])
	if !ok || len(steps) == 0 || steps[len(steps)-1].info.Builder != knowledge.EntEntityClient {
		return nil
	}
	for _, st := range steps {
		if st.info.Builder == knowledge.EntEntityClient {
			switch st.name {
			case "UpdateOneID", "UpdateOne":
				u.Keyed = true
			}
			break
		}
		switch st.row.Kind {
		case knowledge.Chain:
			if st.row.Func.Name != "Where" {
				return nil
			}
			for _, pred := range entPredicates(st.call) {
				u.Compares = append(u.Compares, pred.Column)
				u.Keyed = true
			}
		case knowledge.SetStep:
			switch {
			case st.info.Column == "":
				return nil
			case st.info.Clear:
				u.Constants = append(u.Constants, st.info.Column)
			default:
				u.Assigns = append(u.Assigns, st.info.Column)
			}
		case knowledge.AddStep:
			if st.info.Column == "" {
				return nil
			}
			u.Bumps = append(u.Bumps, st.info.Column)
		default:
			return nil
		}
	}
	if info.Builder == knowledge.EntUpdate && info.Affected {
		u.Count = ops.CountUseOf(call)
	}
	return u
}
