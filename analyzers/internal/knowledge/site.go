package knowledge

import (
	"go/constant"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/ssaval"
)

// Shape is how a call reaches its callee in SSA. The tables do not depend
// on it; it is reported by the classification tests, which show each
// library's calls as they really appear.
type Shape uint8

const (
	Static   Shape = iota + 1 // a direct call of a function or method
	Invoke                    // a call through an interface
	Instance                  // a call of an instance of a generic function or method
	Promoted                  // a method promoted through an embedded field (sqlx.DB's Exec is *sql.DB's)
)

func (s Shape) String() string {
	switch s {
	case Static:
		return "static"
	case Invoke:
		return "invoke"
	case Instance:
		return "instance"
	case Promoted:
		return "promoted"
	}
	return "?"
}

// A Site is a call whose callee is known: a function or method of some
// package, called directly, through an interface, or as a generic
// instance. Row is its table row, nil when the tables do not know it.
type Site struct {
	Call  *ssa.CallCommon
	Func  Func
	Row   *Call
	Shape Shape
	// method is whether parameters are shifted by a receiver in Args.
	recvInArgs bool
}

// Resolve returns the Site of call, or false when the callee is a function
// value or closure that names no function, or a bound method value (whose
// receiver SSA hides in the closure).
func Resolve(call *ssa.CallCommon) (Site, bool) {
	if call.IsInvoke() {
		f := FuncOf(call.Method)
		return Site{Call: call, Func: f, Row: lookup(f), Shape: Invoke}, true
	}
	callee := call.StaticCallee()
	if callee == nil {
		return Site{}, false
	}
	if strings.HasPrefix(callee.Synthetic, "bound method wrapper") {
		return Site{}, false
	}
	obj, ok := callee.Object().(*types.Func)
	if !ok {
		return Site{}, false // an anonymous function
	}
	f := FuncOf(obj)
	s := Site{Call: call, Func: f, Row: lookup(f), Shape: Static, recvInArgs: f.Recv != ""}
	switch {
	case callee.Origin() != nil:
		s.Shape = Instance
	case s.recvInArgs && len(call.Args) > 0 && isEmbeddedSelection(call.Args[0]):
		s.Shape = Promoted
	}
	return s, true
}

// isEmbeddedSelection reports whether v selects an embedded field, which is
// how SSA spells the receiver of a promoted method.
func isEmbeddedSelection(v ssa.Value) bool {
	if load, ok := v.(*ssa.UnOp); ok {
		v = load.X
	}
	var st *types.Struct
	var field int
	switch sel := v.(type) {
	case *ssa.FieldAddr:
		ptr, ok := sel.X.Type().Underlying().(*types.Pointer)
		if !ok {
			return false
		}
		st, _ = ptr.Elem().Underlying().(*types.Struct)
		field = sel.Field
	case *ssa.Field:
		st, _ = sel.X.Type().Underlying().(*types.Struct)
		field = sel.Field
	default:
		return false
	}
	return st != nil && field < st.NumFields() && st.Field(field).Embedded()
}

// Receiver returns the receiver of a method call (the interface value of
// an invoke), or nil for a function call.
func (s Site) Receiver() ssa.Value {
	switch {
	case s.Call.IsInvoke():
		return s.Call.Value
	case s.recvInArgs && len(s.Call.Args) > 0:
		// A pointer method promoted from a struct embedded by value
		// (go-redis's (*baseCmd).Err on a *StringCmd) is called on the
		// embedded field's address: the receiver is the value holding it.
		if fa, ok := s.Call.Args[0].(*ssa.FieldAddr); ok && s.Shape == Promoted {
			return fa.X
		}
		return s.Call.Args[0]
	}
	return nil
}

// Arg returns the value passed for parameter i (receiver excluded), or nil.
func (s Site) Arg(i int) ssa.Value {
	if s.recvInArgs {
		i++
	}
	if i < 0 || i >= len(s.Call.Args) {
		return nil
	}
	return s.Call.Args[i]
}

// RoleArg returns the value passed for the parameter with role r, or nil.
func (s Site) RoleArg(r Role) ssa.Value {
	if s.Row == nil {
		return nil
	}
	i, ok := s.Row.Param(r)
	if !ok {
		return nil
	}
	return s.Arg(i)
}

// Variadic returns the values passed for the variadic parameter i, when
// the call builds the slice in place (f(a, b)) or passes none; ok is false
// when an existing slice is passed (f(xs...)).
func (s Site) Variadic(i int) (values []ssa.Value, ok bool) {
	arg := s.Arg(i)
	if arg == nil {
		return nil, true // no variadic arguments: SSA passes nothing? (defensive)
	}
	if c, isConst := arg.(*ssa.Const); isConst && c.IsNil() {
		return nil, true
	}
	slice, isSlice := arg.(*ssa.Slice)
	if !isSlice {
		return nil, false
	}
	alloc, isAlloc := slice.X.(*ssa.Alloc)
	if !isAlloc {
		return nil, false
	}
	arr, isArr := alloc.Type().Underlying().(*types.Pointer).Elem().Underlying().(*types.Array)
	if !isArr {
		return nil, false
	}
	values = make([]ssa.Value, arr.Len())
	for _, ref := range *alloc.Referrers() {
		addr, isAddr := ref.(*ssa.IndexAddr)
		if !isAddr {
			continue
		}
		idx, isIdx := addr.Index.(*ssa.Const)
		if !isIdx {
			return nil, false
		}
		n, exact := constant.Int64Val(idx.Value)
		if !exact || n < 0 || n >= int64(len(values)) {
			return nil, false
		}
		for _, use := range *addr.Referrers() {
			if store, isStore := use.(*ssa.Store); isStore && store.Addr == addr {
				values[n] = ssaval.Unwrap(store.Val)
			}
		}
	}
	return values, true
}
