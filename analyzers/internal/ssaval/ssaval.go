// Package ssaval answers generic questions about go/ssa values and
// functions that every layer asks: what a value is beneath conversions,
// the string constant it holds, the struct field it selects, the returns
// of a function and the package declaring it. It knows no library and no
// analyzer; knowledge, ops, the dialects and the analyzers build on it.
package ssaval

import (
	"go/constant"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// Unwrap strips conversions that do not change a value: interface
// boxing, named-type changes and string conversions of constants.
func Unwrap(v ssa.Value) ssa.Value {
	for {
		switch x := v.(type) {
		case *ssa.MakeInterface:
			v = x.X
		case *ssa.ChangeType:
			v = x.X
		case *ssa.Convert:
			if _, isConst := x.X.(*ssa.Const); !isConst {
				return v
			}
			v = x.X
		default:
			return v
		}
	}
}

// ConstString returns the string constant v holds, looking through
// conversions. go/types has already folded constant concatenations.
func ConstString(v ssa.Value) (string, bool) {
	c, ok := Unwrap(v).(*ssa.Const)
	if !ok || c.Value == nil || c.Value.Kind() != constant.String {
		return "", false
	}
	return constant.StringVal(c.Value), true
}

// FieldOf returns the struct field v selects: the field of a FieldAddr
// (&x.F), or of a Field of a struct value (x.F on a value); nil
// otherwise.
func FieldOf(v ssa.Value) *types.Var {
	var st *types.Struct
	index := -1
	switch x := v.(type) {
	case *ssa.FieldAddr:
		if ptr, ok := x.X.Type().Underlying().(*types.Pointer); ok {
			st, _ = ptr.Elem().Underlying().(*types.Struct)
		}
		index = x.Field
	case *ssa.Field:
		st, _ = x.X.Type().Underlying().(*types.Struct)
		index = x.Field
	}
	if st == nil || index < 0 || index >= st.NumFields() {
		return nil
	}
	return st.Field(index)
}

// Returns returns fn's return instructions.
func Returns(fn *ssa.Function) []*ssa.Return {
	var out []*ssa.Return
	for _, b := range fn.Blocks {
		if n := len(b.Instrs); n > 0 {
			if r, ok := b.Instrs[n-1].(*ssa.Return); ok {
				out = append(out, r)
			}
		}
	}
	return out
}

// Pkg returns the package declaring fn, or nil (a wrapper, a function of
// no package). It reads the types object, not fn.Pkg: SSA creates the
// methods of packages it was not asked to create on demand, without a
// Package.
func Pkg(fn *ssa.Function) *types.Package {
	if obj, ok := fn.Object().(*types.Func); ok && obj.Pkg() != nil {
		return obj.Pkg()
	}
	if fn.Pkg != nil {
		return fn.Pkg.Pkg
	}
	return nil
}

// PkgPath returns the path of the package declaring fn, or "".
func PkgPath(fn *ssa.Function) string {
	if p := Pkg(fn); p != nil {
		return p.Path()
	}
	return ""
}
