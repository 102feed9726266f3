package dialect

import (
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/knowledge"
	"github.com/idemlint/idemlint/analyzers/internal/ops"
	"github.com/idemlint/idemlint/analyzers/internal/ssaval"
)

// mongoRead makes the read of FindOne(ctx, filter).Decode(&doc): the
// document matching the filter's fields, its fields in doc's by their
// bson names.
func mongoRead(call *ssa.Call, site knowledge.Site) *ops.ColumnRead {
	if !isMongo(site.Row.Func.Pkg) || site.Row.Func.Name != "FindOne" {
		return nil
	}
	op := mongoRow(site)
	if op == nil || op.Kind != ops.Lookup || op.Narrowed {
		return nil
	}
	var dest ssa.Value
	for _, ref := range *call.Referrers() {
		dec, ok := ref.(*ssa.Call)
		if !ok {
			continue
		}
		s, ok := knowledge.Resolve(dec.Common())
		if !ok || s.Row == nil || s.Row.Kind != knowledge.Scan || s.Receiver() != ssa.Value(call) {
			continue
		}
		if d := s.RoleArg(knowledge.Dest); d != nil {
			if dest != nil {
				return nil
			}
			dest = ssaval.Unwrap(d)
		}
	}
	model := ops.ModelType(dest)
	if model == nil {
		return nil
	}
	st, _ := model.Underlying().(*types.Struct)
	rd := &ops.ColumnRead{Instr: call, Table: op.Table, Model: model, ModelAddr: dest, Keys: op.Keys, Handle: op.Handle,
		Lib: "mongo", Desc: op.Desc, ColumnOf: func(field string) (string, bool) { return bsonName(st, field) }}
	// Each field of the decoded document the function uses is a
	// destination of its column, as a Scan's are: an update of the
	// collection by the filter's fields ($set) is matched by them.
	if refs := dest.Referrers(); refs != nil {
		for _, ref := range *refs {
			if fa, ok := ref.(*ssa.FieldAddr); ok && fa.X == dest {
				if f := ssaval.FieldOf(fa); f != nil {
					if col, ok := bsonName(st, f.Name()); ok {
						rd.Cols = append(rd.Cols, ops.ReadCol{Column: col, Addr: fa})
					}
				}
			}
		}
	}
	return rd
}

// mongoWrites makes the writes of UpdateOne, UpdateMany and
// FindOneAndUpdate: each field the update document's $set gives a value
// (its other operators, $inc among them, compute in the database), by
// the filter's fields; and of ReplaceOne(ctx, filter, &doc): each field
// of doc the function stored, the document written whole. A filter with
// more than equalities, or pinning a field the update sets, is a
// compare-and-set (Guarded).
func mongoWrites(fn *ssa.Function, call *ssa.Call, site knowledge.Site) []*ops.ColumnWrite {
	if !isMongo(site.Row.Func.Pkg) || site.Row.Kind != knowledge.Update {
		return nil
	}
	recv := site.Receiver()
	coll := mongoCollection(recv)
	if coll == "" {
		return nil
	}
	filter, narrowed, ok := mongoDoc(site.RoleArg(knowledge.Cond))
	if !ok {
		return nil
	}
	base := ops.ColumnWrite{Instr: call, Table: coll, Handle: ops.Root(recv), Lib: "mongo", Keyed: true, Guarded: narrowed,
		Desc: "the " + site.Row.Func.Name + " of " + coll}
	pinned := map[string]bool{}
	for _, f := range filter {
		if f.value == nil {
			base.Guarded = true
			continue
		}
		pinned[f.name] = true
		base.Keys = append(base.Keys, ops.KeyValue{Column: f.name, Value: f.value})
	}
	var out []*ops.ColumnWrite
	if model := site.RoleArg(knowledge.Model); model != nil {
		addr := ssaval.Unwrap(model)
		t := ops.ModelType(addr)
		if t == nil {
			return nil
		}
		st, _ := t.Underlying().(*types.Struct)
		base.Model, base.ModelAddr, base.Keyed = t, addr, false
		for _, s := range ops.FieldStores(fn, addr) {
			f := ssaval.FieldOf(s.Addr.(*ssa.FieldAddr))
			if f == nil {
				continue
			}
			col, ok := bsonName(st, f.Name())
			if !ok {
				continue
			}
			w := base
			w.Field, w.Column, w.Value, w.Store = f.Name(), col, s.Val, s
			w.Guarded = w.Guarded || pinned[col]
			out = append(out, &w)
		}
		return out
	}
	for _, set := range setFields(site.RoleArg(knowledge.Values)) {
		w := base
		w.Column, w.Value = set.name, ssaval.Unwrap(set.value)
		w.Guarded = w.Guarded || pinned[set.name]
		out = append(out, &w)
	}
	return out
}
