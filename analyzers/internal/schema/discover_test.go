package schema

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/idemlint/idemlint/analyzers/config"
)

// discoveredNames returns each discovered directory (relative) with its
// files' base names, in apply order.
func discoveredNames(root string) map[string][]string {
	out := map[string][]string{}
	for _, d := range discoverMigrations(root).dirs {
		for _, f := range d.Files {
			out[d.Rel] = append(out[d.Rel], filepath.Base(f))
		}
	}
	return out
}

const wallets = "CREATE TABLE wallets (id bigint PRIMARY KEY, user_id bigint NOT NULL UNIQUE, version bigint NOT NULL);\n"

// TestDiscoveryRule: which files are read, grouped by directory, in the
// order migration tools apply them.
func TestDiscoveryRule(t *testing.T) {
	root := writeTree(t, map[string]string{
		"go.mod": "module example.com/m\n",
		// golang-migrate: numbered, up and down; 10 after 2.
		"db/migrations/000001_init.up.sql":         wallets,
		"db/migrations/000001_init.down.sql":       "DROP TABLE wallets;\n",
		"db/migrations/2_entries.up.sql":           "CREATE TABLE entries (id int PRIMARY KEY, version int);\n",
		"db/migrations/10_entries_drop.up.sql":     "ALTER TABLE entries DROP COLUMN version;\n",
		"db/migrations/3_rollback_down.sql":        "ALTER TABLE entries ADD COLUMN x int;\n",
		"db/migrations/4-undo-down.sql":            "ALTER TABLE entries ADD COLUMN x int;\n",
		"db/migrations/.scratch.sql":               "CREATE TABLE scratch (id int);\n",
		"db/migrations/queries.sql":                "-- name: GetWallet :one\nSELECT * FROM wallets WHERE id = $1;\n",
		"db/migrations/seed.sql":                   "INSERT INTO wallets VALUES (1, 1, 1);\n",
		"db/migrations/down/000001_init.sql":       "DROP TABLE wallets;\nCREATE TABLE gone (id int);\n",
		"db/migrations/README.md":                  "CREATE TABLE readme (id int);\n",
		"db/schema.sql":                            "create unique index wallets_user on wallets (user_id);\n",
		"flyway/V10__b.sql":                        "ALTER TABLE a ADD COLUMN b int;\n",
		"flyway/V9__a.sql":                         "CREATE TABLE a (id int);\n",
		"flyway/R__views.sql":                      "CREATE TEMP TABLE v (id int);\n",
		"goose/20240101120000_a.sql":               "-- +goose Up\nCREATE TABLE g (id int);\n-- +goose Down\nDROP TABLE g;\n",
		"goose/20231231000000_b.sql":               "-- +goose Up\nALTER TABLE g ADD COLUMN v int;\n",
		"vendor/example.com/x/schema.sql":          wallets,
		"testdata/schema.sql":                      wallets,
		"node_modules/pkg/schema.sql":              wallets,
		".git/schema.sql":                          wallets,
		"_old/schema.sql":                          wallets,
		"nested/go.mod":                            "module example.com/nested\n",
		"nested/db/schema.sql":                     wallets,
		"sqlc/sqlc.yaml":                           "version: \"2\"\nsql:\n  - schema: schema.sql\n    queries: q.sql\n    engine: postgresql\n",
		"sqlc/schema.sql":                          wallets,
		"sqlc/extra.sql":                           "CREATE TABLE extra (id int);\n",
		"internal/store/migrations/001_create.sql": wallets,
	})
	assert.Equal(t, map[string][]string{
		"db/migrations":             {"000001_init.up.sql", "2_entries.up.sql", "10_entries_drop.up.sql"},
		"db":                        {"schema.sql"},
		"flyway":                    {"V9__a.sql", "V10__b.sql", "R__views.sql"},
		"goose":                     {"20231231000000_b.sql", "20240101120000_a.sql"},
		"sqlc":                      {"extra.sql"},
		"internal/store/migrations": {"001_create.sql"},
	}, discoveredNames(root))
	assert.Same(t, discoverMigrations(root), discoverMigrations(root), "walked once per process per module root")
}

func TestSortMigrations(t *testing.T) {
	files := []string{"b.sql", "10_x.sql", "2_x.sql", "a.sql", "0002_y.sql", "v1__z.sql", "000_base.sql"}
	sortMigrations(files)
	assert.Equal(t, []string{"000_base.sql", "v1__z.sql", "0002_y.sql", "2_x.sql", "10_x.sql", "a.sql", "b.sql"}, files)
	assert.Equal(t, "12", migrationVersion("000012_x.up.sql"))
	assert.Equal(t, "", migrationVersion("schema.sql"))
	assert.Equal(t, "", migrationVersion("V__x.sql"))
}

// TestDiscoveredTables: the layer reads the discovered migrations when no
// schema is configured, one source per directory, in apply order; a
// configured schema replaces discovery, and schema-discover: false turns
// it off. Statements not understood are not warned about.
func TestDiscoveredTables(t *testing.T) {
	warnings := withWarnings(t)
	root := writeTree(t, map[string]string{
		"go.mod":                                   "module example.com/m\n",
		"db/migrations/000001_init.up.sql":         wallets + "CREATE FUNCTION f() RETURNS trigger AS $$ BEGIN RETURN NEW; END $$ LANGUAGE plpgsql;\nCREATE TABLE this is not sql;\n",
		"db/migrations/2_entries.up.sql":           "CREATE TABLE entries (id int PRIMARY KEY, code text, version int);\n",
		"db/migrations/10_entries_drop.up.sql":     "ALTER TABLE entries DROP COLUMN version;\n",
		"db/migrations/000001_init.down.sql":       "ALTER TABLE wallets DROP COLUMN version;\n",
		"configured.sql":                           "CREATE TABLE other (id int PRIMARY KEY);\n",
		"svc/a.go":                                 "package svc\n",
		"off/.idemlint.yml":                        "schema-discover: false\n",
		"named/.idemlint.yml":                      "schema: [configured.sql]\n",
		"internal/store/migrations/001_create.sql": "CREATE TABLE stores (id int PRIMARY KEY, name text UNIQUE);\n",
	})
	cfg := forDir(t, filepath.Join(root, "svc"))
	assert.True(t, cfg.SchemaDiscover)
	tables, err := loadFiles(cfg, filepath.Join(root, "svc"))
	require.NoError(t, err)
	assert.ElementsMatch(t, []string{"migration:other", "migration:wallets", "migration:entries", "migration:stores"}, tableNames(tables), "configured.sql is a .sql file of the module too")
	s := testSchema(cfg, tables...)
	v, ok := s.Version("wallets")
	require.True(t, ok, "the down file is not read")
	assert.Equal(t, Source{Kind: FromMigration, Name: "db/migrations"}, v.Source)
	_, ok = s.Version("entries")
	assert.False(t, ok, "10 is applied after 2")
	assert.Equal(t, Yes, s.Unique("wallets", "user_id"))
	assert.Equal(t, No, s.Unique("entries", "code"))
	assert.Equal(t, Yes, s.Unique("stores", "name"))
	assert.Empty(t, warnings.String(), "statements of discovered files are skipped silently")

	for _, dir := range []string{"off", "named"} {
		cfg := forDir(t, filepath.Join(root, dir))
		tables, err := loadFiles(cfg, filepath.Join(root, dir))
		require.NoError(t, err)
		for _, tb := range tables {
			assert.NotEqual(t, FromMigration, tb.Source.Kind, "%s: %s", dir, tb.Name)
		}
	}
	named, _ := loadFiles(forDir(t, filepath.Join(root, "named")), filepath.Join(root, "named"))
	assert.Equal(t, []string{"ddl:other"}, tableNames(named), "a configured schema replaces discovery")

	off := false
	require.NoError(t, config.SetDriver(config.Settings{SchemaDiscover: &off}))
	t.Cleanup(func() { require.NoError(t, config.SetDriver(config.Settings{})) })
	tables, err = loadFiles(forDir(t, filepath.Join(root, "svc")), filepath.Join(root, "svc"))
	require.NoError(t, err)
	assert.Empty(t, tables, "-schema-discover=false")
}

// TestDiscoveryDialectCopies: one schema kept per dialect (postgres/ and
// sqlite/, as gophish, homebox and shiori keep theirs) merges by union:
// keys either declares count, a table both describe completely answers
// No for a column neither makes unique, and the version column counts.
func TestDiscoveryDialectCopies(t *testing.T) {
	root := writeTree(t, map[string]string{
		"go.mod": "module example.com/m\n",
		"migrations/postgres/001_init.sql": `CREATE TABLE users (id bigserial PRIMARY KEY, email text NOT NULL UNIQUE, name text, version bigint NOT NULL DEFAULT 1);
CREATE UNIQUE INDEX users_name ON users (lower(name));`,
		"migrations/sqlite/001_init.sql": `CREATE TABLE users (id integer PRIMARY KEY AUTOINCREMENT, email text NOT NULL, name text, version integer NOT NULL DEFAULT 1);
CREATE UNIQUE INDEX users_email ON users (email);`,
		"migrations/mysql/001_init.sql": "CREATE TABLE notes (id int AUTO_INCREMENT PRIMARY KEY, body text);\n",
	})
	tables, err := loadFiles(forDir(t, root), root)
	require.NoError(t, err)
	s := testSchema(nil, tables...)
	assert.Equal(t, Yes, s.Unique("users", "email"))
	assert.Equal(t, Unknown, s.Unique("users", "name"), "an expression key reads it")
	assert.Equal(t, No, s.Unique("notes", "body"))
	v, ok := s.Version("users")
	require.True(t, ok)
	assert.Equal(t, "version", v.Column)
	var dirs []string
	for _, src := range s.Sources("users") {
		dirs = append(dirs, src.String())
	}
	assert.ElementsMatch(t, []string{"migration migrations/postgres", "migration migrations/sqlite"}, dirs)
}

// TestDiscoveryBounds: past the file bound the rest is left out with one
// warning; a file past the size bound is a data dump, skipped silently.
func TestDiscoveryBounds(t *testing.T) {
	warnings := withWarnings(t)
	files := map[string]string{"go.mod": "module example.com/m\n", "dump/data.sql": "CREATE TABLE big (id int);\n" + strings.Repeat("-- padding\n", 200)}
	for _, n := range []string{"1", "2", "3", "4", "5"} {
		files["migrations/"+n+"_t.sql"] = "CREATE TABLE t" + n + " (id int);\n"
	}
	root := writeTree(t, files)
	defer func(f int, b, s int64) { maxDiscoverFiles, maxDiscoverBytes, maxDiscoverFileSize = f, b, s }(maxDiscoverFiles, maxDiscoverBytes, maxDiscoverFileSize)
	maxDiscoverFiles, maxDiscoverFileSize = 3, 1000
	got := discoveredNames(root)
	assert.Equal(t, map[string][]string{"migrations": {"1_t.sql", "2_t.sql", "3_t.sql"}}, got)
	assert.Equal(t, 1, strings.Count(warnings.String(), "schema discovery in "+root+" stopped at 3 files or 64 MiB"), warnings.String())
}

// TestDiscoveryOtherModules: packages of other modules (the module cache,
// GOROOT) discover nothing, and the discovered files count in
// BuildInputs (go vet's tool ID).
func TestDiscoveryOtherModules(t *testing.T) {
	parent := t.TempDir()
	root := filepath.Join(parent, "example.com", "dep@v1.2.3")
	require.NoError(t, os.MkdirAll(filepath.Join(root, "migrations"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(root, "go.mod"), []byte("module example.com/dep\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(root, "migrations", "001.sql"), []byte(wallets), 0o644))
	tables, err := loadFiles(forDir(t, root), root)
	require.NoError(t, err)
	assert.Empty(t, tables, "a module in the module cache")

	mod := writeTree(t, map[string]string{"go.mod": "module example.com/m\n", "db/001_init.sql": wallets})
	assert.Contains(t, BuildInputs(mod), filepath.Join(mod, "db", "001_init.sql"))
}
