package plugin_test

import (
	"bytes"
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestGolangciE2E builds golangci-lint v2 with the plugin from the nested
// module testdata/golangci (what `golangci-lint custom` would build, without
// cloning golangci-lint from GitHub) and runs it on the demo service: it
// must report what the standalone binary reports, accept the repository's
// example configuration, honour //nolint:idemlint, idemlint's own
// file-ignore and disable setting, and apply the suggested fixes with
// --fix. The first build takes minutes; later runs reuse the binary while
// its inputs are unchanged.
func TestGolangciE2E(t *testing.T) {
	if testing.Short() {
		t.Skip("builds golangci-lint (minutes when nothing is cached) and runs it on the demo service")
	}
	root, err := filepath.Abs("..")
	require.NoError(t, err)
	gcl := golangciBinary(t, root)
	idemlint := filepath.Join(t.TempDir(), "idemlint"+exeSuffix())
	goCommand(t, root, "build", "-o", idemlint, "./cmd/idemlint")
	demo := filepath.Join(root, "testdata", "demo")
	goCommand(t, demo, "mod", "download")
	config := writeConfig(t)

	baseline := standaloneFindings(t, idemlint, demo)
	require.NotEmpty(t, baseline)

	t.Run("findings", func(t *testing.T) {
		assert.Equal(t, baseline, golangciFindings(t, gcl, config, demo))
	})

	// The repository's example configuration is valid, and shows all of
	// idemlint's findings.
	t.Run("example", func(t *testing.T) {
		example := filepath.Join(root, ".golangci.example.yml")
		for _, c := range []string{example, config} {
			_, stderr, code := runIn(t, demo, nil, gcl, "config", "verify", "-c", c)
			assert.Equal(t, 0, code, "config verify -c %s: %s", c, stderr)
		}
		got := golangciFindings(t, gcl, example, demo, "--enable-only=idemlint", "--path-mode=abs")
		assert.Equal(t, baseline, got)
	})

	t.Run("nolint", func(t *testing.T) {
		dir := copyDemo(t, demo)
		// On the reported line, //nolint:idemlint drops that line's issues
		// only (the finding and its detail, which is related information
		// at the finding's position): golangci-lint reports each related
		// position as an issue of its own, and the lostupdate read a few
		// lines up stays.
		lost := only(t, baseline, "internal/store/articles.go", "lostupdate")
		appendToLine(t, dir, lost.File, lost.Line, " //nolint:idemlint // views are approximate")
		// Above a declaration, it covers the whole declaration: PayOrder
		// holds the file's lockacrosscall finding and its related lock.
		editFile(t, dir, "internal/billing/service.go", "\nfunc (s *Service) PayOrder(",
			"\n//nolint:idemlint // the provider call is short\nfunc (s *Service) PayOrder(")
		// //idemlint:ignore is applied by the analyzers themselves, so it
		// drops the finding with its related positions.
		retry := only(t, baseline, "internal/payments/client.go", "retrypost")
		appendToLine(t, dir, retry.File, retry.Line, " //idemlint:ignore retrypost payouts are reconciled daily")

		var want, dropped []finding
		for _, f := range standaloneFindings(t, idemlint, dir) {
			if f.File == lost.File && f.Line == lost.Line || f.File == "internal/billing/service.go" && f.Analyzer == "lockacrosscall" {
				dropped = append(dropped, f)
				continue
			}
			want = append(want, f)
		}
		require.Len(t, dropped, 5, "the lostupdate finding and its detail, and PayOrder's finding, its detail and its lock")
		got := golangciFindings(t, gcl, config, dir)
		assert.Equal(t, want, got)
		for _, f := range got {
			if f.File == retry.File {
				assert.NotEqual(t, "retrypost", f.Analyzer, "//idemlint:ignore drops the finding: %v", f)
			}
		}
	})

	// The disable setting of .idemlint.yml and //idemlint:file-ignore are
	// decided inside the analysis, so golangci-lint honours them as the
	// binary does: lockacrosscall off under internal/billing, retrypost/nokey
	// off in the payments client (a sub-rule: checkinsert stays on in
	// billing).
	t.Run("suppression", func(t *testing.T) {
		dir := copyDemo(t, demo)
		require.NoError(t, os.WriteFile(filepath.Join(dir, ".idemlint.yml"),
			[]byte("disable:\n  - path: internal/billing/...\n    analyzers: [lockacrosscall]\n"), 0o644))
		editFile(t, dir, "internal/payments/client.go", "\npackage payments\n",
			"\npackage payments\n\n//idemlint:file-ignore retrypost/nokey payouts are reconciled daily\n")
		var want []finding
		dropped := map[string]int{}
		for _, f := range baseline {
			if f.File == "internal/billing/service.go" && f.Analyzer == "lockacrosscall" ||
				f.File == "internal/payments/client.go" && f.Analyzer == "retrypost" {
				dropped[f.Analyzer]++
				continue
			}
			want = append(want, f)
		}
		require.NotZero(t, dropped["lockacrosscall"])
		require.NotZero(t, dropped["retrypost"])
		assert.Equal(t, want, standaloneFindings(t, idemlint, dir))
		assert.Equal(t, want, golangciFindings(t, gcl, config, dir))
	})

	// A consumer's hazard behind an interface it declares is reported by
	// the package binding the interface (ops' wiring.go): golangci-lint
	// analyses the program in one process, from one load, as the
	// standalone driver does, and must report it too.
	t.Run("wiring", func(t *testing.T) {
		dir := copyDemo(t, demo)
		fixture := filepath.Join(root, "testdata", "fixtures", "cleanarch")
		pkg := filepath.Join(dir, "internal", "cleanarch")
		require.NoError(t, filepath.WalkDir(fixture, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			src, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(fixture, path)
			out := filepath.Join(pkg, rel)
			if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
				return err
			}
			src = bytes.ReplaceAll(src, []byte("example.com/fixtures/cleanarch"), []byte("example.com/demo/internal/cleanarch"))
			return os.WriteFile(out, src, 0o644)
		}))
		want := standaloneFindings(t, idemlint, dir)
		var consumer []finding
		for _, f := range want {
			if strings.HasPrefix(f.File, "internal/cleanarch/usecase/") && !f.Related {
				consumer = append(consumer, f)
			}
		}
		require.Len(t, consumer, 4, "the fixture's four findings at the use cases' lines: %v", want)
		assert.Equal(t, want, golangciFindings(t, gcl, config, dir))
	})

	t.Run("fix", func(t *testing.T) {
		// The lostupdate fixture whose fixes are mechanical, added to the
		// demo as a package of its own; --fix must leave it as its golden
		// file says.
		dir := copyDemo(t, demo)
		fixture := filepath.Join(root, "testdata", "fixtures", "lostupdate", "gormfix")
		src, err := os.ReadFile(filepath.Join(fixture, "fix.go"))
		require.NoError(t, err)
		golden, err := os.ReadFile(filepath.Join(fixture, "fix.go.golden"))
		require.NoError(t, err)
		require.NotEqual(t, string(golden), string(src))
		pkg := filepath.Join(dir, "internal", "gormfix")
		require.NoError(t, os.MkdirAll(pkg, 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(pkg, "fix.go"), src, 0o644))

		got := golangciFindings(t, gcl, config, dir, "--fix")
		fixed, err := os.ReadFile(filepath.Join(pkg, "fix.go"))
		require.NoError(t, err)
		assert.Equal(t, string(golden), string(fixed))
		// The writeback that has no mechanical fix is still reported.
		var unfixed []int
		for _, f := range got {
			if f.File == "internal/gormfix/fix.go" && !f.Related {
				unfixed = append(unfixed, f.Line)
			}
		}
		assert.Len(t, unfixed, 1, "only Restock's finding is left")
	})
}

// A finding is what both drivers report, located relative to the module
// root. golangci-lint reports each related position of a diagnostic as an
// issue of its own, "<analyzer>(related information): <message>"; Related
// marks those.
type finding struct {
	File         string
	Line, Column int
	Analyzer     string
	Related      bool
	Message      string
}

func (f finding) String() string {
	kind := f.Analyzer
	if f.Related {
		kind += "(related information)"
	}
	return fmt.Sprintf("%s:%d:%d: %s: %s", f.File, f.Line, f.Column, kind, f.Message)
}

func sortFindings(found []finding) []finding {
	slices.SortFunc(found, func(a, b finding) int {
		return cmp.Or(cmp.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line),
			cmp.Compare(a.Column, b.Column), cmp.Compare(a.String(), b.String()))
	})
	return found
}

// standaloneFindings runs the idemlint binary with -json in dir, and
// returns its diagnostics and their related positions as golangci-lint
// reports them.
func standaloneFindings(t *testing.T, idemlint, dir string) []finding {
	t.Helper()
	stdout, stderr, code := runIn(t, dir, nil, idemlint, "-json", "./...")
	require.Equal(t, 0, code, "idemlint -json: %s", stderr)

	type position struct{ Posn, Message string }
	var tree map[string]map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(stdout, &tree), "idemlint -json printed:\n%s", stdout)
	var out []finding
	for pkg, byAnalyzer := range tree {
		for analyzer, raw := range byAnalyzer {
			var diags []struct {
				position
				Related []position
			}
			require.NoError(t, json.Unmarshal(raw, &diags), "%s %s: analysis error: %s", pkg, analyzer, raw)
			for _, d := range diags {
				diag := at(t, dir, d.Posn)
				diag.Analyzer, diag.Message = analyzer, d.Message
				out = append(out, diag)
				for _, r := range d.Related {
					f := at(t, dir, r.Posn)
					// golangci-lint moves a related position in
					// another file to the diagnostic's.
					if f.File != diag.File {
						f = diag
					}
					f.Analyzer, f.Related, f.Message = analyzer, true, r.Message
					out = append(out, f)
				}
			}
		}
	}
	return sortFindings(out)
}

// at parses a "file:line:column" position.
func at(t *testing.T, dir, posn string) finding {
	t.Helper()
	parts := strings.Split(posn, ":")
	require.GreaterOrEqual(t, len(parts), 3, posn)
	n := len(parts)
	line, err := strconv.Atoi(parts[n-2])
	require.NoError(t, err, posn)
	col, err := strconv.Atoi(parts[n-1])
	require.NoError(t, err, posn)
	return finding{File: relative(t, dir, strings.Join(parts[:n-2], ":")), Line: line, Column: col}
}

func relative(t *testing.T, dir, file string) string {
	t.Helper()
	rel, err := filepath.Rel(dir, file)
	require.NoError(t, err)
	return filepath.ToSlash(rel)
}

// writeConfig writes the golangci-lint configuration of the test: idemlint
// alone, with every default that hides issues turned off, so that its
// output can be compared with the standalone binary's.
func writeConfig(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), ".golangci.yml")
	config := `version: "2"
linters:
  default: none
  enable: [idemlint]
  settings:
    custom:
      idemlint:
        type: module
issues:
  uniq-by-line: false
  max-issues-per-linter: 0
  max-same-issues: 0
output:
  path-mode: abs
`
	require.NoError(t, os.WriteFile(path, []byte(config), 0o644))
	return path
}

// golangciFindings runs golangci-lint on the module in dir with a fresh
// result cache and returns its issues. Anything but an idemlint issue
// (a typecheck error, another linter) fails the test.
func golangciFindings(t *testing.T, gcl, config, dir string, args ...string) []finding {
	t.Helper()
	// A fresh cache: golangci-lint's keys do not cover idemlint's
	// configuration and schema files.
	env := []string{"GOLANGCI_LINT_CACHE=" + t.TempDir()}
	args = append([]string{"run", "-c", config, "--output.json.path=stdout", "--show-stats=false", "--issues-exit-code=0"}, args...)
	stdout, stderr, code := runIn(t, dir, env, gcl, append(args, "./...")...)
	require.Equal(t, 0, code, "golangci-lint %s: %s", strings.Join(args, " "), stderr)

	var res struct {
		Issues []struct {
			FromLinter, Text string
			Pos              struct {
				Filename     string
				Line, Column int
			}
		}
	}
	require.NoError(t, json.Unmarshal(stdout, &res), "%s", stdout)
	var out []finding
	for _, is := range res.Issues {
		require.Equal(t, "idemlint", is.FromLinter, is.Text)
		kind, msg, ok := strings.Cut(is.Text, ": ")
		require.True(t, ok, "a module plugin's issue text is <analyzer>: <message>: %s", is.Text)
		analyzer, related := strings.CutSuffix(kind, "(related information)")
		out = append(out, finding{
			File:     relative(t, dir, is.Pos.Filename),
			Line:     is.Pos.Line,
			Column:   is.Pos.Column,
			Analyzer: analyzer,
			Related:  related,
			Message:  msg,
		})
	}
	return sortFindings(out)
}

// copyDemo copies the demo module into a temporary directory, for the
// subtests that edit it. Its go.mod replaces only with paths inside it.
func copyDemo(t *testing.T, demo string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "demo")
	require.NoError(t, os.CopyFS(dir, os.DirFS(demo)))
	return dir
}

// only returns the one finding (not a related position) of analyzer in
// file.
func only(t *testing.T, findings []finding, file, analyzer string) finding {
	t.Helper()
	var found []finding
	for _, f := range findings {
		if f.File == file && f.Analyzer == analyzer && !f.Related {
			found = append(found, f)
		}
	}
	require.Len(t, found, 1, "%s findings in %s", analyzer, file)
	return found[0]
}

// appendToLine appends text to line n of the file.
func appendToLine(t *testing.T, dir, name string, n int, text string) {
	t.Helper()
	path := filepath.Join(dir, filepath.FromSlash(name))
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	lines := strings.Split(string(data), "\n")
	require.Less(t, n-1, len(lines), name)
	lines[n-1] += text
	require.NoError(t, os.WriteFile(path, []byte(strings.Join(lines, "\n")), 0o644))
}

// editFile replaces the one occurrence of old in the file.
func editFile(t *testing.T, dir, name, old, new string) {
	t.Helper()
	path := filepath.Join(dir, filepath.FromSlash(name))
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	require.Equal(t, 1, strings.Count(string(data), old), "%s: %q", name, old)
	require.NoError(t, os.WriteFile(path, []byte(strings.Replace(string(data), old, new, 1)), 0o644))
}

// golangciBinary returns golangci-lint built from testdata/golangci with
// this checkout's plugin. Binaries are cached under the user cache
// directory by a hash of everything they are built from, so a binary is
// reused only for the same sources, dependencies and toolchain.
func golangciBinary(t *testing.T, root string) string {
	t.Helper()
	key := buildKey(t, root)
	dir, err := os.UserCacheDir()
	if err == nil {
		dir = filepath.Join(dir, "idemlint-e2e")
		err = os.MkdirAll(dir, 0o755)
	}
	if err != nil {
		t.Logf("no cache directory (%v): building golangci-lint for this run only", err)
		dir = t.TempDir()
	}
	bin := filepath.Join(dir, "golangci-lint-"+key+exeSuffix())
	if _, err := os.Stat(bin); err == nil {
		now := time.Now()
		_ = os.Chtimes(bin, now, now) // used: see pruneCache
		t.Logf("golangci-lint built from these sources: %s", bin)
		return bin
	}

	// Build into a directory of its own and rename: a concurrent run
	// never sees a partial binary, and go build does not overwrite a file
	// it did not create.
	tmp, err := os.MkdirTemp(dir, "build-")
	require.NoError(t, err)
	defer os.RemoveAll(tmp)
	out := filepath.Join(tmp, filepath.Base(bin))
	harness := filepath.Join(root, "testdata", "golangci")
	// Downloading first separates a network failure from a build failure,
	// and the time each takes.
	start := time.Now()
	goCommand(t, harness, "mod", "download")
	t.Logf("downloaded golangci-lint's modules in %s", time.Since(start).Round(time.Second))
	start = time.Now()
	// Stripped, as `golangci-lint custom` builds it. main.version stays
	// "(devel)", so golangci-lint salts its result cache with a hash of the
	// executable.
	_, stderr, code := runIn(t, harness, nil, "go", "build", "-ldflags=-s -w", "-o", out, ".")
	require.Equal(t, 0, code,
		"building golangci-lint with the plugin failed; if go.mod or go.sum are out of date, run go mod tidy in testdata/golangci:\n%s", stderr)
	t.Logf("built golangci-lint in %s", time.Since(start).Round(time.Second))
	require.NoError(t, os.Rename(out, bin))
	pruneCache(dir, bin)
	return bin
}

// buildKey hashes the inputs of the golangci-lint build: the files of the
// testdata/golangci module (its go.sum pins every dependency), the main
// module's go.mod, go.sum and non-test Go files outside testdata and nested
// modules (the plugin replaces idemlint with this checkout), and the
// toolchain with the settings that change what it builds.
func buildKey(t *testing.T, root string) string {
	t.Helper()
	h := sha256.New()
	add := func(name string, data []byte) {
		fmt.Fprintf(h, "%s\x00%d\x00", name, len(data))
		h.Write(data)
	}
	stdout, stderr, code := runIn(t, root, nil, "go", "version")
	require.Equal(t, 0, code, "%s", stderr)
	add("go version", stdout)
	stdout, stderr, code = runIn(t, root, nil, "go", "env", "GOFLAGS", "GOEXPERIMENT", "CGO_ENABLED")
	require.Equal(t, 0, code, "%s", stderr)
	add("go env", stdout)

	harness := filepath.Join(root, "testdata", "golangci")
	walk := func(top string, include func(rel string) bool, skipDir func(path, name string) bool) {
		err := filepath.WalkDir(top, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() {
				if path != top && skipDir(path, d.Name()) {
					return filepath.SkipDir
				}
				return nil
			}
			rel := filepath.ToSlash(strings.TrimPrefix(path, root+string(filepath.Separator)))
			if !include(rel) {
				return nil
			}
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			add(rel, data)
			return nil
		})
		require.NoError(t, err)
	}
	walk(harness, func(string) bool { return true }, func(string, string) bool { return false })
	walk(root, func(rel string) bool {
		if rel == "go.mod" || rel == "go.sum" {
			return true
		}
		return strings.HasSuffix(rel, ".go") && !strings.HasSuffix(rel, "_test.go")
	}, func(path, name string) bool {
		// What the go command leaves out of the module.
		if name == "testdata" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") {
			return true
		}
		_, err := os.Stat(filepath.Join(path, "go.mod"))
		return err == nil
	})
	return hex.EncodeToString(h.Sum(nil))
}

// pruneCache bounds the cache: golangci-lint binaries are about 50 MB and
// every change to the plugin makes a new one. It keeps the few used last
// (other checkouts may be using theirs), and removes builds abandoned by
// an interrupted run.
func pruneCache(dir, keep string) {
	const keepBinaries = 3
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	type binary struct {
		path string
		used time.Time
	}
	var binaries []binary
	for _, e := range entries {
		path := filepath.Join(dir, e.Name())
		info, err := e.Info()
		if err != nil || path == keep {
			continue
		}
		switch {
		case strings.HasPrefix(e.Name(), "golangci-lint-"):
			binaries = append(binaries, binary{path, info.ModTime()})
		case strings.HasPrefix(e.Name(), "build-") && time.Since(info.ModTime()) > time.Hour:
			_ = os.RemoveAll(path)
		}
	}
	slices.SortFunc(binaries, func(a, b binary) int { return b.used.Compare(a.used) })
	for i, b := range binaries {
		if i >= keepBinaries-1 {
			_ = os.Remove(b.path)
		}
	}
}

func exeSuffix() string {
	if runtime.GOOS == "windows" {
		return ".exe"
	}
	return ""
}

// goCommand runs the go command in dir and fails the test if it fails.
func goCommand(t *testing.T, dir string, args ...string) {
	t.Helper()
	_, stderr, code := runIn(t, dir, nil, "go", args...)
	require.Equal(t, 0, code, "go %s: %s", strings.Join(args, " "), stderr)
}

// runIn runs a command in dir with the test's environment plus env and
// returns its output and exit code.
func runIn(t *testing.T, dir string, env []string, name string, args ...string) (stdout, stderr []byte, code int) {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else {
		require.NoError(t, err, "%s %s", name, strings.Join(args, " "))
	}
	assert.NotContains(t, errOut.String(), "panic:", "%s %v", name, args)
	return out.Bytes(), errOut.Bytes(), code
}
