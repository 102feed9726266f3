package ops

import (
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/knowledge"
	"github.com/idemlint/idemlint/analyzers/internal/ssaval"
)

// Retry wrappers: the callbacks a retry library or a helper whose
// summary says it retries runs again while they fail.

// wrapperOf returns the retry wrapper that fn, a closure, is the callback
// of, or nil.
func (e *extractor) wrapperOf(fn *ssa.Function) *construct {
	rx := e.req()
	if rx.wrapperOK[fn] {
		return rx.wrappers[fn]
	}
	rx.wrapperOK[fn] = true
	parent := fn.Parent()
	if parent == nil {
		return nil
	}
	var found *construct
	var follow func(v ssa.Value, depth int)
	check := func(call ssa.CallInstruction, v ssa.Value) {
		for k, a := range call.Common().Args {
			if a == v && found == nil {
				if con := e.retryCall(call, k); con != nil {
					con.fn = fn
					found = con
				}
			}
		}
	}
	follow = func(v ssa.Value, depth int) {
		refs := v.Referrers()
		if refs == nil || depth > 4 {
			return
		}
		for _, ref := range *refs {
			switch r := ref.(type) {
			case ssa.CallInstruction:
				check(r, v)
			case *ssa.ChangeType, *ssa.MakeInterface, *ssa.ChangeInterface:
				follow(r.(ssa.Value), depth+1)
			}
		}
	}
	for _, b := range parent.Blocks {
		for _, instr := range b.Instrs {
			if mc, ok := instr.(*ssa.MakeClosure); ok && mc.Fn == fn {
				follow(mc, 0)
				continue
			}
			for _, op := range instr.Operands(nil) {
				if op == nil || *op != fn {
					continue
				}
				switch x := instr.(type) {
				case ssa.CallInstruction:
					check(x, fn)
				case *ssa.ChangeType, *ssa.MakeInterface, *ssa.ChangeInterface:
					follow(x.(ssa.Value), 1)
				}
			}
		}
	}
	rx.wrappers[fn] = found
	return found
}

// retryCall returns the construct when call retries the func in its
// argument k: a Retry row of the tables (a failsafe-go executor only with
// a retry policy), a function whose summary says it retries that
// parameter, or one named in the retry-funcs setting.
func (e *extractor) retryCall(call ssa.CallInstruction, k int) *construct {
	if _, isGo := call.(*ssa.Go); isGo {
		return nil
	}
	common := call.Common()
	if k < 0 || k >= len(common.Args) {
		return nil
	}
	site, resolved := knowledge.Resolve(common)
	if resolved && site.Row != nil {
		row := site.Row
		if row.Kind != knowledge.Retry {
			return nil
		}
		i, ok := row.Param(knowledge.Callback)
		if !ok || site.Arg(i) != common.Args[k] {
			return nil
		}
		if recv := site.Receiver(); recv != nil && knowledge.HasRole(recv.Type(), knowledge.PolicyExecutor) && !e.executorRetries(recv, 0) {
			return nil
		}
		return &construct{kind: wrapperRetry, pos: call.Pos(), desc: CalleeName(site),
			marked: knowledge.RetriesOnlyMarked(row), markPkg: row.Func.Pkg}
	}
	callee := common.StaticCallee()
	if callee == nil {
		return nil
	}
	if callee.Origin() != nil {
		callee = callee.Origin()
	}
	obj, named := callee.Object().(*types.Func)
	if s := e.summary(callee); s != nil && slices.Contains(s.Retries, k) {
		desc := "the retry helper in " + FuncName(callee) // a closure
		if named {
			desc = funcName(obj)
		}
		return &construct{kind: wrapperRetry, pos: call.Pos(), desc: desc}
	}
	if named && e.req().retryFuncs[obj.FullName()] {
		if _, isFunc := common.Args[k].Type().Underlying().(*types.Signature); isFunc {
			return &construct{kind: wrapperRetry, pos: call.Pos(), desc: funcName(obj)}
		}
	}
	return nil
}

// wrapperRetries reports whether the wrapper con, whose callback is fn,
// retries when call fails: the callback returns the failure (or, after a
// failure check, some other error), not as a permanent error. For a
// wrapper that retries only marked errors, a MarkRetryable call must
// follow the call.
func (e *extractor) wrapperRetries(call ssa.CallInstruction, fn *ssa.Function, con *construct) bool {
	if con.marked {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				m, ok := instr.(ssa.CallInstruction)
				if !ok || m == call {
					continue
				}
				site, ok := knowledge.Resolve(m.Common())
				if ok && site.Row != nil && site.Row.Kind == knowledge.MarkRetryable && site.Row.Func.Pkg == con.markPkg && Reaches(call, m, nil) {
					return true
				}
			}
		}
		return false
	}
	v := call.Value()
	if v == nil {
		return false
	}
	errs, _ := resultValues(v)
	failure := map[ssa.Value]bool{}
	for _, x := range carriers(errs) {
		failure[x] = true
	}
	returns := ssaval.Returns(fn)
	for _, r := range returns {
		if len(r.Results) == 0 || !isErrorResult(r.Results[len(r.Results)-1].Type()) {
			continue
		}
		if Reaches(call, r, nil) && flowsFrom(r.Results[len(r.Results)-1], failure) {
			return true
		}
	}
	fail, _ := e.failureEdges(call)
	for _, ed := range fail {
		seen := map[*ssa.BasicBlock]bool{}
		queue := []*ssa.BasicBlock{ed.to}
		for len(queue) > 0 {
			x := queue[0]
			queue = queue[1:]
			if seen[x] {
				continue
			}
			seen[x] = true
			if ends(x) {
				continue
			}
			if ret, ok := x.Instrs[len(x.Instrs)-1].(*ssa.Return); ok {
				if len(ret.Results) > 0 && retryableError(ret.Results[len(ret.Results)-1]) {
					return true
				}
				continue
			}
			queue = append(queue, x.Succs...)
		}
	}
	return false
}

// flowsFrom reports whether v carries one of the values in from: through
// phis, conversions, and the arguments of calls that wrap an error
// (fmt.Errorf), but not through a call that marks it permanent.
func flowsFrom(v ssa.Value, from map[ssa.Value]bool) bool {
	seen := map[ssa.Value]bool{}
	budget := 128
	var walk func(v ssa.Value) bool
	walk = func(v ssa.Value) bool {
		if v == nil || seen[v] || budget <= 0 {
			return false
		}
		seen[v] = true
		budget--
		if from[v] {
			return true
		}
		switch x := v.(type) {
		case *ssa.Phi:
			for _, ed := range x.Edges {
				if walk(ed) {
					return true
				}
			}
		case *ssa.MakeInterface:
			return walk(x.X)
		case *ssa.ChangeType:
			return walk(x.X)
		case *ssa.ChangeInterface:
			return walk(x.X)
		case *ssa.Slice:
			return walk(x.X)
		case *ssa.Alloc:
			for _, ref := range *x.Referrers() {
				if ia, ok := ref.(*ssa.IndexAddr); ok {
					for _, use := range *ia.Referrers() {
						if st, ok := use.(*ssa.Store); ok && st.Addr == ia && walk(st.Val) {
							return true
						}
					}
				}
			}
		case *ssa.Call:
			if marks(x, knowledge.MarkPermanent) {
				return false
			}
			for _, a := range x.Common().Args {
				if walk(a) {
					return true
				}
			}
		}
		return false
	}
	return walk(v)
}

// retryableError reports whether a returned error may be one a wrapper
// retries: not nil, not marked permanent.
func retryableError(v ssa.Value) bool {
	seen := map[ssa.Value]bool{}
	var walk func(v ssa.Value, depth int) bool
	walk = func(v ssa.Value, depth int) bool {
		if seen[v] || depth > 16 {
			return false
		}
		seen[v] = true
		switch x := v.(type) {
		case *ssa.Const:
			return !x.IsNil()
		case *ssa.Phi:
			for _, ed := range x.Edges {
				if walk(ed, depth+1) {
					return true
				}
			}
			return false
		case *ssa.MakeInterface:
			return walk(x.X, depth+1)
		case *ssa.ChangeInterface:
			return walk(x.X, depth+1)
		case *ssa.Call:
			return !marks(x, knowledge.MarkPermanent)
		}
		return true
	}
	return walk(v, 0)
}

func marks(call *ssa.Call, kind knowledge.Kind) bool {
	site, ok := knowledge.Resolve(call.Common())
	return ok && site.Row != nil && site.Row.Kind == kind
}
