package ops

import (
	"go/types"
	"runtime"
	"sync"
	"weak"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/schema"
)

// A library whose models' names the program sets at run time (xorm's
// engine.SetMapper) names them by what the package under analysis sees
// of those settings: the schema layer's facts carry them from the package
// that makes the call to its importers (schema.Naming). The library's
// hooks are given a call, not the pass, so FactsAnalyzer records what
// each package sees here, and the hooks ask Naming with the function they
// look at.
//
// The table is keyed by a weak pointer to the package: the test variant
// of a path (pkg [pkg.test]) is another *types.Package, analysed beside
// it, and a long-lived driver (gopls) analyses a package again as a new
// one; an entry is dropped when its package is collected, so the table
// keeps no package alive. Packages that see no setting have no entry.
var (
	namingsMu sync.Mutex
	namings   = map[weak.Pointer[types.Package]]map[string][]string{} // library name -> settings
)

// recordNaming records the settings pass's package sees, for each
// registered library.
func recordNaming(pass *analysis.Pass) {
	by := map[string][]string{}
	for _, l := range libraries {
		if n := schema.Naming(pass, l.Name); len(n) > 0 {
			by[l.Name] = n
		}
	}
	key := weak.Make(pass.Pkg)
	namingsMu.Lock()
	defer namingsMu.Unlock()
	if len(by) == 0 {
		delete(namings, key)
		return
	}
	if _, had := namings[key]; !had {
		runtime.AddCleanup(pass.Pkg, func(k weak.Pointer[types.Package]) {
			namingsMu.Lock()
			delete(namings, k)
			namingsMu.Unlock()
		}, key)
	}
	namings[key] = by
}

// Naming returns the settings of library lib's naming of its models that
// the package of fn sees (schema.ModelReader.Naming, in the reader's
// words), nil when it sees none: the library's naming is then its
// default, or what every setting it may have agrees on.
func Naming(fn *ssa.Function, lib string) []string {
	if fn == nil {
		return nil
	}
	var pkg *types.Package
	switch {
	case fn.Pkg != nil:
		pkg = fn.Pkg.Pkg
	case fn.Object() != nil:
		pkg = fn.Object().Pkg()
	}
	if pkg == nil {
		return nil
	}
	namingsMu.Lock()
	defer namingsMu.Unlock()
	return namings[weak.Make(pkg)][lib]
}
