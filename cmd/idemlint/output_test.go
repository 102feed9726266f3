package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/tools/go/packages"
)

// outputModule is testdata/output: two checkinsert races (store/users.go,
// store/accounts.go) beside their silent lookalikes, an internal test file
// that makes a test variant of store, and a package with nothing to
// report.
func outputModule(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs("testdata/output")
	require.NoError(t, err)
	return dir
}

// copyModule copies the module at src into a temporary directory, for the
// tests that edit its files.
func copyModule(t *testing.T, src string) string {
	t.Helper()
	dst := t.TempDir()
	err := filepath.WalkDir(src, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), data, 0o644)
	})
	require.NoError(t, err)
	return dst
}

const (
	usersRace    = "store/users.go:20:28: two callers can both insert into users: each finds no row by email first (checkinsert/race)\n"
	usersDetail  = "store/users.go:20:28: \tinsert into users after the lookup of users by email found no row with that email"
	usersLookup  = "store/users.go:18:29: \tthe lookup of users by email\n"
	accountsRace = "store/accounts.go:14:26: two callers can both insert into accounts: each finds no row by number first (checkinsert/race)\n"
)

// TestTextOutput: each finding is `file:line:col: headline (rule)` with
// the path relative to the working directory, its detail and its evidence
// after it indented by a tab, printed once though the package and its test
// variant both report it, sorted by file and position.
func TestTextOutput(t *testing.T) {
	dir := outputModule(t)
	r := run(t, dir, binary, "./...")
	require.Equal(t, 3, r.code, r.stderr)
	lines := strings.SplitAfter(r.stderr, "\n")
	lines = lines[:len(lines)-1] // after the last newline
	require.Len(t, lines, 6, "two findings, a detail and an evidence line each, once each: %s", r.stderr)
	assert.Equal(t, accountsRace, lines[0])
	assert.True(t, strings.HasPrefix(lines[1], "store/accounts.go:14:26: \tinsert into accounts after the lookup of accounts by number found no row"), lines[1])
	assert.True(t, strings.HasSuffix(lines[1], "or catch the unique violation and re-read\n"), lines[1])
	assert.Equal(t, "store/accounts.go:12:27: \tthe lookup of accounts by number\n", lines[2])
	assert.Equal(t, usersRace, lines[3])
	assert.True(t, strings.HasPrefix(lines[4], usersDetail), lines[4])
	assert.Equal(t, usersLookup, lines[5])
	assert.Empty(t, r.stdout)

	// From the package's directory the paths are relative to it.
	sub := run(t, filepath.Join(dir, "store"), binary, ".")
	require.Equal(t, 3, sub.code, sub.stderr)
	assert.Contains(t, sub.stderr, "\nusers.go:20:28: two callers can both insert into users")
	assert.True(t, strings.HasPrefix(sub.stderr, "accounts.go:14:26: "), sub.stderr)

	// -c prints the offending line.
	ctx := run(t, dir, binary, "-c=0", "./store")
	assert.Contains(t, ctx.stderr, "20\t\t\t_, err = u.db.ExecContext(ctx, `INSERT INTO users (email) VALUES ($1)`, email)\n")

	// -test=false: no test variant, the same findings.
	noTests := run(t, dir, binary, "-test=false", "./...")
	assert.Equal(t, r.stderr, noTests.stderr)
}

func TestRelativePath(t *testing.T) {
	wd := filepath.FromSlash("/src/svc")
	assert.Equal(t, filepath.FromSlash("store/a.go"), relativePath(wd, filepath.FromSlash("/src/svc/store/a.go")))
	assert.Equal(t, filepath.FromSlash("/src/other/a.go"), relativePath(wd, filepath.FromSlash("/src/other/a.go")), "outside the working directory: absolute")
	assert.Equal(t, filepath.FromSlash("/src/svc2/a.go"), relativePath(wd, filepath.FromSlash("/src/svc2/a.go")))
	assert.Equal(t, "a.go", relativePath(wd, "a.go"))
}

// TestExitStatus: 0 clean, 3 findings, 2 bad usage; -json exits 0 with
// findings (go vet's convention) unless -fail-on-findings.
func TestExitStatus(t *testing.T) {
	dir := outputModule(t)
	cases := []struct {
		args   []string
		code   int
		stderr string
	}{
		{[]string{"./clean"}, 0, ""},
		{[]string{"./store"}, 3, usersRace},
		{[]string{}, 2, "no packages named"},
		{[]string{"-ignoredirective=false"}, 2, "no packages named"},
		{[]string{"-diff", "./store"}, 2, "-diff prints what -fix would change: use -fix -diff"},
		{[]string{"-write-baseline", "./store"}, 2, "-write-baseline needs -baseline=FILE"},
		{[]string{"-fail-on-findings", "./store"}, 2, "-fail-on-findings is for -json"},
		{[]string{"-json", "-sarif=-", "./store"}, 2, "both write to stdout"},
		{[]string{"-json", "-codeclimate=-", "./store"}, 2, "-json and -codeclimate=- both write to stdout"},
		{[]string{"-sarif=-", "-codeclimate=-", "./store"}, 2, "-sarif=- and -codeclimate=- both write to stdout"},
		{[]string{"-fix", "-diff", "-codeclimate=-", "./store"}, 2, "-diff writes the diff to stdout"},
		{[]string{"-nosuchflag", "./store"}, 2, "flag provided but not defined: -nosuchflag"},
		{[]string{"-json", "./store"}, 0, ""},
		{[]string{"-json", "-fail-on-findings", "./store"}, 3, ""},
		{[]string{"-json", "-fail-on-findings", "./clean"}, 0, ""},
		{[]string{"-checkinsert=false", "./store"}, 0, ""},
		{[]string{"-ignoredirective", "./store"}, 0, ""}, // only the analyzer named runs
	}
	for _, c := range cases {
		r := run(t, dir, append([]string{binary}, c.args...)...)
		assert.Equal(t, c.code, r.code, "%v: %s", c.args, r.stderr)
		if c.stderr == "" {
			if c.code != 3 {
				assert.Empty(t, r.stderr, "%v", c.args)
			}
		} else {
			assert.Contains(t, r.stderr, c.stderr, "%v", c.args)
		}
	}
}

// TestJSONOutput: -json keeps multichecker's shape (package ID, analyzer,
// diagnostics), the package and its test variant each listed; paths are
// absolute there, as multichecker prints them.
func TestJSONOutput(t *testing.T) {
	dir := outputModule(t)
	r := run(t, dir, binary, "-json", "./store")
	require.Equal(t, 0, r.code, r.stderr)
	var tree map[string]map[string][]struct {
		Category, Posn, Message string
		Related                 []struct{ Posn, Message string }
	}
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &tree), r.stdout)
	assert.Len(t, tree, 2, "the package and its test variant")
	for id, byAnalyzer := range tree {
		diags := byAnalyzer["checkinsert"]
		require.Len(t, diags, 2, id)
		assert.Equal(t, "checkinsert/race", diags[0].Category)
		assert.Equal(t, filepath.Join(dir, "store", "accounts.go")+":14:26", diags[0].Posn)
		// The detail is the first related information, at the finding's
		// own position, as go vet -json prints it; the evidence follows.
		assert.Equal(t, "two callers can both insert into users: each finds no row by email first", diags[1].Message)
		require.Len(t, diags[1].Related, 2, id)
		assert.Equal(t, filepath.Join(dir, "store", "users.go")+":20:28", diags[1].Related[0].Posn)
		assert.True(t, strings.HasPrefix(diags[1].Related[0].Message, "insert into users after the lookup"), diags[1].Related[0].Message)
		assert.Equal(t, filepath.Join(dir, "store", "users.go")+":18:29", diags[1].Related[1].Posn)
	}
}

// TestFix: -fix applies the fixes it can, reports the findings left and
// exits 3 while any is; -fix -diff prints the same change and writes
// nothing.
func TestFix(t *testing.T) {
	fixtures := fixtures(t)
	dir := t.TempDir()
	for _, name := range []string{"go.mod", "go.sum"} {
		data, err := os.ReadFile(filepath.Join(fixtures, name))
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), data, 0o644))
	}
	pkg := filepath.Join(dir, "gormfix")
	require.NoError(t, os.MkdirAll(pkg, 0o755))
	src, err := os.ReadFile(filepath.Join(fixtures, "lostupdate", "gormfix", "fix.go"))
	require.NoError(t, err)
	golden, err := os.ReadFile(filepath.Join(fixtures, "lostupdate", "gormfix", "fix.go.golden"))
	require.NoError(t, err)
	file := filepath.Join(pkg, "fix.go")
	require.NoError(t, os.WriteFile(file, src, 0o644))

	diff := run(t, dir, binary, "-fix", "-diff", "./gormfix")
	assert.Equal(t, 3, diff.code, diff.stderr)
	assert.Contains(t, diff.stdout, "--- gormfix/fix.go (old)\n+++ gormfix/fix.go (fixed)\n@@ -21,10 +21,10 @@\n")
	assert.Contains(t, diff.stdout, "\n-\tif err := db.WithContext(ctx).Model(&p).Update(\"stock\", p.Stock-n).Error;")
	assert.Contains(t, diff.stdout, "\n+\tif err := db.WithContext(ctx).Model(&p).Update(\"stock\", gorm.Expr(\"stock - ?\", n)).Error;")
	after, err := os.ReadFile(file)
	require.NoError(t, err)
	assert.Equal(t, string(src), string(after), "-diff changes no file")

	fix := run(t, dir, binary, "-fix", "./gormfix")
	assert.Equal(t, 3, fix.code, "Restock has no fix and stays reported: %s", fix.stderr)
	assert.Contains(t, fix.stderr, "idemlint: fixed 2 of 3 findings; the others are listed\n")
	assert.Contains(t, fix.stderr, "gormfix/fix.go:36:45: lost update of products.stock: gorm.(*DB).Update writes back a value computed in Go from its read (lostupdate/writeback)\n")
	assert.Equal(t, 1, strings.Count(fix.stderr, "lost update of"), fix.stderr)
	after, err = os.ReadFile(file)
	require.NoError(t, err)
	assert.Equal(t, string(golden), string(after))

	again := run(t, dir, binary, "-fix", "./gormfix")
	assert.Equal(t, 3, again.code, again.stderr)
	assert.NotContains(t, again.stderr, "fixed")
}

func TestUnifiedDiff(t *testing.T) {
	var b strings.Builder
	writeUnifiedDiff(&b, "a.go", []byte("1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n"), []byte("1\n2\n3\n4\nfive\n6\n7\n8\n9\n10\neleven\n"))
	assert.Equal(t, "--- a.go (old)\n+++ a.go (fixed)\n@@ -2,9 +2,10 @@\n 2\n 3\n 4\n-5\n+five\n 6\n 7\n 8\n 9\n 10\n+eleven\n", b.String())

	b.Reset()
	writeUnifiedDiff(&b, "a.go", []byte("x\n"), []byte("x\n"))
	assert.Empty(t, b.String())
}

// TestProgressOnTerminal: on a terminal's stderr the run counts the
// packages analysed and erases the count before the findings; the other
// tests, whose stderr is a pipe, see no progress at all (TestTextOutput
// compares every line).
func TestProgressOnTerminal(t *testing.T) {
	if _, err := exec.LookPath("script"); err != nil {
		t.Skip("needs script(1) for a pseudo-terminal")
	}
	r := run(t, outputModule(t), "script", "-qec", binary+" ./...", "/dev/null")
	assert.Equal(t, 3, r.code, r.stdout)
	assert.Contains(t, r.stdout, "\ridemlint: 0/4 packages analysed")
	assert.Contains(t, r.stdout, "\ridemlint: 4/4 packages analysed\r\x1b[K")
	assert.Contains(t, r.stdout, "\x1b[Kstore/accounts.go:14:26: ")

	j := run(t, outputModule(t), "script", "-qec", binary+" -json ./store", "/dev/null")
	assert.Equal(t, 0, j.code, j.stdout)
	assert.NotContains(t, j.stdout, "packages analysed", "-json is for programs")
}

// TestMergeAcrossPackages: one bug reported at one position by a wiring
// package and by a test variant, in different words, is one finding, in
// the non-test package's words; two findings of one package at one
// position stay two.
func TestMergeAcrossPackages(t *testing.T) {
	at := func(pkgID, msg string) *finding {
		return &finding{
			pkg: &packages.Package{ID: pkgID},
			key: findingKey{analyzer: "lostupdate", category: "lostupdate/wholerow", file: "api/app.go", line: 271, column: 37, message: msg},
		}
	}
	var m merger
	test := at("example.com/m/api [example.com/m/api.test]", "writers: a, b")
	require.True(t, m.add(test))
	assert.False(t, m.add(at("example.com/m/api [example.com/m/api.test]", "writers: a, b")), "the same words again")
	wiring := at("example.com/m/router", "writers: a")
	assert.False(t, m.add(wiring), "the same bug from the wiring package")
	assert.Equal(t, "writers: a", test.key.message, "the non-test package's words win")
	assert.True(t, m.add(at("example.com/m/router", "another finding at the same place")), "one package's two findings stay two")
}
