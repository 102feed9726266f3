package ops

import (
	"go/token"
	"go/types"
	"maps"
	"slices"
	"sort"
	"strings"
	"sync"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/origin"
)

// Interfaces bound across packages.
//
// A service written in the clean-architecture layout declares its
// repository interface in the package that uses it (usecase), implements
// it in a package that package does not import (persistent), and binds
// the two in a third (main or app) that imports both. Facts flow only from
// a package to its importers, so the consumer never sees what its calls of
// the interface run. The package that binds them does: it sees the
// consumer's package and the implementation's summaries. So:
//
//   - each package records the interfaces whose calls nothing it sees
//     resolves (Wiring.Open), and keeps its syntax reachable from the
//     package that will complete it (openPackages);
//   - each package records the conversions of its program's concrete
//     types to named interfaces it makes, with the summaries of the
//     implementing methods (Wiring.Binds);
//   - a package that sees an open consumer among its dependencies and an
//     interface of it bound, among everything it sees, to one
//     implementation (or to two or three, each in turn) analyses the
//     consumer again with the binding (Completion), and the analyzers
//     report, at the consumer's lines, what the binding adds to what the
//     consumer's own pass found (with several implementations, only what
//     every one of them adds).
//
// The consumer's syntax is found through a table in the process, not a
// fact: only a driver that analyses the whole program in one process,
// from one load (the standalone driver, analysistest, golangci-lint), can
// complete a consumer, and only when the package the fact names is the
// very package the table holds. go vet runs each package in its own
// process and gopls types dependencies from export data: there the
// consumer's calls stay unresolved (docs/design.md, "What each driver
// sees").

// Wiring is the package fact of a package with open interface calls,
// interface conversions, or completions.
type Wiring struct {
	// Open are the interfaces (path.Name) whose method calls in the
	// package nothing resolved.
	Open []string
	// Binds are the conversions of concrete types of the program to
	// named interfaces the package makes.
	Binds []Binding
	// Completed are the consumers the package completed, as
	// completionKey: an importer seeing the same bindings does not
	// complete them again.
	Completed []string
}

func (*Wiring) AFact() {}

func (w *Wiring) String() string {
	var parts []string
	for _, o := range w.Open {
		parts = append(parts, "open("+o+")")
	}
	for _, b := range w.Binds {
		parts = append(parts, "bind("+b.Iface+" <- "+b.Impl+")")
	}
	for _, c := range w.Completed {
		parts = append(parts, "completed("+strings.ReplaceAll(c, "\x00", " ")+")")
	}
	return strings.Join(parts, " ")
}

// A Binding is a conversion of the concrete type Impl to the interface
// Iface.
type Binding struct {
	Iface, Impl string
	// Keys are the methodKeys of Iface's methods (embedded interfaces'
	// under their own names).
	Keys []string
	// Methods are, by methodKey, the summaries of the implementing
	// methods that do something, and Names their names for messages.
	Methods map[string]*Summary
	Names   map[string]string
}

// A boundMethod is the one implementation of an interface method in what
// a package sees.
type boundMethod struct {
	impl string
	name string
	// pkg is the package whose imports the summary's model types are
	// looked up in: the package under analysis, which sees them all.
	pkg     *types.Package
	summary func() *Summary
	// local is set when the package under analysis makes the binding
	// itself (a conversion in its own code), not only sees it among its
	// dependencies' Wiring facts.
	local bool
}

// openPackages holds the syntax of each package with open interface
// calls, for the package that completes it, by import path. The driver
// may drop a package's syntax once the package itself is analysed
// (golangci-lint does), so the table holds it. A long-lived driver that
// analyses a package again and again (gopls) must not find every old
// copy kept: a path keeps its last maxOpenVariants packages (a package,
// its test variant and the variants other tests build), the older ones
// are dropped.
var openPackages = struct {
	sync.Mutex
	byPath map[string][]sourcePackage
}{byPath: map[string][]sourcePackage{}}

const maxOpenVariants = 4

// keepOpen records src's syntax for the packages that will complete it.
func keepOpen(src sourcePackage) {
	openPackages.Lock()
	defer openPackages.Unlock()
	path := src.pkg.Path()
	list := append(openPackages.byPath[path], src)
	if len(list) > maxOpenVariants {
		list = slices.Clone(list[len(list)-maxOpenVariants:])
	}
	openPackages.byPath[path] = list
}

// openSource returns the syntax keepOpen recorded for pkg: the very
// package, never another load's or another process's of the same path.
func openSource(pkg *types.Package) (sourcePackage, bool) {
	openPackages.Lock()
	defer openPackages.Unlock()
	for _, src := range openPackages.byPath[pkg.Path()] {
		if src.pkg == pkg {
			return src, true
		}
	}
	return sourcePackage{}, false
}

// bindings returns the bindings this package makes (conversions in
// funcs) and sets e.bound to the interface methods bound to one
// implementation among them and those of deps.
func (e *extractor) bindings(pass *analysis.Pass, funcs []*ssa.Function, deps []*Wiring) []localBinding {
	cands := map[string]map[string]*boundMethod{}
	add := func(key, impl string, b *boundMethod) {
		if cands[key] == nil {
			cands[key] = map[string]*boundMethod{}
		}
		if _, ok := cands[key][impl]; !ok {
			cands[key][impl] = b
		}
	}
	for _, w := range deps {
		for _, b := range w.Binds {
			for _, key := range b.Keys {
				s := b.Methods[key]
				add(key, b.Impl, &boundMethod{impl: b.Impl, name: b.Names[key], pkg: pass.Pkg, summary: func() *Summary { return s }})
			}
		}
	}
	var local []localBinding
	if programPackage(pass) {
		local = localBindings(pass.Pkg, funcs, e)
	}
	for _, lb := range local {
		for key, m := range lb.methods {
			add(key, lb.impl, m)
			cands[key][lb.impl].local = true
		}
	}
	for key, impls := range cands {
		if len(impls) > 1 {
			// Which one runs is not known here. A consumer completed with
			// each in turn is reported only where all of them agree.
			if len(impls) <= maxAlternatives {
				if e.alts == nil {
					e.alts = map[string][]*boundMethod{}
				}
				for _, b := range impls {
					e.alts[key] = append(e.alts[key], b)
				}
				slices.SortFunc(e.alts[key], func(a, b *boundMethod) int { return strings.Compare(a.impl, b.impl) })
			}
			continue
		}
		for _, b := range impls {
			if e.bound == nil {
				e.bound = map[string]*boundMethod{}
			}
			e.bound[key] = b
		}
	}
	return local
}

// maxAlternatives is the most implementations of one interface a
// consumer is completed with, each in turn (a store per SQL dialect).
const maxAlternatives = 3

// variants returns the bindings a consumer is completed with: e.bound
// alone, or, when some method has several implementations, one map per
// implementation, the i-th of each interface's (sorted by type) in the
// i-th.
func (e *extractor) variants() []map[string]*boundMethod {
	n := 1
	for _, impls := range e.alts {
		n = max(n, len(impls))
	}
	out := make([]map[string]*boundMethod, n)
	for i := range out {
		m := maps.Clone(e.bound)
		if m == nil {
			m = map[string]*boundMethod{}
		}
		for key, impls := range e.alts {
			m[key] = impls[min(i, len(impls)-1)]
		}
		out[i] = m
	}
	return out
}

// A localBinding is a conversion made in the package under analysis.
type localBinding struct {
	iface, impl string
	methods     map[string]*boundMethod // by methodKey
}

// localBindings finds the conversions, in funcs, of a concrete type
// declared in a package of the program (not the standard library's, not a
// library the tables know) to a named interface declared in one.
func localBindings(pkg *types.Package, funcs []*ssa.Function, e *extractor) []localBinding {
	seen := map[string]bool{}
	var out []localBinding
	for _, fn := range funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				mi, ok := instr.(*ssa.MakeInterface)
				if !ok {
					continue
				}
				lb, ok := e.binding(pkg, fn.Prog, mi)
				if !ok || seen[lb.iface+"\x00"+lb.impl] {
					continue
				}
				seen[lb.iface+"\x00"+lb.impl] = true
				out = append(out, lb)
			}
		}
	}
	return out
}

// binding describes the conversion mi, when it binds a program type to a
// program interface.
func (e *extractor) binding(pkg *types.Package, prog *ssa.Program, mi *ssa.MakeInterface) (localBinding, bool) {
	named, ok := types.Unalias(mi.Type()).(*types.Named)
	if !ok || named.Obj().Pkg() == nil || named.TypeArgs().Len() > 0 || e.covered(named.Obj().Pkg().Path()) {
		return localBinding{}, false
	}
	iface, ok := named.Underlying().(*types.Interface)
	if !ok || iface.NumMethods() == 0 {
		return localBinding{}, false
	}
	concrete := mi.X.Type()
	base := concrete
	if p, ok := base.(*types.Pointer); ok {
		base = p.Elem()
	}
	cn, ok := types.Unalias(base).(*types.Named)
	if !ok || cn.Obj().Pkg() == nil || cn.TypeArgs().Len() > 0 || e.covered(cn.Obj().Pkg().Path()) {
		return localBinding{}, false
	}
	if _, isIface := cn.Underlying().(*types.Interface); isIface {
		return localBinding{}, false
	}
	lb := localBinding{iface: qualifiedType(named), impl: types.TypeString(concrete, nil), methods: map[string]*boundMethod{}}
	for i := 0; i < iface.NumMethods(); i++ {
		m := iface.Method(i)
		key := methodKey(m)
		if key == "" {
			continue
		}
		obj, _, _ := types.LookupFieldOrMethod(concrete, true, m.Pkg(), m.Name())
		f, ok := obj.(*types.Func)
		if !ok {
			continue
		}
		bm := &boundMethod{impl: lb.impl, name: funcName(f), pkg: pkg}
		if f.Pkg() == pkg {
			if fn := prog.FuncValue(f); fn != nil {
				bm.summary = func() *Summary { return e.summary(fn) }
			}
		} else if e.imported != nil {
			bm.summary = func() *Summary {
				if s, ok := e.chained[f]; ok {
					return s
				}
				return e.imported(f)
			}
		}
		if bm.summary == nil {
			bm.summary = func() *Summary { return nil }
		}
		lb.methods[key] = bm
	}
	return lb, true
}

// export turns the package's bindings into the fact's form.
func (lb localBinding) export() Binding {
	b := Binding{Iface: lb.iface, Impl: lb.impl, Methods: map[string]*Summary{}, Names: map[string]string{}}
	for key, m := range lb.methods {
		b.Keys = append(b.Keys, key)
		if s := m.summary(); !s.empty() {
			b.Methods[key] = s
			b.Names[key] = m.name
		}
	}
	sort.Strings(b.Keys)
	return b
}

// A Completion is a consumer package analysed again, in the package that
// binds its interfaces, with those bindings.
type Completion struct {
	Pkg *types.Package
	src sourcePackage
	// Funcs are the consumer's source functions; plain extracts their
	// operations as the consumer's own pass does, bound with the
	// bindings (one extractor per variant of them).
	Funcs []*ssa.Function
	plain *extractor
	bound []*extractor
}

// completionKey names the completion of consumer with the bound
// interfaces ifaces.
func completionKey(consumer *types.Package, ifaces []string) string {
	return consumer.Path() + "\x00" + strings.Join(ifaces, ",")
}

// complete returns the completions this package makes: each open
// consumer among its dependencies with an interface bound here, not
// completed by a dependency with the same bindings, whose syntax this
// process holds. newExtractor makes an extractor for the consumer's
// functions as this package's own is made.
func (e *extractor) complete(pass *analysis.Pass, newExtractor func(sourcePackage, []*ssa.Function) *extractor) (comps []*Completion, keys []string) {
	if len(e.bound) == 0 && len(e.alts) == 0 {
		return nil, nil
	}
	done := map[string]bool{}
	var consumers []analysis.PackageFact
	for _, pf := range pass.AllPackageFacts() {
		w, ok := pf.Fact.(*Wiring)
		if !ok || pf.Package == pass.Pkg {
			continue
		}
		for _, c := range w.Completed {
			done[c] = true
		}
		if len(w.Open) > 0 {
			consumers = append(consumers, pf)
		}
	}
	sort.Slice(consumers, func(i, j int) bool { return consumers[i].Package.Path() < consumers[j].Package.Path() })
	consumers = importsFirst(consumers)
	for _, pf := range consumers {
		var ifaces []string
		for _, iface := range pf.Fact.(*Wiring).Open {
			if e.binds(iface) {
				ifaces = append(ifaces, iface)
			}
		}
		if len(ifaces) == 0 {
			continue
		}
		if !e.bindsLocally(ifaces) && pass.Pkg.Name() != "main" {
			// Every binding comes from the dependencies: a package of the
			// program that imports this one sees them too, and sibling
			// packages importing the same consumer and binders would each
			// complete it again, none seeing the others' Completed keys
			// (one consumer was completed 21 times on a real service).
			// The program's main package completes it.
			continue
		}
		key := completionKey(pf.Package, ifaces)
		if done[key] {
			continue
		}
		src, ok := openSource(pf.Package)
		if !ok {
			continue // another process's package, or another load's
		}
		funcs := buildPackageSSA(src)
		registerCopies(funcs, copiesOf(src.files, src.info), e.imported)
		plain := newExtractor(src, funcs)
		var bound []*extractor
		resolved := false
		for _, v := range e.variants() {
			x := newExtractor(src, funcs)
			x.bound = v
			for _, fn := range funcs {
				x.Ops(fn)
			}
			resolved = resolved || len(x.boundCalls) > 0
			bound = append(bound, x)
		}
		keys = append(keys, key)
		if !resolved {
			forgetCopies(funcs)
			continue
		}
		e.chain(bound, funcs)
		comps = append(comps, &Completion{Pkg: pf.Package, src: src, Funcs: funcs, plain: plain, bound: bound})
	}
	return comps, keys
}

// completeSelf returns the completion of the package's own functions with
// open calls (spans) by the interfaces of open that what it sees binds to
// several implementations, each in turn, and its key; nil when none is
// bound so, or none resolves a call. A package importing the package
// that declares an interface with one implementation per SQL dialect,
// chosen by configuration, sees every implementation: it needs no binder
// to complete it, in any driver.
func (e *extractor) completeSelf(pass *analysis.Pass, src sourcePackage, funcs []*ssa.Function, open []string, spans []span, newExtractor func(sourcePackage, []*ssa.Function) *extractor) (*Completion, string) {
	if len(e.alts) == 0 {
		return nil, ""
	}
	var ifaces []string
	for _, iface := range open {
		if e.bindsSeveral(iface) {
			ifaces = append(ifaces, iface)
		}
	}
	if len(ifaces) == 0 {
		return nil, ""
	}
	var mine []*ssa.Function
	for _, fn := range funcs {
		if slices.ContainsFunc(spans, func(sp span) bool { return sp.pos <= fn.Pos() && fn.Pos() < sp.end }) {
			mine = append(mine, fn)
		}
	}
	key := completionKey(pass.Pkg, ifaces)
	var bound []*extractor
	resolved := false
	for _, v := range e.variants() {
		x := newExtractor(src, funcs)
		x.bound = v
		for _, fn := range mine {
			x.Ops(fn)
		}
		resolved = resolved || len(x.boundCalls) > 0
		bound = append(bound, x)
	}
	if !resolved {
		return nil, key
	}
	return &Completion{Pkg: pass.Pkg, src: src, Funcs: mine, plain: e, bound: bound}, key
}

// methodOf reports whether a binding's key (path.Iface.Method) is a
// method of the interface iface (path.Iface).
func methodOf(key, iface string) bool {
	return strings.HasPrefix(key, iface+".") && !strings.Contains(key[len(iface)+1:], ".")
}

// bindsSeveral reports whether some method of the interface iface has
// several implementations, each of which does something.
func (e *extractor) bindsSeveral(iface string) bool {
	for key, impls := range e.alts {
		if methodOf(key, iface) &&
			!slices.ContainsFunc(impls, func(b *boundMethod) bool { return b.summary().empty() }) {
			return true
		}
	}
	return false
}

// binds reports whether some method of the interface iface is bound to
// an implementation that does something (a summary), or to several that
// all do: only then can a completion find more than the consumer's own
// pass.
func (e *extractor) binds(iface string) bool {
	of := func(key string) bool { return methodOf(key, iface) }
	for key, b := range e.bound {
		if of(key) && !b.summary().empty() {
			return true
		}
	}
	for key, impls := range e.alts {
		if of(key) && !slices.ContainsFunc(impls, func(b *boundMethod) bool { return b.summary().empty() }) {
			return true
		}
	}
	return false
}

// bindsLocally reports whether the package under analysis makes one of
// the bindings of the interfaces ifaces itself.
func (e *extractor) bindsLocally(ifaces []string) bool {
	of := func(key string) bool {
		return slices.ContainsFunc(ifaces, func(iface string) bool { return methodOf(key, iface) })
	}
	for key, b := range e.bound {
		if b.local && of(key) {
			return true
		}
	}
	for key, impls := range e.alts {
		if of(key) && slices.ContainsFunc(impls, func(b *boundMethod) bool { return b.local }) {
			return true
		}
	}
	return false
}

// depWirings returns the Wiring facts of pass's dependencies.
func depWirings(pass *analysis.Pass) []*Wiring {
	var out []*Wiring
	for _, pf := range pass.AllPackageFacts() {
		if w, ok := pf.Fact.(*Wiring); ok && pf.Package != pass.Pkg {
			out = append(out, w)
		}
	}
	return out
}

// wiringFact is the package's Wiring fact, nil when it has nothing.
func wiringFact(open []string, local []localBinding, completed []string) *Wiring {
	w := &Wiring{Open: open, Completed: completed}
	for _, lb := range local {
		w.Binds = append(w.Binds, lb.export())
	}
	slices.SortFunc(w.Binds, func(a, b Binding) int { return strings.Compare(a.Iface+a.Impl, b.Iface+b.Impl) })
	if len(w.Open) == 0 && len(w.Binds) == 0 && len(w.Completed) == 0 {
		return nil
	}
	return w
}

// A span is the source range of a function.
type span struct{ pos, end token.Pos }

// openCalls returns the interfaces (path.Name) of the package's calls of
// interface methods that nothing the package sees resolves, and the
// functions making them: a method of a named interface declared outside
// the standard library and the tables, with no implementation in its own
// package (soleImplMethods) and no summary its package exported for it.
func openCalls(pass *analysis.Pass, orig *origin.Packages) ([]string, []span) {
	if !programPackage(pass) {
		return nil, nil
	}
	sole := soleImplMethods(pass.Pkg, testOnlyTypes(pass.Files, pass.TypesInfo))
	ifaces := map[string]bool{}
	var at []token.Pos
	for expr, sel := range pass.TypesInfo.Selections {
		if sel.Kind() != types.MethodVal || !types.IsInterface(sel.Recv()) {
			continue
		}
		m, ok := sel.Obj().(*types.Func)
		if !ok || m.Pkg() == nil || relevantLibrary(m.Pkg().Path()) || orig.Std(m.Pkg().Path()) {
			continue
		}
		iface := ifaceOf(m)
		if iface == "" || sole[m] != nil || pass.ImportObjectFact(m, new(Summary)) {
			continue
		}
		ifaces[iface] = true
		at = append(at, expr.Pos())
	}
	if len(ifaces) == 0 {
		return nil, nil
	}
	var spans []span
	for _, f := range pass.Files {
		for _, decl := range f.Decls {
			if slices.ContainsFunc(at, func(p token.Pos) bool { return decl.Pos() <= p && p < decl.End() }) {
				spans = append(spans, span{decl.Pos(), decl.End()})
			}
		}
	}
	return slices.Sorted(maps.Keys(ifaces)), spans
}

// programPackage reports whether pass's package is the program's own,
// not a dependency's: a package of a main module (no version), or of no
// module. A library's interfaces and conversions among its own types are
// not the service's wiring.
func programPackage(pass *analysis.Pass) bool {
	return pass.Module == nil || pass.Module.Version == ""
}

// mayComplete reports whether, among deps, an open interface is bound:
// the package importing them may complete a consumer.
func mayComplete(deps []*Wiring) bool {
	open := map[string]bool{}
	for _, w := range deps {
		for _, o := range w.Open {
			open[o] = true
		}
	}
	if len(open) == 0 {
		return false
	}
	for _, w := range deps {
		for _, b := range w.Binds {
			for _, key := range b.Keys {
				if i := strings.LastIndex(key, "."); i > 0 && open[key[:i]] {
					return true
				}
			}
		}
	}
	return false
}

// chain records the summaries bound, a consumer's extractors with this
// package's bindings (one per variant), give the consumer's methods: a
// use case over its repository interface (book.Service.GetBook over
// book.Repository) that implements an interface another consumer calls
// (loan over book.UseCase) then runs, for that consumer, what its
// repository does. Only methods whose summary the bindings changed, to
// the same summary in every variant (variants that differ in another
// interface), are recorded.
func (e *extractor) chain(bound []*extractor, funcs []*ssa.Function) {
	if len(bound) == 0 || e.imported == nil {
		return
	}
	for _, fn := range funcs {
		obj, ok := fn.Object().(*types.Func)
		if !ok || fn.Signature.Recv() == nil {
			continue
		}
		s := bound[0].summary(fn)
		if s.empty() || summaryText(s) == summaryText(e.imported(obj)) {
			continue
		}
		if slices.ContainsFunc(bound[1:], func(x *extractor) bool { return summaryText(x.summary(fn)) != summaryText(s) }) {
			continue
		}
		if e.chained == nil {
			e.chained = map[*types.Func]*Summary{}
		}
		e.chained[obj] = s
	}
}

// summaryText is s's text, "" for none.
func summaryText(s *Summary) string {
	if s == nil {
		return ""
	}
	return s.String()
}

// importsFirst orders consumers so that a package comes after every
// consumer it imports, directly or not: a consumer completed first
// lends its completed summaries (chain) to its importers'. Of the
// consumers whose imported consumers are all placed, the first in the
// given order comes next, so the order is stable.
//
// Which consumers each one imports is found by one walk of the import
// graph, memoised per package (a wiring package of a large service has
// hundreds of consumers over thousands of packages: a walk per pair was
// most of its analysis).
func importsFirst(consumers []analysis.PackageFact) []analysis.PackageFact {
	n := len(consumers)
	bit := map[*types.Package]int{} // a consumer package's bit in a reach set
	for _, c := range consumers {
		if _, ok := bit[c.Package]; !ok {
			bit[c.Package] = len(bit)
		}
	}
	words := (len(bit) + 63) / 64
	reachOf := map[*types.Package][]uint64{}
	// reach returns the consumer packages p imports, directly or not.
	var reach func(p *types.Package) []uint64
	reach = func(p *types.Package) []uint64 {
		if r, ok := reachOf[p]; ok {
			return r
		}
		r := make([]uint64, words)
		reachOf[p] = r // the import graph has no cycles
		for _, q := range p.Imports() {
			if b, ok := bit[q]; ok {
				r[b/64] |= 1 << (b % 64)
			}
			for i, w := range reach(q) {
				r[i] |= w
			}
		}
		return r
	}
	imports := func(a, b *types.Package) bool {
		i := bit[b]
		return reach(a)[i/64]&(1<<(i%64)) != 0
	}
	// waiting[i] counts the consumers not yet placed that consumer i
	// imports; importers[j] are the consumers that import consumer j.
	waiting := make([]int, n)
	importers := make([][]int, n)
	for i, c := range consumers {
		for j, d := range consumers {
			if d.Package != c.Package && imports(c.Package, d.Package) {
				waiting[i]++
				importers[j] = append(importers[j], i)
			}
		}
	}
	out := make([]analysis.PackageFact, 0, n)
	placed := make([]bool, n)
	for len(out) < n {
		pick := -1
		for i := range consumers {
			if placed[i] {
				continue
			}
			if pick < 0 {
				pick = i // when none is ready (a cycle, which imports cannot make): the first left
			}
			if waiting[i] == 0 {
				pick = i
				break
			}
		}
		placed[pick] = true
		out = append(out, consumers[pick])
		for _, k := range importers[pick] {
			waiting[k]--
		}
	}
	return out
}
