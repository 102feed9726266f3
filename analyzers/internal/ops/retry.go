package ops

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"slices"
	"sort"
	"strconv"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/knowledge"
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

// Loops.

type loopInfo struct {
	headers []*ssa.BasicBlock // innermost first
	body    map[*ssa.BasicBlock]map[*ssa.BasicBlock]bool
	perItem map[*ssa.BasicBlock]bool // ranges over a collection
	pos     map[*ssa.BasicBlock]token.Pos
}

// loopsOf finds the natural loops of fn: a back edge is an edge to a
// block that dominates its source; its loop is the header and every block
// that reaches the source without passing the header.
func (e *extractor) loopsOf(fn *ssa.Function) *loopInfo {
	rx := e.req()
	if li, ok := rx.loops[fn]; ok {
		return li
	}
	li := &loopInfo{body: map[*ssa.BasicBlock]map[*ssa.BasicBlock]bool{}, perItem: map[*ssa.BasicBlock]bool{}, pos: map[*ssa.BasicBlock]token.Pos{}}
	rx.loops[fn] = li
	latches := map[*ssa.BasicBlock][]*ssa.BasicBlock{}
	for _, b := range fn.Blocks {
		for _, h := range b.Succs {
			if h.Dominates(b) {
				latches[h] = append(latches[h], b)
			}
		}
	}
	for h, ls := range latches {
		body := map[*ssa.BasicBlock]bool{h: true}
		stack := append([]*ssa.BasicBlock(nil), ls...)
		for len(stack) > 0 {
			x := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if body[x] {
				continue
			}
			body[x] = true
			stack = append(stack, x.Preds...)
		}
		li.body[h] = body
		li.headers = append(li.headers, h)
	}
	sort.Slice(li.headers, func(i, j int) bool {
		a, b := li.headers[i], li.headers[j]
		if len(li.body[a]) != len(li.body[b]) {
			return len(li.body[a]) < len(li.body[b])
		}
		return a.Index < b.Index
	})
	// The statement of each loop: the innermost for or range statement
	// around all its instructions.
	var stmts []ast.Stmt
	if syntax := fn.Syntax(); syntax != nil {
		ast.Inspect(syntax, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.FuncLit:
				return n == syntax
			case *ast.ForStmt, *ast.RangeStmt:
				stmts = append(stmts, x.(ast.Stmt))
			}
			return true
		})
	}
	for _, h := range li.headers {
		lo, hi := token.NoPos, token.NoPos
		for b := range li.body[h] {
			for _, instr := range b.Instrs {
				if _, isPhi := instr.(*ssa.Phi); isPhi {
					continue // a phi has the position of its variable's declaration
				}
				if p := instr.Pos(); p.IsValid() {
					if !lo.IsValid() || p < lo {
						lo = p
					}
					if p > hi {
						hi = p
					}
				}
			}
		}
		var best ast.Stmt
		for _, s := range stmts {
			if lo.IsValid() && s.Pos() <= lo && hi < s.End() && (best == nil || s.Pos() >= best.Pos() && s.End() <= best.End()) {
				best = s
			}
		}
		if best == nil {
			continue
		}
		li.pos[h] = best.Pos()
		if rs, ok := best.(*ast.RangeStmt); ok {
			li.perItem[h] = !rangesOverInt(rx.info, rs)
		}
	}
	return li
}

// rangesOverInt reports whether a range statement counts (for i := range
// n), which a retry loop may do, rather than ranging over items.
func rangesOverInt(info *types.Info, rs *ast.RangeStmt) bool {
	if info == nil || rs.X == nil {
		return false
	}
	t := info.TypeOf(rs.X)
	if t == nil {
		return false
	}
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsInteger != 0
}

// loopRetry returns the innermost loop that sends call again after it
// failed, or nil.
func (e *extractor) loopRetry(call ssa.CallInstruction) *construct {
	fn := call.Parent()
	if fn == nil || call.Block() == nil {
		return nil
	}
	fail, succ := failureEdges(call)
	if len(fail) == 0 {
		return nil
	}
	li := e.loopsOf(fn)
	for _, h := range li.headers {
		body := li.body[h]
		if !body[call.Block()] || li.perItem[h] {
			continue
		}
		if !e.reachesBackEdge(fail, errValues(call), body, h) || !leavesLoop(succ, body, h) || repeatsOnSuccess(succ, fail, body, h) {
			continue
		}
		pos := li.pos[h]
		if !pos.IsValid() {
			pos = call.Pos()
		}
		return &construct{kind: loopRetry, pos: pos, desc: "the loop around it", loopFn: fn, header: h, blocks: body}
	}
	return nil
}

// An edge is a branch of an If: from its block to one successor.
type branchEdge struct{ from, to *ssa.BasicBlock }

// noReturn lists the standard library's functions that never return to
// their caller: a path through one of them ends there, though the CFG
// goes on (t.Fatal, log.Fatal, os.Exit).
var noReturn = map[string]bool{
	"os.Exit": true, "runtime.Goexit": true,
	"log.Fatal": true, "log.Fatalf": true, "log.Fatalln": true,
	"log.Panic": true, "log.Panicf": true, "log.Panicln": true,
	"(*log.Logger).Fatal": true, "(*log.Logger).Fatalf": true, "(*log.Logger).Fatalln": true,
	"(*log.Logger).Panic": true, "(*log.Logger).Panicf": true, "(*log.Logger).Panicln": true,
	"(*testing.common).Fatal": true, "(*testing.common).Fatalf": true, "(*testing.common).FailNow": true,
	"(*testing.common).Skip": true, "(*testing.common).Skipf": true, "(*testing.common).SkipNow": true,
	"(testing.TB).Fatal": true, "(testing.TB).Fatalf": true, "(testing.TB).FailNow": true,
	"(testing.TB).Skip": true, "(testing.TB).Skipf": true, "(testing.TB).SkipNow": true,
}

// ends reports whether a block never goes on to its successors: it calls
// a function that does not return.
func ends(b *ssa.BasicBlock) bool {
	for _, instr := range b.Instrs {
		call, ok := instr.(*ssa.Call)
		if !ok {
			continue
		}
		var obj *types.Func
		if call.Common().IsInvoke() {
			obj = call.Common().Method
		} else if callee := call.Common().StaticCallee(); callee != nil {
			obj, _ = callee.Object().(*types.Func)
		}
		if obj != nil && noReturn[obj.FullName()] {
			return true
		}
	}
	return false
}

// reachesBackEdge reports whether some failure edge inside the loop leads
// to the loop's back edge without passing its header.
func (e *extractor) reachesBackEdge(fail []branchEdge, errs map[ssa.Value]bool, body map[*ssa.BasicBlock]bool, h *ssa.BasicBlock) bool {
	taken := func(x *ssa.BasicBlock, i int) bool {
		unclassified := e.classifiedFalse(x, errs)
		return !onRejection(x, i) && (unclassified < 0 || i == unclassified)
	}
	// A failure edge is itself such a branch when the status test that
	// makes it one is a rejection (the false side of code != 429).
	var from []branchEdge
	for _, e := range fail {
		if i := slices.Index(e.from.Succs, e.to); i < 0 || taken(e.from, i) {
			from = append(from, e)
		}
	}
	return backToHeader(from, body, h, func(x *ssa.BasicBlock) []*ssa.BasicBlock {
		var next []*ssa.BasicBlock
		for i, y := range x.Succs {
			if taken(x, i) {
				next = append(next, y)
			}
		}
		return next
	})
}

// backToHeader reports whether one of the edges inside the loop leads to
// its header h without leaving the loop, following from each block the
// successors next gives (a path stops at a block that never returns).
func backToHeader(from []branchEdge, body map[*ssa.BasicBlock]bool, h *ssa.BasicBlock, next func(*ssa.BasicBlock) []*ssa.BasicBlock) bool {
	for _, e := range from {
		if !body[e.from] {
			continue
		}
		if e.to == h {
			return true
		}
		seen := map[*ssa.BasicBlock]bool{}
		queue := []*ssa.BasicBlock{e.to}
		for len(queue) > 0 {
			x := queue[0]
			queue = queue[1:]
			if seen[x] || !body[x] || ends(x) {
				continue
			}
			seen[x] = true
			for _, y := range next(x) {
				if y == h {
					return true
				}
				queue = append(queue, y)
			}
		}
	}
	return false
}

// errValues returns the error result of call and the values it flows
// into (phis, conversions).
func errValues(call ssa.CallInstruction) map[ssa.Value]bool {
	out := map[ssa.Value]bool{}
	v := call.Value()
	if v == nil {
		return out
	}
	errs, _ := resultValues(v)
	for _, e := range carriers(errs) {
		out[e] = true
	}
	return out
}

// classifiedFalse returns, when b ends by branching on a call given the
// send's error (isUnauthorized(err), errors.Is(err, ErrBusy)), the index
// of the successor taken when that call says false; -1 otherwise. A
// retry taken only when such a check says true retries the errors it
// picks, not every failure: whether a lost response is among them is not
// known, so the path is not counted as retrying one.
func (e *extractor) classifiedFalse(b *ssa.BasicBlock, errs map[ssa.Value]bool) int {
	if len(errs) == 0 || len(b.Instrs) == 0 || len(b.Succs) != 2 {
		return -1
	}
	ifInstr, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If)
	if !ok {
		return -1
	}
	cond, falseSide := ifInstr.Cond, 1
	if not, ok := cond.(*ssa.UnOp); ok && not.Op == token.NOT {
		cond, falseSide = not.X, 0
	}
	call, ok := cond.(*ssa.Call)
	if !ok || !e.picksAnswer(call, 0) {
		return -1
	}
	for _, a := range call.Common().Args {
		if errs[a] || errs[knowledge.Unwrap(a)] {
			return falseSide
		}
	}
	return -1
}

// picksAnswer reports whether call tests an error for an answer the
// server gave, as the program represents it: errors.Is with a sentinel of
// the program's own, errors.As into an error type of its own, or a
// function of the program that does one of these. Tests for the standard
// library's errors (a timeout, context.DeadlineExceeded, io.EOF), which
// a lost response produces, are not.
func (e *extractor) picksAnswer(call *ssa.Call, depth int) bool {
	callee := call.Common().StaticCallee()
	if callee == nil || funcPkg(callee) == nil {
		return false
	}
	args := call.Common().Args
	if funcPkgPath(callee) == "errors" && len(args) == 2 {
		switch callee.Name() {
		case "Is":
			g := globalOf(args[1])
			return g != nil && g.Pkg != nil && !e.std(g.Pkg.Pkg.Path())
		case "As":
			ptr, ok := knowledge.Unwrap(args[1]).Type().(*types.Pointer)
			if !ok {
				return false
			}
			t := ptr.Elem()
			if p, ok := t.(*types.Pointer); ok {
				t = p.Elem()
			}
			named, ok := t.(*types.Named)
			return ok && named.Obj().Pkg() != nil && !e.std(named.Obj().Pkg().Path())
		}
		return false
	}
	if depth > 0 || e.std(funcPkgPath(callee)) || len(callee.Blocks) == 0 {
		return false
	}
	picks := false
	for _, b := range callee.Blocks {
		for _, instr := range b.Instrs {
			c, ok := instr.(*ssa.Call)
			if !ok {
				continue
			}
			if f := c.Common().StaticCallee(); f != nil && funcPkgPath(f) == "errors" && (f.Name() == "Is" || f.Name() == "As") {
				if !e.picksAnswer(c, depth+1) {
					return false
				}
				picks = true
			}
		}
	}
	return picks
}

// rejectionStatuses are the HTTP statuses with which a server says it did
// not perform a request: a retry taken only on one of them repeats a
// request whose outcome is known, not one whose response was lost.
var rejectionStatuses = map[int64]bool{409: true, 423: true, 425: true, 429: true, 503: true}

// onRejection reports whether the i'th successor of b is taken only when
// an integer equals a rejection status (if code == http.StatusConflict,
// or the false side of code != 409).
func onRejection(b *ssa.BasicBlock, i int) bool {
	if len(b.Instrs) == 0 || len(b.Succs) != 2 {
		return false
	}
	ifInstr, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If)
	if !ok {
		return false
	}
	cond, ok := ifInstr.Cond.(*ssa.BinOp)
	if !ok || (cond.Op != token.EQL && cond.Op != token.NEQ) {
		return false
	}
	c, ok := cond.Y.(*ssa.Const)
	if !ok {
		c, ok = cond.X.(*ssa.Const)
	}
	if !ok || c.Value == nil || c.Value.Kind() != constant.Int {
		return false
	}
	n, exact := constant.Int64Val(c.Value)
	if !exact || !rejectionStatuses[n] {
		return false
	}
	// Succs[0] is the true side.
	return (cond.Op == token.EQL) == (i == 0)
}

// repeatsOnSuccess reports whether a success edge leads back to the loop's
// header without passing a failure edge: the loop sends the request again
// after it succeeded (polling until a job finishes), so the program treats
// it as safe to repeat, a read sent with POST; it is not retrying a
// failure.
func repeatsOnSuccess(succ, fail []branchEdge, body map[*ssa.BasicBlock]bool, h *ssa.BasicBlock) bool {
	failing := map[branchEdge]bool{}
	for _, e := range fail {
		failing[e] = true
	}
	return backToHeader(succ, body, h, func(x *ssa.BasicBlock) []*ssa.BasicBlock {
		if makesError(x) {
			// The program calls this outcome an error (errcode != 0:
			// lastErr = fmt.Errorf(...)).
			return nil
		}
		succs := x.Succs
		if ok := nilErrorSucc(x); ok != nil {
			// Another result is checked (a decode after the send):
			// only its success goes on succeeding.
			succs = []*ssa.BasicBlock{ok}
		}
		var next []*ssa.BasicBlock
		for _, y := range succs {
			if !failing[branchEdge{x, y}] {
				next = append(next, y)
			}
		}
		return next
	})
}

// makesError reports whether b makes a new error value: fmt.Errorf,
// errors.New or errors.Join, or a value of a type of its own converted to
// error.
func makesError(b *ssa.BasicBlock) bool {
	for _, instr := range b.Instrs {
		switch x := instr.(type) {
		case *ssa.Call:
			if isFunc(x, "fmt", "Errorf") || isFunc(x, "errors", "New") || isFunc(x, "errors", "Join") {
				return true
			}
		case *ssa.MakeInterface:
			if isErrorResult(x.Type()) {
				return true
			}
		}
	}
	return false
}

// nilErrorSucc returns, when b ends by comparing an error with nil, the
// successor taken when the error is nil; nil otherwise.
func nilErrorSucc(b *ssa.BasicBlock) *ssa.BasicBlock {
	if len(b.Instrs) == 0 || len(b.Succs) != 2 {
		return nil
	}
	ifInstr, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If)
	if !ok {
		return nil
	}
	cond, ok := ifInstr.Cond.(*ssa.BinOp)
	if !ok || (cond.Op != token.EQL && cond.Op != token.NEQ) {
		return nil
	}
	if !(isNilConst(cond.X) && isErrorResult(cond.Y.Type())) && !(isNilConst(cond.Y) && isErrorResult(cond.X.Type())) {
		return nil
	}
	if cond.Op == token.EQL {
		return b.Succs[0]
	}
	return b.Succs[1]
}

// leavesLoop reports whether some success edge inside the loop leads out
// of it (a break or return) without passing its header: a retry stops
// when the call succeeds, a loop over items goes on to the next.
func leavesLoop(succ []branchEdge, body map[*ssa.BasicBlock]bool, h *ssa.BasicBlock) bool {
	for _, e := range succ {
		if !body[e.from] {
			continue
		}
		seen := map[*ssa.BasicBlock]bool{}
		queue := []*ssa.BasicBlock{e.to}
		for len(queue) > 0 {
			x := queue[0]
			queue = queue[1:]
			if seen[x] || x == h {
				continue
			}
			seen[x] = true
			if !body[x] || ends(x) {
				return true
			}
			queue = append(queue, x.Succs...)
		}
	}
	return false
}

// failureEdges returns the branches taken when call failed (its error
// result compared non-nil, an *http.Response status outside 2xx), and
// the other branches of the same checks.
func failureEdges(call ssa.CallInstruction) (fail, succ []branchEdge) {
	v := call.Value()
	if v == nil {
		return nil, nil
	}
	errs, resps := resultValues(v)
	branch := func(cond *ssa.BinOp, failOnTrue bool) {
		for _, ref := range *cond.Referrers() {
			negated := false
			target := ref
			if not, ok := ref.(*ssa.UnOp); ok && not.Op == token.NOT {
				negated = true
				for _, r2 := range *not.Referrers() {
					target = r2
				}
			}
			ifInstr, ok := target.(*ssa.If)
			if !ok {
				continue
			}
			b := ifInstr.Block()
			t, f := branchEdge{b, b.Succs[0]}, branchEdge{b, b.Succs[1]}
			if failOnTrue != negated {
				fail, succ = append(fail, t), append(succ, f)
			} else {
				fail, succ = append(fail, f), append(succ, t)
			}
		}
	}
	for _, x := range carriers(errs) {
		for _, ref := range *x.Referrers() {
			op, ok := ref.(*ssa.BinOp)
			if !ok || (op.Op != token.EQL && op.Op != token.NEQ) || !(isNilConst(op.X) || isNilConst(op.Y)) {
				continue
			}
			branch(op, op.Op == token.NEQ)
		}
	}
	for _, r := range carriers(resps) {
		for _, ref := range *r.Referrers() {
			fa, ok := ref.(*ssa.FieldAddr)
			if !ok || !selects(fa, knowledge.HTTPResponse, "StatusCode") {
				continue
			}
			for _, use := range *fa.Referrers() {
				load, ok := use.(*ssa.UnOp)
				if !ok || load.Op != token.MUL {
					continue
				}
				for _, code := range carriers([]ssa.Value{load}) {
					for _, cref := range *code.Referrers() {
						op, ok := cref.(*ssa.BinOp)
						if !ok {
							continue
						}
						if onTrue, ok := statusFailure(op, code); ok {
							branch(op, onTrue)
						}
					}
				}
			}
		}
	}
	return fail, succ
}

// statusFailure says which side of a comparison of a status code with a
// constant is a failure: true when the comparison holds for failure
// statuses (4xx, 5xx) but not for 200, false when the reverse. ok is false
// when neither side is.
func statusFailure(op *ssa.BinOp, code ssa.Value) (onTrue bool, ok bool) {
	var c *ssa.Const
	left := op.X == code
	if left {
		c, _ = op.Y.(*ssa.Const)
	} else {
		c, _ = op.X.(*ssa.Const)
	}
	if c == nil || c.Value == nil || c.Value.Kind() != constant.Int {
		return false, false
	}
	n, exact := constant.Int64Val(c.Value)
	if !exact {
		return false, false
	}
	holds := func(status int64) bool {
		a, b := status, n
		if !left {
			a, b = n, status
		}
		switch op.Op {
		case token.EQL:
			return a == b
		case token.NEQ:
			return a != b
		case token.LSS:
			return a < b
		case token.LEQ:
			return a <= b
		case token.GTR:
			return a > b
		case token.GEQ:
			return a >= b
		}
		return false
	}
	failures := []int64{400, 409, 429, 500, 502, 503, 504}
	anyFail := func(want bool) bool {
		for _, f := range failures {
			if holds(f) == want {
				return true
			}
		}
		return false
	}
	switch {
	case !holds(200) && anyFail(true):
		return true, true
	case holds(200) && anyFail(false):
		return false, true
	}
	return false, false
}

func isNilConst(v ssa.Value) bool {
	c, ok := v.(*ssa.Const)
	return ok && c.IsNil()
}

// resultValues returns the values of a call's error result and of its
// *http.Response result.
func resultValues(v *ssa.Call) (errs, resps []ssa.Value) {
	if tuple, ok := v.Type().(*types.Tuple); ok {
		for _, ref := range *v.Referrers() {
			ex, ok := ref.(*ssa.Extract)
			if !ok || ex.Index >= tuple.Len() {
				continue
			}
			switch t := tuple.At(ex.Index).Type(); {
			case isErrorResult(t) && ex.Index == tuple.Len()-1:
				errs = append(errs, ex)
			case isResponse(t):
				resps = append(resps, ex)
			}
		}
		return errs, resps
	}
	switch {
	case isErrorResult(v.Type()):
		errs = append(errs, v)
	case isResponse(v.Type()):
		resps = append(resps, v)
	}
	return errs, resps
}

func isErrorResult(t types.Type) bool {
	return types.Identical(t, types.Universe.Lookup("error").Type())
}

func isResponse(t types.Type) bool {
	ptr, ok := types.Unalias(t).(*types.Pointer)
	if !ok {
		return false
	}
	_, isNamed := types.Unalias(ptr.Elem()).(*types.Named)
	return isNamed && knowledge.HasRole(ptr.Elem(), knowledge.HTTPResponse)
}

// derive returns vs and the values that carry them unchanged: phis
// (lastErr = err), interface conversions.
func carriers(vs []ssa.Value) []ssa.Value {
	seen := map[ssa.Value]bool{}
	var out []ssa.Value
	queue := append([]ssa.Value(nil), vs...)
	for len(queue) > 0 && len(out) < 64 {
		v := queue[0]
		queue = queue[1:]
		if seen[v] {
			continue
		}
		seen[v] = true
		out = append(out, v)
		refs := v.Referrers()
		if refs == nil {
			continue
		}
		for _, ref := range *refs {
			switch r := ref.(type) {
			case *ssa.Phi, *ssa.MakeInterface, *ssa.ChangeType, *ssa.ChangeInterface:
				queue = append(queue, r.(ssa.Value))
			}
		}
	}
	return out
}

// Wrappers.

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
	returns := returnInstrs(fn)
	for _, r := range returns {
		if len(r.Results) == 0 || !isErrorResult(r.Results[len(r.Results)-1].Type()) {
			continue
		}
		if Reaches(call, r, nil) && flowsFrom(r.Results[len(r.Results)-1], failure) {
			return true
		}
	}
	fail, _ := failureEdges(call)
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

func returnInstrs(fn *ssa.Function) []*ssa.Return {
	var out []*ssa.Return
	for _, b := range fn.Blocks {
		if n := len(b.Instrs); n > 0 {
			if r, ok := b.Instrs[n-1].(*ssa.Return); ok {
				out = append(out, r)
			}
		}
	}
	return out
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

// Clients.

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
			t = knowledge.Unwrap(t)
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
	v = knowledge.Unwrap(v)
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
			if f := FieldOf(fa); f != nil {
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
		if row := knowledge.TypeOf(knowledge.Unwrap(v).Type()); row != nil && row.Role == knowledge.RetryPolicy {
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
