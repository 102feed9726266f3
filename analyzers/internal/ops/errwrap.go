package ops

import (
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/ssaval"
)

// Errors that wrap a lookup's error: a repository's finder that answers
// a miss with the service's own error type holding the library's error
// (return nil, &Error{Code: NotFound, Err: err}, or a constructor of it
// in another package, e.NewError(code, err)), whose Unwrap() error
// returns that field. errors.Is and errors.As, and so the library's
// classifiers (ent.IsNotFound), see through it: the caller's test of the
// library's not-found error still tells whether the finder found
// nothing.

// unwrapField returns the index of the field of the struct t points to
// that t's method Unwrap() error returns on every path, or -1. When the
// method's body is not in this program (a type of another package), the
// struct's only field of type error is taken: Unwrap can return nothing
// else of the value but a constant.
func unwrapField(prog *ssa.Program, t types.Type) int {
	ptr, ok := types.Unalias(t).(*types.Pointer)
	if !ok {
		return -1
	}
	st, ok := ptr.Elem().Underlying().(*types.Struct)
	if !ok {
		return -1
	}
	sel := prog.MethodSets.MethodSet(t).Lookup(nil, "Unwrap")
	if sel == nil {
		return -1
	}
	sig, ok := sel.Type().(*types.Signature)
	if !ok || sig.Params().Len() != 0 || sig.Results().Len() != 1 || !isErrorType(sig.Results().At(0).Type()) {
		return -1
	}
	if m := prog.MethodValue(sel); m != nil && len(m.Blocks) > 0 && len(m.Params) == 1 {
		field := -1
		for _, ret := range ssaval.Returns(m) {
			p, f := paramFieldIndex(ret.Results[0])
			if p != m.Params[0] || (field >= 0 && f != field) {
				return -1
			}
			field = f
		}
		return field
	}
	field := -1
	for i := 0; i < st.NumFields(); i++ {
		if isErrorType(st.Field(i).Type()) {
			if field >= 0 {
				return -1
			}
			field = i
		}
	}
	return field
}

// paramFieldIndex returns the pointer parameter and the field index when
// v is a load of a field of it; nil, -1 otherwise.
func paramFieldIndex(v ssa.Value) (*ssa.Parameter, int) {
	load, ok := ssaval.Unwrap(v).(*ssa.UnOp)
	if !ok {
		return nil, -1
	}
	fa, ok := load.X.(*ssa.FieldAddr)
	if !ok {
		return nil, -1
	}
	p, ok := fa.X.(*ssa.Parameter)
	if !ok {
		return nil, -1
	}
	return p, fa.Field
}

// wrappedIn returns the values stored, in fn, into the field Unwrap
// returns of the struct v points to, when v is one made there (a
// composite literal &Error{...}); nil otherwise.
func wrappedIn(v ssa.Value) []ssa.Value {
	alloc, ok := ssaval.Unwrap(v).(*ssa.Alloc)
	if !ok || alloc.Parent() == nil {
		return nil
	}
	field := unwrapField(alloc.Parent().Prog, alloc.Type())
	if field < 0 {
		return nil
	}
	var out []ssa.Value
	for _, ref := range *alloc.Referrers() {
		fa, ok := ref.(*ssa.FieldAddr)
		if !ok || fa.X != alloc || fa.Field != field {
			continue
		}
		for _, use := range *fa.Referrers() {
			if st, ok := use.(*ssa.Store); ok && st.Addr == fa {
				out = append(out, st.Val)
			}
		}
	}
	return out
}

// wrappedFrom reports whether the error v unwraps to the error of call:
// a struct made here holding it in the field Unwrap returns, or the
// result of a constructor whose summary says it wraps the argument
// (WrapsErr) given it.
func (e *extractor) wrappedFrom(v ssa.Value, call ssa.CallInstruction) bool {
	v = ssaval.Unwrap(v)
	if mi, ok := v.(*ssa.MakeInterface); ok {
		v = ssaval.Unwrap(mi.X)
	}
	if stored := wrappedIn(v); len(stored) > 0 {
		for _, s := range stored {
			if !fromCall(s, call, 0) {
				return false
			}
		}
		return true
	}
	c, ok := v.(*ssa.Call)
	if !ok {
		return false
	}
	callee := c.Common().StaticCallee()
	if callee == nil {
		return false
	}
	s := e.summary(callee)
	if s == nil || s.WrapsErr == 0 || s.WrapsErr > len(c.Common().Args) {
		return false
	}
	return fromCall(c.Common().Args[s.WrapsErr-1], call, 0)
}

// wrapSummary adds WrapsErr to the summary of a function every return of
// which gives, in its first result, a struct made there whose Unwrap
// field holds one and the same error parameter.
func wrapSummary(fn *ssa.Function, s *Summary) *Summary {
	if fn.Signature.Results().Len() == 0 {
		return s
	}
	param := -1
	returns := ssaval.Returns(fn)
	if len(returns) == 0 {
		return s
	}
	for _, ret := range returns {
		v := ssaval.Unwrap(ret.Results[0])
		if mi, ok := v.(*ssa.MakeInterface); ok {
			v = ssaval.Unwrap(mi.X)
		}
		stored := wrappedIn(v)
		if len(stored) != 1 {
			return s
		}
		p, ok := ssaval.Unwrap(stored[0]).(*ssa.Parameter)
		if !ok || !isErrorType(p.Type()) {
			return s
		}
		i := paramIndex(fn, p)
		if i < 0 || (param >= 0 && i != param) {
			return s
		}
		param = i
	}
	if s == nil {
		s = &Summary{}
	}
	s.WrapsErr = param + 1
	return s
}

// wrapperFacts returns the WrapsErr summaries of the error constructors,
// and the ErrorsIs summaries of the wrappers of errors.Is, of a package
// that gets no SSA otherwise (one that cannot touch a database: an
// errors package), built only when it declares an error type that
// unwraps (declaresWrapper) or a function of errors.Is's signature.
func wrapperFacts(src sourcePackage) map[*types.Func]*Summary {
	if !declaresWrapper(src.pkg) && !declaresIsWrapper(src.pkg) {
		return nil
	}
	out := map[*types.Func]*Summary{}
	for _, fn := range buildPackageSSA(src) {
		obj, ok := fn.Object().(*types.Func)
		if !ok || fn.Parent() != nil {
			continue
		}
		if s := errorsIsSummary(fn, wrapSummary(fn, nil)); s != nil {
			out[obj] = s
		}
	}
	return out
}

// declaresWrapper reports whether pkg declares a struct type whose
// pointer has the method Unwrap() error.
func declaresWrapper(pkg *types.Package) bool {
	scope := pkg.Scope()
	for _, name := range scope.Names() {
		tn, ok := scope.Lookup(name).(*types.TypeName)
		if !ok || tn.IsAlias() {
			continue
		}
		if _, ok := tn.Type().Underlying().(*types.Struct); !ok {
			continue
		}
		sel := types.NewMethodSet(types.NewPointer(tn.Type())).Lookup(nil, "Unwrap")
		if sel == nil {
			continue
		}
		if sig, ok := sel.Type().(*types.Signature); ok && sig.Params().Len() == 0 && sig.Results().Len() == 1 && isErrorType(sig.Results().At(0).Type()) {
			return true
		}
	}
	return false
}
