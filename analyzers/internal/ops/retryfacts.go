package ops

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/ssaval"
)

// This file computes the parts of a Summary retrypost needs: the
// non-idempotent requests a function sends with where their key comes
// from (Sends), the func parameters it retries (Retries), the keys it sets
// on requests it is given (Keys), and whether it returns a fresh value
// (FreshResult).

// maxSends bounds the requests one summary records.
const maxSends = 8

// requestSummary adds fn's request parts to s (which may be nil), and
// returns the summary, nil if still empty.
func (e *extractor) requestSummary(fn *ssa.Function, s *Summary) *Summary {
	add := &Summary{}
	funcs := bodyFuncs(fn)
	name := FuncName(fn)
	if obj, ok := fn.Object().(*types.Func); ok {
		name = funcName(obj)
	}

	// Sends.
	for _, f := range funcs {
		for _, sd := range e.sendsIn(f) {
			if len(add.Sends) >= maxSends {
				break
			}
			if out, ok := e.exportSend(fn, name, sd); ok {
				add.Sends = append(add.Sends, out)
			}
		}
	}

	// Retries: calls of a func parameter that something in fn retries.
	for _, f := range funcs {
		for _, b := range f.Blocks {
			for _, instr := range b.Instrs {
				call, ok := instr.(*ssa.Call)
				if !ok || call.Common().IsInvoke() {
					continue
				}
				k := callbackParam(fn, call.Common().Value)
				if k < 0 || slices.Contains(add.Retries, k) {
					continue
				}
				if e.retriedBy(call) != nil {
					add.Retries = append(add.Retries, k)
				}
			}
		}
	}

	// Keys set on a request parameter.
	for _, f := range funcs {
		for _, ev := range e.keyEvents(f) {
			for _, o := range ev.owners {
				p, ok := o.(*ssa.Parameter)
				if !ok || p.Parent() != fn {
					continue
				}
				k := ParamKey{Req: paramIndex(fn, p), Param: -1}
				switch {
				case ev.unknown:
					k.Key = KeyCaller // may set one: unknown
				case len(ev.src.fresh) > 0:
					k.Key, k.Fresh = KeyFresh, ev.src.fresh[0].name
				case ownParam(fn, ev.src.params) >= 0:
					k.Key, k.Param, k.IfFresh = KeyParam, ownParam(fn, ev.src.params), ev.src.ifFresh
				case ev.src.ifFresh:
					continue // an id header made of something else: no key
				default:
					k.Key = KeyStable
				}
				if !slices.Contains(add.Keys, k) {
					add.Keys = append(add.Keys, k)
				}
			}
		}
	}

	// A fresh result.
	if sig := fn.Signature; sig.Results().Len() > 0 && freshType(sig.Results().At(0).Type()) {
		for _, r := range ssaval.Returns(fn) {
			if len(r.Results) > 0 && len(keyValue(e, r.Results[0]).fresh) > 0 {
				add.FreshResult = true
				break
			}
		}
	}

	// The status code of a response, returned.
	if len(add.Sends) > 0 {
		add.Status = statusResult(fn)
	}

	// A request it makes and returns; a retrying client it returns.
	add.Builds = e.builds(fn)
	add.RetryingClient = e.returnsRetryingClient(fn)

	if len(add.Sends) == 0 && len(add.Retries) == 0 && len(add.Keys) == 0 && !add.FreshResult && add.Status.Index == 0 && add.Builds == nil && add.RetryingClient == "" {
		return s
	}
	if s == nil {
		s = &Summary{}
	}
	s.Sends, s.Retries, s.Keys, s.FreshResult, s.Builds = add.Sends, add.Retries, add.Keys, add.FreshResult, add.Builds
	s.Status = add.Status
	s.RetryingClient = add.RetryingClient
	return s
}

// exportSend returns what fn's callers need to know of a request fn
// sends: nothing (ok false) when it is judged in fn (judgedHere), when
// it is idempotent, or when its key is stable or unknown.
func (e *extractor) exportSend(fn *ssa.Function, name string, sd *send) (Send, bool) {
	rs, con := e.retriedSend(sd)
	if rs.judgedHere() {
		return Send{}, false // its callers stay silent
	}
	out := Send{
		Method: sd.method, MethodParam: ownParam(fn, []*ssa.Parameter{sd.methodParam}),
		URL: sd.url, URLParam: ownParam(fn, []*ssa.Parameter{sd.urlParam}),
		Via: sd.via, ReqParam: ownParam(fn, []*ssa.Parameter{sd.reqParam}),
		KeyParam: -1, Stripe: sd.stripe, Created: sd.created,
	}
	switch {
	case out.Method != "" && !sd.nonIdem:
		return Send{}, false
	case out.Method == "" && out.MethodParam < 0 && out.ReqParam < 0:
		return Send{}, false
	}
	k := sd.key
	sets, pending := keySets(k.sets)
	k.sets = sets
	switch {
	case k.unknown:
		return Send{}, false
	case pending && allParams(fn, sets):
		// An id header set from a parameter: a key if the caller passes
		// a fresh id.
		out.Key, out.KeyParam, out.KeyIfFresh = KeyParam, ownParam(fn, sets[0].params), true
	case pending:
		out.Key = KeyNone // an id header made of something else: no key
	case len(sets) == 0 && k.caller:
		if out.ReqParam < 0 {
			return Send{}, false
		}
		out.Key = KeyCaller
	case len(k.sets) == 0:
		out.Key = KeyNone
	default:
		allFresh, param := true, -1
		for _, set := range k.sets {
			if len(set.fresh) == 0 {
				allFresh = false
			}
			if p := ownParam(fn, set.params); p >= 0 && param < 0 {
				param = p
			}
		}
		switch {
		case allFresh:
			out.Key, out.KeyFresh = KeyFresh, k.sets[0].fresh[0].name
		case param >= 0 && allParams(fn, k.sets):
			out.Key, out.KeyParam = KeyParam, param
		default:
			return Send{}, false // a stable key
		}
	}
	if con != nil && out.Method == "" {
		// Retried here, but only the caller knows the method.
		out.Retry = con.in(fn)
	}
	return out, true
}

// allParams reports whether every key set is made from a parameter of fn
// (and so may differ between calls, as the caller decides).
func allParams(fn *ssa.Function, sets []keySrc) bool {
	for _, set := range sets {
		if ownParam(fn, set.params) < 0 {
			return false
		}
	}
	return true
}

// ownParam returns the index of the first of ps that is a parameter of
// fn, or -1.
func ownParam(fn *ssa.Function, ps []*ssa.Parameter) int {
	for _, p := range ps {
		if p != nil && p.Parent() == fn {
			return paramIndex(fn, p)
		}
	}
	return -1
}

// bodyFuncs returns fn and the closures it makes that run as part of it
// (not in a go statement), to three levels.
func bodyFuncs(fn *ssa.Function) []*ssa.Function {
	out := []*ssa.Function{fn}
	var add func(f *ssa.Function, depth int)
	add = func(f *ssa.Function, depth int) {
		if depth > 3 {
			return
		}
		goed := map[*ssa.Function]bool{}
		for _, b := range f.Blocks {
			for _, instr := range b.Instrs {
				if g, ok := instr.(*ssa.Go); ok {
					if cb, ok := callbackFunc(g.Call.Value); ok {
						goed[cb] = true
					}
				}
			}
		}
		for _, anon := range f.AnonFuncs {
			if !goed[anon] {
				out = append(out, anon)
				add(anon, depth+1)
			}
		}
	}
	add(fn, 0)
	return out
}

// freshType reports whether a result of type t can be an idempotency
// key, or what one is made of: a string, a number, bytes, or an array of
// bytes (a UUID).
func freshType(t types.Type) bool {
	switch u := t.Underlying().(type) {
	case *types.Basic:
		return u.Info()&(types.IsString|types.IsInteger) != 0
	case *types.Slice:
		b, ok := u.Elem().Underlying().(*types.Basic)
		return ok && b.Kind() == types.Byte
	case *types.Array:
		b, ok := u.Elem().Underlying().(*types.Basic)
		return ok && b.Kind() == types.Byte
	}
	return false
}

// requestParts renders the request parts of a summary for String.
func (s *Summary) requestParts() []string {
	var parts []string
	param := func(i int) string { return fmt.Sprintf("p%d", i) }
	for _, sd := range s.Sends {
		var b strings.Builder
		b.WriteString("send(")
		switch {
		case sd.Method != "":
			b.WriteString(sd.Method)
		case sd.MethodParam >= 0:
			b.WriteString("method=" + param(sd.MethodParam))
		default:
			b.WriteString("method=caller")
		}
		switch {
		case sd.URL != "":
			b.WriteString(" " + sd.URL)
		case sd.URLParam >= 0:
			b.WriteString(" url=" + param(sd.URLParam))
		}
		b.WriteString(" via " + sd.Via)
		if sd.ReqParam >= 0 {
			b.WriteString(" req=" + param(sd.ReqParam))
		}
		b.WriteString(" key=")
		switch sd.Key {
		case KeyFresh:
			b.WriteString("fresh(" + sd.KeyFresh + ")")
		case KeyParam:
			b.WriteString(param(sd.KeyParam))
			if sd.KeyIfFresh {
				b.WriteString(" if an id")
			}
		default:
			b.WriteString(sd.Key.String())
		}
		if sd.Retry != "" {
			b.WriteString(" retried by " + sd.Retry)
		}
		b.WriteString(")")
		parts = append(parts, b.String())
	}
	for _, k := range s.Retries {
		parts = append(parts, "retries("+param(k)+")")
	}
	for _, k := range s.Keys {
		what := k.Key.String()
		switch k.Key {
		case KeyFresh:
			what = "fresh(" + k.Fresh + ")"
		case KeyParam:
			what = param(k.Param)
			if k.IfFresh {
				what += " if an id"
			}
		case KeyCaller:
			what = "unknown"
		}
		parts = append(parts, fmt.Sprintf("setkey(%s: %s)", param(k.Req), what))
	}
	if s.FreshResult {
		parts = append(parts, "fresh")
	}
	if s.Status.Index > 0 {
		what := "status"
		if s.Status.Text {
			what = "status-text"
		}
		parts = append(parts, fmt.Sprintf("%s(r%d)", what, s.Status.Index-1))
	}
	return parts
}

// mayRetry reports whether a package may hold a user-written retry
// helper, whose summary its importers need even when it imports no
// network or database library: a function with a func parameter and a
// loop.
func mayRetry(pass *analysis.Pass) bool {
	for _, file := range pass.Files {
		for _, decl := range file.Decls {
			fd, ok := decl.(*ast.FuncDecl)
			if !ok || fd.Body == nil || !hasFuncParam(pass.TypesInfo, fd.Type) {
				continue
			}
			loop := false
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				switch x := n.(type) {
				case *ast.ForStmt, *ast.RangeStmt:
					loop = true
				case *ast.BranchStmt:
					if x.Tok == token.GOTO {
						loop = true
					}
				}
				return !loop
			})
			if loop {
				return true
			}
		}
	}
	return false
}

func hasFuncParam(info *types.Info, ft *ast.FuncType) bool {
	if ft.Params == nil {
		return false
	}
	for _, f := range ft.Params.List {
		if t := info.TypeOf(f.Type); t != nil {
			if _, ok := t.Underlying().(*types.Signature); ok {
				return true
			}
		}
	}
	return false
}
