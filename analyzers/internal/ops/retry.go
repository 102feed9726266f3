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

// A RetriedSend is a request a function sends, or hands to a retry
// wrapper through a named callback, that something retries: the facts
// retrypost judges. Which of them is a hazard, and how it is worded, is
// retrypost's; ops only says what each retry does to the request's key.
type RetriedSend struct {
	// Pos is the request call, or the call in the function that leads to
	// it (a helper's, or a retry wrapper's whose callback is a named
	// function).
	Pos token.Pos
	// Request names the request: "POST .../v1/payouts via
	// http.(*Client).Do".
	Request string
	// NonIdempotent is whether performing it twice does the work twice: a
	// POST or PATCH, a stripe-go create, confirm or capture (not one that
	// asks for an event stream).
	NonIdempotent bool
	// Stripe is whether stripe-go sends it: without a key of its own, it
	// makes a new one on every call.
	Stripe bool
	// Created says what in the code shows that it creates something on
	// the server, "" when nothing does (createevidence.go).
	Created string
	// Retries lists what retries it, each with what it does to the key:
	// for a request sent in the function, a retrying client, the retry
	// inside the helper that sends it, the loop around it, the retry
	// wrapper whose callback holds it, in that order (those that apply);
	// for a named callback, the wrapper it is given to.
	Retries []Retrial
}

// A Retrial is one construct that retries a request.
type Retrial struct {
	// By names what retries it, Pos where it is.
	By  string
	Pos token.Pos
	// Key is the request's idempotency key across its attempts, Fresh
	// what makes it when it is made on every attempt.
	Key   AttemptKey
	Fresh string
}

// An AttemptKey says what a request's idempotency key is across the
// attempts of a retry.
type AttemptKey uint8

const (
	// AttemptKeyUnknown: code that cannot be seen may set one, or the
	// request is a parameter with no key set here, which the caller may
	// have set.
	AttemptKeyUnknown AttemptKey = iota
	// AttemptKeyNone: the request carries no key.
	AttemptKeyNone
	// AttemptKeyEach: every value set as its key is made inside the
	// retried code (and not carried from one attempt to the next), so each
	// attempt carries a new one.
	AttemptKeyEach
	// AttemptKeyFixed: a key set on it is fixed before the first attempt.
	AttemptKeyFixed
)

func (k AttemptKey) String() string {
	switch k {
	case AttemptKeyNone:
		return "none"
	case AttemptKeyEach:
		return "each attempt"
	case AttemptKeyFixed:
		return "fixed"
	}
	return "unknown"
}

// RetriedSends returns the retried requests of fn that are reported in
// fn, in instruction order: requests sent by fn's own calls, then those
// of a named function fn hands to a retry wrapper.
func (r *Result) RetriedSends(fn *ssa.Function) []RetriedSend {
	r.e.lazy.Lock()
	defer r.e.lazy.Unlock()
	e := r.e
	var out []RetriedSend
	for _, s := range e.sendsIn(fn) {
		if rs, _ := e.retriedSend(s); rs != nil {
			out = append(out, *rs)
		}
	}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if call, ok := instr.(ssa.CallInstruction); ok {
				out = append(out, e.namedCallbackSends(call)...)
			}
		}
	}
	return out
}

// retriedSend returns what retries a request (nil when nothing does)
// and the first construct that retries it.
func (e *extractor) retriedSend(s *send) (*RetriedSend, *construct) {
	var rs *RetriedSend
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
			rs = &RetriedSend{Pos: s.call.Pos(), Request: s.desc(), NonIdempotent: s.nonIdem, Stripe: s.stripe, Created: s.created}
		}
		key, fresh := attemptKey(s, con)
		rs.Retries = append(rs.Retries, Retrial{By: con.desc, Pos: con.pos, Key: key, Fresh: fresh})
	}
	return rs, first
}

// attemptKey says what retrying s by con does to its key, and, when a
// new one is made on every attempt, what makes it (that of the first
// value set as its key).
func attemptKey(s *send, con *construct) (AttemptKey, string) {
	if s.key.unknown {
		return AttemptKeyUnknown, ""
	}
	sets, pending := keySets(s.key.sets)
	if pending {
		// An id header whose value the caller passes: only the caller
		// knows whether it is a key.
		return AttemptKeyUnknown, ""
	}
	if len(sets) == 0 {
		if s.key.caller {
			return AttemptKeyUnknown, ""
		}
		return AttemptKeyNone, ""
	}
	fresh := ""
	for _, set := range sets {
		found := ""
		for _, f := range set.fresh {
			if con.contains(f.instr) && !con.carries(set, f) {
				found = f.name
				break
			}
		}
		if found == "" {
			return AttemptKeyFixed, ""
		}
		if fresh == "" {
			fresh = found
		}
	}
	return AttemptKeyEach, fresh
}

// judgedHere reports whether a retried request is complete in the
// function that retries it: non-idempotent, and retried with no key or
// with one made on every attempt. Whatever is to be said of it is said
// there (retrypost reports it in that function), so the function's
// summary leaves it out and its callers stay silent.
func (rs *RetriedSend) judgedHere() bool {
	if rs == nil || !rs.NonIdempotent {
		return false
	}
	for _, r := range rs.Retries {
		if r.Key == AttemptKeyNone || r.Key == AttemptKeyEach {
			return true
		}
	}
	return false
}

// namedCallbackSends returns the requests of a retry wrapper call whose
// callback is a named function (not a closure of this function, whose
// requests are reported where they are sent), from its summary: the
// requests it sends that its callers must judge, each retried by the
// wrapper.
func (e *extractor) namedCallbackSends(call ssa.CallInstruction) []RetriedSend {
	if _, isGo := call.(*ssa.Go); isGo {
		return nil
	}
	var out []RetriedSend
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
			// A key the callback makes is made on every call, and so on
			// every attempt; one from its parameter or its caller's
			// request is the wrapper's to give, which is not seen.
			key, fresh := AttemptKeyUnknown, ""
			switch s.Key {
			case KeyNone:
				key = AttemptKeyNone
			case KeyFresh:
				key, fresh = AttemptKeyEach, freshName(s.KeyFresh, name)
			}
			sd := &send{method: s.Method, url: s.URL, via: s.Via, helper: name}
			out = append(out, RetriedSend{
				Pos: call.Pos(), Request: sd.desc(), NonIdempotent: isNonIdempotent(s.Method), Stripe: s.Stripe, Created: s.Created,
				Retries: []Retrial{{By: con.desc, Pos: con.pos, Key: key, Fresh: fresh}},
			})
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
