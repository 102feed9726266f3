package ops

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"slices"
	"sort"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/knowledge"
	"github.com/idemlint/idemlint/analyzers/internal/ssaval"
)

// Hand-written retry loops: which loops run a call again after its
// failure (retry.go says what the file family decides).

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
	fail, succ := e.failureEdges(call)
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
		if errs[a] || errs[ssaval.Unwrap(a)] {
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
	if callee == nil || ssaval.Pkg(callee) == nil {
		return false
	}
	args := call.Common().Args
	if ssaval.PkgPath(callee) == "errors" && len(args) == 2 {
		switch callee.Name() {
		case "Is":
			g := globalOf(args[1])
			return g != nil && g.Pkg != nil && !e.std(g.Pkg.Pkg.Path())
		case "As":
			ptr, ok := ssaval.Unwrap(args[1]).Type().(*types.Pointer)
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
	if depth > 0 || e.std(ssaval.PkgPath(callee)) || len(callee.Blocks) == 0 {
		return false
	}
	picks := false
	for _, b := range callee.Blocks {
		for _, instr := range b.Instrs {
			c, ok := instr.(*ssa.Call)
			if !ok {
				continue
			}
			if f := c.Common().StaticCallee(); f != nil && ssaval.PkgPath(f) == "errors" && (f.Name() == "Is" || f.Name() == "As") {
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
// result compared non-nil, an *http.Response status outside 2xx, the
// status a helper returns: retrystatus.go), and the other branches of the
// same checks.
func (e *extractor) failureEdges(call ssa.CallInstruction) (fail, succ []branchEdge) {
	v := call.Value()
	if v == nil {
		return nil, nil
	}
	errs, resps := resultValues(v)
	branch := func(cond ssa.Value, failOnTrue bool) {
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
	codes, texts := e.statusValues(call, resps)
	for _, code := range carriers(codes) {
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
	for _, text := range carriers(texts) {
		for _, use := range *text.Referrers() {
			if cond, onTrue, ok := textStatusFailure(use, text); ok {
				branch(cond, onTrue)
			}
		}
	}
	return fail, succ
}

// statusFailure says which side of a comparison of a status code with a
// constant is a failure: true when the comparison holds for failure
// statuses (4xx, 5xx) but not for success (200, or the 2xx it names),
// false when the reverse. ok is false when neither side is.
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
	// The success the test singles out: the 2xx it names (a create's
	// code == 201), or 200.
	success := int64(200)
	if n >= 200 && n < 300 {
		success = n
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
	case !holds(success) && anyFail(true):
		return true, true
	case holds(success) && anyFail(false):
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
