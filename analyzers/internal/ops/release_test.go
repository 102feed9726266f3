package ops_test

import (
	"os"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	_ "github.com/idemlint/idemlint/analyzers/internal/dialect" // the libraries' hooks
	"github.com/idemlint/idemlint/analyzers/internal/ops"
	"github.com/idemlint/idemlint/analyzers/internal/testutil"
)

// TestRelease checks that a Result keeps its SSA until every analyzer
// named in ops.Consumers has released it, and drops it then, with the
// consumers running concurrently as in x/tools' checker.
func TestRelease(t *testing.T) {
	dir := testutil.Fixtures(t)
	pkgs, err := packages.Load(&packages.Config{
		Mode: packages.LoadAllSyntax,
		Dir:  dir,
		Env:  append(os.Environ(), "GOPROXY=off"),
	}, "./lockacrosscall/store")
	require.NoError(t, err)
	require.Len(t, pkgs, 1)
	require.Empty(t, pkgs[0].Errors)

	run := func(names []string) []*ops.Result {
		var mu sync.Mutex
		var seen []*ops.Result
		var as []*analysis.Analyzer
		for _, name := range names {
			as = append(as, &analysis.Analyzer{
				Name:     name,
				Doc:      "a stand-in for the consumer " + name,
				Requires: []*analysis.Analyzer{ops.Analyzer},
				Run: func(pass *analysis.Pass) (any, error) {
					res := pass.ResultOf[ops.Analyzer].(*ops.Result)
					defer res.Release(pass)
					assert.NotEmpty(t, res.Funcs, "%s: released too early", name)
					for _, fn := range res.Funcs {
						res.Ops(fn)
					}
					mu.Lock()
					seen = append(seen, res)
					mu.Unlock()
					return nil, nil
				},
			})
		}
		_, err := checker.Analyze(as, pkgs, nil)
		require.NoError(t, err)
		require.Len(t, seen, len(names))
		return seen
	}

	for _, res := range run(ops.Consumers) {
		assert.Nil(t, res.Funcs, "every consumer is done: the SSA is dropped")
	}
	for _, res := range run(ops.Consumers[1:]) {
		assert.NotEmpty(t, res.Funcs, "%s has not run: the SSA stays", ops.Consumers[0])
	}
}
