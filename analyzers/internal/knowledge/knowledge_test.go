package knowledge_test

import (
	"fmt"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"
	"golang.org/x/tools/go/analysis/passes/buildssa"
	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/knowledge"
	"github.com/idemlint/idemlint/analyzers/internal/testutil"
)

// matched records the rows the fixtures exercised; declared records the
// type and sentinel rows found declared in the real modules.
var (
	matchedMu sync.Mutex
	matched   = map[knowledge.Func]bool{}
	declared  = map[[2]string]bool{}
)

// classify reports every call of a library function the tables know, as
// "<shape> <func>: <kind>", so that the fixtures' // want comments show how
// each call appears in SSA and what the tables make of it.
var classify = &analysis.Analyzer{
	Name:     "classify",
	Doc:      "report the knowledge row of each library call",
	Requires: []*analysis.Analyzer{buildssa.Analyzer},
	Run: func(pass *analysis.Pass) (any, error) {
		recordDeclared(pass.Pkg, map[*types.Package]bool{})
		for _, fn := range pass.ResultOf[buildssa.Analyzer].(*buildssa.SSA).SrcFuncs {
			for _, b := range fn.Blocks {
				for _, instr := range b.Instrs {
					if load, ok := instr.(*ssa.UnOp); ok && load.Op == token.MUL {
						if g, ok := load.X.(*ssa.Global); ok {
							if v, ok := g.Object().(*types.Var); ok {
								if s := knowledge.SentinelOf(v); s != nil {
									pass.Reportf(load.Pos(), "sentinel %s.%s: %s", s.Pkg, s.Name, s.Meaning)
								}
							}
						}
					}
					call, ok := instr.(ssa.CallInstruction)
					if !ok {
						continue
					}
					site, ok := knowledge.Resolve(call.Common())
					if !ok || site.Row == nil {
						continue
					}
					matchedMu.Lock()
					matched[site.Func] = true
					matchedMu.Unlock()
					pass.Reportf(call.Pos(), "%s %s: %s", site.Shape, site.Func, site.Row.Kind)
				}
			}
		}
		return nil, nil
	},
}

// recordDeclared marks the type and sentinel rows that pkg or one of its
// dependencies declares.
func recordDeclared(pkg *types.Package, seen map[*types.Package]bool) {
	if seen[pkg] {
		return
	}
	seen[pkg] = true
	matchedMu.Lock()
	for _, t := range knowledge.Types() {
		if t.Pkg == pkg.Path() {
			if _, ok := pkg.Scope().Lookup(t.Name).(*types.TypeName); ok {
				declared[[2]string{t.Pkg, t.Name}] = true
			}
		}
	}
	for _, s := range knowledge.Sentinels() {
		if s.Pkg == pkg.Path() {
			if _, ok := pkg.Scope().Lookup(s.Name).(*types.Var); ok {
				declared[[2]string{s.Pkg, s.Name}] = true
			}
		}
	}
	matchedMu.Unlock()
	for _, imp := range pkg.Imports() {
		recordDeclared(imp, seen)
	}
}

func TestClassification(t *testing.T) {
	dir := testutil.Fixtures(t)
	// One fixture package per library family.
	entries, err := os.ReadDir(filepath.Join(dir, "knowledge"))
	require.NoError(t, err)
	for _, e := range entries {
		family := e.Name()
		t.Run(family, func(t *testing.T) {
			analysistest.Run(t, dir, classify, "./knowledge/"+family)
		})
	}
	if t.Failed() {
		return
	}
	var missing []string
	for _, row := range knowledge.Rows() {
		if !matched[row.Func] {
			missing = append(missing, row.Func.String())
		}
	}
	for _, row := range knowledge.Types() {
		if !declared[[2]string{row.Pkg, row.Name}] {
			missing = append(missing, "type "+row.Pkg+"."+row.Name)
		}
	}
	for _, row := range knowledge.Sentinels() {
		if !declared[[2]string{row.Pkg, row.Name}] {
			missing = append(missing, "sentinel "+row.Pkg+"."+row.Name)
		}
	}
	sort.Strings(missing)
	assert.Empty(t, missing, "rows no fixture exercises or no real module declares: add a call to testdata/fixtures/knowledge")
}

func TestRowsAreConsistent(t *testing.T) {
	for _, row := range knowledge.Rows() {
		seen := map[knowledge.Role]bool{}
		for _, p := range row.Params {
			assert.False(t, seen[p.Role], "%s: role %s twice", row.Func, p.Role)
			seen[p.Role] = true
			assert.GreaterOrEqual(t, p.Index, 0, row.Func.String())
		}
		if row.Kind == knowledge.TxFunc || row.Kind == knowledge.Retry {
			_, ok := row.Param(knowledge.Callback)
			assert.True(t, ok, "%s: a %s needs its callback parameter", row.Func, row.Kind)
		}
		assert.NotEqual(t, knowledge.Unknown, row.Kind, row.Func.String())
		assert.NotEmpty(t, row.Lib, row.Func.String())
	}
}

func TestCovered(t *testing.T) {
	for path, want := range map[string]bool{
		"database/sql":                    true,
		"net/http":                        true,
		"github.com/jmoiron/sqlx":         true,
		"github.com/jackc/pgx/v5/pgxpool": true,
		"example.com/app/store":           false,
		"github.com/jackc/pgxfoo":         false,
	} {
		assert.Equal(t, want, knowledge.Covered(path), path)
	}
}

func ExampleLookup() {
	row := knowledge.Lookup(knowledge.Func{Pkg: "database/sql", Recv: "Tx", Name: "ExecContext"})
	fmt.Println(row)
	// Output: (database/sql.Tx).ExecContext: exec sql=1 binds=2
}
