package ops

import (
	"errors"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"sync"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/config"
	"github.com/idemlint/idemlint/analyzers/internal/knowledge"
	"github.com/idemlint/idemlint/analyzers/internal/origin"
	"github.com/idemlint/idemlint/analyzers/internal/report"
	"github.com/idemlint/idemlint/analyzers/internal/schema"
)

// Summarised is the package fact of a package that exported at least one
// Summary: importers of it may need to look at bodies.
type Summarised struct{}

func (*Summarised) AFact()         {}
func (*Summarised) String() string { return "summarised" }

// FactsAnalyzer exports a Summary for each function of the package that
// locks a handle it is given, performs network I/O, or runs a func
// parameter in a transaction.
var FactsAnalyzer = &analysis.Analyzer{
	Name:       "idemlintopsfacts",
	Doc:        "summarise what each function does to the database and the network, for its callers in other packages",
	Run:        report.Guard(runFacts),
	Requires:   []*analysis.Analyzer{config.Analyzer, origin.Analyzer, schema.FactsAnalyzer},
	FactTypes:  []analysis.Fact{new(Summary), new(Summarised), new(Wiring), new(CtxKeys), new(TableWriters)},
	ResultType: reflect.TypeFor[*Facts](),
	// A package that does not compile gets no summaries, and its
	// importers are analysed with what can be known (report.IllTyped).
	RunDespiteErrors: true,
}

// Facts is FactsAnalyzer's result: access to the summaries of functions
// of other packages. The go/analysis API lets only the analyzer that
// declares a fact type import its facts, so the result analyzer reads
// them through this.
type Facts struct {
	// Imported returns the summary of a function of another package, or
	// nil.
	Imported func(*types.Func) *Summary
	// Funcs are the package's source functions, anonymous ones included,
	// when FactsAnalyzer built SSA for the package; nil when the package
	// cannot touch a database or the network, in which case it has no
	// operations.
	Funcs []*ssa.Function
	// e holds the operations and summaries computed so far.
	e *extractor
	// completions are the consumers this package completes, and
	// openSpans the functions of this package with open calls (wiring.go).
	completions []*Completion
	openSpans   []span
	// writers are the column writers of the package and its imports
	// (wholerow.go).
	writers []ColumnWriter
}

func runFacts(pass *analysis.Pass) (any, error) {
	if len(libraries) == 0 {
		return nil, errors.New("no library is registered with the ops layer: the program must import analyzers/internal/dialect")
	}
	facts := &Facts{Imported: importedSummary(pass)}
	cfg, _ := pass.ResultOf[config.Analyzer].(*config.Config)
	var networkFuncs, configured []string
	if cfg != nil {
		networkFuncs = cfg.NetworkFuncs
		configured = append(append(configured, cfg.NetworkFuncs...), cfg.RetryFuncs...)
	}
	orig := pass.ResultOf[origin.Analyzer].(*origin.Packages)
	if report.IllTyped(pass) || (cfg != nil && cfg.Err != nil) || orig.Std(pass.Pkg.Path()) || knowledge.Covered(pass.Pkg.Path()) {
		return facts, nil
	}
	src := sourcePackage{fset: pass.Fset, pkg: pass.Pkg, files: pass.Files, info: pass.TypesInfo}
	// The interfaces whose calls nothing here resolves, read from the
	// types: a consumer needs no SSA of its own to be completed.
	var open []string
	open, facts.openSpans = openCalls(pass, orig)
	if len(open) > 0 {
		keepOpen(src)
	}
	var copies map[*types.Func][]FieldCopy
	if programPackage(pass) {
		copies = copiesOf(pass.Files, pass.TypesInfo)
	}
	if !(needsBodies(pass, configured) || mayRetry(pass)) {
		if len(open) > 0 {
			pass.ExportPackageFact(&Wiring{Open: open})
		}
		// A package of DTOs: its copying helpers are what importers need;
		// a package of errors: its constructors wrapping an error.
		wraps := wrapperFacts(src)
		for obj, c := range copies {
			s := wraps[obj]
			if s == nil {
				s = &Summary{}
			}
			s.Copies = c
			pass.ExportObjectFact(obj, s)
		}
		for obj, s := range wraps {
			if copies[obj] == nil {
				pass.ExportObjectFact(obj, s)
			}
		}
		return facts, nil
	}
	recordNaming(pass)
	funcs := buildPackageSSA(src)
	registerCopies(funcs, copies, facts.Imported)
	extractorFor := func(src sourcePackage, funcs []*ssa.Function) *extractor {
		e := newExtractor(facts.Imported, networkFuncs, orig)
		e.rx = newRequestExt(src.info, cfg, funcs)
		e.impls = soleImpls(src.pkg, funcs, testOnlyTypes(src.files, src.info))
		return e
	}
	e := extractorFor(src, funcs)
	facts.Funcs, facts.e = funcs, e
	e.requestContexts(pass, funcs)
	local := e.bindings(pass, funcs, depWirings(pass))
	exported := false
	for _, fn := range funcs {
		obj, ok := fn.Object().(*types.Func)
		if !ok || fn.Parent() != nil {
			continue
		}
		s := e.summary(fn)
		exported = exported || !s.empty()
		if c := copies[obj]; len(c) > 0 {
			s = withCopies(s, c)
		}
		if !s.empty() {
			pass.ExportObjectFact(obj, s)
		}
	}
	for m, fn := range e.impls {
		if s := e.summary(fn); !s.empty() {
			pass.ExportObjectFact(m, s)
			exported = true
		}
	}
	own := e.columnWriters(funcs, func(c ssa.CallInstruction) string {
		p := pass.Fset.Position(c.Pos())
		return fmt.Sprintf("%s:%d", filepath.Base(p.Filename), p.Line)
	})
	if len(own) > 0 {
		pass.ExportPackageFact(&TableWriters{Writers: own})
	}
	facts.writers = append(own, importedWriters(pass)...)
	var completed []string
	facts.completions, completed = e.complete(pass, extractorFor)
	if c, key := e.completeSelf(pass, src, funcs, open, facts.openSpans, extractorFor); key != "" {
		completed = append(completed, key)
		if c != nil {
			facts.completions = append(facts.completions, c)
		}
	}
	if w := wiringFact(open, local, completed); w != nil {
		pass.ExportPackageFact(w)
	}
	if exported {
		pass.ExportPackageFact(new(Summarised))
	}
	return facts, nil
}

// needsBodies reports whether some function of the package may do
// something a summary records: the package imports a database or network
// library, or a package that exported summaries, or a package holding a
// configured network function; or it calls a method of such a library
// without importing it (r.db.Pool.QueryRow, where the pool is a field of
// a wrapper type of another package).
func needsBodies(pass *analysis.Pass, networkFuncs []string) bool {
	for _, imp := range pass.Pkg.Imports() {
		if relevantLibrary(imp.Path()) || pass.ImportPackageFact(imp, new(Summarised)) {
			return true
		}
		for _, f := range networkFuncs {
			if strings.Contains(f, imp.Path()+".") {
				return true
			}
		}
	}
	seen := map[*types.Package]bool{pass.Pkg: true}
	for _, sel := range pass.TypesInfo.Selections {
		pkg := sel.Obj().Pkg()
		if pkg == nil || seen[pkg] {
			continue
		}
		seen[pkg] = true
		if relevantLibrary(pkg.Path()) {
			return true
		}
	}
	return mayComplete(depWirings(pass))
}

// relevantLibrary reports whether a package's calls can lock, begin a
// transaction or reach the network.
func relevantLibrary(path string) bool {
	return knowledge.Operates(path) || knowledge.Covered(path)
}

// importedSummary returns the Summary fact of a function of another
// package, or nil.
func importedSummary(pass *analysis.Pass) func(*types.Func) *Summary {
	// Each ImportObjectFact copies the fact; a package asks for the same
	// callee's summary at every call of it, and again from each analyzer.
	var mu sync.Mutex
	cache := map[*types.Func]*Summary{}
	return func(fn *types.Func) *Summary {
		fn = fn.Origin()
		mu.Lock()
		defer mu.Unlock()
		if s, ok := cache[fn]; ok {
			return s
		}
		var s *Summary
		if fact := new(Summary); pass.ImportObjectFact(fn, fact) {
			s = fact
			if s.ErrorsIs {
				recordErrorsIs(fn)
			}
		}
		cache[fn] = s
		return s
	}
}

// buildSSA builds SSA for the package alone, the way the buildssa
// analyzer does, and returns its source functions, anonymous ones
// included. FactsAnalyzer does this itself, only for the packages that
// need bodies, rather than requiring buildssa, which every driver would
// then run on every package of the program.
func buildSSA(pass *analysis.Pass) []*ssa.Function {
	return buildPackageSSA(sourcePackage{fset: pass.Fset, pkg: pass.Pkg, files: pass.Files, info: pass.TypesInfo})
}

// A sourcePackage is what building a package's SSA takes: its syntax and
// types.
type sourcePackage struct {
	fset  *token.FileSet
	pkg   *types.Package
	files []*ast.File
	info  *types.Info
}

// buildPackageSSA builds SSA for src alone (buildSSA).
func buildPackageSSA(src sourcePackage) []*ssa.Function {
	// BareInits: the package initializer does not call the imports'
	// initializers, so SSA does not require every direct import to be
	// created (it panics with "unsatisfied import" otherwise).
	prog := ssa.NewProgram(src.fset, ssa.BareInits)
	createReferenced(prog, src)
	pkg := prog.CreatePackage(src.pkg, src.files, src.info, false)
	pkg.Build()

	var funcs []*ssa.Function
	var addAnons func(*ssa.Function)
	addAnons = func(f *ssa.Function) {
		funcs = append(funcs, f)
		for _, anon := range f.AnonFuncs {
			addAnons(anon)
		}
	}
	for _, file := range src.files {
		for _, decl := range file.Decls {
			fdecl, ok := decl.(*ast.FuncDecl)
			if !ok {
				continue
			}
			obj, ok := src.info.Defs[fdecl.Name].(*types.Func)
			if !ok {
				continue
			}
			if fn := prog.FuncValue(obj); fn != nil {
				addAnons(fn)
			}
		}
	}
	return funcs
}

// createReferenced creates, for each package whose package-level
// functions or variables pass's package names, an SSA package holding
// those members and no others: SSA resolves such names among the created
// packages, and creates the methods of other packages' types on demand.
//
// Creating an import from its types allocates a function for each of its
// functions and methods, and every package with operations paid that
// again for net/http and database/sql: on large programs it was most of
// what the layer allocated, and it set its peak memory
// (docs/performance.md). So each package is created from a stand-in
// file declaring only the members named (a function declaration without a
// body is what SSA makes of an external function: parameters, no
// blocks), with a types.Info defining those identifiers as the real
// objects. The package is never built: its functions have no blocks, as
// when created from types.
func createReferenced(prog *ssa.Program, src sourcePackage) {
	type stub struct {
		file *ast.File
		info *types.Info
	}
	stubs := map[*types.Package]*stub{}
	var order []*types.Package
	declared := map[types.Object]bool{}
	for _, obj := range src.info.Uses {
		if fn, ok := obj.(*types.Func); ok {
			obj = fn.Origin()
		}
		pkg := obj.Pkg()
		if pkg == nil || pkg == src.pkg || obj.Parent() != pkg.Scope() || declared[obj] {
			continue
		}
		id := ast.NewIdent(obj.Name())
		var decl ast.Decl
		switch obj.(type) {
		case *types.Func:
			decl = &ast.FuncDecl{Name: id, Type: &ast.FuncType{Params: &ast.FieldList{}}}
		case *types.Var:
			decl = &ast.GenDecl{Tok: token.VAR, Specs: []ast.Spec{&ast.ValueSpec{Names: []*ast.Ident{id}}}}
		default:
			continue // constants are folded; types need no member
		}
		declared[obj] = true
		st := stubs[pkg]
		if st == nil {
			st = &stub{
				file: &ast.File{Name: ast.NewIdent(pkg.Name())},
				info: &types.Info{Defs: map[*ast.Ident]types.Object{}},
			}
			stubs[pkg] = st
			order = append(order, pkg)
		}
		st.file.Decls = append(st.file.Decls, decl)
		st.info.Defs[id] = obj
	}
	sort.Slice(order, func(i, j int) bool { return order[i].Path() < order[j].Path() })
	for _, pkg := range order {
		st := stubs[pkg]
		prog.CreatePackage(pkg, []*ast.File{st.file}, st.info, true)
	}
}

// soleImpls applies the one-implementation rule: for each interface type
// declared in pkg that exactly one concrete type declared in pkg
// implements (a generated gRPC XxxClient and its xxxClient stub, a
// repository interface and its one store), it maps each method the
// interface declares to the function implementing it.
func soleImpls(pkg *types.Package, funcs []*ssa.Function, testOnly map[*types.TypeName]bool) map[*types.Func]*ssa.Function {
	byObj := map[*types.Func]*ssa.Function{}
	for _, fn := range funcs {
		if obj, ok := fn.Object().(*types.Func); ok && fn.Parent() == nil {
			byObj[obj] = fn
		}
	}
	impls := map[*types.Func]*ssa.Function{}
	for m, f := range soleImplMethods(pkg, testOnly) {
		if fn := byObj[f]; fn != nil {
			impls[m] = fn
		}
	}
	return impls
}

// soleImplMethods is soleImpls on types: each method of an interface of
// pkg with one implementation in pkg, mapped to the implementing method.
// A type only the package's tests make (testOnly) implements nothing.
func soleImplMethods(pkg *types.Package, testOnly map[*types.TypeName]bool) map[*types.Func]*types.Func {
	var ifaces []*types.Named
	var concrete []*types.Named
	scope := pkg.Scope()
	for _, name := range scope.Names() {
		tn, ok := scope.Lookup(name).(*types.TypeName)
		if !ok || tn.IsAlias() {
			continue
		}
		named, ok := tn.Type().(*types.Named)
		if !ok || named.TypeParams().Len() > 0 {
			continue
		}
		if iface, ok := named.Underlying().(*types.Interface); ok {
			if iface.NumMethods() > 0 && iface.IsMethodSet() {
				ifaces = append(ifaces, named)
			}
			continue
		}
		if !testOnly[tn] {
			concrete = append(concrete, named)
		}
	}
	impls := map[*types.Func]*types.Func{}
	for _, in := range ifaces {
		iface := in.Underlying().(*types.Interface)
		var impl types.Type
		n := 0
		for _, c := range concrete {
			switch {
			case types.Implements(c, iface):
				impl = c
				n++
			case types.Implements(types.NewPointer(c), iface):
				impl = types.NewPointer(c)
				n++
			}
		}
		if n != 1 {
			continue
		}
		for i := 0; i < iface.NumMethods(); i++ {
			m := iface.Method(i)
			if m.Pkg() != pkg {
				continue
			}
			obj, _, _ := types.LookupFieldOrMethod(impl, true, pkg, m.Name())
			if f, ok := obj.(*types.Func); ok {
				impls[m] = f
			}
		}
	}
	return impls
}
