package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/idemlint/idemlint/analyzers"
)

// demoService returns the demo service's directory with its dependencies
// downloaded, and skips the test under -short.
func demoService(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("loads the demo service and its real dependencies")
	}
	dir, err := filepath.Abs("../../testdata/demo")
	require.NoError(t, err)
	download := exec.Command("go", "mod", "download")
	download.Dir = dir
	out, err := download.CombinedOutput()
	require.NoError(t, err, "%s", out)
	return dir
}

// TestDemo runs idemlint, standalone and as go vet's tool, on the demo
// service and checks its findings against testdata/demo/findings.txt, for
// the analyzers the registry has: every want line is found exactly once in
// its function, no safe line is, and nothing else is reported.
func TestDemo(t *testing.T) {
	dir := demoService(t)

	entries := readFindings(t, filepath.Join(dir, "findings.txt"))

	standalone := run(t, dir, binary, "-json", "./...")
	require.Equal(t, 0, standalone.code, standalone.stderr)
	got := demoFindings(t, dir, []byte(standalone.stdout))
	checkFindings(t, entries, got)

	vet := run(t, dir, "go", "vet", "-vettool="+binary, "-json", "./...")
	require.Equal(t, 0, vet.code, vet.stderr)
	assert.Equal(t, got, demoFindings(t, dir, []byte(vet.stderr+vet.stdout)), "go vet and the standalone binary agree")

	// The same service under a module path with no dot (go mod init
	// backend), alone and as a go.work member beside another dotless
	// module, is reported the same: nothing takes a dotless path for the
	// standard library.
	t.Run("dotless module", func(t *testing.T) {
		mod := filepath.Join(t.TempDir(), "backend")
		copyDemo(t, dir, mod, "backend")
		sameFindings(t, got, mod, mod, "./...")
	})
	t.Run("dotless go.work member", func(t *testing.T) {
		work := t.TempDir()
		mod := filepath.Join(work, "services", "orders")
		copyDemo(t, dir, mod, "orders")
		other := filepath.Join(work, "tools")
		require.NoError(t, os.MkdirAll(other, 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(other, "go.mod"), []byte("module tools\n\ngo 1.26.0\n"), 0o644))
		require.NoError(t, os.WriteFile(filepath.Join(other, "tools.go"), []byte("package tools\n"), 0o644))
		require.NoError(t, os.WriteFile(filepath.Join(work, "go.work"), []byte("go 1.26.0\n\nuse (\n\t./services/orders\n\t./tools\n)\n"), 0o644))
		sameFindings(t, got, mod, work, "./services/orders/...")
	})
}

// sameFindings runs the binary standalone from dir on pattern, and go vet
// in the module mod, and expects the findings want of the original demo.
func sameFindings(t *testing.T, want []demoFinding, mod, dir, pattern string) {
	t.Helper()
	standalone := run(t, dir, binary, "-json", pattern)
	require.Equal(t, 0, standalone.code, standalone.stderr)
	assert.Equal(t, want, demoFindings(t, mod, []byte(standalone.stdout)))
	vet := run(t, mod, "go", "vet", "-vettool="+binary, "-json", "./...")
	require.Equal(t, 0, vet.code, vet.stderr)
	assert.Equal(t, want, demoFindings(t, mod, []byte(vet.stderr+vet.stdout)))
}

// copyDemo copies the demo service at src to dst with its module path,
// and every import of its packages, changed to modulePath.
func copyDemo(t *testing.T, src, dst, modulePath string) {
	t.Helper()
	const demoPath = "example.com/demo"
	err := filepath.WalkDir(src, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, path)
		if err != nil {
			return err
		}
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if strings.HasSuffix(path, ".go") || d.Name() == "go.mod" {
			data = []byte(strings.ReplaceAll(string(data), demoPath, modulePath))
		}
		return os.WriteFile(target, data, 0o644)
	})
	require.NoError(t, err)
}

// A findingsEntry is one line of findings.txt.
type findingsEntry struct {
	want               bool
	category, file, fn string
}

func readFindings(t *testing.T, path string) []findingsEntry {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	var out []findingsEntry
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		text := sc.Text()
		if strings.TrimSpace(text) == "" || strings.HasPrefix(text, "#") {
			continue
		}
		fields := strings.Split(text, "\t")
		require.Len(t, fields, 4, "findings.txt:%d", line)
		require.Contains(t, []string{"want", "safe"}, fields[0], "findings.txt:%d", line)
		out = append(out, findingsEntry{fields[0] == "want", fields[1], fields[2], fields[3]})
	}
	require.NoError(t, sc.Err())
	return out
}

// A demoFinding is a diagnostic located by file and enclosing function.
type demoFinding struct{ category, file, fn, message string }

func (f demoFinding) String() string {
	return fmt.Sprintf("%s %s %s: %s", f.category, f.file, f.fn, f.message)
}

// demoFindings decodes the drivers' JSON output (go vet prints one object
// per package, after a "# pkg" line) into findings sorted by their text.
func demoFindings(t *testing.T, dir string, out []byte) []demoFinding {
	t.Helper()
	var found []demoFinding
	var jsonText strings.Builder
	for _, line := range strings.Split(string(out), "\n") {
		if !strings.HasPrefix(line, "#") {
			jsonText.WriteString(line + "\n")
		}
	}
	dec := json.NewDecoder(strings.NewReader(jsonText.String()))
	for dec.More() {
		var tree map[string]map[string]json.RawMessage
		require.NoError(t, dec.Decode(&tree))
		for _, byAnalyzer := range tree {
			for _, raw := range byAnalyzer {
				var diags []struct{ Category, Posn, Message string }
				if json.Unmarshal(raw, &diags) != nil {
					t.Errorf("analysis error: %s", raw)
					continue
				}
				for _, d := range diags {
					file, line := splitPosn(t, d.Posn)
					rel, err := filepath.Rel(dir, file)
					require.NoError(t, err)
					found = append(found, demoFinding{d.Category, filepath.ToSlash(rel), enclosingFunc(t, file, line), d.Message})
				}
			}
		}
	}
	sort.Slice(found, func(i, j int) bool { return found[i].String() < found[j].String() })
	return found
}

func splitPosn(t *testing.T, posn string) (string, int) {
	parts := strings.Split(posn, ":")
	require.GreaterOrEqual(t, len(parts), 3, posn)
	line, err := strconv.Atoi(parts[len(parts)-2])
	require.NoError(t, err, posn)
	return strings.Join(parts[:len(parts)-2], ":"), line
}

// enclosingFunc names the top-level function declared around line of file,
// as findings.txt writes it: Name, (T).Name or (*T).Name.
func enclosingFunc(t *testing.T, file string, line int) string {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, file, nil, parser.SkipObjectResolution)
	require.NoError(t, err)
	for _, decl := range f.Decls {
		fn, ok := decl.(*ast.FuncDecl)
		if !ok || fset.Position(fn.Pos()).Line > line || fset.Position(fn.End()).Line < line {
			continue
		}
		return funcDeclName(fn)
	}
	return "(package level)"
}

func checkFindings(t *testing.T, entries []findingsEntry, got []demoFinding) {
	t.Helper()
	active := func(category string) bool {
		name, _, _ := strings.Cut(category, "/")
		return analyzers.Lookup(name) != nil
	}
	matches := func(e findingsEntry) (n int) {
		for _, f := range got {
			if f.category == e.category && f.file == e.file && f.fn == e.fn {
				n++
			}
		}
		return n
	}
	for _, e := range entries {
		if !active(e.category) {
			continue
		}
		if e.want {
			assert.Equal(t, 1, matches(e), "want one %s in %s %s", e.category, e.file, e.fn)
		} else {
			assert.Zero(t, matches(e), "want no %s in %s %s (safe twin)", e.category, e.file, e.fn)
		}
	}
	for _, f := range got {
		expected := false
		for _, e := range entries {
			expected = expected || (e.want && f.category == e.category && f.file == e.file && f.fn == e.fn)
		}
		assert.True(t, expected, "unexpected finding on the demo: %s", f)
	}
}

// TestDemoDeterministic: the demo's findings and their order are the same
// with one processor and with two (the checker runs packages in parallel,
// and the wiring packages complete consumers concurrently), and from one
// run to the next.
func TestDemoDeterministic(t *testing.T) {
	dir := demoService(t)
	var outputs []string
	for _, procs := range []string{"1", "2", "2"} {
		t.Setenv("GOMAXPROCS", procs)
		r := run(t, dir, binary, "-explain", "./...")
		require.Equal(t, 3, r.code, r.stderr)
		outputs = append(outputs, r.stderr)
	}
	assert.Equal(t, outputs[0], outputs[1], "GOMAXPROCS=1 and 2")
	assert.Equal(t, outputs[1], outputs[2], "two runs with GOMAXPROCS=2")
}
