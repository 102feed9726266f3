package ops

import (
	"go/types"
	"sync"

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
// The table is keyed by import path and holds one package each, so that
// a long-lived driver (gopls) analysing a package again replaces its
// entry instead of keeping every version; the entry answers only for the
// very *types.Package it was made for. Packages that see no setting have
// no entry.
var namings sync.Map // import path -> packageNaming

type packageNaming struct {
	pkg *types.Package
	by  map[string][]string // library name -> settings
}

// recordNaming records the settings pass's package sees, for each
// registered library.
func recordNaming(pass *analysis.Pass) {
	by := map[string][]string{}
	for _, l := range libraries {
		if n := schema.Naming(pass, l.Name); len(n) > 0 {
			by[l.Name] = n
		}
	}
	if len(by) == 0 {
		namings.Delete(pass.Pkg.Path())
		return
	}
	namings.Store(pass.Pkg.Path(), packageNaming{pkg: pass.Pkg, by: by})
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
	v, ok := namings.Load(pkg.Path())
	if !ok || v.(packageNaming).pkg != pkg {
		return nil
	}
	return v.(packageNaming).by[lib]
}
