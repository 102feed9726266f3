package analyzers_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/tools/go/analysis"

	"github.com/idemlint/idemlint/analyzers"
	"github.com/idemlint/idemlint/analyzers/config"
	"github.com/idemlint/idemlint/analyzers/internal/report"
	"github.com/idemlint/idemlint/analyzers/internal/testutil"
)

func TestRegistry(t *testing.T) {
	require.NoError(t, analysis.Validate(analyzers.All()))
	for _, a := range analyzers.All() {
		assert.True(t, config.KnownAnalyzer(a.Name), "%s is not among the fixed names in config.AnalyzerNames", a.Name)
		assert.Equal(t, report.URL(a.Name), a.URL, a.Name)
		assert.Same(t, a, analyzers.Lookup(a.Name))
	}
	for _, a := range analyzers.Default() {
		assert.Contains(t, analyzers.All(), a)
	}
	assert.NotNil(t, analyzers.Lookup(analyzers.AlwaysOn))
}

func TestSelect(t *testing.T) {
	names := func(as []*analysis.Analyzer) (out []string) {
		for _, a := range as {
			out = append(out, a.Name)
		}
		return out
	}
	assert.Equal(t, names(analyzers.Default()), names(analyzers.Select(nil, nil)))
	assert.NotContains(t, names(analyzers.Select(nil, []string{"ignoredirective"})), "ignoredirective")
	assert.Equal(t, []string{"ignoredirective"}, names(analyzers.Select([]string{"ignoredirective"}, nil)))
}

// TestDocsUpToDate fails when docs/analyzers drifts from the analyzers'
// doc.go files: run `go generate ./analyzers`.
func TestDocsUpToDate(t *testing.T) {
	root, err := testutil.Root()
	require.NoError(t, err)
	dir := filepath.Join(root, "docs", "analyzers")
	want := map[string]bool{}
	for _, a := range analyzers.All() {
		name := a.Name + ".md"
		want[name] = true
		got, err := os.ReadFile(filepath.Join(dir, name))
		require.NoError(t, err, "run go generate ./analyzers")
		assert.Equal(t, string(analyzers.Markdown(a)), string(got), "docs/analyzers/%s is stale: run go generate ./analyzers", name)
	}
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	for _, e := range entries {
		assert.True(t, want[e.Name()], "docs/analyzers/%s belongs to no analyzer", e.Name())
	}
}
