package knowledge

import (
	"go/types"
	"strings"
)

// ent's edges: the setters of a create builder and the predicates of an
// entity package that name an edge rather than a field.
//
// ent declares an edge X (its Go name, "Group" for edge "group") in the
// entity package with the constants
//
//	EdgeGroup   = "group"
//	GroupTable  = "entity_types"  // the table holding the relation
//	GroupColumn = "group_entity_types"
//
// and, when the other end is another table, GroupInverseTable; an M2M
// edge has a join table and GroupPrimaryKey instead of GroupColumn. The
// foreign key is a column of this entity's row when the edge is unique
// (M2O or O2O) and GroupTable is the entity's own Table: what ent calls
// an edge that owns its foreign key. Seen from the other side (an O2M
// edge, user.PostsTable = "posts"), the column is in the other table.
//
// Uniqueness is read from what ent generates for a unique edge only: the
// order option By<X>Field in the entity package (ent v0.12 on), or the
// create builder's Set<X>ID. An edge to another table (one with
// <X>InverseTable, which ent declares only when the other entity's table
// is not this one's) whose relation table is this entity's own is unique
// too: its foreign key is a column of this row, pointing at one row of
// the other table (M2O, or the owning side of an O2O); that is what the
// entity package alone says of it before v0.12, where a predicate's
// entity has no create builder to ask. Two unique edges of one entity on
// the same table and column are the two names of a self-referential O2O
// edge (next and prev): the constants do not say which one's row holds
// the column, so neither is taken as a column of this row.

// hasEdge reports whether the entity package declares edge x: an untyped
// string constant Edge<x>.
func (e *EntEntity) hasEdge(x string) bool {
	if e == nil || e.Pkg == nil || x == "" {
		return false
	}
	c, ok := e.Pkg.Scope().Lookup("Edge" + x).(*types.Const)
	return ok && types.Identical(c.Type(), types.Typ[types.UntypedString])
}

// EdgeColumn returns the foreign-key column of edge x (its Go name) when
// it is a column of this entity's own table: the edge is unique, not M2M,
// and <x>Table is the entity's Table (see above).
func (e *EntEntity) EdgeColumn(x string) (string, bool) {
	col, ok := e.edgeTableColumn(x)
	if !ok || !e.edgeUnique(x) {
		return "", false
	}
	for _, name := range e.Pkg.Scope().Names() {
		o, ok := strings.CutPrefix(name, "Edge")
		if !ok || o == x || !e.hasEdge(o) {
			continue
		}
		if oc, ok := e.edgeTableColumn(o); ok && oc == col && e.edgeUnique(o) {
			return "", false // a self-referential O2O edge's two names
		}
	}
	return col, true
}

// edgeTableColumn returns <x>Column when edge x is not M2M and <x>Table
// is the entity's Table.
func (e *EntEntity) edgeTableColumn(x string) (string, bool) {
	if !e.hasEdge(x) || e.Table == "" || e.Pkg.Scope().Lookup(x+"PrimaryKey") != nil {
		return "", false
	}
	if table, ok := stringConst(e.Pkg, x+"Table"); !ok || table != e.Table {
		return "", false
	}
	return stringConst(e.Pkg, x+"Column")
}

// edgeUnique reports whether edge x, whose relation table is the
// entity's own (edgeTableColumn), is unique: the entity package orders by
// a field of it, the other end is another table, or the create builder
// sets it by one id.
func (e *EntEntity) edgeUnique(x string) bool {
	if by, ok := e.Pkg.Scope().Lookup("By" + x + "Field").(*types.Func); ok && by.Signature().Recv() == nil {
		return true
	}
	// Called after edgeTableColumn: <x>Table is the entity's own table.
	if _, ok := stringConst(e.Pkg, x+"InverseTable"); ok {
		return true
	}
	for tn, b := range e.builders {
		if b != EntCreate {
			continue
		}
		if m := methodNamed(tn, "Set"+x+"ID"); m != nil && m.Signature().Params().Len() == 1 && !m.Signature().Variadic() {
			return true
		}
	}
	return false
}

// edgeTarget returns the table of the entity at the other end of edge x:
// <x>InverseTable, which ent declares when it is not this entity's own.
func (e *EntEntity) edgeTarget(x string) string {
	if t, ok := stringConst(e.Pkg, x+"InverseTable"); ok {
		return t
	}
	return e.Table
}

// entEdgeSetter recognises the edge methods of a create builder (ent's
// builder/setter template), after entSetter found no field:
//
//   - Set<X>ID(id), SetNillable<X>ID(*id): a SetStep (Value=0) of the
//     foreign-key column when this row holds it (EdgeColumn);
//   - Set<X>(v *Other), which ent generates as Set<X>ID(v.ID): the same
//     SetStep, with ByModel (the column holds the value's ID field);
//   - Add<Y>IDs(ids...) and Add<Y>(vs...) of a non-unique edge, and the
//     setters of a unique edge whose column is in another table (the
//     other side of an O2O edge): a Chain step. ent writes those rows
//     after the insert (an UPDATE of the other table, or the join
//     table's rows); they give the insert of this table no column, and
//     must not end the chain, which would hide the columns the other
//     steps set.
//
// Add<Y> is singular (AddPostIDs for edge posts), so it is recognised by
// shape: a variadic method of the create builder returning it, which no
// field setter of a create builder is. The upsert builders set fields
// only: an edge with a field of its own (edge.Field("group_id")) is set
// by that field's setter, SetGroupID, which entSetter recognises on every
// builder.
func entEdgeSetter(e *EntEntity, info *EntInfo, fn *types.Func, row func(Kind, ...Param) *Call) (*Call, *EntInfo) {
	name, sig := fn.Name(), fn.Signature()
	if sig.Results().Len() != 1 || !types.Identical(sig.Results().At(0).Type(), sig.Recv().Type()) {
		return nil, nil
	}
	if strings.HasPrefix(name, "Add") && sig.Variadic() && sig.Params().Len() == 1 {
		return row(Chain), info
	}
	if sig.Params().Len() != 1 || sig.Variadic() {
		return nil, nil
	}
	x, byModel := "", false
	for _, prefix := range []string{"SetNillable", "Set"} {
		if rest, ok := strings.CutPrefix(name, prefix); ok {
			if id, ok := strings.CutSuffix(rest, "ID"); ok && e.hasEdge(id) {
				x = id
				break
			}
			if prefix == "Set" && e.hasEdge(rest) && isPtr(sig.Params().At(0).Type()) {
				x, byModel = rest, true
				break
			}
		}
	}
	if x == "" {
		return nil, nil
	}
	info.Edge, info.Target = x, e.edgeTarget(x)
	col, ok := e.EdgeColumn(x)
	if !ok {
		return row(Chain), info
	}
	info.Column, info.ByModel = col, byModel
	return row(SetStep, p(0, Value)), info
}

// entEdgePredicate recognises Has<X>() and Has<X>With(preds...) of an
// entity package: a Predicate with PredOp "HAS", Edge x, Target its other
// end's table and, when this row holds the foreign key, Column; With's
// predicates (on the other entity) are Cond=0. Has<X>With(other.ID(v)) is
// then the equality Column = v (the dialect reads the inner predicate).
func entEdgePredicate(e *EntEntity, info *EntInfo, call *Call, name string, sig *types.Signature) (*Call, *EntInfo) {
	rest, ok := strings.CutPrefix(name, "Has")
	if !ok {
		return nil, nil
	}
	x, with := rest, false
	if y, ok := strings.CutSuffix(rest, "With"); ok && e.hasEdge(y) && sig.Variadic() && sig.Params().Len() == 1 {
		x, with = y, true
	}
	if !e.hasEdge(x) || (!with && sig.Params().Len() != 0) {
		return nil, nil
	}
	info.Edge, info.Target, info.PredOp = x, e.edgeTarget(x), "HAS"
	info.Column, _ = e.EdgeColumn(x)
	if with {
		call.Params = []Param{p(0, Cond)}
	}
	return call, info
}

// entEagerLoad reports whether fn is a query's With<X>(opts...), which
// loads edge X's rows with a query of their own after this one: it
// filters nothing of this query.
func entEagerLoad(e *EntEntity, fn *types.Func) bool {
	x, ok := strings.CutPrefix(fn.Name(), "With")
	sig := fn.Signature()
	return ok && e.hasEdge(x) && sig.Variadic() && sig.Params().Len() == 1 && sig.Results().Len() == 1 &&
		types.Identical(sig.Results().At(0).Type(), sig.Recv().Type())
}
