package dialect

import (
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/knowledge"
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
		case *ssa.Store:
			if r.Addr == addr && !ops.LiteralValue(r.Val) {
				return false // the struct replaced by one made elsewhere (a row read)
			}
		case *ssa.DebugRef:
		case *ssa.UnOp:
		case *ssa.MakeInterface:
			if r != model && !fillsNothing(r) {
				return false
			}
		case *ssa.Call:
			if !fillsNothing(r.Common()) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// fillsNothing reports whether a use of the model leaves its primary key
// as it is: a call that is no read of the database (a request decoder, a
// validator, a copying helper), or an interface made for one. A finder
// (First, Find, Scan) fills it from the row it reads.
func fillsNothing(v any) bool {
	switch x := v.(type) {
	case *ssa.MakeInterface:
		for _, use := range *x.Referrers() {
			if c, ok := use.(*ssa.Call); !ok || !fillsNothing(c.Common()) {
				return false
			}
		}
		return true
	case *ssa.CallCommon:
		if site, ok := knowledge.Resolve(x); ok && site.Row != nil {
			switch site.Row.Kind {
			case knowledge.Find, knowledge.Query, knowledge.Scan, knowledge.FirstOrCreate:
				return false
			}
		}
		return true
	}
	return false
}

// isParam reports whether v is a parameter of its function.
func isParam(v ssa.Value) bool {
	_, ok := ssaval.Unwrap(v).(*ssa.Parameter)
	return ok
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
