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
	t, ok := readUpdateTarget(site)
	if !ok {
		return nil
	}
	recv, coll, filter, narrowed := t.recv, t.coll, t.filter, t.narrowed
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

// mongoUpdate summarises UpdateOne, UpdateMany, FindOneAndUpdate and
// ReplaceOne for noversion: the filter's field equalities are what the
// WHERE compares (any other operator leaves it not understood); $set
// assigns, $inc (and the other operators computing from the old value)
// bumps; a replacement document assigns every field. The count is
// UpdateResult's MatchedCount or ModifiedCount, or for FindOneAndUpdate
// whether its result's Err or Decode is tested (ErrNoDocuments when
// nothing matched).
func mongoUpdate(call ssa.CallInstruction, site knowledge.Site) *ops.Update {
	t, ok := readUpdateTarget(site)
	if !ok {
		return nil
	}
	recv, coll, filter, narrowed := t.recv, t.coll, t.filter, t.narrowed
	name := site.Row.Func.Name
	u := &ops.Update{Lib: "mongo", Table: coll, Method: name, Handle: ops.Root(recv), WhereUnknown: narrowed,
		Desc: "the " + name + " of " + coll, Count: mongoCount(call, name)}
	for _, f := range filter {
		if f.value == nil {
			u.WhereUnknown = true
			continue
		}
		u.Compares = append(u.Compares, f.name)
	}
	u.Keyed = len(u.Compares) > 0
	if site.RoleArg(knowledge.Model) != nil {
		u.Assigns = []string{"*"}
		return u
	}
	entries, ok := docEntries(site.RoleArg(knowledge.Values))
	if !ok {
		u.Assigns = []string{"*"}
		return u
	}
	for _, e := range entries {
		fields, _ := docEntries(e.value)
		for _, f := range fields {
			if !f.named {
				continue
			}
			switch e.name {
			case "$set":
				if stamp(f.value) {
					u.Constants = append(u.Constants, f.name)
				} else {
					u.Assigns = append(u.Assigns, f.name)
				}
			case "$inc", "$mul", "$max", "$min":
				u.Bumps = append(u.Bumps, f.name)
			}
		}
	}
	return u
}

// mongoCount says what the caller does with an update's count of
// matched documents.
func mongoCount(call ssa.CallInstruction, name string) ops.CountUse {
	v := call.Value()
	if v == nil {
		return ops.CountUnknown
	}
	if name == "FindOneAndUpdate" {
		// *SingleResult: its Decode or Err says ErrNoDocuments.
		use := ops.CountIgnored
		for _, ref := range *v.Referrers() {
			c, ok := ref.(*ssa.Call)
			if !ok {
				use = ops.CountUnknown
				continue
			}
			if s, ok := knowledge.Resolve(c.Common()); ok && s.Row != nil && s.Row.Kind == knowledge.Scan && s.Receiver() == ssa.Value(v) {
				if refs := c.Referrers(); refs != nil && len(*refs) > 0 {
					return ops.CountChecked
				}
			}
		}
		return use
	}
	use := ops.CountIgnored
	for _, ref := range *v.Referrers() {
		ex, ok := ref.(*ssa.Extract)
		if !ok || ex.Index != 0 {
			continue
		}
		for _, r := range *ex.Referrers() {
			switch x := r.(type) {
			case *ssa.DebugRef:
			case *ssa.FieldAddr:
				if f := ssaval.FieldOf(x); f != nil && (f.Name() == "MatchedCount" || f.Name() == "ModifiedCount") {
					return ops.CountChecked
				}
			default:
				use = ops.CountUnknown // returned, passed on
			}
		}
	}
	return use
}

// stamp reports whether a $set value is one no concurrent edit can be
// lost to: a constant, or a time (a time.Time or *time.Time: the update's
// own timestamp, which SQL writes as now() and noversion counts as a
// constant there too).
func stamp(v ssa.Value) bool {
	v = ssaval.Unwrap(v)
	if _, isConst := v.(*ssa.Const); isConst {
		return true
	}
	t := v.Type()
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	named, ok := types.Unalias(t).(*types.Named)
	return ok && named.Obj().Pkg() != nil && named.Obj().Pkg().Path() == "time" && named.Obj().Name() == "Time"
}

// An updateTarget is what an update of the collection is given: the
// collection (its receiver and name) and the filter's fields, narrowed
// when the filter has more than equalities of fields.
type updateTarget struct {
	recv     ssa.Value
	coll     string
	filter   []docField
	narrowed bool
}

// readUpdateTarget reads the collection and the filter of an update call;
// false when it is no MongoDB update, or either is not known.
func readUpdateTarget(site knowledge.Site) (updateTarget, bool) {
	if !isMongo(site.Row.Func.Pkg) || site.Row.Kind != knowledge.Update {
		return updateTarget{}, false
	}
	t := updateTarget{recv: site.Receiver()}
	if t.coll = mongoCollection(t.recv); t.coll == "" {
		return updateTarget{}, false
	}
	var ok bool
	if t.filter, t.narrowed, ok = mongoDoc(site.RoleArg(knowledge.Cond)); !ok {
		return updateTarget{}, false
	}
	return t, true
}
