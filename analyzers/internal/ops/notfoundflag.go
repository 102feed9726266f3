package ops

import (
	"go/constant"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/knowledge"
	"github.com/idemlint/idemlint/analyzers/internal/ssaval"
)

// This file reads two found-nothing tests made after the branch on the
// lookup's outcome has rejoined the common path:
//
//   - a flag the branch set: found := true; if errors.Is(err,
//     sql.ErrNoRows) { found = false }; ...; if !found { insert };
//   - a nullable destination the failed scan left invalid: var v
//     sql.NullString; ...Scan(&v) (sql.ErrNoRows let through); if
//     !v.Valid { insert };
//   - a model's primary key left zero: db.Where(...).Find(&t); if t.ID
//     == 0 { create } (Library.PrimaryFields).

// flagTest says whether phi is a bool flag that is one constant exactly
// on the paths through a found-nothing branch of op, and the other on
// every other path, and which successor (0 when true) of a branch on it
// runs when op found nothing.
func flagTest(op *RowOp, phi *ssa.Phi) (int, bool) {
	if !isBool(phi.Type()) || len(phi.Edges) < 2 || len(phi.Edges) != len(phi.Block().Preds) {
		return 0, false
	}
	nothing := foundNothingBlocksAt(op, false, 1)
	if len(nothing) == 0 {
		return 0, false
	}
	// inNothing: the edge's predecessor runs only on a found-nothing
	// branch.
	inNothing := func(i int) bool {
		pred := phi.Block().Preds[i]
		for _, n := range nothing {
			if n.Dominates(pred) {
				return true
			}
		}
		return false
	}
	var notFoundValue *bool
	sawOther := false
	for i, e := range phi.Edges {
		c, ok := e.(*ssa.Const)
		if !ok || c.Value == nil || c.Value.Kind() != constant.Bool {
			return 0, false
		}
		b := constant.BoolVal(c.Value)
		if !inNothing(i) {
			sawOther = true
			continue
		}
		if notFoundValue != nil && *notFoundValue != b {
			return 0, false
		}
		notFoundValue = &b
	}
	if notFoundValue == nil || !sawOther {
		return 0, false
	}
	// Every edge from outside the branch must carry the other value.
	for i, e := range phi.Edges {
		if !inNothing(i) && constant.BoolVal(e.(*ssa.Const).Value) == *notFoundValue {
			return 0, false
		}
	}
	if *notFoundValue {
		return 0, true
	}
	return 1, true
}

// validOfDest reports whether addr is the Valid field of a nullable
// destination op's row was read into.
func validOfDest(op *RowOp, addr ssa.Value) bool {
	fa, ok := addr.(*ssa.FieldAddr)
	if !ok {
		return false
	}
	f := ssaval.FieldOf(fa)
	if f == nil {
		return false
	}
	row := knowledge.TypeOf(fa.X.Type())
	return row != nil && row.Role == knowledge.NullValue && row.ValidField == f.Name() && isDestOf(op, fa.X)
}

// primaryOfDest reports whether addr is a primary key field of the model
// op read into (through embedded structs: t.ID of gorm.Model).
func primaryOfDest(op *RowOp, addr ssa.Value) bool {
	fa, ok := addr.(*ssa.FieldAddr)
	if !ok {
		return false
	}
	f := ssaval.FieldOf(fa)
	if f == nil {
		return false
	}
	base := fa.X
	for {
		inner, ok := base.(*ssa.FieldAddr)
		if !ok {
			break
		}
		if g := ssaval.FieldOf(inner); g == nil || !g.Embedded() {
			return false
		}
		base = inner.X
	}
	lib := libraryNamed(op.Lib)
	if lib == nil || lib.PrimaryFields == nil || !isDestOf(op, base) {
		return false
	}
	ptr, ok := base.Type().Underlying().(*types.Pointer)
	if !ok {
		return false
	}
	return slices.Contains(lib.PrimaryFields(ptr.Elem()), f.Name())
}
