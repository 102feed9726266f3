package dialect

import (
	"go/token"
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

// entRow classifies a finisher of an ent-generated builder: the entity
// client's Get(ctx, id) is a lookup by id; Only, First, Exist or Count of
// a query whose Where steps pin fields with equality
// predicates (or an edge's foreign key, HasGroupWith(group.ID(v))) is a
// lookup, Narrowed when a predicate pins no key (entWhere); Save or Exec
// of a create (or of its upsert) an insert of the fields its Set steps
// give, and of the foreign keys its edge setters give (SetGroupID(v),
// SetGroup(g)). An OnConflict step makes the insert idempotent. Nil when a
// step is not understood or the table is not known.
func entRow(call ssa.CallInstruction, row *knowledge.Call, info *knowledge.EntInfo) *ops.RowOp {
	if info == nil || info.Entity == nil || info.Entity.Table == "" {
		return nil
	}
	name := row.Func.Name
	op := &ops.RowOp{Table: info.Entity.Table, Lib: "ent", FromLibrary: true, NilResult: -1}
	switch {
	case row.Kind == knowledge.Find && info.Builder == knowledge.EntEntityClient && name == "Get":
		// Get(ctx, id): the row with that id; a miss is a *NotFoundError.
		args := call.Common().Args
		if len(args) != 3 {
			return nil
		}
		op.Kind, op.ErrWhenNotFound = ops.Lookup, row.ErrNoRow
		op.Handle = ops.Root(args[0])
		col, ok := info.Entity.Column("ID")
		if !ok {
			col = "id"
		}
		op.Keys = []ops.KeyValue{{Column: col, Value: args[2]}}
		op.Desc = "the ent Get of " + op.Table
		return op
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
	steps, optional, ok := entRowChain(args[0])
	if !ok {
		return nil
	}
	for _, st := range optional {
		switch st.row.Kind {
		case knowledge.SetStep:
			// A column set on one path only: not a key of every insert.
		default:
			return nil
		}
	}
	for _, st := range steps {
		if st.info.Builder == knowledge.EntEntityClient {
			op.Handle = ops.Root(st.args[0])
			break
		}
		switch st.row.Kind {
		case knowledge.Chain:
			// A create's edge steps of other tables (AddTagIDs) are Chain
			// steps too: they give this table no column.
			if st.row.Func.Name == "Where" {
				keys, narrowed := entWhere(st.call)
				op.Keys = append(op.Keys, keys...)
				op.Narrowed = op.Narrowed || (narrowed && op.Kind == ops.Lookup)
			}
		case knowledge.SetStep:
			if st.info.Column != "" && len(st.args) > 1 && !st.info.Clear && !st.info.Excluded {
				v := st.args[1]
				if st.info.ByModel {
					if v = entModelID(v); v == nil {
						continue
					}
				}
				op.Keys = append(op.Keys, ops.KeyValue{Column: st.info.Column, Value: v})
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
// given (account.EmailEQ(email), account.Email(email)): the columns an
// update compares (entUpdate), which follows no edge and no And.
func entPredicates(where *ssa.Call) []ops.KeyValue {
	var keys []ops.KeyValue
	for _, p := range entWhereArgs(where) {
		pc, info := entPredicateCall(p)
		if info == nil || info.PredOp != "=" || info.Column == "" || len(pc.Common().Args) != 1 {
			continue
		}
		keys = append(keys, ops.KeyValue{Column: info.Column, Value: pc.Common().Args[0]})
	}
	return keys
}

// entWhere returns the keys the predicates of a lookup's Where step pin:
// the field equalities, the foreign key an edge predicate pins to the
// other entity's id (entPredicateKeys), those inside an And. narrowed is
// set when a predicate pins no key or more than its keys (a comparison
// other than =, Or, Not, Has<X>() alone, a predicate on another field of
// the other entity, a predicate written by hand, a slice not built in
// place): the lookup then filters by more than its keys (RowOp.Narrowed).
func entWhere(where *ssa.Call) (keys []ops.KeyValue, narrowed bool) {
	preds := entWhereArgs(where)
	if len(preds) == 0 {
		args := where.Common().Args
		if c, ok := args[len(args)-1].(*ssa.Const); ok && c.IsNil() {
			return nil, false // Where(): no predicate
		}
		return nil, true // a slice not built in place
	}
	for _, p := range preds {
		k, ok := entPredicateKeys(p, 0)
		keys = append(keys, k...)
		narrowed = narrowed || !ok
	}
	return keys, narrowed
}

// entWhereArgs returns the predicates a Where step is given.
func entWhereArgs(where *ssa.Call) []ssa.Value {
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
	return preds
}

// entPredicateCall returns the call that makes predicate p and what
// knowledge says of its callee; nil, nil when p is not a call of a
// recognised predicate.
func entPredicateCall(p ssa.Value) (*ssa.Call, *knowledge.EntInfo) {
	pc, ok := ssaval.Unwrap(p).(*ssa.Call)
	if !ok {
		return nil, nil
	}
	callee := pc.Common().StaticCallee()
	if callee == nil {
		return nil, nil
	}
	obj, _ := callee.Object().(*types.Func)
	row, info := knowledge.EntCall(obj)
	if row == nil || info == nil || row.Kind != knowledge.Predicate {
		return nil, nil
	}
	return pc, info
}

// entPredicateKeys returns the keys predicate p pins, and whether they
// are all it says:
//
//   - account.Email(v), account.EmailEQ(v), account.EmailEqualFold(v):
//     Column = v;
//   - membership.HasAccountWith(account.ID(v)) (or IDEQ), when the
//     membership row holds the edge's foreign key: the foreign key = v.
//     Other predicates given with the id's are kept as a narrowing;
//   - And(ps...): the keys of ps.
//
// Anything else pins nothing (ok false).
func entPredicateKeys(p ssa.Value, depth int) (keys []ops.KeyValue, ok bool) {
	pc, info := entPredicateCall(p)
	if info == nil || depth > ops.MaxTrace {
		return nil, false
	}
	args := pc.Common().Args
	switch info.PredOp {
	case "=", "= FOLD":
		// An equality ignoring case finds the row an insert of the same
		// value makes: a lookup by that key all the same.
		if info.Column == "" || len(args) != 1 {
			return nil, false
		}
		return []ops.KeyValue{{Column: info.Column, Value: args[0]}}, true
	case "AND":
		if len(args) != 1 {
			return nil, false
		}
		inner := ops.SliceValues(args[0])
		ok = len(inner) > 0
		for _, q := range inner {
			k, all := entPredicateKeys(q, depth+1)
			keys = append(keys, k...)
			ok = ok && all
		}
		return keys, ok
	case "HAS":
		if info.Column == "" || len(args) != 1 {
			return nil, false // Has<X>(), or the key is in the other table
		}
		inner := ops.SliceValues(args[0])
		ok = len(inner) > 0
		for _, q := range inner {
			qc, qi := entPredicateCall(q)
			if qi == nil || qi.PredOp != "=" || qi.Field != "ID" || qi.Entity == nil || qi.Entity.Table != info.Target || len(qc.Common().Args) != 1 {
				ok = false
				continue
			}
			keys = append(keys, ops.KeyValue{Column: info.Column, Value: qc.Common().Args[0]})
		}
		return keys, ok && len(keys) > 0
	}
	return nil, false
}

// entModelID returns the ID field of an entity model v (a *Group given to
// SetGroup, which ent compiles to SetGroupID(v.ID)) as a load of it: a
// value made here, in no block, that stands for v.ID as a key (the key of
// a load of v.ID in the lookup is the same). Nil when v is not a pointer
// to a struct with a field ID.
func entModelID(v ssa.Value) ssa.Value {
	ptr, ok := v.Type().Underlying().(*types.Pointer)
	if !ok {
		return nil
	}
	st, ok := ptr.Elem().Underlying().(*types.Struct)
	if !ok {
		return nil
	}
	for i := 0; i < st.NumFields(); i++ {
		if st.Field(i).Name() == "ID" {
			return &ssa.UnOp{Op: token.MUL, X: &ssa.FieldAddr{X: v, Field: i}}
		}
	}
	return nil
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

// entRowChain is entChain for a finisher whose builder a branch extended
// with optional steps (q := Create().SetEmail(e); if p != nil { q =
// q.SetPassword(*p) }; q.Save(ctx)): at a phi of the builder, one edge
// from which every other edge's steps lead back to it. steps are the
// chain through that edge, optional the steps of the other edges.
func entRowChain(v ssa.Value) (steps, optional []entStep, ok bool) {
	for i := 0; i < ops.MaxTrace; i++ {
		part, chained := entChain(v)
		steps = append(steps, part...)
		if !chained || (len(part) > 0 && part[len(part)-1].starts()) {
			return steps, optional, chained
		}
		from := v
		if len(part) > 0 {
			from = part[len(part)-1].args[0]
		}
		phi, isPhi := ssaval.Unwrap(from).(*ssa.Phi)
		if !isPhi {
			return steps, optional, true
		}
		base, opt, found := entPhiBase(phi)
		if !found {
			return steps, optional, true
		}
		optional = append(optional, opt...)
		v = base
	}
	return steps, optional, false
}

// entPhiBase returns the edge of phi that every other edge extends with
// builder steps (none of which starts a chain), and those steps.
func entPhiBase(phi *ssa.Phi) (ssa.Value, []entStep, bool) {
	for _, base := range phi.Edges {
		var opt []entStep
		all := true
		for _, e := range phi.Edges {
			steps, ok := entStepsTo(e, base)
			if !ok {
				all = false
				break
			}
			opt = append(opt, steps...)
		}
		if all {
			return base, opt, true
		}
	}
	return nil, nil, false
}

// entStepsTo returns the builder steps from v back to base, none of
// which starts a chain; ok is false when v does not lead back to base.
func entStepsTo(v, base ssa.Value) ([]entStep, bool) {
	var steps []entStep
	for i := 0; i < ops.MaxTrace; i++ {
		if ssaval.Unwrap(v) == ssaval.Unwrap(base) {
			return steps, true
		}
		part, _ := entChain(v)
		if len(part) == 0 {
			return nil, false
		}
		st := part[0]
		if st.starts() {
			return nil, false
		}
		steps = append(steps, st)
		v = st.args[0]
	}
	return nil, false
}
