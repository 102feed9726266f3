package analyzers_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/idemlint/idemlint/analyzers"
	"github.com/idemlint/idemlint/analyzers/internal/testutil"
)

// TestOneFindingPerBug runs the whole suite together over fixtures whose
// writes two analyzers could both claim, and checks that each is reported
// once, by the analyzer design.md's precedence names (decided in
// ops.Versioning): a lost update of a versioned row is noversion's, of a
// row that only looks versioned lostupdate's.
func TestOneFindingPerBug(t *testing.T) {
	if testing.Short() {
		t.Skip("loads the fixtures module from source")
	}
	dir := testutil.Fixtures(t)
	cfg := &packages.Config{Mode: packages.LoadAllSyntax, Dir: dir, Tests: false}
	pkgs, err := packages.Load(cfg, "./lostupdate/ledger", "./lostupdate/counters")
	require.NoError(t, err)
	require.Zero(t, packages.PrintErrors(pkgs))
	graph, err := checker.Analyze(analyzers.All(), pkgs, nil)
	require.NoError(t, err)

	byLine := map[string][]string{} // file:line -> analyzers
	for act := range graph.All() {
		if !act.IsRoot {
			continue
		}
		for _, d := range act.Diagnostics {
			p := act.Package.Fset.Position(d.Pos)
			key := fmt.Sprintf("%s:%d", filepath.Base(p.Filename), p.Line)
			byLine[key] = append(byLine[key], act.Analyzer.Name)
		}
	}
	for line, names := range byLine {
		assert.Len(t, names, 1, "%s is reported by %v", line, names)
	}
	line := func(file, text string) string {
		t.Helper()
		data, err := os.ReadFile(filepath.Join(dir, "lostupdate", strings.TrimSuffix(file, ".go"), file))
		require.NoError(t, err)
		for i, l := range strings.Split(string(data), "\n") {
			if strings.Contains(l, text) {
				return fmt.Sprintf("%s:%d", file, i+1)
			}
		}
		t.Fatalf("%s has no line with %s", file, text)
		return ""
	}
	assert.Equal(t, []string{"noversion"}, byLine[line("ledger.go", "`UPDATE vaults SET balance = $1 WHERE id = $2`")],
		"a write-back of a versioned row")
	assert.Equal(t, []string{"lostupdate"}, byLine[line("counters.go", "return s.db.WithContext(ctx).Save(&d).Error")],
		"a write-back of a row whose Version field nothing compares")
}
