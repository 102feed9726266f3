package ops

import (
	"go/token"
	"go/types"
	"strings"
	"sync"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/knowledge"
	"github.com/idemlint/idemlint/analyzers/internal/ssaval"
)

// Where an error comes from: a lookup's own call, or a helper passing the
// error on.
//
// Repositories often hand a library call's results to a helper that
// converts the entity and passes the error on as it is:
//
//	var mapUserOutErr = mapTErrFunc(mapUserOut)
//	return mapUserOutErr(r.db.User.Query().Where(...).Only(ctx))
//
// where mapTErrFunc returns func(t T, err error) (Y, error) { if err !=
// nil { return zero, err }; return fn(t), nil }. The error the repository
// returns is then the library's, which is what its callers test.

// passedErrArg returns the index of the argument of call whose error the
// callee returns as its error result, nil only when that argument is nil;
// -1 when the callee does not, or is not known. The callee is the static
// one, or the function a package variable holds when the package
// initializer is its one store (a function, or what a function returning
// one closure on every path made).
func passedErrArg(common *ssa.CallCommon) int {
	fn := common.StaticCallee()
	if fn == nil {
		fn = heldFunc(common.Value)
	}
	if fn == nil {
		return -1
	}
	if fn.Origin() != nil {
		fn = fn.Origin()
	}
	return passesErr(fn)
}

// passesErr returns the parameter of fn that fn returns as its error
// result whenever it returns a non-nil one, and that only when it is not
// nil: every return gives that parameter, or nil where the parameter is
// known to be nil. -1 otherwise.
func passesErr(fn *ssa.Function) int {
	res := fn.Signature.Results()
	if len(fn.Blocks) == 0 || res.Len() == 0 || !isErrorType(res.At(res.Len()-1).Type()) {
		return -1
	}
	errIdx := res.Len() - 1
	param := -1
	var nils []*ssa.BasicBlock
	for _, b := range fn.Blocks {
		ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
		if !ok || len(ret.Results) != res.Len() {
			continue
		}
		v := ssaval.Unwrap(ret.Results[errIdx])
		if c, ok := v.(*ssa.Const); ok && c.IsNil() {
			nils = append(nils, b)
			continue
		}
		p, ok := v.(*ssa.Parameter)
		if !ok || !isErrorType(p.Type()) {
			return -1
		}
		i := paramIndex(fn, p)
		if i < 0 || (param >= 0 && i != param) {
			return -1
		}
		param = i
	}
	if param < 0 {
		return -1
	}
	for _, b := range nils {
		if !knownNil(fn, fn.Params[param], b) {
			return -1
		}
	}
	return param
}

// knownNil reports whether b runs only where v == nil: it is dominated by
// the nil side of a test of v against nil.
func knownNil(fn *ssa.Function, v ssa.Value, b *ssa.BasicBlock) bool {
	for _, t := range fn.Blocks {
		if len(t.Instrs) == 0 || len(t.Succs) != 2 {
			continue
		}
		ifi, ok := t.Instrs[len(t.Instrs)-1].(*ssa.If)
		if !ok {
			continue
		}
		cmp, ok := ifi.Cond.(*ssa.BinOp)
		if !ok || (cmp.Op != token.EQL && cmp.Op != token.NEQ) {
			continue
		}
		x, y := cmp.X, cmp.Y
		if c, ok := x.(*ssa.Const); ok && c.IsNil() {
			x, y = y, x
		}
		if c, ok := y.(*ssa.Const); !ok || !c.IsNil() || ssaval.Unwrap(x) != v {
			continue
		}
		succ := t.Succs[0] // v == nil
		if cmp.Op == token.NEQ {
			succ = t.Succs[1]
		}
		if len(succ.Preds) == 1 && succ.Dominates(b) {
			return true
		}
	}
	return false
}

// heldFuncs memoises heldFunc by package variable, for the last program
// asked about only: each package's SSA is a program of its own, and a
// table of every program's would keep them all from being released.
var heldFuncs struct {
	sync.Mutex
	prog *ssa.Program
	fns  map[*ssa.Global]*ssa.Function
}

// heldFunc returns the function a call's function value is, when it is
// loaded from an unexported package variable that only the package
// initializer stores, with a function or with the closure a function
// returns on every path; nil otherwise.
func heldFunc(v ssa.Value) *ssa.Function {
	load, ok := v.(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return nil
	}
	g, ok := load.X.(*ssa.Global)
	if !ok || g.Pkg == nil || g.Object() == nil || g.Object().Exported() {
		return nil
	}
	heldFuncs.Lock()
	defer heldFuncs.Unlock()
	if heldFuncs.prog != g.Pkg.Prog {
		heldFuncs.prog, heldFuncs.fns = g.Pkg.Prog, map[*ssa.Global]*ssa.Function{}
	}
	if fn, ok := heldFuncs.fns[g]; ok {
		return fn
	}
	var fn *ssa.Function
	if stored := initialValue(g); stored != nil {
		fn = funcValue(stored)
	}
	heldFuncs.fns[g] = fn
	return fn
}

// initialValue returns the value the package initializer stores in g
// when no other function of g's package stores it; nil otherwise.
func initialValue(g *ssa.Global) ssa.Value {
	init := g.Pkg.Func("init")
	if init == nil {
		return nil
	}
	var stored ssa.Value
	count := 0
	visit := func(fn *ssa.Function) {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				if st, ok := instr.(*ssa.Store); ok && st.Addr == g {
					count++
					if fn == init {
						stored = st.Val
					}
				}
			}
		}
	}
	for _, fn := range PackageFuncs(g.Pkg) {
		visit(fn)
	}
	if count != 1 {
		return nil
	}
	return stored
}

// PackageFuncs returns the functions of pkg: its package-level functions
// (the initializer included), its types' methods, and the closures of
// each.
func PackageFuncs(pkg *ssa.Package) []*ssa.Function {
	var out []*ssa.Function
	var add func(*ssa.Function)
	add = func(f *ssa.Function) {
		if f == nil {
			return
		}
		out = append(out, f)
		for _, anon := range f.AnonFuncs {
			add(anon)
		}
	}
	for _, m := range pkg.Members {
		switch m := m.(type) {
		case *ssa.Function:
			add(m)
		case *ssa.Type:
			named, ok := m.Type().(*types.Named)
			if !ok {
				continue
			}
			for i := 0; i < named.NumMethods(); i++ {
				add(pkg.Prog.FuncValue(named.Method(i)))
			}
		}
	}
	return out
}

// funcValue returns the function v is: a function, a closure of one, or
// the one closure a call's callee returns on every path.
func funcValue(v ssa.Value) *ssa.Function {
	switch x := ssaval.Unwrap(v).(type) {
	case *ssa.Function:
		return x
	case *ssa.MakeClosure:
		fn, _ := x.Fn.(*ssa.Function)
		return fn
	case *ssa.Call:
		callee := x.Common().StaticCallee()
		if callee == nil {
			return nil
		}
		if callee.Origin() != nil {
			callee = callee.Origin()
		}
		var made *ssa.Function
		for _, b := range callee.Blocks {
			ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
			if !ok || len(ret.Results) != 1 {
				continue
			}
			mc, ok := ssaval.Unwrap(ret.Results[0]).(*ssa.MakeClosure)
			if !ok {
				return nil
			}
			fn, _ := mc.Fn.(*ssa.Function)
			if fn == nil || (made != nil && fn != made) {
				return nil
			}
			made = fn
		}
		return made
	}
	return nil
}

// errFrom reports whether the error value v comes from op's call: its
// error result, the Scan of the row it returned, GORM's Error field, or a
// phi all of whose non-nil edges do.
func errFrom(v ssa.Value, op *RowOp) bool {
	return fromCall(v, op.Instr, 0)
}

func fromCall(v ssa.Value, call ssa.CallInstruction, depth int) bool {
	if depth > 8 || v == nil {
		return false
	}
	v = ssaval.Unwrap(v)
	switch x := v.(type) {
	case *ssa.ChangeInterface:
		return fromCall(x.X, call, depth+1)
	case *ssa.Extract:
		// The error result of a helper passing its error argument on.
		if c, ok := x.Tuple.(*ssa.Call); ok && ssa.CallInstruction(c) != call && x.Index == c.Type().(*types.Tuple).Len()-1 {
			if k := passedErrArg(c.Common()); k >= 0 && k < len(c.Common().Args) {
				return fromCall(c.Common().Args[k], call, depth+1)
			}
		}
		return fromCall(x.Tuple, call, depth+1)
	case *ssa.Call:
		if ssa.CallInstruction(x) == call {
			return true
		}
		// fmt.Errorf("...: %w", err) keeps the error for errors.Is.
		if callee := x.Common().StaticCallee(); callee != nil && ssaval.PkgPath(callee) == "fmt" && callee.Name() == "Errorf" && len(x.Common().Args) == 2 {
			if format, ok := ssaval.ConstString(x.Common().Args[0]); ok && strings.Contains(format, "%w") {
				for _, a := range SliceValues(x.Common().Args[1]) {
					if fromCall(a, call, depth+1) {
						return true
					}
				}
			}
		}
		// row.Scan(...) of the row the lookup returned.
		if site, ok := knowledge.Resolve(x.Common()); ok && site.Row != nil && site.Row.Kind == knowledge.Scan {
			if recv := site.Receiver(); recv != nil {
				if c, ok := ssaval.Unwrap(recv).(*ssa.Call); ok && ssa.CallInstruction(c) == call {
					return true
				}
			}
		}
	case *ssa.UnOp:
		if fa, ok := x.X.(*ssa.FieldAddr); ok {
			if f := ssaval.FieldOf(fa); f != nil && f.Name() == "Error" {
				return fromCall(fa.X, call, depth+1)
			}
		}
		if stored := storedOnce(x); stored != nil {
			return fromCall(stored, call, depth+1)
		}
	case *ssa.Phi:
		found := false
		for _, e := range x.Edges {
			if c, ok := e.(*ssa.Const); ok && c.IsNil() {
				continue
			}
			if !fromCall(e, call, depth+1) {
				return false
			}
			found = true
		}
		return found
	}
	return false
}
