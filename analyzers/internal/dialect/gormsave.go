package dialect

import (
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/ops"
	"github.com/idemlint/idemlint/analyzers/internal/schema"
	"github.com/idemlint/idemlint/analyzers/internal/ssaval"
)

// GORM's Save inserts when the model's primary key is zero and updates
// otherwise. A model the function builds itself (&User{Name: n}, or a
// variable it fills field by field) with no store to its primary key,
// and given to no call that might fill it (First, a decoder, a helper),
// is certainly inserted: Save is then a Create.

// gormSaveInserts reports whether Save(model) certainly inserts.
func gormSaveInserts(model ssa.Value) bool {
	alloc, ok := ssaval.Unwrap(model).(*ssa.Alloc)
	if !ok {
		return false
	}
	t := ops.ModelType(model)
	named, ok := t.(*types.Named)
	if !ok {
		return false
	}
	pk := gormPrimaryFields(named.Obj())
	if len(pk) == 0 {
		return false
	}
	for _, a := range ops.LiteralAllocs(alloc) {
		if !builtOnly(a, model, pk, 0) {
			return false
		}
	}
	return true
}

// builtOnly reports whether the struct at addr is only filled by stores
// to fields other than pk (by their promoted names), read, or handed to
// the Save whose argument is model.
func builtOnly(addr, model ssa.Value, pk []string, depth int) bool {
	refs := addr.Referrers()
	if refs == nil || depth > 2 {
		return refs == nil
	}
	for _, ref := range *refs {
		switch r := ref.(type) {
		case *ssa.FieldAddr:
			f := ssaval.FieldOf(r)
			if f == nil {
				return false
			}
			if f.Embedded() {
				if !builtOnly(r, model, pk, depth+1) {
					return false
				}
				continue
			}
			if slices.Contains(pk, f.Name()) {
				for _, use := range *r.Referrers() {
					if _, isStore := use.(*ssa.Store); isStore {
						return false
					}
				}
			}
		case *ssa.Store, *ssa.DebugRef:
		case *ssa.UnOp:
		case *ssa.MakeInterface:
			if r != model {
				return false
			}
		default:
			return false // handed to a call that may fill it
		}
	}
	return true
}

// gormPrimaryFields returns the (promoted) Go names of the fields GORM
// takes as obj's primary key.
func gormPrimaryFields(obj *types.TypeName) []string {
	st, ok := obj.Type().Underlying().(*types.Struct)
	if !ok {
		return nil
	}
	r := &gormModelReader{model: &schema.Model{}, v1: importsPath(obj.Pkg(), gormV1.pkg)}
	r.walk(st, "", "", 0)
	var out []string
	for _, k := range r.keys() {
		if !k.Primary {
			continue
		}
		for _, col := range k.Columns {
			if i := slices.IndexFunc(r.fields, func(f gormField) bool { return f.column == col }); i >= 0 {
				out = append(out, r.fields[i].name)
			}
		}
	}
	return out
}
