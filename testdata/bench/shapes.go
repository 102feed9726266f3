package main

// Stand-ins for the two candidate shapes of the ops layer. They do roughly
// the work the real layer will do per package (find the calls that touch a
// database or the network, summarise each function as a fact, and, in the
// result analyzer, relate the operations of a function by dominance and
// reachability on its SSA CFG), so that the cost of each shape's
// *structure* can be measured before the layer is written:
//
//   shape A: factsA declares a fact type but does NOT require buildssa; it
//            returns at once for std, for the libraries the knowledge tables
//            cover, and for packages that import neither a table package nor
//            a package with summaries, and builds SSA itself for the rest.
//            resultA declares no facts and requires buildssa (so SSA is built
//            for the analysed packages only) and factsA; it relates the
//            operations of the packages factsA found bodies needed for.
//   shape A2: a variant of A in which resultA2 does not require buildssa
//            but reuses the SSA factsA2 built (factsA2 returns it in its
//            result), so no package's SSA is built twice; a package for
//            which factsA2 built nothing has no operations to relate.
//   shape B: factsB declares a fact type and requires buildssa, so buildssa
//            (and ctrlflow) run on every package of the program, std
//            included; it skips the same packages, but after SSA was built.

import (
	"go/ast"
	"go/types"
	"reflect"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/buildssa"
	"golang.org/x/tools/go/analysis/passes/ctrlflow"
	"golang.org/x/tools/go/ssa"
)

// Effect bits of a function summary.
const (
	effDB  uint8 = 1 << iota // touches a database
	effNet                   // performs network I/O
)

// funcSummary is the per-function fact: small and gob-encodable, evidence
// carried as text (never a token.Pos).
type funcSummary struct {
	Effects uint8
	Via     string // the library call or the summarised callee that gave the effect
}

func (*funcSummary) AFact()           {}
func (s *funcSummary) String() string { return s.Via }

// pkgSummary is a package fact: present when the package exported at least
// one function summary, so importers know they may need bodies.
type pkgSummary struct{ Funcs int }

func (*pkgSummary) AFact()         {}
func (*pkgSummary) String() string { return "summarised" }

// tablePrefixes stands in for the knowledge tables: the library packages
// whose calls are operations, and the effect each has.
var tablePrefixes = []struct {
	prefix string
	eff    uint8
}{
	{"database/sql", effDB},
	{"net/http", effNet},
	{"gorm.io/gorm", effDB},
	{"github.com/jackc/pgx/", effDB},
	{"github.com/uptrace/bun", effDB},
	{"github.com/jmoiron/sqlx", effDB},
	{"entgo.io/ent", effDB},
	{"github.com/go-resty/resty/", effNet},
	{"google.golang.org/grpc", effNet},
	{"github.com/redis/go-redis/", effDB},
}

func tableEffect(path string) uint8 {
	for _, t := range tablePrefixes {
		if path == t.prefix || strings.HasPrefix(path, strings.TrimSuffix(t.prefix, "/")+"/") {
			return t.eff
		}
	}
	return 0
}

// isStd reports whether path is a standard-library package path (no dot in
// its first element).
func isStd(path string) bool {
	first, _, _ := strings.Cut(path, "/")
	return !strings.Contains(first, ".")
}

// needsBodies is the cheap, SSA-free test both shapes use to decide whether
// a package gets summaries: not std, not a library the tables cover, and
// importing a table package or a package that exported summaries.
func needsBodies(pass *analysis.Pass) bool {
	path := pass.Pkg.Path()
	if isStd(path) || tableEffect(path) != 0 {
		return false
	}
	for _, imp := range pass.Pkg.Imports() {
		if tableEffect(imp.Path()) != 0 {
			return true
		}
		var ps pkgSummary
		if pass.ImportPackageFact(imp, &ps) {
			return true
		}
	}
	return false
}

// summaries is factsA's result: the package's own summaries, and access to
// those of its dependencies.
type summaries struct {
	local   map[*types.Func]*funcSummary
	import_ func(types.Object, analysis.Fact) bool
	bodies  bool            // the package needs bodies: it has operations to relate
	funcs   []*ssa.Function // factsA2 only: the SSA it built, if any
}

func (s *summaries) lookup(fn *types.Func) (funcSummary, bool) {
	if f, ok := s.local[fn]; ok {
		return *f, true
	}
	var f funcSummary
	if s.import_ != nil && s.import_(fn, &f) {
		return f, true
	}
	return funcSummary{}, false
}

var factsA = &analysis.Analyzer{
	Name:       "opsfactsA",
	Doc:        "shape A stand-in: per-function summaries; builds SSA itself only where bodies are needed",
	Requires:   []*analysis.Analyzer{ctrlflow.Analyzer},
	FactTypes:  []analysis.Fact{new(funcSummary), new(pkgSummary)},
	ResultType: reflect.TypeFor[*summaries](),
	Run: func(pass *analysis.Pass) (any, error) {
		res := &summaries{import_: pass.ImportObjectFact}
		if !needsBodies(pass) {
			return res, nil
		}
		res.bodies = true
		funcs := buildOwnSSA(pass)
		res.local = summarize(pass, funcs, res.lookup)
		return res, nil
	},
}

var resultA = &analysis.Analyzer{
	Name:       "opsresultA",
	Doc:        "shape A stand-in: per-function operations, dominance and reachability; no facts",
	Requires:   []*analysis.Analyzer{buildssa.Analyzer, factsA},
	ResultType: reflect.TypeFor[int](),
	Run: func(pass *analysis.Pass) (any, error) {
		sums := pass.ResultOf[factsA].(*summaries)
		if !sums.bodies {
			return 0, nil // std, a covered library, or nothing to relate
		}
		funcs := pass.ResultOf[buildssa.Analyzer].(*buildssa.SSA).SrcFuncs
		return relateOps(funcs, sums.lookup), nil
	},
}

var factsA2 = &analysis.Analyzer{
	Name:       "opsfactsA2",
	Doc:        "shape A2 stand-in: as opsfactsA, and hands the SSA it built to opsresultA2",
	Requires:   []*analysis.Analyzer{ctrlflow.Analyzer},
	FactTypes:  []analysis.Fact{new(funcSummary), new(pkgSummary)},
	ResultType: reflect.TypeFor[*summaries](),
	Run: func(pass *analysis.Pass) (any, error) {
		res := &summaries{import_: pass.ImportObjectFact}
		if !needsBodies(pass) {
			return res, nil
		}
		res.bodies = true
		res.funcs = buildOwnSSA(pass)
		res.local = summarize(pass, res.funcs, res.lookup)
		return res, nil
	},
}

var resultA2 = &analysis.Analyzer{
	Name:       "opsresultA2",
	Doc:        "shape A2 stand-in: as opsresultA, on the SSA opsfactsA2 built; no facts, no buildssa",
	Requires:   []*analysis.Analyzer{factsA2},
	ResultType: reflect.TypeFor[int](),
	Run: func(pass *analysis.Pass) (any, error) {
		sums := pass.ResultOf[factsA2].(*summaries)
		return relateOps(sums.funcs, sums.lookup), nil
	},
}

var factsB = &analysis.Analyzer{
	Name:       "opsB",
	Doc:        "shape B stand-in: one fact analyzer requiring buildssa, summaries and operations",
	Requires:   []*analysis.Analyzer{buildssa.Analyzer},
	FactTypes:  []analysis.Fact{new(funcSummary), new(pkgSummary)},
	ResultType: reflect.TypeFor[int](),
	Run: func(pass *analysis.Pass) (any, error) {
		if !needsBodies(pass) {
			return 0, nil
		}
		funcs := pass.ResultOf[buildssa.Analyzer].(*buildssa.SSA).SrcFuncs
		s := &summaries{import_: pass.ImportObjectFact}
		s.local = summarize(pass, funcs, s.lookup)
		return relateOps(funcs, s.lookup), nil
	},
}

// buildOwnSSA builds SSA for this package's functions only, as buildssa
// does (one Program per package, imports created from types alone), and
// returns its source functions, literals included.
func buildOwnSSA(pass *analysis.Pass) []*ssa.Function {
	prog := ssa.NewProgram(pass.Fset, 0)
	if cfgs, ok := pass.ResultOf[ctrlflow.Analyzer].(*ctrlflow.CFGs); ok {
		prog.SetNoReturn(cfgs.NoReturn)
	}
	for _, p := range pass.Pkg.Imports() {
		prog.CreatePackage(p, nil, nil, true)
	}
	ssapkg := prog.CreatePackage(pass.Pkg, pass.Files, pass.TypesInfo, false)
	ssapkg.Build()

	var funcs []*ssa.Function
	var add func(f *ssa.Function)
	add = func(f *ssa.Function) {
		funcs = append(funcs, f)
		for _, anon := range f.AnonFuncs {
			add(anon)
		}
	}
	for _, file := range pass.Files {
		for _, decl := range file.Decls {
			if d, ok := decl.(*ast.FuncDecl); ok {
				fn, ok := pass.TypesInfo.Defs[d.Name].(*types.Func)
				if !ok {
					continue
				}
				if f := prog.FuncValue(fn); f != nil {
					add(f)
				}
			}
		}
	}
	return funcs
}

// topFunc returns the declared function that f is, or is a literal of.
func topFunc(f *ssa.Function) *types.Func {
	for f.Parent() != nil {
		f = f.Parent()
	}
	if f.Origin() != nil {
		f = f.Origin()
	}
	fn, _ := f.Object().(*types.Func)
	return fn
}

// calleeEffect returns the effect of one call: a table library call, or a
// call of a summarised function (this package's or, through facts, another's).
func calleeEffect(c *ssa.CallCommon, lookup func(*types.Func) (funcSummary, bool)) (uint8, string) {
	var fn *types.Func
	if c.IsInvoke() {
		fn = c.Method
	} else if callee := c.StaticCallee(); callee != nil {
		if callee.Origin() != nil {
			callee = callee.Origin()
		}
		fn, _ = callee.Object().(*types.Func)
	}
	if fn == nil || fn.Pkg() == nil {
		return 0, ""
	}
	if eff := tableEffect(fn.Pkg().Path()); eff != 0 {
		return eff, fn.FullName()
	}
	if s, ok := lookup(fn); ok {
		return s.Effects, fn.FullName()
	}
	return 0, ""
}

// summarize computes and exports the summaries of the package's declared
// functions, iterating to a bounded fixpoint over calls within the package.
func summarize(pass *analysis.Pass, funcs []*ssa.Function, imported func(*types.Func) (funcSummary, bool)) map[*types.Func]*funcSummary {
	local := map[*types.Func]*funcSummary{}
	lookup := func(fn *types.Func) (funcSummary, bool) {
		if fn.Pkg() == pass.Pkg {
			if s, ok := local[fn]; ok {
				return *s, true
			}
			return funcSummary{}, false
		}
		return imported(fn)
	}
	for round := 0; round < 8; round++ {
		changed := false
		for _, f := range funcs {
			top := topFunc(f)
			if top == nil {
				continue
			}
			for _, b := range f.Blocks {
				for _, instr := range b.Instrs {
					call, ok := instr.(ssa.CallInstruction)
					if !ok {
						continue
					}
					eff, via := calleeEffect(call.Common(), lookup)
					if eff == 0 {
						continue
					}
					s := local[top]
					if s == nil {
						s = &funcSummary{Via: via}
						local[top] = s
					}
					if s.Effects|eff != s.Effects {
						s.Effects |= eff
						changed = true
					}
				}
			}
		}
		if !changed {
			break
		}
	}
	for fn, s := range local {
		pass.ExportObjectFact(fn, s)
	}
	if len(local) > 0 {
		pass.ExportPackageFact(&pkgSummary{Funcs: len(local)})
	}
	return local
}

// relateOps stands in for the result analyzer's per-function queries: it
// collects the operations of each function and, for each ordered pair,
// asks whether one dominates the other and whether one reaches the other,
// with a cap per function as the real layer will have.
func relateOps(funcs []*ssa.Function, lookup func(*types.Func) (funcSummary, bool)) int {
	const maxOps, maxBlocks = 64, 2000
	n := 0
	for _, f := range funcs {
		var ops []ssa.Instruction
		for _, b := range f.Blocks {
			for _, instr := range b.Instrs {
				if call, ok := instr.(ssa.CallInstruction); ok {
					if eff, _ := calleeEffect(call.Common(), lookup); eff != 0 && len(ops) < maxOps {
						ops = append(ops, instr)
					}
				}
			}
		}
		if len(ops) < 2 {
			continue
		}
		var reach [][]bool
		if len(f.Blocks) <= maxBlocks {
			reach = reachability(f)
		}
		for i, x := range ops {
			for j, y := range ops {
				if i == j {
					continue
				}
				bx, by := x.Block(), y.Block()
				if bx.Dominates(by) {
					n++
				}
				if reach != nil && reach[bx.Index][by.Index] {
					n++
				}
			}
		}
	}
	return n
}

// reachability returns, for each block, the set of blocks reachable from it.
func reachability(f *ssa.Function) [][]bool {
	r := make([][]bool, len(f.Blocks))
	for i, b := range f.Blocks {
		seen := make([]bool, len(f.Blocks))
		stack := append([]*ssa.BasicBlock(nil), b.Succs...)
		for len(stack) > 0 {
			x := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if seen[x.Index] {
				continue
			}
			seen[x.Index] = true
			stack = append(stack, x.Succs...)
		}
		r[i] = seen
	}
	return r
}
