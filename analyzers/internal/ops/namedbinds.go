package ops

import (
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/ssaval"
)

// Named placeholders (:name) bound from one struct or map
// (knowledge.NamedBinds): the value bound to :name is the struct's field
// the db mapper picks, or the map's entry stored under that key. A field
// is a boundField, so that it is the same key as the caller's loads of
// that field (u.Username) and the same read column as a scan into it.

// namedBind returns the value arg binds to the placeholder :name, or nil
// when it cannot be known (a slice of rows, a map filled at run time, no
// field of that name). A map's entry is the last one a literal stores
// under that key.
func namedBind(arg ssa.Value, name string) ssa.Value {
	v := ssaval.Unwrap(arg)
	if _, ok := v.(*ssa.MakeMap); ok {
		value, _, _ := literalEntry(v, func(k string) bool { return k == name })
		return value
	}
	v = structBase(v)
	st, ok := structOf(v.Type())
	if !ok {
		return nil
	}
	path, ok := dbFieldPath(st, name)
	if !ok {
		return nil
	}
	if len(path) == 1 {
		if stored, n := fieldStore(v, st, path[0]); n == 1 {
			return stored
		} else if n > 1 {
			return nil
		}
	}
	out := v
	for _, f := range path {
		out = &boundField{Base: out, Field: f.Name(), typ: f.Type(), index: fieldIndex(out, f)}
	}
	return out
}

// structBase returns the address a struct value is loaded from when it
// is a load of a local (a struct passed by value, whose fields the caller
// loads through that address: u.Username), else v.
func structBase(v ssa.Value) ssa.Value {
	if load, ok := v.(*ssa.UnOp); ok && load.Op == token.MUL {
		if _, isAlloc := load.X.(*ssa.Alloc); isAlloc {
			return load.X
		}
	}
	return v
}

// structOf returns the struct type t is or points to.
func structOf(t types.Type) (*types.Struct, bool) {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	st, ok := t.Underlying().(*types.Struct)
	return st, ok
}

// fieldIndex returns the index of f in the struct v is or points to.
func fieldIndex(v ssa.Value, f *types.Var) int {
	if st, ok := structOf(v.Type()); ok {
		for i := 0; i < st.NumFields(); i++ {
			if st.Field(i) == f {
				return i
			}
		}
	}
	return -1
}

// LoadedFrom returns the address v is loaded from: a load's operand, or
// for a field a library binds by name from a struct the caller passed by
// address, that field's address (a FieldAddr outside any block, to be
// compared with SameAddr only). Nil for other values.
func LoadedFrom(v ssa.Value) ssa.Value {
	switch x := ssaval.Unwrap(v).(type) {
	case *ssa.UnOp:
		if x.Op == token.MUL {
			return x.X
		}
	case *boundField:
		if _, isPtr := x.Base.Type().Underlying().(*types.Pointer); isPtr && x.index >= 0 {
			return &ssa.FieldAddr{X: x.Base, Field: x.index}
		}
	}
	return nil
}

// fieldStore returns the value the function stores in the field f of
// the struct at addr and how many stores there are. The one value stored
// (u.Username = name, a composite literal, acc.Balance -= amount) is what
// is bound; with none, the field as the caller gave it; with more, which
// one is bound is not known.
func fieldStore(addr ssa.Value, st *types.Struct, f *types.Var) (ssa.Value, int) {
	refs := addr.Referrers()
	if refs == nil {
		return nil, 0
	}
	if _, isPtr := addr.Type().Underlying().(*types.Pointer); !isPtr {
		return nil, 0
	}
	var stored ssa.Value
	n := 0
	for _, ref := range *refs {
		fa, ok := ref.(*ssa.FieldAddr)
		if !ok || fa.X != addr || st.Field(fa.Field) != f {
			continue
		}
		for _, use := range *fa.Referrers() {
			if s, ok := use.(*ssa.Store); ok && s.Addr == fa {
				stored = s.Val
				n++
			}
		}
	}
	return stored, n
}

// fieldKey is the key a helper's parameter field gives the caller's
// argument v: the value the caller stores in that field (FieldValue),
// else, when it stores none, the field itself: of the caller's struct, a
// pointer it was given or a row it decoded (u.Username, as the caller's
// own lookup loads it).
func fieldKey(v ssa.Value, name string) ssa.Value {
	if val := FieldValue(v, name); val != nil {
		return val
	}
	base := structBase(ssaval.Unwrap(v))
	st, ok := structOf(base.Type())
	if !ok {
		return nil
	}
	for i := 0; i < st.NumFields(); i++ {
		f := st.Field(i)
		if f.Name() != name {
			continue
		}
		if alloc, isAlloc := base.(*ssa.Alloc); isAlloc {
			for _, a := range LiteralAllocs(alloc) {
				if _, n := fieldStore(a, st, f); n > 0 {
					return nil // stored more than once (FieldValue took one)
				}
			}
		} else if _, n := fieldStore(base, st, f); n > 0 {
			return nil
		}
		return &boundField{Base: base, Field: name, typ: f.Type(), index: i}
	}
	return nil
}

// dbFieldPath returns the fields leading to the one the db mapper binds to
// column name in st: its db tag, else its name lower-cased, looking into
// embedded structs as the mapper does.
func dbFieldPath(st *types.Struct, name string) ([]*types.Var, bool) {
	if i, ok := dbField(st, name); ok {
		return []*types.Var{st.Field(i)}, true
	}
	for i := 0; i < st.NumFields(); i++ {
		f := st.Field(i)
		if !f.Embedded() {
			continue
		}
		if inner, ok := structOf(f.Type()); ok {
			if rest, ok := dbFieldPath(inner, name); ok {
				return append([]*types.Var{f}, rest...), true
			}
		}
	}
	return nil, false
}

// dbField returns the index of st's own field the db mapper binds to
// column name: its db tag, else its name lower-cased (embedded structs
// are not looked into).
func dbField(st *types.Struct, name string) (int, bool) {
	for i := 0; i < st.NumFields(); i++ {
		if col, ok := sqlxColumn(st, i); ok && strings.EqualFold(col, name) {
			return i, true
		}
	}
	return 0, false
}

// boundField is the field Field of Base that a library binds by name: a
// value with no instruction of its own.
type boundField struct {
	Base  ssa.Value
	Field string
	typ   types.Type
	index int // Field's index in Base's struct
}

var _ ssa.Value = (*boundField)(nil)

func (b *boundField) Name() string                  { return b.Base.Name() + "." + b.Field }
func (b *boundField) String() string                { return b.Name() }
func (b *boundField) Type() types.Type              { return b.typ }
func (b *boundField) Parent() *ssa.Function         { return b.Base.Parent() }
func (b *boundField) Referrers() *[]ssa.Instruction { return nil }
func (b *boundField) Pos() token.Pos                { return b.Base.Pos() }
