package schema

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/idemlint/idemlint/analyzers/config"
)

// writeTree writes files (path -> content) under a new directory.
func writeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		path := filepath.Join(dir, name)
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
		require.NoError(t, os.WriteFile(path, []byte(content), 0o644))
	}
	return dir
}

// withWarnings collects warnings for the test.
func withWarnings(t *testing.T) *bytes.Buffer {
	t.Helper()
	var buf bytes.Buffer
	SetWarnings(&buf)
	t.Cleanup(func() { SetWarnings(nil) })
	return &buf
}

func tableNames(tables []*desc) []string {
	var out []string
	for _, t := range tables {
		s := t.Source.Kind.String() + ":" + qualify(t.Schema, t.Name)
		if !t.Describes {
			s += "(keys)"
		}
		out = append(out, s)
	}
	return out
}

func forDir(t *testing.T, dir string) *config.Config {
	t.Helper()
	cfg, err := config.For(dir)
	require.NoError(t, err)
	return cfg
}

// TestSqlcDiscovery: the sqlc configurations from the package directory up
// to the module root, versions 1 and 2, YAML and JSON, schema as a file, a
// directory, a glob or a list.
func TestSqlcDiscovery(t *testing.T) {
	outer := writeTree(t, map[string]string{
		"sqlc.yaml":                         "version: '2'\nsql: [{schema: above.sql}]\n",
		"above.sql":                         "CREATE TABLE above (id int PRIMARY KEY);",
		"mod/go.mod":                        "module example.com/m\n",
		"mod/sqlc.yml":                      "version: \"2\"\nsql:\n  - engine: postgresql\n    schema: [migrations/, one.sql, notes.txt, \"globbed/*.sql\", \"none/*.sql\"]\n    queries: q.sql\n  - schema: second.sql\n",
		"mod/one.sql":                       "CREATE TABLE one (id int PRIMARY KEY, code text UNIQUE);",
		"mod/notes.txt":                     "CREATE TABLE notes (id int);",
		"mod/second.sql":                    "CREATE TABLE second (id int PRIMARY KEY);",
		"mod/globbed/a.sql":                 "CREATE TABLE globbed_a (id int);",
		"mod/globbed/b.txt":                 "CREATE TABLE not_read (id int);",
		"mod/migrations/001_users.up.sql":   "CREATE TABLE users (id int PRIMARY KEY, email text NOT NULL);",
		"mod/migrations/001_users.down.sql": "DROP TABLE users;",
		"mod/migrations/002_email.sql":      "CREATE UNIQUE INDEX users_email ON users (email);\n-- +migrate Down\nDROP INDEX users_email;",
		"mod/migrations/.wip.sql":           "DROP TABLE users;",
		"mod/migrations/notes.md":           "DROP TABLE users;",
		"mod/svc/sqlc.json":                 `{"version": "1", "packages": [{"name": "db", "path": "db", "schema": "schema.sql", "engine": "mysql"}]}`,
		"mod/svc/schema.sql":                "CREATE TABLE `vouchers` (`id` int NOT NULL, `code` varchar(8) NOT NULL, PRIMARY KEY (`id`), UNIQUE KEY `uk` (`code`));",
		"mod/svc/pkg/a.go":                  "package pkg\n",
		"mod/other/a.go":                    "package other\n",
	})
	root := filepath.Join(outer, "mod")
	pkg := filepath.Join(root, "svc", "pkg")

	assert.Equal(t, []string{filepath.Join(root, "svc", "sqlc.json"), filepath.Join(root, "sqlc.yml")}, sqlcConfigsFrom(pkg, root),
		"nearest first, and nothing above the module root")
	assert.Nil(t, sqlcConfigsFrom(outer, root), "a directory outside the module")

	tables, err := loadFiles(forDir(t, pkg), pkg)
	require.NoError(t, err)
	assert.Equal(t, []string{"sqlc:vouchers", "sqlc:users", "sqlc:one", "sqlc:globbed_a", "sqlc:second"}, tableNames(tables))
	s := testSchema(nil, tables...)
	assert.Equal(t, Yes, s.Unique("users", "email"), "the down migration and the hidden file are not read")
	assert.Equal(t, Yes, s.Unique("vouchers", "code"))
	assert.Equal(t, Yes, s.Unique("one", "code"))
	assert.False(t, s.Describes("notes"), "as sqlc, only .sql files are read, even when named")

	tables, err = loadFiles(forDir(t, filepath.Join(root, "other")), filepath.Join(root, "other"))
	require.NoError(t, err)
	assert.Equal(t, []string{"sqlc:users", "sqlc:one", "sqlc:globbed_a", "sqlc:second"}, tableNames(tables), "svc's sqlc.json is not above other")
}

func TestSqlcProblemsAreWarnings(t *testing.T) {
	warnings := withWarnings(t)
	root := writeTree(t, map[string]string{
		"go.mod":        "module example.com/m\n",
		"sqlc.yaml":     "version: '2'\nsql:\n  - schema: [missing.sql, good.sql, bad.sql]\n",
		"good.sql":      "CREATE TABLE good (id int PRIMARY KEY);",
		"bad.sql":       "CREATE TABLE fine (id int PRIMARY KEY);\n\nCREATE TABLE broken (id int,;\n",
		"pkg/sqlc.json": "{not json",
		"pkg/a.go":      "package pkg\n",
	})
	pkg := filepath.Join(root, "pkg")
	tables, err := loadFiles(forDir(t, pkg), pkg)
	require.NoError(t, err, "sqlc's files are not the configuration's: problems are warnings")
	assert.Equal(t, []string{"sqlc:good", "sqlc:fine"}, tableNames(tables))
	_, err = loadFiles(forDir(t, pkg), pkg)
	require.NoError(t, err)
	got := warnings.String()
	assert.Contains(t, got, "idemlint: warning: "+filepath.Join(root, "bad.sql")+":3: skipped CREATE TABLE broken: the column list is not closed\n")
	assert.Contains(t, got, "idemlint: warning: sqlc: schema "+filepath.Join(root, "missing.sql")+" (named in "+filepath.Join(root, "sqlc.yaml")+") does not exist\n")
	assert.Contains(t, got, "idemlint: warning: "+filepath.Join(root, "pkg", "sqlc.json")+": ")
	assert.Equal(t, 3, strings.Count(got, "\n"), "each warning once per process: %s", got)

	SetWarnings(nil)
	require.NoError(t, os.WriteFile(filepath.Join(root, "bad.sql"), []byte("CREATE TABLE worse (;\n"), 0o644))
	_, err = loadFiles(forDir(t, pkg), pkg)
	require.NoError(t, err)
	assert.Equal(t, 3, strings.Count(warnings.String(), "\n"), "no writer, no warnings (go vet, gopls, golangci-lint)")
}

// TestConfiguredDDL: the files the configuration names are applied in
// order; one that cannot be read is an error naming it.
func TestConfiguredDDL(t *testing.T) {
	warnings := withWarnings(t)
	root := writeTree(t, map[string]string{
		"go.mod":               "module example.com/m\n",
		".idemlint.yml":        "schema: [db/one.sql, db/two.sql]\n",
		"db/one.sql":           "CREATE TABLE users (id int PRIMARY KEY, email text);\nCREATE TABLE oops (;\n-- +goose Down\nDROP TABLE users;\n",
		"db/two.sql":           "CREATE UNIQUE INDEX users_email ON users (email);",
		"svc/a.go":             "package svc\n",
		"broken/go.mod":        "module example.com/broken\n",
		"broken/.idemlint.yml": "schema: [db/missing.sql, db]\n",
		"broken/db/x.sql":      "",
	})
	svc := filepath.Join(root, "svc")
	tables, err := loadFiles(forDir(t, svc), svc)
	require.NoError(t, err)
	assert.Equal(t, []string{"ddl:users"}, tableNames(tables))
	assert.Equal(t, Yes, testSchema(nil, tables...).Unique("users", "email"), "the second file indexes the first's table; the Down half is dropped")
	assert.Contains(t, warnings.String(), filepath.Join(root, "db", "one.sql")+":2: skipped CREATE TABLE oops")

	broken := filepath.Join(root, "broken")
	_, err = loadFiles(forDir(t, broken), broken)
	require.Error(t, err)
	assert.Equal(t, "schema: "+filepath.Join(broken, "db", "missing.sql")+" (named in "+filepath.Join(broken, ".idemlint.yml")+"): no such file or directory", err.Error())

	require.NoError(t, os.Remove(filepath.Join(broken, "db", "x.sql")))
	require.NoError(t, os.WriteFile(filepath.Join(broken, ".idemlint.yml"), []byte("schema: [db]\n"), 0o644))
	_, err = loadFiles(forDir(t, broken), broken)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "schema: "+filepath.Join(broken, "db")+" (named in ")
	assert.Contains(t, err.Error(), "is a directory")
}

// TestFileCacheSeesEdits: parsed files are cached by path, size and
// modification time, so that a long-lived process sees an edit.
func TestFileCacheSeesEdits(t *testing.T) {
	root := writeTree(t, map[string]string{"schema.sql": "CREATE TABLE t (id int PRIMARY KEY, code text);"})
	file := filepath.Join(root, "schema.sql")
	first, err := loadGroup(FromDDL, []string{file}, true, "test", "")
	require.NoError(t, err)
	again, err := loadGroup(FromDDL, []string{file}, true, "test", "")
	require.NoError(t, err)
	assert.Same(t, first[0], again[0], "an unchanged file is not parsed again")
	assert.Equal(t, No, testSchema(nil, first...).Unique("t", "code"))

	require.NoError(t, os.WriteFile(file, []byte("CREATE TABLE t (id int PRIMARY KEY, code text UNIQUE);"), 0o644))
	later := time.Now().Add(time.Second)
	require.NoError(t, os.Chtimes(file, later, later))
	edited, err := loadGroup(FromDDL, []string{file}, true, "test", "")
	require.NoError(t, err)
	assert.Equal(t, Yes, testSchema(nil, edited...).Unique("t", "code"))
}

func TestStripRollback(t *testing.T) {
	for _, marker := range []string{"-- +goose Down", "-- +migrate Down", "-- migrate:down", "---- create above / drop below ----", "-- +GOOSE DOWN"} {
		text := "CREATE TABLE a (id int);\n" + marker + "\nDROP TABLE a;\n"
		assert.Equal(t, "CREATE TABLE a (id int);", stripRollback(text), marker)
	}
	assert.Equal(t, "CREATE TABLE a (id int);\n", stripRollback("CREATE TABLE a (id int);\n"))
}

func TestDependencyModules(t *testing.T) {
	assert.True(t, dependencyModule(""), "no module root")
	assert.True(t, dependencyModule("/home/u/go/pkg/mod/github.com/x/y@v1.2.3"))
	assert.False(t, dependencyModule(t.TempDir()))
}

// TestBuildInputs: what -V=full hashes for a module.
func TestBuildInputs(t *testing.T) {
	root := writeTree(t, map[string]string{
		"go.mod":                    "module example.com/m\n",
		".idemlint.yml":             "schema: [db/schema.sql, db/missing.sql]\n",
		"db/schema.sql":             "CREATE TABLE t (id int);",
		"sqlc.yaml":                 "version: '2'\nsql: [{schema: [sqlc/, extra.sql, gone.sql]}]\n",
		"sqlc/001.sql":              "",
		"sqlc/001.down.sql":         "",
		"extra.sql":                 "",
		"internal/db/sqlc.json":     `{"version": "1", "packages": [{"schema": "../../shared.sql"}]}`,
		"shared.sql":                "",
		"internal/db/more/sqlc.yml": "version: '2'\nsql: [{schema: s.sql}]\n",
		"internal/db/more/s.sql":    "",
		"broken/sqlc.yaml":          "{",
		"vendor/x/sqlc.yaml":        "version: '2'\nsql: [{schema: v.sql}]\n",
		"testdata/sqlc.yaml":        "version: '2'\nsql: [{schema: t.sql}]\n",
		"node_modules/p/sqlc.yaml":  "version: '2'\nsql: [{schema: n.sql}]\n",
		".git/sqlc.yaml":            "version: '2'\nsql: [{schema: g.sql}]\n",
		"_scratch/sqlc.yaml":        "version: '2'\nsql: [{schema: s.sql}]\n",
		"nested/go.mod":             "module example.com/nested\n",
		"nested/sqlc.yaml":          "version: '2'\nsql: [{schema: n.sql}]\n",
		"svc/a.go":                  "package svc\n",
	})
	j := func(p ...string) string { return filepath.Join(append([]string{root}, p...)...) }
	want := []string{
		j(".idemlint.yml"), j("db", "schema.sql"), j("db", "missing.sql"),
		j("broken", "sqlc.yaml"),
		j("internal", "db", "more", "sqlc.yml"), j("internal", "db", "more", "s.sql"),
		j("internal", "db", "sqlc.json"), j("shared.sql"),
		j("sqlc.yaml"), j("sqlc", "001.sql"), j("extra.sql"), j("gone.sql"),
	}
	assert.Equal(t, want, BuildInputs(j("svc")))
	assert.Equal(t, want, BuildInputs(root), "the same from any directory of the module")

	nested := BuildInputs(j("nested"))
	assert.Equal(t, []string{j("nested", "sqlc.yaml"), j("nested", "n.sql")}, nested, "a nested module is its own")
	assert.Empty(t, BuildInputs(t.TempDir()), "outside a module: nothing")
}
