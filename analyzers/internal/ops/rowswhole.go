package ops

import (
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/ssaval"
)

// Inserts of a model a helper was given, as it was given: the model's own
// Create method (func (m *T) Create() error { return db.Create(m).Error })
// reads none of its fields, so no key reaches its summary; the caller,
// which looked the row up by the fields of the value it passes, knows
// them.

// wholeParam returns the index of fn's parameter that v, the model an
// insert writes, is (a pointer to a struct, or a struct value given to a
// library that takes one, as MongoDB's InsertOne does), and the fields fn
// stores into it before the caller's values reach the row (a timestamp, a
// generated id): the row inserted is the caller's value but for those.
// -1 when v is not a parameter, or fn replaces the struct, or an
// embedded struct of it, whole.
func wholeParam(fn *ssa.Function, v ssa.Value) (int, []string) {
	if i, stored, ok := copiedParam(fn, ssaval.Unwrap(v)); ok {
		return i, stored
	}
	p, ok := ssaval.Unwrap(v).(*ssa.Parameter)
	if !ok || p.Parent() != fn {
		return -1, nil
	}
	if _, isStruct := p.Type().Underlying().(*types.Struct); isStruct {
		// A value passed on as it came: a store into one of its fields
		// would have copied it into a local first.
		return paramIndex(fn, p), nil
	}
	ptr, ok := p.Type().Underlying().(*types.Pointer)
	if !ok {
		return -1, nil
	}
	if _, ok := ptr.Elem().Underlying().(*types.Struct); !ok {
		return -1, nil
	}
	var stored []string
	if !storedFields(p, 0, &stored) {
		return -1, nil
	}
	return paramIndex(fn, p), stored
}

// copiedParam reports whether v is the value of a local that holds a
// copy of fn's struct parameter (the parameter whose address the function
// takes, validate(&event), lives in a local it is copied into), with the
// fields stored into that local since; false when the local is assigned
// whole again.
func copiedParam(fn *ssa.Function, v ssa.Value) (int, []string, bool) {
	load, ok := v.(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return 0, nil, false
	}
	alloc, ok := load.X.(*ssa.Alloc)
	if !ok || alloc.Parent() != fn {
		return 0, nil, false
	}
	var param *ssa.Parameter
	var stored []string
	for _, ref := range *alloc.Referrers() {
		switch r := ref.(type) {
		case *ssa.Store:
			p, isParam := r.Val.(*ssa.Parameter)
			if r.Addr != alloc || !isParam || p.Parent() != fn || param != nil {
				return 0, nil, false
			}
			param = p
		case *ssa.FieldAddr:
			if f := ssaval.FieldOf(r); f != nil && r.X == alloc && storesFields(r, 0) {
				stored = append(stored, f.Name())
			}
		}
	}
	if param == nil {
		return 0, nil, false
	}
	if _, isStruct := param.Type().Underlying().(*types.Struct); !isStruct {
		return 0, nil, false
	}
	return paramIndex(fn, param), stored, true
}

// storedFields adds the fields of the struct at addr the function stores
// (those of embedded structs under their own names, as the ORMs flatten
// them); false when it stores the struct, or an embedded one, whole.
func storedFields(addr ssa.Value, depth int, stored *[]string) bool {
	refs := addr.Referrers()
	if refs == nil || depth > 4 {
		return true
	}
	for _, ref := range *refs {
		switch r := ref.(type) {
		case *ssa.Store:
			if r.Addr == addr {
				return false
			}
		case *ssa.FieldAddr:
			if r.X != addr {
				continue
			}
			f := ssaval.FieldOf(r)
			if f == nil {
				return false
			}
			if _, isStruct := f.Type().Underlying().(*types.Struct); isStruct && f.Embedded() {
				if !storedFields(r, depth+1, stored) {
					return false
				}
				continue
			}
			if storesFields(r, 0) {
				*stored = append(*stored, f.Name())
			}
		}
	}
	return true
}

// storesFields reports whether the function stores into the value at
// addr, or into a field of it.
func storesFields(addr ssa.Value, depth int) bool {
	refs := addr.Referrers()
	if refs == nil || depth > 4 {
		return false
	}
	for _, ref := range *refs {
		switch r := ref.(type) {
		case *ssa.Store:
			if r.Addr == addr {
				return true
			}
		case *ssa.FieldAddr:
			if r.X == addr && storesFields(r, depth+1) {
				return true
			}
		}
	}
	return false
}

// addGivenKeys adds to keys the fields of v, a model the caller passes to
// a helper that inserts it whole (InsertFact.WholeParam), that the caller
// knows: those a composite literal sets, or those it reads from a struct
// it was given and never stores (another field stored does not change
// them); not those the helper overwrites. A field already among keys is
// not added again.
func addGivenKeys(keys []KeyValue, v ssa.Value, overwritten []string) []KeyValue {
	// The fields the caller stores (a literal, or field by field), and
	// those it only reads (a decoded request's g.Name, in its lookup).
	given := StructKeys(v)
	var read []KeyValue
	readKeys(ssaval.Unwrap(v), 0, &read)
	for _, k := range read {
		if !slices.ContainsFunc(given, func(g KeyValue) bool { return g.Field == k.Field }) {
			given = append(given, k)
		}
	}
	for _, k := range given {
		dup := slices.Contains(overwritten, k.Field)
		for _, have := range keys {
			if have.Field == k.Field && have.Column == k.Column {
				dup = true
				break
			}
		}
		if !dup {
			keys = append(keys, k)
		}
	}
	return keys
}

// readKeys adds the fields of the struct at addr the function loads and
// never stores, each with a value loaded, recursing into embedded
// structs (whose fields the ORMs flatten).
func readKeys(addr ssa.Value, depth int, keys *[]KeyValue) {
	refs := addr.Referrers()
	if refs == nil || depth > 4 {
		return
	}
	if _, isPtr := addr.Type().Underlying().(*types.Pointer); !isPtr {
		return
	}
	for _, ref := range *refs {
		if st, ok := ref.(*ssa.Store); ok && st.Addr == addr && !LiteralValue(st.Val) {
			return // the struct replaced whole: no field is known
		}
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
			readKeys(fa, depth+1, keys)
			continue
		}
		if storesFields(fa, 0) {
			continue
		}
		for _, use := range *fa.Referrers() {
			if load, ok := use.(*ssa.UnOp); ok && load.Op == token.MUL {
				*keys = append(*keys, KeyValue{Field: f.Name(), Value: load})
				break
			}
		}
	}
}

// LiteralValue reports whether v, stored whole in a struct variable, is a
// composite literal's (a load of the temporary older go/ssa builds it in,
// g := T{}) or a zero value: the variable's fields are its own after it.
func LiteralValue(v ssa.Value) bool {
	switch x := v.(type) {
	case *ssa.Const:
		return true
	case *ssa.UnOp:
		a, ok := x.X.(*ssa.Alloc)
		return ok && x.Op == token.MUL && a.Comment == "complit"
	}
	return false
}
