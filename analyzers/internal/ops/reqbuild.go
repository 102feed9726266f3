package ops

import (
	"fmt"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/knowledge"
	"github.com/idemlint/idemlint/analyzers/internal/ssaval"
)

// This file follows requests made by a function of the program and
// returned to its caller (a client's newRequest(ctx, method, path, body)):
// the caller that sends such a request learns its method and URL from the
// builder, as it would from a NewRequest call of its own.

// A RequestBuild says that a function returns a request it made itself
// (with a NewRequest the tables know, or through another such function)
// and set no idempotency key on.
type RequestBuild struct {
	// Method is the request's method, "" when MethodParam names it.
	Method string
	// MethodParam is the parameter holding the method, -1 if none.
	MethodParam int
	// URLParam is the parameter the URL is made from, -1 if none.
	URLParam int
}

func (b *RequestBuild) String() string {
	s := "builds("
	switch {
	case b.Method != "":
		s += b.Method
	case b.MethodParam >= 0:
		s += fmt.Sprintf("method=p%d", b.MethodParam)
	}
	if b.URLParam >= 0 {
		s += fmt.Sprintf(" url=p%d", b.URLParam)
	}
	return s + ")"
}

// ptrToRole reports whether t is a pointer to the named library type of
// role r.
func ptrToRole(t types.Type, r knowledge.TypeRole) bool {
	ptr, ok := t.(*types.Pointer)
	if !ok {
		return false
	}
	_, isNamed := ptr.Elem().(*types.Named)
	return isNamed && knowledge.HasRole(ptr.Elem(), r)
}

// returned returns the values fn returns as its first result that points
// to the library type of role, nil constants (the failure paths) left
// out; ok is false when fn has no such result.
func returned(fn *ssa.Function, role knowledge.TypeRole) (vals []ssa.Value, ok bool) {
	results := fn.Signature.Results()
	for i := 0; i < results.Len(); i++ {
		if !ptrToRole(results.At(i).Type(), role) {
			continue
		}
		for _, v := range returnedValues(fn, i) {
			if c, isConst := ssaval.Unwrap(v).(*ssa.Const); isConst && c.IsNil() {
				continue
			}
			vals = append(vals, v)
		}
		return vals, true
	}
	return nil, false
}

// builds returns what fn's result request is, or nil: computed for a
// function with a body in this package, else the fact of fn's package.
func (e *extractor) builds(fn *ssa.Function) *RequestBuild {
	if fn == nil {
		return nil
	}
	if fn.Origin() != nil {
		fn = fn.Origin()
	}
	if len(fn.Blocks) == 0 {
		if s := e.summary(fn); s != nil {
			return s.Builds
		}
		return nil
	}
	rx := e.req()
	if b, ok := rx.builds[fn]; ok {
		return b
	}
	rx.builds[fn] = nil // recursion
	b := e.buildOf(fn)
	rx.builds[fn] = b
	return b
}

// buildOf computes builds for a function with a body: every return of a
// non-nil request returns one made in fn (its roots are fn's own
// NewRequest calls or calls of builders), all with the same method, and
// fn sets no idempotency key on it.
func (e *extractor) buildOf(fn *ssa.Function) *RequestBuild {
	vals, ok := returned(fn, knowledge.HTTPRequest)
	if !ok || e.req().idempotent(fn) {
		return nil
	}
	var out *RequestBuild
	for _, v := range vals {
		root, ok := e.requestRoot(v).(*ssa.Call)
		if !ok {
			return nil
		}
		method, mp := e.requestMethodOf(fn, root)
		if method == "" && mp == nil {
			return nil
		}
		b := &RequestBuild{Method: method, MethodParam: ownParam(fn, []*ssa.Parameter{mp}), URLParam: -1}
		if u := e.requestURLOf(root); u != nil {
			b.URLParam = ownParam(fn, []*ssa.Parameter{urlParam(fn, u)})
		}
		if k := e.keyOf(fn, []ssa.Value{root}, nil); k.unknown || len(k.sets) > 0 {
			return nil // keyed here: what the caller adds is not all there is
		}
		if out != nil && *out != *b {
			return nil
		}
		out = b
	}
	return out
}
