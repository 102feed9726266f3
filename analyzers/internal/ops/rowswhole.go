package ops

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/ssaval"
)

// Inserts of a model a helper was given, as it was given: the model's own
// Create method (func (m *T) Create() error { return db.Create(m).Error })
// reads none of its fields, so no key reaches its summary; the caller,
// which looked the row up by the fields of the value it passes, knows
// them.

// wholeParam returns the index of fn's parameter that v, the model an
// insert writes, is: a pointer to a struct whose fields fn never stores
// (nor the struct whole), so that the row inserted is the caller's value
// as it is. -1 otherwise.
func wholeParam(fn *ssa.Function, v ssa.Value) int {
	p, ok := ssaval.Unwrap(v).(*ssa.Parameter)
	if !ok || p.Parent() != fn {
		return -1
	}
	ptr, ok := p.Type().Underlying().(*types.Pointer)
	if !ok {
		return -1
	}
	if _, ok := ptr.Elem().Underlying().(*types.Struct); !ok {
		return -1
	}
	if storesFields(p, 0) {
		return -1
	}
	return paramIndex(fn, p)
}

// storesFields reports whether the function stores into the struct at
// addr: a field of it (of an embedded struct too), or the whole struct.
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
// them). A field already among keys is not added again.
func addGivenKeys(keys []KeyValue, v ssa.Value) []KeyValue {
	given := StructKeys(v)
	if len(given) == 0 {
		given = nil
		readKeys(ssaval.Unwrap(v), 0, &given)
	}
	for _, k := range given {
		dup := false
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
		if st, ok := ref.(*ssa.Store); ok && st.Addr == addr {
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
