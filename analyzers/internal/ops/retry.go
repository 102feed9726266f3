package ops

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// This file decides which calls are retried, and so which requests are
// sent again after a failure:
//
//   - a hand-written loop, when the back edge that runs the call again is
//     reachable from the call's failure (its error compared non-nil, or a
//     status check), and its success leaves the loop; a loop ranging over
//     a slice, array, map, string, channel or function (one call per
//     item) is not a retry, with a wait or without;
//   - a retry wrapper (backoff, retry-go, sethvargo/go-retry, resty's
//     Backoff, a failsafe-go executor with a retry policy, a user-written
//     helper whose summary says it retries a func parameter, a function
//     named in the retry-funcs setting) whose callback makes the call and
//     returns its failure as an error the wrapper retries (for
//     sethvargo/go-retry, only through RetryableError);
//   - a retrying client: go-retryablehttp's Client and the *http.Client
//     of its StandardClient or RoundTripper, a resty client with
//     SetRetryCount(n) for a constant n > 0, failsafehttp with a retry
//     policy. A client re-sends the same request, so a key set on it
//     before the call is the same on every attempt.

type constructKind uint8

const (
	loopRetry constructKind = iota + 1
	wrapperRetry
	clientRetry
	helperRetry
)

// A construct is what retries a call.
type construct struct {
	kind constructKind
	pos  token.Pos // the loop statement, the wrapper or client call
	desc string    // "the loop around it", "backoff.Retry", "the go-retryablehttp client"
	// A wrapper's callback, and whether the wrapper retries only errors
	// marked retryable by a MarkRetryable call of markPkg.
	fn      *ssa.Function
	marked  bool
	markPkg string
	// A loop's function, header and blocks.
	loopFn *ssa.Function
	header *ssa.BasicBlock
	blocks map[*ssa.BasicBlock]bool
}

// contains reports whether instr runs on every attempt of the construct.
func (c *construct) contains(instr ssa.Instruction) bool {
	switch c.kind {
	case loopRetry:
		return instr.Parent() == c.loopFn && c.blocks[instr.Block()]
	case wrapperRetry:
		for f := instr.Parent(); f != nil; f = f.Parent() {
			if f == c.fn {
				return true
			}
		}
	}
	return false
}

// carries reports whether a loop keeps a fresh value from one attempt to
// the next: a phi of its header, on the key's way, whose value from the
// back edge is made from it (if key == "" { key = uuid.NewString() }).
func (c *construct) carries(set keySrc, f freshAt) bool {
	if c.kind != loopRetry {
		return false
	}
	target, ok := f.instr.(ssa.Value)
	if !ok {
		return false
	}
	for _, phi := range set.phis {
		if phi.Block() != c.header {
			continue
		}
		for i, ed := range phi.Edges {
			if i < len(c.header.Preds) && c.blocks[c.header.Preds[i]] && reachesValue(ed, target) {
				return true
			}
		}
	}
	return false
}

// reachesValue reports whether v is computed from target, following
// operands backwards within a budget.
func reachesValue(v, target ssa.Value) bool {
	seen := map[ssa.Value]bool{}
	queue := []ssa.Value{v}
	for budget := 128; len(queue) > 0 && budget > 0; budget-- {
		x := queue[0]
		queue = queue[1:]
		if x == target {
			return true
		}
		if x == nil || seen[x] {
			continue
		}
		seen[x] = true
		if instr, ok := x.(ssa.Instruction); ok {
			for _, op := range instr.Operands(nil) {
				if op != nil && *op != nil {
					queue = append(queue, *op)
				}
			}
		}
	}
	return false
}

// in names the construct as seen from outside fn.
func (c *construct) in(fn *ssa.Function) string {
	switch c.kind {
	case loopRetry:
		return "the retry loop in " + FuncName(fn)
	case wrapperRetry:
		return c.desc + " in " + FuncName(fn)
	}
	return c.desc
}

// A RetryFinding is a non-idempotent request retried without an
// idempotency key fixed before the first attempt.
type RetryFinding struct {
	// Rule is "nokey" (no key) or "freshkey" (a key made on every
	// attempt).
	Rule string
	// Pos is the request call, or the call in the function that leads to
	// it (a helper's, or a retry wrapper's whose callback is a named
	// function).
	Pos token.Pos
	// Request names the request: "POST .../v1/payouts via
	// http.(*Client).Do".
	Request string
	// Retry names what retries it, RetryPos where it is.
	Retry    string
	RetryPos token.Pos
	// Fresh names what makes a fresh key on every attempt.
	Fresh string
	// Stripe is whether stripe-go sends it (and without a key makes a new
	// one per call).
	Stripe bool
}

// RetryFindings returns the retried non-idempotent requests of fn that
// are reported in fn: requests sent by fn's own calls, and those of a
// named function fn hands to a retry wrapper.
func (r *Result) RetryFindings(fn *ssa.Function) []RetryFinding {
	e := r.e
	var out []RetryFinding
	seen := map[token.Pos]bool{}
	add := func(f RetryFinding) {
		if !seen[f.Pos] {
			seen[f.Pos] = true
			out = append(out, f)
		}
	}
	for _, s := range e.sendsIn(fn) {
		if h, _ := e.sendHazard(s); h != nil {
			add(*h)
		}
	}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(ssa.CallInstruction)
			if !ok {
				continue
			}
			for _, f := range e.namedCallbackFindings(call) {
				add(f)
			}
		}
	}
	return out
}

// sendHazard returns the finding of a request, if some construct retries
// it without a stable key, and the first construct that retries it.
func (e *extractor) sendHazard(s *send) (*RetryFinding, *construct) {
	var first *construct
	for _, next := range []func() *construct{
		func() *construct { return e.clientRetry(s) },
		func() *construct {
			if s.inner != "" {
				return &construct{kind: helperRetry, pos: s.call.Pos(), desc: s.inner}
			}
			return nil
		},
		func() *construct { return e.loopRetry(s.call) },
		func() *construct {
			g := s.call.Parent()
			if con := e.wrapperOf(g); con != nil && e.wrapperRetries(s.call, g, con) {
				return con
			}
			return nil
		},
	} {
		con := next()
		if con == nil {
			continue
		}
		if first == nil {
			first = con
		}
		if rule, fresh := hazardRule(s, con); rule != "" {
			return &RetryFinding{
				Rule: rule, Pos: s.call.Pos(), Request: s.desc(),
				Retry: con.desc, RetryPos: con.pos, Fresh: fresh, Stripe: s.stripe,
			}, con
		}
	}
	return nil, first
}

// hazardRule says how retrying s by con is wrong: "nokey", "freshkey"
// (with what makes the key), or "" when it is safe or not known to be
// wrong.
func hazardRule(s *send, con *construct) (string, string) {
	if !s.nonIdem || s.key.unknown {
		return "", ""
	}
	if len(s.key.sets) == 0 {
		if s.key.caller {
			return "", ""
		}
		return "nokey", ""
	}
	fresh := ""
	for _, set := range s.key.sets {
		found := ""
		for _, f := range set.fresh {
			if con.contains(f.instr) && !con.carries(set, f) {
				found = f.name
				break
			}
		}
		if found == "" {
			return "", "" // a key fixed before the first attempt
		}
		if fresh == "" {
			fresh = found
		}
	}
	return "freshkey", fresh
}

// namedCallbackFindings returns the findings of a retry wrapper call
// whose callback is a named function (not a closure of this function,
// whose requests are reported where they are sent): the non-idempotent
// requests its summary says it sends without a key, or with a key it
// makes on every call.
func (e *extractor) namedCallbackFindings(call ssa.CallInstruction) []RetryFinding {
	if _, isGo := call.(*ssa.Go); isGo {
		return nil
	}
	var out []RetryFinding
	for k, a := range call.Common().Args {
		cb, ok := callbackFunc(a)
		if !ok || cb.Parent() != nil {
			continue
		}
		con := e.retryCall(call, k)
		if con == nil || con.marked {
			continue // sethvargo: which errors are marked is in the callback's body
		}
		fn := cb
		if fn.Origin() != nil {
			fn = fn.Origin()
		}
		sum := e.summary(fn)
		if sum == nil {
			continue
		}
		name := FuncName(fn)
		if obj, ok := fn.Object().(*types.Func); ok {
			name = funcName(obj)
		}
		for _, s := range sum.Sends {
			if !isNonIdempotent(s.Method) {
				continue
			}
			rule, fresh := "", ""
			switch s.Key {
			case KeyNone:
				rule = "nokey"
			case KeyFresh:
				rule, fresh = "freshkey", freshName(s.KeyFresh, name)
			default:
				continue
			}
			sd := &send{method: s.Method, url: s.URL, via: s.Via, helper: name}
			out = append(out, RetryFinding{
				Rule: rule, Pos: call.Pos(), Request: sd.desc(),
				Retry: con.desc, RetryPos: con.pos, Fresh: fresh, Stripe: s.Stripe,
			})
			break
		}
	}
	return out
}

// retriedBy returns what retries a call, or nil: a loop around it, or a
// wrapper whose callback it is in. Retrying clients retry requests only
// (see clientRetry).
func (e *extractor) retriedBy(call ssa.CallInstruction) *construct {
	if con := e.loopRetry(call); con != nil {
		return con
	}
	g := call.Parent()
	if con := e.wrapperOf(g); con != nil && e.wrapperRetries(call, g, con) {
		return con
	}
	return nil
}
