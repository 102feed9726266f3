package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/idemlint/idemlint/analyzers"

	"github.com/idemlint/idemlint/analyzers/config"
)

// binary is the idemlint executable built for these tests.
var binary string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "idemlint-test")
	if err != nil {
		panic(err)
	}
	binary = filepath.Join(dir, "idemlint")
	if out, err := exec.Command("go", "build", "-o", binary, ".").CombinedOutput(); err != nil {
		os.Stderr.Write(out)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

type result struct {
	stdout, stderr string
	code           int
}

// idemlint runs command (the binary or go) in dir.
func run(t *testing.T, dir string, command ...string) result {
	t.Helper()
	cmd := exec.Command(command[0], command[1:]...)
	cmd.Dir = dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else {
		require.NoError(t, err)
	}
	r := result{stdout.String(), stderr.String(), code}
	assert.NotContains(t, r.stderr, "panic:", "%v", command)
	assert.NotContains(t, r.stderr, "goroutine ", "%v", command)
	return r
}

func fixtures(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs("../../testdata/fixtures")
	require.NoError(t, err)
	return dir
}

func TestFlagsListConfiguration(t *testing.T) {
	r := run(t, ".", binary, "-flags")
	require.Equal(t, 0, r.code, r.stderr)
	var flags []struct{ Name string }
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &flags))
	var names []string
	for _, f := range flags {
		names = append(names, f.Name)
	}
	for _, setting := range config.Names() {
		assert.Contains(t, names, setting, "go vet forwards only the flags -flags lists")
	}
	assert.Contains(t, names, "ignoredirective")
}

func TestHelpPrintsTheDocs(t *testing.T) {
	r := run(t, ".", binary, "help", "ignoredirective")
	require.Equal(t, 0, r.code, r.stderr)
	assert.Equal(t, string(analyzers.Text(analyzers.Lookup("ignoredirective"))), r.stdout)
	page, err := os.ReadFile("../../docs/analyzers/ignoredirective.md")
	require.NoError(t, err)
	// The page's prose, without its markup: its first paragraph's first
	// words are the help's too.
	_, rest, _ := strings.Cut(string(page), "ignoredirective: ")
	summary, _, _ := strings.Cut(rest, "\n")
	assert.True(t, strings.HasPrefix(r.stdout, "ignoredirective: "+summary+"\n\n"), r.stdout)

	r = run(t, ".", binary, "help")
	assert.Equal(t, 0, r.code)
	assert.Contains(t, r.stdout, "ignoredirective")
	assert.Contains(t, r.stdout, "-version-column")
	assert.Contains(t, r.stdout, "-sarif=FILE")
	assert.Contains(t, r.stdout, "idemlint version")

	r = run(t, ".", binary, "help", "nosuch")
	assert.Equal(t, 2, r.code)
	assert.Contains(t, r.stderr, `no analyzer "nosuch"`)
}

// TestHelpRendersForTerminal: `idemlint help NAME` is the documentation
// page without Markdown: no escapes, no fences, headings as plain lines,
// code indented by a tab.
func TestHelpRendersForTerminal(t *testing.T) {
	for _, a := range analyzers.All() {
		r := run(t, ".", binary, "help", a.Name)
		require.Equal(t, 0, r.code, r.stderr)
		for _, markup := range []string{"\\_", "\\*", "\\[", "```", "\n## ", "\n# ", "<!--"} {
			assert.NotContains(t, r.stdout, markup, "%s: %q", a.Name, markup)
		}
		assert.True(t, strings.HasPrefix(r.stdout, a.Name+": "), r.stdout)
		assert.True(t, strings.HasSuffix(r.stdout, "Online: "+a.URL+"\n"), a.Name)
	}
	r := run(t, ".", binary, "help", "checkinsert")
	assert.Contains(t, r.stdout, "\nExample\n\n", "a heading is a plain line")
	assert.Contains(t, r.stdout, "count(*)", "the Markdown page escapes it as count(\\*)")
	assert.Contains(t, r.stdout, "\n\terr := db.QueryRowContext(ctx, `SELECT id FROM users WHERE email = $1`, email).Scan(&id)\n")
	for _, line := range strings.Split(r.stdout, "\n")[1:] { // after the summary line
		if !strings.HasPrefix(line, "\t") && !strings.HasPrefix(line, "Online: ") {
			assert.LessOrEqual(t, len([]rune(line)), 100, "wrapped for a terminal: %q", line)
		}
	}
}

// TestVersionCommand: `idemlint version` names the module version and the
// x/tools the binary was built with.
func TestVersionCommand(t *testing.T) {
	r := run(t, ".", binary, "version")
	require.Equal(t, 0, r.code, r.stderr)
	assert.Regexp(t, `^idemlint (\(devel\)|v\S+)\n`, r.stdout)
	assert.Contains(t, r.stdout, "\n  golang.org/x/tools v0.")
	assert.Contains(t, r.stdout, "\n  built with go1.")
}

// TestStandaloneAndVet runs the binary both ways over the same package and
// expects the same findings.
func TestStandaloneAndVet(t *testing.T) {
	dir := fixtures(t)
	standalone := run(t, dir, binary, "./ignoredirective")
	assert.Equal(t, 3, standalone.code, "exit code 3 means findings: %s", standalone.stderr)
	vet := run(t, dir, "go", "vet", "-vettool="+binary, "./ignoredirective")
	assert.Equal(t, 1, vet.code, vet.stderr)

	want := []string{
		"directives.go:20:2: this directive suppresses nothing: it gives no reason after checkinsert",
		"directives.go:32:2: this comment suppresses nothing: with a space after // it is not a directive",
		"directives.go:35:2: this directive suppresses nothing: lostupdates is not an idemlint analyzer (did you mean lostupdate?)",
	}
	for _, w := range want {
		assert.Contains(t, standalone.stderr, w)
		assert.Contains(t, vet.stderr, w)
	}

	// The Default set applies unless analyzers are chosen by name;
	// ignoredirective stays on unless turned off by name. checkinsert, in
	// the Default set, reports the directives naming it that suppress
	// nothing (the fixture's maps are not database rows).
	off := run(t, dir, binary, "-ignoredirective=false", "./ignoredirective")
	assert.Equal(t, 3, off.code, off.stderr)
	for _, w := range []string{
		"directives.go:10:2: this directive suppresses nothing: no checkinsert finding in the statement below",
		"directives.go:14:22: this directive suppresses nothing: no checkinsert/race finding on this line or the next",
	} {
		assert.Contains(t, off.stderr, w)
	}
	assert.NotContains(t, off.stderr, "it gives no reason")
	// Every registered analyzer a directive of the fixture names is
	// turned off, so that none reports a directive as unused.
	args := []string{"-ignoredirective=false", "-checkinsert=false"}
	for _, name := range []string{"lostupdate", "noversion"} {
		if analyzers.Lookup(name) != nil {
			args = append(args, "-"+name+"=false")
		}
	}
	none := run(t, dir, append(append([]string{binary}, args...), "./ignoredirective")...)
	assert.Equal(t, 0, none.code, none.stderr)
	assert.Empty(t, none.stderr)
}

// TestWiringDrivers runs both drivers over a program whose hazards lie
// behind interfaces their consumers declare (docs/design.md, "What each
// driver sees"): the standalone driver completes the consumers from the
// package binding them and reports at the consumers' lines; go vet runs
// each package in a process of its own, where the binding package cannot
// see the consumer's syntax, and reports nothing there. If go vet ever
// does, the design's table is out of date.
func TestWiringDrivers(t *testing.T) {
	dir := fixtures(t)
	standalone := run(t, dir, binary, "./cleanarch/...")
	assert.Equal(t, 3, standalone.code, standalone.stderr)
	assert.Contains(t, standalone.stderr, "cleanarch/usecase/users.go:38:25: \tinsert into users after the lookup of users by email")
	assert.Contains(t, standalone.stderr, "cleanarch/usecase/accounts.go:32:21: \taccounts.balance (field Balance) is written back")
	vet := run(t, dir, "go", "vet", "-vettool="+binary, "./cleanarch/...")
	assert.Equal(t, 0, vet.code, vet.stderr)
	assert.NotContains(t, vet.stderr, "cleanarch/usecase/")
}

// TestDiscoveredMigrationsDrivers: the schema layer discovers the
// migrations of testdata/migrations (no schema configured) under both
// drivers: go vet runs each package in a process of its own, which walks
// the module again, and reports the same finding. -schema-discover=false
// turns it off under both, and the bare boolean flag does not take the
// package pattern after it for its value.
func TestDiscoveredMigrationsDrivers(t *testing.T) {
	dir, err := filepath.Abs("../../testdata/migrations")
	require.NoError(t, err)
	want := "internal/wallet/repository.go:27:30: \tthe UPDATE of wallets (sql.(*DB).ExecContext) does not compare the version in its WHERE, though wallets is versioned (the migrations in db/migrations/ declare wallets.version)"
	standalone := run(t, dir, binary, "./...")
	assert.Equal(t, 3, standalone.code, standalone.stderr)
	assert.Contains(t, standalone.stderr, want)
	assert.Equal(t, 2, strings.Count(standalone.stderr, "\n"), "one finding and its detail (payouts and ledger_entries are not versioned), no warning: %s", standalone.stderr)
	vet := run(t, dir, "go", "vet", "-vettool="+binary, "./...")
	assert.Equal(t, 1, vet.code, vet.stderr)
	assert.Contains(t, vet.stderr, want)

	for _, command := range [][]string{
		{binary, "-schema-discover=false", "./..."},
		{"go", "vet", "-vettool=" + binary, "-schema-discover=false", "./..."},
	} {
		r := run(t, dir, command...)
		assert.Equal(t, 0, r.code, "%v: %s", command, r.stderr)
		assert.NotContains(t, r.stderr, "wallets", "%v", command)
	}
	bare := run(t, dir, binary, "-schema-discover", "./internal/wallet")
	assert.Equal(t, 3, bare.code, bare.stderr)
	assert.Contains(t, bare.stderr, want)
}

// internalNames are the names of idemlint's internal analyzers, which no
// message to a user may carry.
var internalNames = []string{"idemlintconfig", "idemlintorigin", "idemlintops", "idemlintschema", "failed prerequisites", "analysis skipped"}

func assertNoInternalNames(t *testing.T, output string) {
	t.Helper()
	for _, name := range internalNames {
		assert.NotContains(t, output, name)
	}
}

// TestBrokenPackage: a package that does not compile is reported the way
// go vet reports it, its errors once, and the package importing it keeps
// its findings standalone (go vet itself does not vet the importers of a
// package that fails).
func TestBrokenPackage(t *testing.T) {
	dir, err := filepath.Abs("testdata/broken")
	require.NoError(t, err)
	standalone := run(t, dir, binary, "./...")
	assert.Equal(t, 3, standalone.code, "findings win over the failed package, as in multichecker: %s", standalone.stderr)
	assert.Equal(t, 1, strings.Count(standalone.stderr, "too many return values"), standalone.stderr)
	assert.Contains(t, standalone.stderr, "api.go:21:26: two callers can both insert into users: each finds no row by email first")
	assertNoInternalNames(t, standalone.stderr)

	vet := run(t, dir, "go", "vet", "-vettool="+binary, "./...")
	assert.NotEqual(t, 0, vet.code)
	assert.Equal(t, 1, strings.Count(vet.stderr, "too many return values"), vet.stderr)
	assertNoInternalNames(t, vet.stderr)
}

func TestNoPackages(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/empty\n"), 0o644))
	r := run(t, dir, binary, "./...")
	assert.NotEqual(t, 0, r.code)
	assert.Contains(t, r.stderr, "matched no packages")

	// A directory with no Go files: go/packages' one line, and nothing
	// about idemlint's own analyzers.
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "db"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "db", "schema.sql"), []byte("CREATE TABLE t (id int);\n"), 0o644))
	r = run(t, dir, binary, "./db")
	assert.Equal(t, 1, r.code, r.stderr)
	assert.Equal(t, "-: no Go files in "+filepath.Join(dir, "db")+"\n", r.stderr)
}

func TestBadConfiguration(t *testing.T) {
	r := run(t, ".", binary, "-version-column=1x", "./...")
	assert.Equal(t, 2, r.code)
	assert.Contains(t, r.stderr, `invalid value "1x" for flag -version-column`)

	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/m\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "a.go"), []byte("package m\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, ".idemlint.yml"), []byte("version-colum: rev\n"), 0o644))
	r = run(t, dir, binary, "./...")
	assert.Equal(t, 2, r.code)
	assert.Contains(t, r.stderr, "unknown setting version-colum")

	require.NoError(t, os.WriteFile(filepath.Join(dir, ".idemlint.yml"), []byte("schema: [db/schema.sql]\n"), 0o644))
	r = run(t, dir, binary, "./...")
	assert.Equal(t, 2, r.code)
	assert.Contains(t, r.stderr, "schema: "+filepath.Join(dir, "db/schema.sql"))
}

// TestBadConfigurationOneError: a bad configuration is one error naming
// the file, the line and the setting, standalone and under go vet, and no
// internal analyzer name reaches the user, wherever the file lies below
// the working directory and whichever way the bad value comes.
func TestBadConfigurationOneError(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) {
		t.Helper()
		require.NoError(t, os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644))
	}
	write("go.mod", "module example.com/m\n\ngo 1.26.0\n")
	write("a.go", "package m\n")
	write("svc/svc.go", "package svc\n")
	write("svc/.idemlint.yml", "# the service's settings\nversion-column: [rev]\n")
	const want = ".idemlint.yml:2: version-column: want a string, got a list"

	standalone := run(t, dir, binary, "./...")
	assert.Equal(t, 2, standalone.code, standalone.stderr)
	assert.Equal(t, "idemlint: bad configuration: "+filepath.Join(dir, "svc", want)+"\n", standalone.stderr)

	vet := run(t, dir, "go", "vet", "-vettool="+binary, "./...")
	assert.NotEqual(t, 0, vet.code)
	assert.Equal(t, 1, strings.Count(vet.stderr, want), vet.stderr)
	assertNoInternalNames(t, vet.stderr)

	// A schema file named by a flag that does not exist: standalone one
	// error; go vet runs the tool once per package with the flag, and each
	// says the same, naming the flag.
	require.NoError(t, os.Remove(filepath.Join(dir, "svc", ".idemlint.yml")))
	standalone = run(t, dir, binary, "-schema=db/missing.sql", "./...")
	assert.Equal(t, 2, standalone.code, standalone.stderr)
	assert.Equal(t, "idemlint: bad configuration: flag -schema: "+filepath.Join(dir, "db", "missing.sql")+": no such file or directory (schema files are named relative to the module root)\n", standalone.stderr)
	vet = run(t, dir, "go", "vet", "-vettool="+binary, "-schema=db/missing.sql", "./...")
	assert.NotEqual(t, 0, vet.code)
	assert.Contains(t, vet.stderr, "idemlint: bad configuration: flag -schema: ")
	assertNoInternalNames(t, vet.stderr)
}

// TestVersionHashesConfiguration: go vet caches results under the tool ID
// -V=full prints, so the ID must change when a configuration or schema file
// changes.
func TestVersionHashesConfiguration(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/m\n"), 0o644))
	id := func() string {
		r := run(t, dir, binary, "-V=full")
		require.Equal(t, 0, r.code, r.stderr)
		require.True(t, strings.HasPrefix(r.stdout, "idemlint version devel comments-go-here buildID="), r.stdout)
		return r.stdout
	}
	plain := id()
	assert.Equal(t, plain, id(), "the ID is deterministic")

	require.NoError(t, os.WriteFile(filepath.Join(dir, ".idemlint.yml"), []byte("schema: [schema.sql]\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "schema.sql"), []byte("CREATE TABLE t (id int);\n"), 0o644))
	withConfig := id()
	assert.NotEqual(t, plain, withConfig)

	require.NoError(t, os.WriteFile(filepath.Join(dir, "schema.sql"), []byte("CREATE TABLE t (id int, version int);\n"), 0o644))
	assert.NotEqual(t, withConfig, id(), "a schema change changes the ID")
}

// TestVersionHashesSchemaFiles: the tool ID covers every sqlc
// configuration of the module and the schema files each names, besides
// every .idemlint.yml of the module (the working directory's and those of
// the packages below it) and its DDL files, so that go vet's cache turns over when
// any of them changes; files the analysis never reads do not move it.
func TestVersionHashesSchemaFiles(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) {
		t.Helper()
		path := filepath.Join(dir, name)
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
		require.NoError(t, os.WriteFile(path, []byte(content), 0o644))
	}
	id := func(sub string) string {
		r := run(t, filepath.Join(dir, sub), binary, "-V=full")
		require.Equal(t, 0, r.code, r.stderr)
		return r.stdout
	}
	write("go.mod", "module example.com/m\n")
	write("internal/db/sqlc.yaml", "version: \"2\"\nsql:\n  - engine: postgresql\n    schema: ../../db/migrations/\n    queries: q.sql\n")
	write("db/migrations/001_users.up.sql", "CREATE TABLE users (id bigint PRIMARY KEY, email text);\n")
	write("testdata/other/sqlc.yaml", "version: \"2\"\nsql: [{schema: schema.sql}]\n")
	write("testdata/other/schema.sql", "CREATE TABLE t (id int);\n")
	write("internal/svc/svc.go", "package svc\n")

	base := id(".")
	assert.Equal(t, base, id("internal/svc"), "the ID covers the working directory's module, from any of its directories")

	steps := []struct {
		what    string
		edit    func()
		changes bool
	}{
		{"a schema file sqlc reads", func() {
			write("db/migrations/001_users.up.sql", "CREATE TABLE users (id bigint PRIMARY KEY, email text UNIQUE);\n")
		}, true},
		{"a new migration in sqlc's schema directory", func() {
			write("db/migrations/002_version.up.sql", "ALTER TABLE users ADD COLUMN version int;\n")
		}, true},
		{"a down migration, which sqlc does not read", func() {
			write("db/migrations/002_version.down.sql", "ALTER TABLE users DROP COLUMN version;\n")
		}, false},
		{"the sqlc configuration", func() {
			write("internal/db/sqlc.yaml", "version: \"2\"\nsql:\n  - engine: postgresql\n    schema: [../../db/migrations/]\n    queries: q.sql\n")
		}, true},
		{"a sqlc configuration under testdata, which no package uses", func() {
			write("testdata/other/schema.sql", "CREATE TABLE t (id int UNIQUE);\n")
		}, false},
		{"a new sqlc configuration", func() {
			write("sqlc.json", `{"version": "1", "packages": [{"schema": "db/extra.sql"}]}`)
		}, true},
		{"the file the new configuration names", func() {
			write("db/extra.sql", "CREATE TABLE extra (id int);\n")
		}, true},
		{"a DDL file in a directory discovery skips, named by nothing", func() {
			write("_ddl/svc.sql", "CREATE TABLE svc (id int);\n")
		}, false},
		{"a .idemlint.yml of a package below the working directory, naming it", func() {
			write("internal/svc/.idemlint.yml", "schema: [_ddl/svc.sql]\n")
		}, true},
		{"the DDL file the package's configuration names", func() {
			write("_ddl/svc.sql", "CREATE TABLE svc (id int UNIQUE);\n")
		}, true},
		{"an unrelated file", func() {
			write("README.md", "hello\n")
		}, false},
	}
	prev := base
	for _, s := range steps {
		s.edit()
		next := id(".")
		if s.changes {
			assert.NotEqual(t, prev, next, "editing %s changes the ID", s.what)
		} else {
			assert.Equal(t, prev, next, "editing %s leaves the ID", s.what)
		}
		prev = next
	}
}

// TestCgoFile: a file that imports "C" reaches the analyzers as cmd/cgo's
// translation, marked generated; its findings are still reported, at the
// user's file and line, and its silent twin stays silent.
func TestCgoFile(t *testing.T) {
	dir, err := filepath.Abs("testdata/cgo")
	require.NoError(t, err)
	const want = "accounts.go:27:26: two callers can both insert into users: each finds no row by email first"
	standalone := run(t, dir, binary, "./...")
	assert.Equal(t, 3, standalone.code, standalone.stderr)
	assert.Contains(t, standalone.stderr, want)
	assert.Equal(t, 1, strings.Count(standalone.stderr, "two callers can both insert into users"), "Invite claims first: %s", standalone.stderr)

	vet := run(t, dir, "go", "vet", "-vettool="+binary, "./...")
	assert.Equal(t, 1, vet.code, vet.stderr)
	assert.Contains(t, vet.stderr, want)
	assert.Equal(t, 1, strings.Count(vet.stderr, "two callers can both insert into users"), vet.stderr)
}
