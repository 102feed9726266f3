package ops

import (
	"go/types"
	"sync"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/ssaval"
)

// Services wrap errors.Is in their own errors package (func Is(err,
// target error) bool { return errors.Is(err, target) }) and test "not
// found" and "duplicate" with the wrapper. Such a function is errors.Is:
// known by its body in its own package, and elsewhere by its summary
// (Summary.ErrorsIs), which the ops layer records when it imports it.

// isErrorsIs reports whether callee is errors.Is: the standard one, or a
// function whose every return is errors.Is of its two parameters.
func isErrorsIs(callee *ssa.Function) bool {
	if callee == nil {
		return false
	}
	if ssaval.PkgPath(callee) == "errors" && callee.Name() == "Is" {
		return true
	}
	if len(callee.Blocks) > 0 {
		return wrapsErrorsIs(callee)
	}
	obj, ok := callee.Object().(*types.Func)
	if !ok {
		return false
	}
	isWrappers.Lock()
	defer isWrappers.Unlock()
	return isWrappers.m[obj]
}

// isWrappers are the functions of other packages whose summaries say
// they are errors.Is, recorded as the summaries are imported (every call
// of one is classified, which imports its summary, before its tests are
// read). Objects are those of the pass that imported them; the set is
// cleared when large (a long-running gopls).
var isWrappers = struct {
	sync.Mutex
	m map[*types.Func]bool
}{m: map[*types.Func]bool{}}

func recordErrorsIs(obj *types.Func) {
	isWrappers.Lock()
	defer isWrappers.Unlock()
	if len(isWrappers.m) >= 4096 {
		clear(isWrappers.m)
	}
	isWrappers.m[obj] = true
}

// wrapsErrorsIs reports whether fn, of signature func(error, error)
// bool, returns the standard errors.Is of its first and second
// parameter, in that order, on every return.
func wrapsErrorsIs(fn *ssa.Function) bool {
	sig := fn.Signature
	if sig.Recv() != nil || sig.Params().Len() != 2 || sig.Results().Len() != 1 ||
		!isErrorType(sig.Params().At(0).Type()) || !isErrorType(sig.Params().At(1).Type()) ||
		!types.Identical(sig.Results().At(0).Type(), types.Typ[types.Bool]) {
		return false
	}
	returns := ssaval.Returns(fn)
	if len(returns) == 0 {
		return false
	}
	for _, ret := range returns {
		call, ok := ret.Results[0].(*ssa.Call)
		if !ok || len(call.Call.Args) != 2 || call.Call.Args[0] != fn.Params[0] || call.Call.Args[1] != fn.Params[1] {
			return false
		}
		callee := call.Call.StaticCallee()
		if callee == nil || ssaval.PkgPath(callee) != "errors" || callee.Name() != "Is" {
			return false
		}
	}
	return true
}

// errorsIsSummary sets ErrorsIs in the summary of a wrapper of
// errors.Is.
func errorsIsSummary(fn *ssa.Function, s *Summary) *Summary {
	if fn.Parent() != nil || !wrapsErrorsIs(fn) {
		return s
	}
	if s == nil {
		s = &Summary{}
	}
	s.ErrorsIs = true
	return s
}

// declaresIsWrapper reports whether pkg declares a function of
// errors.Is's signature, for a package otherwise given no SSA (an errors
// package).
func declaresIsWrapper(pkg *types.Package) bool {
	scope := pkg.Scope()
	for _, name := range scope.Names() {
		f, ok := scope.Lookup(name).(*types.Func)
		if !ok {
			continue
		}
		sig := f.Type().(*types.Signature)
		if sig.Params().Len() == 2 && sig.Results().Len() == 1 && isErrorType(sig.Params().At(0).Type()) && isErrorType(sig.Params().At(1).Type()) {
			return true
		}
	}
	return false
}
