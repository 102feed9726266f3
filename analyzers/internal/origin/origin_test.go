package origin_test

import (
	"go/types"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/idemlint/idemlint/analyzers/internal/origin"
)

// lister reports, at each package clause, the packages the pass and its
// imports (transitively) comprise that origin does not take for the
// standard library.
var lister = &analysis.Analyzer{
	Name:     "originlist",
	Doc:      "list the module packages origin sees",
	Requires: []*analysis.Analyzer{origin.Analyzer},
	Run: func(pass *analysis.Pass) (any, error) {
		pkgs := pass.ResultOf[origin.Analyzer].(*origin.Packages)
		var mod []string
		seen := map[*types.Package]bool{}
		var walk func(p *types.Package)
		walk = func(p *types.Package) {
			if seen[p] {
				return
			}
			seen[p] = true
			if !pkgs.Std(p.Path()) {
				mod = append(mod, p.Path())
			}
			for _, imp := range p.Imports() {
				walk(imp)
			}
		}
		walk(pass.Pkg)
		slices.Sort(mod)
		pass.Reportf(pass.Files[0].Package, "module code: %s", strings.Join(mod, " "))
		return nil, nil
	},
}

// TestDotlessModule: a module whose path has no dot (module backend) is
// module code, its own packages and those it reaches only through another
// of them alike; the standard library it imports is std.
func TestDotlessModule(t *testing.T) {
	analysistest.Run(t, analysistest.TestData()+"/backend", lister, "./...")
}
