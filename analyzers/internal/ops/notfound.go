package ops

import (
	"go/constant"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/knowledge"
	"github.com/idemlint/idemlint/analyzers/internal/ssaval"
)

// NotFound returns the blocks that run only when lookup found nothing:
// the successor of each branch on a found-nothing test of the lookup's
// outcome (errors.Is with a not-found sentinel, ent.IsNotFound, a nil
// result of a helper that returns nil when it finds nothing, !exists,
// count == 0), when that successor is entered from the branch alone.
// For a lookup whose error is not nil whenever it found nothing
// (RowOp.ErrWhenNotFound), the non-nil side of a test of that error
// counts too: it runs on the other failures as well, but the race is
// real on the found-nothing part (if err == nil { return &found } else
// { insert }).
func (r *Result) NotFound(lookup *RowOp) []*ssa.BasicBlock { return foundNothingBlocks(lookup, true) }

// OnlyWhenNotFound reports whether every path from lookup to at passes
// a branch on a found-nothing test of the lookup's outcome, on its
// found-nothing side: the checks written apart (if err != nil &&
// !errors.Is(err, pgx.ErrNoRows) { return err }; if err == nil { return
// ErrExists }; insert), where no one branch's block holds the insert.
// branch is the block the last of those edges enters that dominates at,
// or nil.
func (r *Result) OnlyWhenNotFound(lookup *RowOp, at ssa.Instruction) (branch *ssa.BasicBlock, ok bool) {
	if lookup.Instr == nil || at.Block() == nil || lookup.Instr.Parent() != at.Parent() || !Reaches(lookup.Instr, at, nil) {
		return nil, false
	}
	fn := lookup.Instr.Parent()
	cut := map[[2]*ssa.BasicBlock]bool{}
	for _, b := range fn.Blocks {
		if len(b.Instrs) == 0 || len(b.Succs) != 2 {
			continue
		}
		ifi, isIf := b.Instrs[len(b.Instrs)-1].(*ssa.If)
		if !isIf {
			continue
		}
		if succ, found := coversNotFound(lookup, ifi.Cond); found {
			cut[[2]*ssa.BasicBlock{b, b.Succs[succ]}] = true
		}
	}
	if len(cut) == 0 {
		return nil, false
	}
	// Walk from the lookup without taking a found-nothing edge: at must
	// be out of reach. The walk keeps what it has learnt of the lookup's
	// error (nil or not) from tests of it, so that it does not follow the
	// other side of a second test of the same error (err != nil ... else
	// if err == nil): such paths do not exist.
	start := lookup.Instr.Block()
	if found, _ := scan(start.Instrs[indexOf(start, lookup.Instr)+1:], at, nil); found {
		return nil, false
	}
	type state struct {
		b   *ssa.BasicBlock
		err int8 // 0 unknown, 1 nil, 2 not nil
	}
	seen := map[state]bool{}
	queue := []state{{start, 0}}
	for len(queue) > 0 {
		cur := queue[0]
		queue = queue[1:]
		b := cur.b
		nilSucc, tests := -1, false
		if n := len(b.Instrs); n > 0 && len(b.Succs) == 2 {
			if ifi, ok := b.Instrs[n-1].(*ssa.If); ok {
				nilSucc, tests = errNilTest(lookup, ifi.Cond)
			}
		}
		for i, s := range b.Succs {
			next := state{s, cur.err}
			if tests {
				want := int8(2)
				if i == nilSucc {
					want = 1
				}
				if cur.err != 0 && cur.err != want {
					continue // contradicts what the path knows
				}
				next.err = want
			}
			if s == start {
				next.err = 0 // around a loop: the lookup runs again
			}
			if cut[[2]*ssa.BasicBlock{b, s}] || seen[next] {
				continue
			}
			seen[next] = true
			if found, _ := scan(s.Instrs, at, nil); found {
				return nil, false
			}
			queue = append(queue, next)
		}
	}
	for e := range cut {
		if e[1].Dominates(at.Block()) && (branch == nil || branch.Dominates(e[1])) {
			branch = e[1]
		}
	}
	return branch, true
}

// errNilTest says whether cond compares the lookup's error with nil, and
// which successor (0 when true) runs when the error is nil.
func errNilTest(op *RowOp, cond ssa.Value) (int, bool) {
	x, ok := cond.(*ssa.BinOp)
	if !ok || (x.Op != token.EQL && x.Op != token.NEQ) {
		return 0, false
	}
	for _, pair := range [2][2]ssa.Value{{x.X, x.Y}, {x.Y, x.X}} {
		c, isConst := pair[1].(*ssa.Const)
		if isConst && c.IsNil() && isErrorType(pair[0].Type()) && errFrom(pair[0], op) {
			if x.Op == token.EQL {
				return 0, true
			}
			return 1, true
		}
	}
	return 0, false
}

// notFoundBlocks are the blocks entered only when op found nothing, and
// never on another outcome: what a helper's summary says its callers see.
func notFoundBlocks(op *RowOp) []*ssa.BasicBlock { return foundNothingBlocks(op, false) }

// coversNotFound is notFoundTest, and for a lookup whose error is not nil
// whenever it found nothing, the non-nil side of a test of that error.
func coversNotFound(op *RowOp, cond ssa.Value) (int, bool) {
	if s, ok := notFoundTest(op, cond, 0); ok {
		return s, true
	}
	if op.ErrWhenNotFound {
		if nilSucc, ok := errNilTest(op, cond); ok {
			return 1 - nilSucc, true
		}
	}
	return 0, false
}

// foundNothingBlocks returns the successors of the branches on a
// found-nothing test of op entered from the branch alone; with cover,
// those of the non-nil side of op's error too (coversNotFound).
func foundNothingBlocks(op *RowOp, cover bool) []*ssa.BasicBlock {
	return foundNothingBlocksAt(op, cover, 0)
}

// foundNothingBlocksAt is foundNothingBlocks with the tests made at
// depth: 1 leaves out the flags set on those blocks (flagTest).
func foundNothingBlocksAt(op *RowOp, cover bool, depth int) []*ssa.BasicBlock {
	if op.Instr == nil {
		// A generated function's own query (Library.OwnRows): no call
		// to test the outcome of.
		return nil
	}
	fn := op.Instr.Parent()
	var out []*ssa.BasicBlock
	for _, b := range fn.Blocks {
		if len(b.Instrs) == 0 {
			continue
		}
		ifi, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If)
		if !ok || len(b.Succs) != 2 {
			continue
		}
		succ, ok := notFoundTest(op, ifi.Cond, depth)
		if !ok && cover {
			succ, ok = coversNotFound(op, ifi.Cond)
		}
		if !ok {
			continue
		}
		s := b.Succs[succ]
		if len(s.Preds) == 1 {
			out = append(out, s)
		}
	}
	return out
}

// notFoundTest says whether cond tests that op found nothing, and which
// successor (0 when true, 1 when false) runs then.
func notFoundTest(op *RowOp, cond ssa.Value, depth int) (int, bool) {
	if depth > 4 {
		return 0, false
	}
	if op.CountsFound && isResult(cond, op, 0) && isBool(cond.Type()) {
		return 1, true // if exists { ... }
	}
	if op.HasFound && isResult(cond, op, op.FoundResult) {
		return 1, true // if repo.Exists(...) { ... }
	}
	if op.NilErrNotFound {
		if s, ok := errNilTest(op, cond); ok {
			return s, true // if err := s.validate(...); err != nil { return err }
		}
	}
	switch x := cond.(type) {
	case *ssa.Phi:
		if s, ok := shortCircuitTest(op, x, depth); ok {
			return s, true
		}
		if depth == 0 {
			return flagTest(op, x)
		}
		return 0, false
	case *ssa.UnOp:
		if x.Op == token.NOT {
			if s, ok := notFoundTest(op, x.X, depth+1); ok {
				return 1 - s, true
			}
			return 0, false
		}
		// A bool destination: if exists { ... }.
		if x.Op == token.MUL && op.FromLibrary && isDestOf(op, x.X) && isBool(x.Type()) {
			return 1, true
		}
		// A nullable destination's Valid: if !version.Valid { ... }.
		if x.Op == token.MUL && op.FromLibrary && validOfDest(op, x.X) {
			return 1, true
		}
	case *ssa.Call:
		common := x.Common()
		if callee := common.StaticCallee(); isErrorsIs(callee) && len(common.Args) == 2 {
			if sentinelMatches(op, common.Args[1]) && errFrom(common.Args[0], op) {
				return 0, true
			}
			return 0, false
		}
		if row := errorCheckRow(common); row != nil && row.Meaning == knowledge.NotFound && (op.FromLibrary || op.Propagates) {
			if len(common.Args) > 0 && errFrom(common.Args[len(common.Args)-1], op) {
				return 0, true
			}
		}
	case *ssa.BinOp:
		if x.Op != token.EQL && x.Op != token.NEQ && x.Op != token.GTR && x.Op != token.LSS {
			return 0, false
		}
		eq := 0
		if x.Op == token.NEQ {
			eq = 1
		}
		for _, pair := range [2][2]ssa.Value{{x.X, x.Y}, {x.Y, x.X}} {
			v, other := pair[0], pair[1]
			c, isConst := other.(*ssa.Const)
			if x.Op == token.EQL || x.Op == token.NEQ {
				if sentinelMatches(op, other) && errFrom(v, op) {
					return eq, true
				}
				if isConst && c.IsNil() && op.NilResult >= 0 && isResult(v, op, op.NilResult) {
					return eq, true
				}
			}
			// count == 0, count > 0, 0 < count
			if isConst && c.Value != nil && c.Value.Kind() == constant.Int && constant.Sign(c.Value) == 0 && op.FromLibrary {
				load, isLoad := v.(*ssa.UnOp)
				if (isLoad && load.Op == token.MUL && (isDestOf(op, load.X) || primaryOfDest(op, load.X))) || (op.CountsFound && isResult(v, op, 0)) || rowsAffected(op, v) {
					switch {
					case x.Op == token.EQL:
						return 0, true
					case x.Op == token.NEQ:
						return 1, true
					case x.Op == token.GTR && pair[0] == x.X:
						return 1, true
					case x.Op == token.LSS && pair[0] == x.Y:
						return 1, true
					}
				}
			}
		}
	}
	return 0, false
}

// shortCircuitTest is notFoundTest for the phi SSA makes of a && or ||
// outside an if statement (a switch case: case err != nil &&
// errors.Is(err, pgx.ErrNoRows)). Its constant edges are the operator's:
// false for &&, true for ||. For &&, the phi is true only when its other
// edge is, so a test that found nothing when true still says so; for ||,
// false only when the other edge is.
func shortCircuitTest(op *RowOp, phi *ssa.Phi, depth int) (int, bool) {
	var konst *bool
	var tests []int
	for _, e := range phi.Edges {
		if c, ok := e.(*ssa.Const); ok && c.Value != nil && c.Value.Kind() == constant.Bool {
			b := constant.BoolVal(c.Value)
			if konst != nil && *konst != b {
				return 0, false
			}
			konst = &b
			continue
		}
		s, ok := notFoundTest(op, e, depth+1)
		if !ok {
			return 0, false
		}
		tests = append(tests, s)
	}
	if konst == nil || len(tests) == 0 {
		return 0, false
	}
	// && (constant false): true means every other edge was true; ||
	// (constant true): false means every other edge was false.
	want := 0
	if *konst {
		want = 1
	}
	for _, s := range tests {
		if s != want {
			return 0, false
		}
	}
	return want, true
}

// sentinelMatches reports whether v is the error variable that says op
// found nothing: a not-found sentinel of the tables for a library lookup
// (or a helper passing the library's error on), the helper's own sentinel.
func sentinelMatches(op *RowOp, v ssa.Value) bool {
	if c, ok := ssaval.Unwrap(v).(*ssa.Const); ok && (op.FromLibrary || op.Propagates) && c.Value != nil && c.Value.Kind() == constant.String {
		// An error constant (go-redis's Nil), converted to error.
		s := knowledge.ConstSentinelOf(c.Type(), constant.StringVal(c.Value))
		return s != nil && s.Meaning == knowledge.NotFound
	}
	load, ok := ssaval.Unwrap(v).(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return false
	}
	g, ok := load.X.(*ssa.Global)
	if !ok {
		return false
	}
	if op.Sentinel != "" && g.Pkg != nil && g.Pkg.Pkg.Path()+"."+g.Name() == op.Sentinel {
		return true
	}
	if op.FromLibrary || op.Propagates {
		if obj, ok := g.Object().(*types.Var); ok {
			if s := knowledge.SentinelOf(obj); s != nil && s.Meaning == knowledge.NotFound {
				return true
			}
		}
	}
	return false
}

// errorCheckRow returns the ErrorCheck row of a call (the tables', or
// ent's generated classifiers), or nil.
func errorCheckRow(common *ssa.CallCommon) *knowledge.Call {
	if site, ok := knowledge.Resolve(common); ok && site.Row != nil && site.Row.Kind == knowledge.ErrorCheck {
		return site.Row
	}
	if callee := common.StaticCallee(); callee != nil {
		if obj, ok := callee.Object().(*types.Func); ok {
			if row, _ := knowledge.EntCall(obj); row != nil && row.Kind == knowledge.ErrorCheck {
				return row
			}
		}
	}
	return nil
}

// isResult reports whether v is result i of op's call.
func isResult(v ssa.Value, op *RowOp, i int) bool {
	v = ssaval.Unwrap(v)
	if ex, ok := v.(*ssa.Extract); ok {
		return ex.Index == i && ex.Tuple == op.Instr.Value() && op.Instr.Value() != nil
	}
	if i == 0 {
		if c, ok := v.(*ssa.Call); ok && ssa.CallInstruction(c) == op.Instr {
			return true
		}
	}
	return false
}

// isDestOf reports whether addr is a destination op's row was read into:
// an argument of the Scan of its row, or the Dest of an sqlx Get.
func isDestOf(op *RowOp, addr ssa.Value) bool {
	site, ok := knowledge.Resolve(op.Instr.Common())
	if ok && site.Row != nil {
		if d := site.RoleArg(knowledge.Dest); d != nil && ssaval.Unwrap(d) == addr {
			return true
		}
	}
	v := op.Instr.Value()
	if v == nil {
		return false
	}
	for _, ref := range *v.Referrers() {
		call, ok := ref.(*ssa.Call)
		if !ok {
			continue
		}
		site, ok := knowledge.Resolve(call.Common())
		if !ok || site.Row == nil || site.Row.Kind != knowledge.Scan {
			continue
		}
		for _, a := range call.Common().Args {
			if ssaval.Unwrap(a) == addr {
				return true
			}
			if s, ok := a.(*ssa.Slice); ok {
				_ = s
			}
		}
		if i, ok := site.Row.Param(knowledge.Dest); ok {
			if vals, ok := site.Variadic(i); ok {
				for _, d := range vals {
					if d == addr {
						return true
					}
				}
			}
		}
	}
	return false
}

func isBool(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Kind() == types.Bool
}

// lookupResult says how fn tells its callers that its lookup op found
// nothing: by returning nil in result NilResult with a nil error, by
// returning a sentinel error variable, or by returning the library's
// error itself.
func (e *extractor) lookupResult(fn *ssa.Function, op *RowOp) (nilResult int, sentinel string, propagates bool) {
	nilResult = -1
	results := fn.Signature.Results()
	if results.Len() == 0 || !isErrorType(results.At(results.Len()-1).Type()) {
		return
	}
	errIdx := results.Len() - 1
	var returns []*ssa.Return
	for _, s := range notFoundBlocks(op) {
		for _, b := range fn.Blocks {
			if !s.Dominates(b) || len(b.Instrs) == 0 {
				continue
			}
			if ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return); ok {
				returns = append(returns, ret)
			}
		}
	}
	if len(returns) > 0 {
		// (nil, nil) or (x, ErrNotFound) on every found-nothing return.
		cand := -1
		for i := 0; i < errIdx; i++ {
			all := true
			for _, ret := range returns {
				c, ok := ret.Results[i].(*ssa.Const)
				if !ok || !c.IsNil() {
					all = false
				}
				if ec, ok := ret.Results[errIdx].(*ssa.Const); !ok || !ec.IsNil() {
					all = false
				}
			}
			if all {
				cand = i
				break
			}
		}
		if cand >= 0 {
			return cand, "", false
		}
		name := ""
		for _, ret := range returns {
			g := globalOf(ret.Results[errIdx])
			if g == nil || g.Pkg == nil {
				name = ""
				break
			}
			n := g.Pkg.Pkg.Path() + "." + g.Name()
			if name != "" && name != n {
				name = ""
				break
			}
			name = n
		}
		if name != "" {
			return -1, name, false
		}
	}
	// The library's error returned as it is, or in an error that unwraps
	// to it (errwrap.go).
	for _, b := range fn.Blocks {
		if len(b.Instrs) == 0 {
			continue
		}
		if ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return); ok &&
			(fromCall(ret.Results[errIdx], op.Instr, 0) || e.wrappedFrom(ret.Results[errIdx], op.Instr)) {
			return -1, "", true
		}
	}
	return -1, "", false
}

func globalOf(v ssa.Value) *ssa.Global {
	load, ok := ssaval.Unwrap(v).(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return nil
	}
	g, _ := load.X.(*ssa.Global)
	return g
}

// errOf returns the error value of a call: its error result, or GORM's
// Error field of the *gorm.DB it returns.
func errOf(call ssa.CallInstruction) ssa.Value {
	if call == nil {
		return nil
	}
	v := call.Value()
	if v == nil {
		return nil
	}
	switch t := v.Type().(type) {
	case *types.Tuple:
		if t.Len() == 0 || !isErrorType(t.At(t.Len()-1).Type()) {
			return nil
		}
		for _, ref := range *v.Referrers() {
			if ex, ok := ref.(*ssa.Extract); ok && ex.Index == t.Len()-1 {
				return ex
			}
		}
		return nil
	}
	if isErrorType(v.Type()) {
		return v
	}
	for _, ref := range *v.Referrers() {
		// QueryRow(...).Scan(...): the error surfaces from Scan of the row.
		if c, ok := ref.(*ssa.Call); ok && isErrorType(c.Type()) {
			if site, ok := knowledge.Resolve(c.Common()); ok && site.Row != nil && site.Row.Kind == knowledge.Scan && site.Receiver() == v {
				return c
			}
		}
		if fa, ok := ref.(*ssa.FieldAddr); ok {
			if f := ssaval.FieldOf(fa); f != nil && f.Name() == "Error" {
				for _, use := range *fa.Referrers() {
					if load, ok := use.(*ssa.UnOp); ok && load.Op == token.MUL {
						return load
					}
				}
			}
		}
	}
	return nil
}

// foundResult returns the bool result of fn that every return sets to
// whether op found its row: the EXISTS or bool destination, count > 0 or
// count != 0, or ent's and bun's Exist(s) result.
func foundResult(fn *ssa.Function, op *RowOp) (int, bool) {
	results := fn.Signature.Results()
	idx := -1
	for i := 0; i < results.Len(); i++ {
		if isBool(results.At(i).Type()) {
			if idx >= 0 {
				return -1, false
			}
			idx = i
		}
	}
	if idx < 0 {
		return -1, false
	}
	// return true, nil where the lookup found its row and return false,
	// nil where it found nothing: the helper's own branches say it.
	var notFound []*ssa.BasicBlock
	inNotFound := func(b *ssa.BasicBlock) bool {
		if notFound == nil {
			notFound = append(notFoundBlocks(op), nil) // nil: computed
		}
		for _, s := range notFound {
			if s != nil && s.Dominates(b) {
				return true
			}
		}
		return false
	}
	seen, constTrue, falseWhenNotFound := false, false, false
	for _, b := range fn.Blocks {
		if len(b.Instrs) == 0 {
			continue
		}
		ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
		if !ok {
			continue
		}
		v := ret.Results[idx]
		if c, ok := v.(*ssa.Const); ok && c.Value != nil {
			if !constant.BoolVal(c.Value) {
				// return false, err: an error path; return false, nil
				// where nothing was found: the not-found answer.
				falseWhenNotFound = falseWhenNotFound || (nilError(ret) && inNotFound(b))
				continue
			}
			if inNotFound(b) || !Reaches(op.Instr, ret, nil) {
				return -1, false
			}
			constTrue = true
			continue
		}
		if !foundExpr(op, v) {
			return -1, false
		}
		seen = true
	}
	if constTrue && !falseWhenNotFound {
		return -1, false // true on some path, but no path that found nothing says false
	}
	return idx, seen || constTrue
}

// nilError reports whether ret returns a nil error (or the function has
// no error result).
func nilError(ret *ssa.Return) bool {
	for _, v := range ret.Results {
		if isErrorType(v.Type()) {
			c, ok := v.(*ssa.Const)
			return ok && c.IsNil()
		}
	}
	return true
}

// foundExpr reports whether v is true exactly when op found its row.
func foundExpr(op *RowOp, v ssa.Value) bool {
	count := func(x ssa.Value) bool {
		if load, ok := x.(*ssa.UnOp); ok && load.Op == token.MUL && op.FromLibrary && isDestOf(op, load.X) {
			return true
		}
		return op.CountsFound && isResult(x, op, 0)
	}
	switch x := v.(type) {
	case *ssa.UnOp:
		return x.Op == token.MUL && isBool(x.Type()) && count(x)
	case *ssa.Extract:
		return isBool(x.Type()) && (count(x) || (op.HasFound && isResult(x, op, op.FoundResult)))
	case *ssa.BinOp:
		c, ok := x.Y.(*ssa.Const)
		if ok && c.Value != nil && c.Value.Kind() == constant.Int && constant.Sign(c.Value) == 0 {
			return (x.Op == token.GTR || x.Op == token.NEQ) && count(x.X)
		}
		c, ok = x.X.(*ssa.Const)
		if ok && c.Value != nil && c.Value.Kind() == constant.Int && constant.Sign(c.Value) == 0 {
			return (x.Op == token.LSS || x.Op == token.NEQ) && count(x.Y)
		}
	}
	return false
}

// rowsAffected reports whether v is the affected-row count of op's call:
// GORM's RowsAffected field, or RowsAffected() of the sql.Result or
// pgconn.CommandTag it returned.
func rowsAffected(op *RowOp, v ssa.Value) bool {
	if !op.FromLibrary {
		return false
	}
	v = ssaval.Unwrap(v)
	if ex, ok := v.(*ssa.Extract); ok && ex.Index == 0 {
		v = ex.Tuple
	}
	switch x := v.(type) {
	case *ssa.UnOp:
		if fa, ok := x.X.(*ssa.FieldAddr); ok && x.Op == token.MUL {
			if f := ssaval.FieldOf(fa); f != nil && f.Name() == "RowsAffected" {
				c, ok := ssaval.Unwrap(fa.X).(*ssa.Call)
				return ok && ssa.CallInstruction(c) == op.Instr
			}
		}
	case *ssa.Call:
		site, ok := knowledge.Resolve(x.Common())
		if !ok || site.Row == nil || site.Row.Kind != knowledge.RowsAffected {
			return false
		}
		recv := site.Receiver()
		if recv == nil {
			return false
		}
		recv = ssaval.Unwrap(recv)
		if load, ok := recv.(*ssa.UnOp); ok {
			if stored := storedOnce(load); stored != nil {
				recv = stored
			}
		}
		if ex, ok := recv.(*ssa.Extract); ok && ex.Index == 0 {
			recv = ex.Tuple
		}
		c, ok := recv.(*ssa.Call)
		return ok && ssa.CallInstruction(c) == op.Instr
	}
	return false
}

// nilErrWhenNotFound reports whether fn's error result is nil exactly
// when its lookup op found nothing: every return of a nil error lies in
// a found-nothing block of op, and every other return's error is one that
// cannot be nil (nonNilError). It is the shape of a validator that looks
// the row up and returns an error when it exists.
func nilErrWhenNotFound(fn *ssa.Function, op *RowOp) bool {
	results := fn.Signature.Results()
	if results.Len() == 0 || !isErrorType(results.At(results.Len()-1).Type()) {
		return false
	}
	errIdx := results.Len() - 1
	notFound := notFoundBlocks(op)
	inNotFound := func(b *ssa.BasicBlock) bool {
		for _, s := range notFound {
			if s.Dominates(b) {
				return true
			}
		}
		return false
	}
	nilReturns := 0
	for _, ret := range ssaval.Returns(fn) {
		v := ret.Results[errIdx]
		if c, ok := v.(*ssa.Const); ok && c.IsNil() {
			if !inNotFound(ret.Block()) {
				return false
			}
			nilReturns++
			continue
		}
		if inNotFound(ret.Block()) || !nonNilError(v, ret.Block(), op) {
			return false
		}
	}
	return nilReturns > 0
}

// madeError reports whether the error v cannot be nil whatever path
// reaches it: a package-level error variable, or what errors.New or
// fmt.Errorf return.
func madeError(v ssa.Value) bool {
	if globalOf(v) != nil {
		return true
	}
	u := ssaval.Unwrap(v)
	if ci, ok := u.(*ssa.ChangeInterface); ok {
		u = ci.X
	}
	if call, ok := u.(*ssa.Call); ok {
		if callee := call.Common().StaticCallee(); callee != nil {
			switch pkg := ssaval.PkgPath(callee); {
			case pkg == "errors" && callee.Name() == "New", pkg == "fmt" && callee.Name() == "Errorf":
				return true
			}
		}
	}
	return false
}

// nonNilError reports whether the error v, returned in block b, cannot be
// nil: a package-level error variable, what errors.New or fmt.Errorf
// return, or op's own error where a test found it non-nil.
func nonNilError(v ssa.Value, b *ssa.BasicBlock, op *RowOp) bool {
	if madeError(v) {
		return true
	}
	if !errFrom(v, op) {
		return false
	}
	for _, tb := range b.Parent().Blocks {
		if len(tb.Instrs) == 0 || len(tb.Succs) != 2 {
			continue
		}
		ifi, ok := tb.Instrs[len(tb.Instrs)-1].(*ssa.If)
		if !ok {
			continue
		}
		if s, ok := errNilTest(op, ifi.Cond); ok {
			if nonNil := tb.Succs[1-s]; len(nonNil.Preds) == 1 && nonNil.Dominates(b) {
				return true
			}
		}
	}
	return false
}
