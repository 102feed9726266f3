package ops

import (
	"go/constant"
	"go/token"
	"go/types"
	"strconv"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/knowledge"
	"github.com/idemlint/idemlint/analyzers/internal/ssaval"
)

// Retrying clients: go-retryablehttp, resty with a retry count,
// failsafe-go executors and policies, and transports that retry.

// clientRetry returns the retrying client a library request goes
// through, or nil.
func (e *extractor) clientRetry(s *send) *construct {
	if !s.library {
		return nil
	}
	site := s.site
	row := site.Row
	switch {
	case knowledge.RetriesItself(row):
		// The count is named only as far as the program shows it: a
		// client made here with no RetryMax set retries 4 times; one made
		// elsewhere (a registry's) may set its own.
		con := &construct{kind: clientRetry, pos: s.call.Pos(), desc: "the go-retryablehttp client"}
		if recv := site.Receiver(); recv != nil {
			for _, r := range e.clientRoots(recv, 0) {
				made := false
				if c, ok := r.(*ssa.Call); ok && callKind(c, knowledge.RetryClient) {
					con.pos, made = c.Pos(), true
				}
				stores := storesTo(r, "RetryMax")
				for _, st := range stores {
					if c, ok := st.(*ssa.Const); ok && c.Value != nil && constant.Sign(c.Value) <= 0 {
						return nil
					}
				}
				if len(storesTo(r, "CheckRetry")) > 0 {
					return nil // its own retry policy: which requests it retries is unknown
				}
				switch {
				case len(stores) == 1:
					if c, ok := stores[0].(*ssa.Const); ok && c.Value != nil {
						con.desc = "the go-retryablehttp client (RetryMax " + c.Value.ExactString() + ")"
					}
				case len(stores) == 0 && made:
					con.desc = "the go-retryablehttp client (RetryMax defaults to 4)"
				}
			}
		}
		return con
	case site.Receiver() != nil && knowledge.HasRole(site.Receiver().Type(), knowledge.HTTPClient):
		roots := e.clientRoots(site.Receiver(), 0)
		var con *construct
		for _, r := range roots {
			c := e.retryingHTTPClient(r)
			if c == nil {
				return nil
			}
			if con == nil {
				con = c
			}
		}
		return con
	case site.Receiver() != nil && knowledge.HasRole(site.Receiver().Type(), knowledge.ClientRequest):
		roots := clientRootsOf(e, site)
		var con *construct
		for _, r := range roots {
			c := e.restyRetries(r)
			if c == nil {
				return nil
			}
			if con == nil {
				con = c
			}
		}
		return con
	case site.Receiver() != nil && knowledge.HasRole(site.Receiver().Type(), knowledge.PolicyRequest):
		// failsafehttp: the policies of the NewRequest it comes from.
		if c, ok := e.requestRoot(site.Receiver()).(*ssa.Call); ok {
			if rs, ok := knowledge.Resolve(c.Common()); ok && rs.Row != nil && rs.Row.Kind == knowledge.NewRequest {
				if e.policiesRetry(rs) {
					return &construct{kind: clientRetry, pos: c.Pos(), desc: "the failsafe-go retry policy of " + CalleeName(rs)}
				}
			}
		}
	}
	return nil
}

func callKind(c *ssa.Call, kind knowledge.Kind) bool {
	site, ok := knowledge.Resolve(c.Common())
	return ok && site.Row != nil && site.Row.Kind == kind
}

// retryingHTTPClient returns the construct when the *http.Client root r
// retries: it comes from retryablehttp's StandardClient, or its Transport
// is a retryablehttp.RoundTripper or a failsafehttp round tripper with a
// retry policy.
func (e *extractor) retryingHTTPClient(r ssa.Value) *construct {
	switch x := r.(type) {
	case *ssa.Call:
		// retryablehttp's StandardClient: a RetryClient method of its
		// Client (NewClient returns no *http.Client, nor do round
		// tripper constructors).
		if site, ok := knowledge.Resolve(x.Common()); ok && site.Row != nil && site.Row.Kind == knowledge.RetryClient && site.Receiver() != nil && knowledge.HasRole(site.Receiver().Type(), knowledge.Retrying) {
			return &construct{kind: clientRetry, pos: x.Pos(), desc: "the go-retryablehttp client behind " + CalleeName(site)}
		}
		// A function of the program that returns a retrying client (a
		// shared package's NewHTTPClient).
		if desc := e.returnsRetryingClient(x.Common().StaticCallee()); desc != "" {
			return &construct{kind: clientRetry, pos: x.Pos(), desc: desc}
		}
	case *ssa.Alloc:
		for _, t := range storesTo(x, "Transport") {
			if c := e.transportRetry(t); c != nil {
				if !c.pos.IsValid() {
					c.pos = x.Pos() // the http.Client literal
				}
				return c
			}
			t = ssaval.Unwrap(t)
			if row := knowledge.TypeOf(t.Type()); row != nil && row.Role == knowledge.Retrying {
				return &construct{kind: clientRetry, pos: t.Pos(), desc: "the go-retryablehttp RoundTripper of its http.Client"}
			}
			if c, ok := t.(*ssa.Call); ok {
				if site, ok := knowledge.Resolve(c.Common()); ok && site.Row != nil && site.Row.Kind == knowledge.RetryClient && e.policiesRetry(site) {
					return &construct{kind: clientRetry, pos: c.Pos(), desc: "the failsafe-go retry policy of " + CalleeName(site)}
				}
			}
		}
	}
	return nil
}

// returnsRetryingClient describes the retrying *http.Client fn returns
// on every path that returns one, or returns "": computed for a function
// of this package, else read from its summary (RetryingClient).
func (e *extractor) returnsRetryingClient(fn *ssa.Function) string {
	if fn == nil {
		return ""
	}
	if fn.Origin() != nil {
		fn = fn.Origin()
	}
	if len(fn.Blocks) == 0 {
		if s := e.summary(fn); s != nil {
			return s.RetryingClient
		}
		return ""
	}
	rx := e.req()
	if d, ok := rx.retryingClients[fn]; ok {
		return d
	}
	rx.retryingClients[fn] = "" // recursion
	d := e.retryingClientOf(fn)
	rx.retryingClients[fn] = d
	return d
}

func (e *extractor) retryingClientOf(fn *ssa.Function) string {
	vals, _ := returned(fn, knowledge.HTTPClient)
	desc := ""
	for _, v := range vals {
		c := e.retryingHTTPClient(e.requestRoot(v))
		if c == nil {
			return ""
		}
		if desc == "" {
			desc = c.desc + " made by " + FuncName(fn)
		}
	}
	return desc
}

// transportRetry returns the construct when t, a value stored in an
// http.Client's Transport, is of a type of the program whose RoundTrip
// sends the request it is given again after a failure (its summary has a
// send of its request parameter retried inside): every request the
// client sends, it may send twice, the same request with the same key.
func (e *extractor) transportRetry(t ssa.Value) *construct {
	v := t
	if mi, ok := v.(*ssa.MakeInterface); ok {
		v = mi.X
	}
	obj, _, _ := types.LookupFieldOrMethod(v.Type(), true, nil, "RoundTrip")
	m, ok := obj.(*types.Func)
	if !ok || m.Pkg() == nil || e.std(m.Pkg().Path()) || e.covered(m.Pkg().Path()) {
		return nil
	}
	var s *Summary
	if fn := e.localFunc(m); fn != nil {
		s = e.summary(fn)
	} else if e.imported != nil {
		s = e.imported(m)
	}
	if s == nil {
		return nil
	}
	for _, sd := range s.Sends {
		if sd.ReqParam == 1 && sd.Retry != "" {
			pos := t.Pos()
			if !pos.IsValid() {
				pos = v.Pos()
			}
			return &construct{kind: clientRetry, pos: pos, desc: sd.Retry + " (the Transport of its http.Client)"}
		}
	}
	return nil
}

// localFunc returns the function of the package under analysis declared
// as obj, or nil.
func (e *extractor) localFunc(obj *types.Func) *ssa.Function {
	for _, fn := range e.req().funcs {
		if fn.Object() == obj {
			return fn
		}
	}
	return nil
}

// policiesRetry reports whether the failsafe-go policies a call takes
// (its variadic policies, or an executor) include a retry policy.
func (e *extractor) policiesRetry(site knowledge.Site) bool {
	i, ok := site.Row.Param(knowledge.Policies)
	if !ok {
		return false
	}
	if vals, ok := site.Variadic(i); ok && hasRetryPolicy(vals) {
		return true
	}
	return e.executorRetries(site.Arg(i), 0)
}

// executorRetries reports whether a failsafe-go executor has a retry
// policy: it comes from With, WithAny or Compose with one, through
// WithContext, or from a struct field every store to which has one.
func (e *extractor) executorRetries(v ssa.Value, depth int) bool {
	if v == nil || depth > 8 {
		return false
	}
	v = ssaval.Unwrap(v)
	switch x := v.(type) {
	case *ssa.Call:
		site, ok := knowledge.Resolve(x.Common())
		if !ok || site.Row == nil || site.Row.Kind != knowledge.RetryConfig {
			return false
		}
		if i, ok := site.Row.Param(knowledge.Policies); ok {
			if vals, ok := site.Variadic(i); ok && hasRetryPolicy(vals) {
				return true
			}
		}
		return e.executorRetries(site.Receiver(), depth+1)
	case *ssa.UnOp:
		if fa, ok := x.X.(*ssa.FieldAddr); ok && x.Op == token.MUL {
			if f := ssaval.FieldOf(fa); f != nil {
				stores := e.FieldStores(f)
				for _, st := range stores {
					if !e.executorRetries(st, depth+1) {
						return false
					}
				}
				return len(stores) > 0
			}
		}
		if stored := storedOnce(x); stored != nil {
			return e.executorRetries(stored, depth+1)
		}
	}
	return false
}

func hasRetryPolicy(vals []ssa.Value) bool {
	for _, v := range vals {
		if v == nil {
			continue
		}
		if row := knowledge.TypeOf(ssaval.Unwrap(v).Type()); row != nil && row.Role == knowledge.RetryPolicy {
			return true
		}
	}
	return false
}

// restyRetries returns the construct when the resty client root r has
// SetRetryCount(n) with a constant n > 0 (in the function that makes it),
// or nil: none, zero, or a count that is not constant (unknown).
func (e *extractor) restyRetries(r ssa.Value) *construct {
	instr, ok := r.(ssa.Instruction)
	if !ok || instr.Parent() == nil {
		return nil
	}
	var con *construct
	for _, b := range instr.Parent().Blocks {
		for _, in := range b.Instrs {
			call, ok := in.(ssa.CallInstruction)
			if !ok {
				continue
			}
			site, ok := knowledge.Resolve(call.Common())
			if !ok || site.Row == nil || site.Row.Kind != knowledge.RetryConfig || site.Receiver() == nil {
				continue
			}
			count := site.RoleArg(knowledge.Count)
			if count == nil || e.requestRoot(site.Receiver()) != r {
				continue
			}
			c, isConst := count.(*ssa.Const)
			if !isConst || c.Value == nil || c.Value.Kind() != constant.Int {
				return nil // not constant: unknown
			}
			n, _ := constant.Int64Val(c.Value)
			if n <= 0 {
				return nil
			}
			con = &construct{kind: clientRetry, pos: call.Pos(), desc: "the resty client (SetRetryCount(" + strconv.FormatInt(n, 10) + "))"}
		}
	}
	return con
}
