package ops

import (
	"fmt"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/ssaval"
)

// Which Go value a key is: the values bound to a lookup's predicate and an
// insert's columns, compared through fields, embedded structs and
// variables stored once.

// A valKey identifies a key value: a base value and a path of field
// names and element indexes, so that two loads of req.Email, or of
// keys[i], are the same key.
type valKey struct {
	base ssa.Value
	path []string
}

func (k valKey) String() string { return fmt.Sprintf("%p.%s", k.base, strings.Join(k.path, ".")) }

// keyOf computes the key of a value, looking through conversions,
// variables stored once, closure bindings and field selections.
func keyOf(v ssa.Value) valKey {
	var path []string
	for i := 0; i < MaxTrace && v != nil; i++ {
		switch x := v.(type) {
		case *ssa.MakeInterface:
			v = x.X
			continue
		case *ssa.ChangeType:
			v = x.X
			continue
		case *ssa.Convert:
			v = x.X
			continue
		case *copiedField:
			path = append([]string{x.Field}, path...)
			v = x.Base
			continue
		case *boundField:
			path = append([]string{x.Field}, path...)
			v = x.Base
			continue
		case *ssa.FreeVar:
			if b := binding(x); b != nil {
				v = b
				continue
			}
		case *ssa.Field:
			st, ok := x.X.Type().Underlying().(*types.Struct)
			if ok {
				path = append([]string{st.Field(x.Field).Name()}, path...)
				v = x.X
				continue
			}
		case *ssa.FieldAddr:
			// A field of an embedded struct: &v.Embedded, then .F.
			if f := ssaval.FieldOf(x); f != nil {
				path = append([]string{f.Name()}, path...)
				v = x.X
				continue
			}
		case *ssa.UnOp:
			if x.Op.String() == "*" {
				if fa, ok := x.X.(*ssa.FieldAddr); ok {
					if f := ssaval.FieldOf(fa); f != nil {
						path = append([]string{f.Name()}, path...)
						v = fa.X
						continue
					}
				}
				if ia, ok := x.X.(*ssa.IndexAddr); ok {
					// keys[i] loaded twice: the same element.
					path = append([]string{indexElem(ia.Index)}, path...)
					v = ia.X
					continue
				}
				if stored := storedOnce(x); stored != nil {
					v = stored
					continue
				}
			}
		case *ssa.Index:
			path = append([]string{indexElem(x.Index)}, path...)
			v = x.X
			continue
		case *ssa.Alloc:
			// A struct parameter whose fields are read by selector
			// (arg.Hash) stays in the local go/ssa spills it to: the
			// local's fields are the parameter's.
			if stored := readOnlyCopy(x); stored != nil {
				v = stored
				continue
			}
		}
		break
	}
	return valKey{base: v, path: path}
}

// indexElem is the path element of an element selected by idx: the
// constant, or the index's own key, so that keys[i] and keys[i] are the
// same key and keys[i] and keys[j] are not.
func indexElem(idx ssa.Value) string {
	k := keyOf(idx)
	if c, ok := k.base.(*ssa.Const); ok && len(k.path) == 0 {
		if c.Value == nil {
			return "[nil]"
		}
		return "[" + c.Value.ExactString() + "]"
	}
	return "[" + k.String() + "]"
}

// SameKey reports whether two key values are the same value, or the same
// field of one value.
func SameKey(a, b ssa.Value) bool {
	// A field a helper copied into the row is both the field it was
	// copied from and the row's own field.
	if c, ok := a.(*copiedField); ok && sameKey(c.rowSide(), keyOf(b)) {
		return true
	}
	if c, ok := b.(*copiedField); ok && sameKey(keyOf(a), c.rowSide()) {
		return true
	}
	return sameKey(keyOf(a), keyOf(b))
}

func sameKey(ka, kb valKey) bool {
	if ka.base == nil || ka.base != kb.base || len(ka.path) != len(kb.path) {
		return false
	}
	if _, isConst := ka.base.(*ssa.Const); isConst {
		return false
	}
	for i := range ka.path {
		if ka.path[i] != kb.path[i] {
			return false
		}
	}
	return true
}

// keyParams maps key values onto fn's parameters (or their fields); ok is
// false when none maps. Keys that map to nothing are dropped.
func keyParams(fn *ssa.Function, keys []KeyValue) ([]ParamRef, bool) {
	var refs []ParamRef
	any := false
	for _, k := range keys {
		ref := ParamRef{Param: -1}
		vk := keyOf(k.Value)
		if p, ok := vk.base.(*ssa.Parameter); ok && p.Parent() == fn {
			ref.Param = paramIndex(fn, p)
			if len(vk.path) == 1 {
				ref.Field = vk.path[0]
			} else if len(vk.path) > 1 {
				ref.Param = -1
			}
		}
		if ref.Param >= 0 {
			any = true
		}
		refs = append(refs, ref)
	}
	return refs, any
}

// FieldValue returns the value stored in field name of the struct value
// v (a composite literal built in a local), or a synthetic key for the
// field when the stores are not visible.
func FieldValue(v ssa.Value, name string) ssa.Value {
	// A struct value loaded from a local, or a pointer to a local
	// (&Request{Title: t}).
	alloc, ok := v.(*ssa.Alloc)
	if load, isLoad := v.(*ssa.UnOp); isLoad && load.Op == token.MUL {
		alloc, ok = load.X.(*ssa.Alloc)
	}
	if !ok {
		return nil
	}
	var found ssa.Value
	for _, alloc := range LiteralAllocs(alloc) {
		for _, ref := range *alloc.Referrers() {
			fa, ok := ref.(*ssa.FieldAddr)
			if !ok {
				continue
			}
			if f := ssaval.FieldOf(fa); f == nil || f.Name() != name {
				continue
			}
			for _, use := range *fa.Referrers() {
				if st, ok := use.(*ssa.Store); ok && st.Addr == fa {
					if found != nil {
						return nil
					}
					found = st.Val
				}
			}
		}
	}
	return found
}

// literalAllocs returns alloc and the locals copied whole into it. Newer
// go/ssa (the x/tools gopls v0.23.0 pins) builds a composite literal
// assigned to an existing variable in a temporary and copies it
// (c = T{F: v} is *c = *complit), so the field stores are the temporary's.
func LiteralAllocs(alloc *ssa.Alloc) []*ssa.Alloc {
	out := []*ssa.Alloc{alloc}
	for _, ref := range *alloc.Referrers() {
		st, ok := ref.(*ssa.Store)
		if !ok || st.Addr != alloc {
			continue
		}
		if load, ok := st.Val.(*ssa.UnOp); ok && load.Op == token.MUL {
			if tmp, ok := load.X.(*ssa.Alloc); ok && tmp != alloc {
				out = append(out, tmp)
			}
		}
	}
	return out
}

// ProgramConstant reports whether a key value is fixed by the program's
// text: a constant, a field of a struct literal that stores a constant in
// it, or an element (or a field of one) of a package-level variable, such
// as the loop variable ranging over a table of literals. A lookup and
// insert keyed only by such values can race only with another run of the
// same code (startup seeding on two instances), never with a request.
func ProgramConstant(v ssa.Value) bool { return programConstant(v, 0) }

func programConstant(v ssa.Value, depth int) bool {
	if v == nil || depth > 6 {
		return false
	}
	switch x := ssaval.Unwrap(v).(type) {
	case *ssa.Const:
		return true
	case *ssa.Global:
		return true
	case *ssa.Field:
		return programConstant(x.X, depth+1)
	case *ssa.Index:
		return programConstant(x.X, depth+1)
	case *ssa.IndexAddr:
		return programConstant(x.X, depth+1)
	case *ssa.FieldAddr:
		return programConstant(x.X, depth+1)
	case *ssa.UnOp:
		if x.Op != token.MUL {
			return false
		}
		switch a := x.X.(type) {
		case *ssa.FieldAddr:
			if alloc, ok := a.X.(*ssa.Alloc); ok {
				return allocConstant(alloc, a.Field, depth)
			}
			return programConstant(a.X, depth+1)
		case *ssa.Alloc:
			// A struct literal loaded whole (go/ssa builds some
			// literals in a temporary and copies them).
			return allocConstant(a, -1, depth)
		}
		return programConstant(x.X, depth+1) // *global, *(&global[i])
	}
	return false
}

// allocConstant reports whether a local struct's field (every field, for
// field -1) holds a program constant: every store to it, and every store
// of the whole struct (a loop variable copied from a table's element, a
// literal built in a temporary), is of one, and there is one.
func allocConstant(alloc *ssa.Alloc, field, depth int) bool {
	stored := false
	for _, ref := range *alloc.Referrers() {
		switch r := ref.(type) {
		case *ssa.FieldAddr:
			if field >= 0 && r.Field != field {
				continue
			}
			for _, use := range *r.Referrers() {
				if st, ok := use.(*ssa.Store); ok && st.Addr == r {
					if !programConstant(st.Val, depth+1) {
						return false
					}
					stored = true
				}
			}
		case *ssa.Store:
			if r.Addr != ssa.Value(alloc) || !programConstant(r.Val, depth+1) {
				return false
			}
			stored = true
		}
	}
	return stored
}

// readOnlyCopy returns the value stored in the local alloc when it is
// stored once, whole, and otherwise only read, its fields included (no
// store through a field's address, no address passed on): the local is
// a copy of that value, as go/ssa makes of a struct parameter whose
// fields are selected. Nil otherwise.
func readOnlyCopy(alloc *ssa.Alloc) ssa.Value {
	if alloc.Heap || alloc.Referrers() == nil {
		return nil
	}
	var stored ssa.Value
	for _, ref := range *alloc.Referrers() {
		switch r := ref.(type) {
		case *ssa.Store:
			if r.Addr != alloc || stored != nil {
				return nil
			}
			stored = r.Val
		case *ssa.UnOp, *ssa.DebugRef:
		case *ssa.FieldAddr:
			if !onlyLoaded(r, 0) {
				return nil
			}
		default:
			return nil
		}
	}
	return stored
}

// onlyLoaded reports whether the field address fa is only loaded from,
// directly or through the addresses of its own fields.
func onlyLoaded(fa *ssa.FieldAddr, depth int) bool {
	if fa.Referrers() == nil || depth > 4 {
		return false
	}
	for _, ref := range *fa.Referrers() {
		switch r := ref.(type) {
		case *ssa.UnOp:
			if r.Op != token.MUL {
				return false
			}
		case *ssa.DebugRef:
		case *ssa.FieldAddr:
			if !onlyLoaded(r, depth+1) {
				return false
			}
		default:
			return false
		}
	}
	return true
}
