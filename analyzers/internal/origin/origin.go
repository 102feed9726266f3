// Package origin tells the standard library from the code of modules by
// where a package comes from, never by the spelling of its import path.
//
// "The first element has no dot" is the go command's rule for which module
// paths may be downloaded, not a test of the standard library: `module
// backend`, `module app` and the members of many monorepos are dotless
// too, and taking them for the standard library made the whole suite
// silent on them. Each package decides for itself, in its own pass, from
// the module the driver says it belongs to (or, for drivers that do not
// say, from its files lying in a GOROOT); a module package whose path is
// dotless says so in a package fact its importers read. Everything in
// idemlint that asks whether a package is std asks Packages.Std.
package origin

import (
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"

	"golang.org/x/tools/go/analysis"
)

// modules is the package fact of a package of a module whose import path,
// or that of one of its dependencies in a module, has no dot: those paths,
// sorted. A dotted path is never the standard library's; a dotless one is
// unless some package's own pass found it in a module. Each package
// re-exports the union of its imports' facts and itself, because drivers
// hand a package only the facts of its direct imports.
type modules struct{ Paths []string }

func (*modules) AFact() {}

func (m *modules) String() string { return "modules(" + strings.Join(m.Paths, " ") + ")" }

// Analyzer answers, for the packages a pass sees, whether each belongs to
// the standard library.
var Analyzer = &analysis.Analyzer{
	Name:       "idemlintorigin",
	Doc:        "tell the standard library from module code by where each package comes from",
	Run:        run,
	FactTypes:  []analysis.Fact{new(modules)},
	ResultType: reflect.TypeFor[*Packages](),
	// It needs only the package's path and file names, which a package
	// that does not compile has too.
	RunDespiteErrors: true,
}

// Packages is Analyzer's result.
type Packages struct {
	self    string
	selfStd bool
	module  string          // the package's module path, when the driver says
	inMod   map[string]bool // dotless paths of module packages, from the facts
}

func run(pass *analysis.Pass) (any, error) {
	p := &Packages{self: pass.Pkg.Path(), selfStd: stdPass(pass), inMod: map[string]bool{}}
	if pass.Module != nil {
		p.module = pass.Module.Path
	}
	if p.selfStd {
		return p, nil // the standard library imports only itself
	}
	if dotless(p.self) {
		p.inMod[p.self] = true
	}
	for _, f := range pass.AllPackageFacts() {
		if m, ok := f.Fact.(*modules); ok {
			for _, path := range m.Paths {
				p.inMod[path] = true
			}
		}
	}
	if len(p.inMod) > 0 {
		pass.ExportPackageFact(&modules{Paths: slices.Sorted(maps.Keys(p.inMod))})
	}
	return p, nil
}

// Std reports whether the package with this import path, the pass's own
// or one it imports (directly or not), belongs to the standard library.
func (p *Packages) Std(path string) bool {
	switch {
	case path == p.self:
		return p.selfStd
	case !dotless(path), p.inMod[path]:
		return false
	case p.module != "" && (path == p.module || strings.HasPrefix(path, p.module+"/")):
		return false // a package of this module whose own analysis failed
	}
	return true
}

// stdPass reports whether the pass's package belongs to the standard
// library: it is in no module (go vet and the go/packages drivers give
// every package of a module its module path), and its files lie in a
// GOROOT, at GOROOT/src/PATH.
func stdPass(pass *analysis.Pass) bool {
	if pass.Module != nil && pass.Module.Path != "" {
		return false
	}
	path := pass.Pkg.Path()
	if !dotless(path) {
		return false
	}
	if len(pass.Files) == 0 {
		return true // unsafe, or a package the driver gave no syntax for
	}
	// Some file (not cmd/cgo's output, which lies in a build directory)
	// must lie at ROOT/src/PATH of a ROOT that is a Go installation: a
	// dotless package outside any module (command-line-arguments, GOPATH
	// mode, a driver that does not name modules) is not std.
	for _, f := range pass.Files {
		dir := filepath.ToSlash(filepath.Dir(pass.Fset.File(f.Pos()).Name()))
		if root, ok := strings.CutSuffix(dir, "/src/"+path); ok && isGoroot(root) {
			return true
		}
	}
	return false
}

var goroots sync.Map // root → bool

// isGoroot reports whether root is a Go installation: it has the runtime's
// sources.
func isGoroot(root string) bool {
	if v, ok := goroots.Load(root); ok {
		return v.(bool)
	}
	_, err := os.Stat(filepath.Join(filepath.FromSlash(root), "src", "runtime", "extern.go"))
	goroots.Store(root, err == nil)
	return err == nil
}

// dotless reports whether the first element of an import path has no dot,
// which every standard-library path satisfies (and many module paths).
func dotless(path string) bool {
	first, _, _ := strings.Cut(path, "/")
	return !strings.Contains(first, ".")
}
