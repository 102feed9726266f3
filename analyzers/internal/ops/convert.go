package ops

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/ssaval"
)

// Conversions of a row: a repository scans the row into a record struct
// (the db tags' type) and converts it to the domain type with a function
// of its own (tr.toTask(), toDomain(rec)) before the domain value is
// changed and written back. The domain value's fields hold the record's
// columns; ConvertedChain says which, by reading what the conversion
// stores into each field of the struct it returns, never by names.

// maxConvertDepth bounds nested conversions (a conversion whose fields
// come from another conversion's result).
const maxConvertDepth = 2

// ConvertedChain returns the caller-side addresses of the fields the field
// address addr was converted from (convertedFrom), and those they were
// converted from in turn, up to maxConvertDepth conversions.
func ConvertedChain(addr ssa.Value) []ssa.Value {
	var out []ssa.Value
	work := []ssa.Value{addr}
	for depth := 0; depth < maxConvertDepth && len(work) > 0; depth++ {
		var next []ssa.Value
		for _, a := range work {
			next = append(next, convertedFrom(a, depth)...)
		}
		out = append(out, next...)
		work = next
	}
	return out
}

// convertedFrom returns, for the address of a field of a struct that a
// function with a body built and returned (a pointer to a literal, or a
// struct value the caller stored in a local once), the caller-side
// addresses of the argument fields the function derived that field from:
// &tr.Position for t.Position after t := tr.toTask() whose literal holds
// Position: r.Position. For a function value, whose body is not known,
// the same field of an argument of the result's type (passedThrough).
// Nil otherwise.
func convertedFrom(addr ssa.Value, depth int) []ssa.Value {
	if depth >= maxConvertDepth {
		return nil
	}
	var base ssa.Value
	var field int
	switch x := ssaval.Unwrap(addr).(type) {
	case *ssa.FieldAddr:
		base, field = x.X, x.Field
	case *ssa.Field:
		base, field = x.X, x.Field
	default:
		return nil
	}
	call, idx := convertingCall(base)
	if call == nil {
		return nil
	}
	callee := call.Common().StaticCallee()
	if callee == nil {
		return passedThrough(call, idx, field)
	}
	if len(callee.Blocks) == 0 {
		return nil
	}
	var out []ssa.Value
	for _, ret := range ssaval.Returns(callee) {
		if idx >= len(ret.Results) {
			continue
		}
		s := builtStruct(ret.Results[idx])
		if s == nil {
			continue
		}
		for _, v := range fieldStores(s, field) {
			var src ssa.Value
			derivedFrom(v, func(a ssa.Value) bool {
				if p, f, ok := convParamField(callee, a); ok {
					src = callerField(call, callee, p, f)
				}
				return src != nil
			}, depth+1)
			if src != nil {
				out = append(out, src)
			}
		}
	}
	return out
}

// passedThrough returns, for a call of a function value whose result idx
// has the type of one of its arguments (updateFn func(h *Hour) (*Hour,
// error)), the field of that argument: code the function cannot see
// that is given the row and returns a row of its type is taken to return
// it, changed or not.
func passedThrough(call *ssa.Call, idx, field int) []ssa.Value {
	c := call.Common()
	if c.IsInvoke() {
		return nil
	}
	if _, closure := c.Value.(*ssa.MakeClosure); closure {
		return nil
	}
	res := c.Signature().Results()
	if idx >= res.Len() {
		return nil
	}
	rt := res.At(idx).Type()
	var out []ssa.Value
	for _, arg := range c.Args {
		if !types.Identical(arg.Type(), rt) {
			continue
		}
		if _, isPtr := rt.Underlying().(*types.Pointer); isPtr {
			out = append(out, &ssa.FieldAddr{X: ssaval.Unwrap(arg), Field: field})
		} else if load, ok := ssaval.Unwrap(arg).(*ssa.UnOp); ok && load.Op == token.MUL {
			out = append(out, &ssa.FieldAddr{X: load.X, Field: field})
		}
	}
	return out
}

// convertingCall returns the call whose result base is, and the result's
// index: t from t, err := conv(r), or a local the call's struct value
// was stored in once (n := r.toNode(); modify(&n)).
func convertingCall(base ssa.Value) (*ssa.Call, int) {
	switch x := ssaval.Unwrap(base).(type) {
	case *ssa.Call:
		return x, 0
	case *ssa.Extract:
		if call, ok := x.Tuple.(*ssa.Call); ok {
			return call, x.Index
		}
	case *ssa.Alloc:
		var stored ssa.Value
		for _, ref := range *x.Referrers() {
			if st, ok := ref.(*ssa.Store); ok && st.Addr == x {
				if stored != nil {
					return nil, 0
				}
				stored = st.Val
			}
		}
		if stored == nil {
			return nil, 0
		}
		switch s := stored.(type) {
		case *ssa.Call:
			return s, 0
		case *ssa.Extract:
			if call, ok := s.Tuple.(*ssa.Call); ok {
				return call, s.Index
			}
		}
	case *ssa.UnOp:
		// A pointer result kept in a local (its address taken).
		if x.Op == token.MUL {
			if stored := storedOnce(x); stored != nil {
				return convertingCall(stored)
			}
		}
	}
	return nil, 0
}

// builtStruct returns the local struct a returned value is: a pointer to
// a literal (&T{...}) or the load of a local struct (return n).
func builtStruct(v ssa.Value) *ssa.Alloc {
	switch x := v.(type) {
	case *ssa.Alloc:
		return x
	case *ssa.UnOp:
		if x.Op == token.MUL {
			if a, ok := x.X.(*ssa.Alloc); ok {
				return a
			}
		}
	}
	return nil
}

// fieldStores returns the values stored into field of the local struct s,
// through a copy of another local struct stored into s whole (the go/ssa
// the gopls build pins builds n := T{...} in a local of its own, then
// copies it).
func fieldStores(s *ssa.Alloc, field int) []ssa.Value {
	return fieldStoresDepth(s, field, 0)
}

func fieldStoresDepth(s *ssa.Alloc, field, depth int) []ssa.Value {
	var out []ssa.Value
	for _, ref := range *s.Referrers() {
		if st, ok := ref.(*ssa.Store); ok && st.Addr == s && depth < 2 {
			if load, ok := st.Val.(*ssa.UnOp); ok && load.Op == token.MUL {
				if lit, ok := load.X.(*ssa.Alloc); ok && lit != s {
					out = append(out, fieldStoresDepth(lit, field, depth+1)...)
				}
			}
			continue
		}
		fa, ok := ref.(*ssa.FieldAddr)
		if !ok || fa.X != s || fa.Field != field {
			continue
		}
		for _, r := range *fa.Referrers() {
			if st, ok := r.(*ssa.Store); ok && st.Addr == fa {
				out = append(out, st.Val)
			}
		}
	}
	return out
}

// convParamField reports whether a is a field of one of fn's parameters (a
// field address of a pointer parameter or of the local a value parameter
// was copied into, or a field of a value parameter), with the
// parameter's index and the field's.
func convParamField(fn *ssa.Function, a ssa.Value) (int, int, bool) {
	var base ssa.Value
	var field int
	switch x := a.(type) {
	case *ssa.FieldAddr:
		base, field = x.X, x.Field
		if alloc, ok := base.(*ssa.Alloc); ok {
			// A value receiver whose address is taken (&r.CreatedAt):
			// the parameter is copied into a local first.
			base = nil
			for _, ref := range *alloc.Referrers() {
				if st, ok := ref.(*ssa.Store); ok && st.Addr == alloc {
					if base != nil {
						return 0, 0, false
					}
					base = st.Val
				}
			}
		}
	case *ssa.Field:
		base, field = x.X, x.Field
	default:
		return 0, 0, false
	}
	p, ok := base.(*ssa.Parameter)
	if !ok {
		return 0, 0, false
	}
	i := paramIndex(fn, p)
	return i, field, i >= 0
}

// callerField returns the address, in the caller, of field f of the
// argument given for fn's parameter p: a field of the pointer passed, or
// of the local a struct value passed was loaded from.
func callerField(call *ssa.Call, fn *ssa.Function, p, f int) ssa.Value {
	args := call.Common().Args
	if p >= len(args) {
		return nil
	}
	arg := ssaval.Unwrap(args[p])
	if _, isPtr := fn.Params[p].Type().Underlying().(*types.Pointer); isPtr {
		return &ssa.FieldAddr{X: arg, Field: f}
	}
	if load, ok := arg.(*ssa.UnOp); ok && load.Op == token.MUL {
		return &ssa.FieldAddr{X: load.X, Field: f}
	}
	return nil
}
