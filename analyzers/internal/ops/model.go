package ops

import (
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/sqltext"
	"github.com/idemlint/idemlint/analyzers/internal/ssaval"
)

// FragmentKeys adds the columns a WHERE fragment pins to bound values.
func FragmentKeys(op *RowOp, text string, binds []ssa.Value) bool {
	cond := sqltext.ParseCondition(text)
	if cond == nil {
		return false
	}
	for _, c := range cond.Comparisons {
		if !c.Conjunct || !c.Equality() || c.Operand.Kind != sqltext.OperandPlaceholder || len(c.Operand.Placeholders) != 1 {
			continue
		}
		p := c.Operand.Placeholders[0]
		if p.Named() || p.Position < 1 || p.Position > len(binds) || binds[p.Position-1] == nil {
			continue
		}
		op.Keys = append(op.Keys, KeyValue{Column: c.Column.Name, Value: binds[p.Position-1]})
	}
	addAlternatives(op, cond.Comparisons, nil, func(p sqltext.Placeholder) ssa.Value {
		if p.Named() || p.Position < 1 || p.Position > len(binds) {
			return nil
		}
		return binds[p.Position-1]
	})
	return true
}

// ModelType returns the struct type a model or destination argument
// points to, or nil.
func ModelType(v ssa.Value) types.Type {
	if v == nil {
		return nil
	}
	return ModelTypeOf(ssaval.Unwrap(v).Type())
}

// ModelTypeOf returns the named struct type t is, or points to, or holds
// the elements of (*T, []T, []*T), or nil.
func ModelTypeOf(t types.Type) types.Type {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	if sl, ok := t.Underlying().(*types.Slice); ok {
		t = sl.Elem()
		if p, ok := t.Underlying().(*types.Pointer); ok {
			t = p.Elem()
		}
	}
	if _, ok := types.Unalias(t).(*types.Named); !ok {
		return nil
	}
	if _, ok := t.Underlying().(*types.Struct); !ok {
		return nil
	}
	return t
}

// StructKeys returns the fields a composite literal of a model sets (by
// Go field name) with the values stored, or nil when the struct is not a
// local composite whose stores are visible.
func StructKeys(v ssa.Value) []KeyValue {
	if v == nil {
		return nil
	}
	v = ssaval.Unwrap(v)
	if load, ok := v.(*ssa.UnOp); ok {
		v = load.X
	}
	alloc, ok := v.(*ssa.Alloc)
	if !ok {
		return nil
	}
	var keys []KeyValue
	for _, alloc := range LiteralAllocs(alloc) {
		for _, ref := range *alloc.Referrers() {
			fa, ok := ref.(*ssa.FieldAddr)
			if !ok || fa.X != alloc {
				continue
			}
			f := ssaval.FieldOf(fa)
			if f == nil || f.Embedded() {
				continue
			}
			for _, use := range *fa.Referrers() {
				if st, ok := use.(*ssa.Store); ok && st.Addr == fa {
					keys = append(keys, KeyValue{Field: f.Name(), Value: st.Val})
				}
			}
		}
	}
	keys = append(keys, copiedKeys(alloc, keys)...)
	if keys == nil {
		keys = []KeyValue{}
	}
	return keys
}

// ModelKeys returns the fields of a model an insert writes, with the
// values they hold: those a composite literal or the function stores
// (StructKeys), or, for a model the function was given (a pointer
// parameter, or a value copied whole into a local, as a value receiver
// is), the fields it reads from the model and never stores, each with the
// value read: the caller's struct inserted as it is. Fields promoted from
// embedded structs count under their own names, as the ORMs flatten them.
func ModelKeys(model ssa.Value) []KeyValue {
	if keys := StructKeys(model); len(keys) > 0 {
		return keys
	}
	var keys []KeyValue
	if !readFields(ssaval.Unwrap(model), 0, &keys) {
		return nil
	}
	return keys
}

// readFields adds the fields of the struct at addr that the function
// loads, recursing into embedded structs; false when it stores one (which
// value is inserted is then not the one read).
func readFields(addr ssa.Value, depth int, keys *[]KeyValue) bool {
	refs := addr.Referrers()
	if refs == nil || depth > 4 {
		return true
	}
	for _, ref := range *refs {
		fa, ok := ref.(*ssa.FieldAddr)
		if !ok || fa.X != addr {
			continue
		}
		f := ssaval.FieldOf(fa)
		if f == nil {
			continue
		}
		if _, isStruct := f.Type().Underlying().(*types.Struct); isStruct && f.Embedded() {
			if !readFields(fa, depth+1, keys) {
				return false
			}
			continue
		}
		var load ssa.Value
		for _, use := range *fa.Referrers() {
			switch u := use.(type) {
			case *ssa.Store:
				return false
			case *ssa.UnOp:
				load = u
			}
		}
		if load != nil {
			*keys = append(*keys, KeyValue{Field: f.Name(), Value: load})
		}
	}
	return true
}

// qualifiedType names a named type "pkg/path.Name" for facts.
func qualifiedType(t types.Type) string {
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || n.Obj().Pkg() == nil {
		return ""
	}
	return n.Obj().Pkg().Path() + "." + n.Obj().Name()
}

// lookupType finds the named type "pkg/path.Name" among pkg and the
// packages it imports, transitively.
func lookupType(pkg *types.Package, name string) types.Type {
	i := strings.LastIndex(name, ".")
	if i < 0 || pkg == nil {
		return nil
	}
	path, obj := name[:i], name[i+1:]
	seen := map[*types.Package]bool{}
	var find func(p *types.Package, depth int) types.Type
	find = func(p *types.Package, depth int) types.Type {
		if seen[p] || depth > 8 {
			return nil
		}
		seen[p] = true
		if p.Path() == path {
			if tn, ok := p.Scope().Lookup(obj).(*types.TypeName); ok {
				return tn.Type()
			}
			return nil
		}
		for _, imp := range p.Imports() {
			if t := find(imp, depth+1); t != nil {
				return t
			}
		}
		return nil
	}
	return find(pkg, 0)
}
