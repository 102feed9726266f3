package ignoredirective_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/idemlint/idemlint/analyzers/ignoredirective"
	"github.com/idemlint/idemlint/analyzers/internal/testutil"
)

func Test(t *testing.T) {
	analysistest.Run(t, testutil.Fixtures(t), ignoredirective.Analyzer, "./ignoredirective")
}

// TestBadConfiguration: where no driver stopped on it (an editor), a
// configuration that cannot be read is said at the package clause, with
// the file, line and setting.
func TestBadConfiguration(t *testing.T) {
	dir := t.TempDir()
	for name, content := range map[string]string{
		"go.mod":        "module example.com/m\n\ngo 1.26.0\n",
		".idemlint.yml": "version-column: [rev]\n",
		"m.go":          "package m // want `bad idemlint configuration, so idemlint analyses nothing in this package: .*\\.idemlint\\.yml:1: version-column: want a string, got a list`\n",
	} {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644))
	}
	analysistest.Run(t, dir, ignoredirective.Analyzer, "./...")
}
