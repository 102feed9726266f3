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
// keeps no package alive.
var (
	namingsMu sync.Mutex
	namings   = map[weak.Pointer[types.Package]]*seenNaming{}
)

// seenNaming is what one package sees of its models' names.
type seenNaming struct {
	byLib      map[string][]string // library name -> settings
	tableNames schema.TableNameLookup
}

// recordNaming records the settings pass's package sees, for each
// registered library, and the TableName constants it sees.
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
	if _, had := namings[key]; !had {
		runtime.AddCleanup(pass.Pkg, func(k weak.Pointer[types.Package]) {
			namingsMu.Lock()
			delete(namings, k)
			namingsMu.Unlock()
		}, key)
	}
	namings[key] = &seenNaming{byLib: by, tableNames: schema.TableNames(pass)}
}

// Naming returns the settings of library lib's naming of its models that
// the package of fn sees (schema.ModelReader.Naming, in the reader's
// words), nil when it sees none: the library's naming is then its
// default, or what every setting it may have agrees on.
func Naming(fn *ssa.Function, lib string) []string {
	if n := seenBy(fn); n != nil {
		return n.byLib[lib]
	}
	return nil
}

// TableNames returns the lookup of the TableName constants the package of
// fn sees (schema.TableNames), nil when it is not known: a model of an
// imported package has no SSA body for its TableName method.
func TableNames(fn *ssa.Function) schema.TableNameLookup {
	if n := seenBy(fn); n != nil {
		return n.tableNames
	}
	return nil
}

func seenBy(fn *ssa.Function) *seenNaming {
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
	return namings[weak.Make(pkg)]
}
