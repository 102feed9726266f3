package report_test

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/tools/go/analysis/multichecker"

	"github.com/idemlint/idemlint/analyzers/internal/testutil"
)

// asTool makes this test binary a multichecker running the probe, so that
// go vet can use it as its -vettool.
const asTool = "IDEMLINT_REPORT_PROBE_TOOL"

func TestMain(m *testing.M) {
	if os.Getenv(asTool) != "" {
		multichecker.Main(probe)
	}
	os.Exit(m.Run())
}

// TestDirectivesUnderBothDrivers runs the probe over the same fixture as
// the standalone checker and as go vet's tool, and expects the same
// findings from both: directives and the disable setting are honoured,
// and directives reported when unused, by each driver alike.
func TestDirectivesUnderBothDrivers(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs go vet")
	}
	dir := testutil.Fixtures(t)
	exe, err := os.Executable()
	require.NoError(t, err)

	run := func(args ...string) []string {
		cmd := exec.Command(args[0], args[1:]...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), asTool+"=1")
		out, err := cmd.Output()
		require.NoError(t, err, "%v: %s", args, stderrOf(err))
		return findings(t, out)
	}
	standalone := run(exe, "-json", "./report/...")
	vet := run("go", "vet", "-vettool="+exe, "-json", "./report/...")

	assert.Equal(t, standalone, vet)
	assert.Contains(t, standalone, "orders.go:10: checkinsert: effect is called")
	assert.NotContains(t, standalone, "orders.go:13: checkinsert: effect is called", "a directive on the line above suppresses")
	assert.NotContains(t, standalone, "orders.go:15: checkinsert: effect is called", "a directive on the line suppresses")
	assert.Contains(t, strings.Join(standalone, "\n"), "this directive suppresses nothing: no checkinsert finding on the next line")
	assert.Contains(t, strings.Join(standalone, "\n"), "internal error: checkinsert failed while analysing cancel")
	assert.Contains(t, standalone, "store.go:30: checkinsert: effect is called", "a chain is reported on its last line")
	assert.NotContains(t, standalone, "store.go:21: checkinsert: effect is called", "a directive above the chain suppresses")
	assert.NotContains(t, strings.Join(standalone, "\n"), "ledger.go", "a file-ignore suppresses")
	assert.Contains(t, standalone, "audit.go:4: checkinsert: this directive suppresses nothing: no checkinsert finding in this file")
	// The disable setting of report/.idemlint.yml, decided inside the
	// analysis: the same under go vet, which runs a process per package.
	assert.NotContains(t, strings.Join(standalone, "\n"), "legacy.go:9:")
	assert.NotContains(t, strings.Join(standalone, "\n"), "imports.go")
	assert.Contains(t, standalone, "legacy.go:19: checkinsert: this directive suppresses nothing: no checkinsert finding on the next line")
}

// findings flattens the drivers' JSON ({"pkg": {"analyzer": [{posn,
// message}]}}) into sorted "file:line: analyzer: message" lines.
func findings(t *testing.T, out []byte) []string {
	t.Helper()
	var lines []string
	dec := json.NewDecoder(strings.NewReader(string(out)))
	for dec.More() {
		var tree map[string]map[string]json.RawMessage
		require.NoError(t, dec.Decode(&tree), "%s", out)
		for _, byAnalyzer := range tree {
			for analyzer, raw := range byAnalyzer {
				var diags []struct{ Posn, Message string }
				if json.Unmarshal(raw, &diags) != nil {
					continue // {"error": ...}
				}
				for _, d := range diags {
					file, rest, _ := strings.Cut(d.Posn, ".go:")
					line, _, _ := strings.Cut(rest, ":")
					lines = append(lines, fmt.Sprintf("%s.go:%s: %s: %s", filepath.Base(file), line, analyzer, d.Message))
				}
			}
		}
	}
	sort.Strings(lines)
	return lines
}

func stderrOf(err error) string {
	if ee, ok := err.(*exec.ExitError); ok {
		return string(ee.Stderr)
	}
	return ""
}
