package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestVetCacheSchemaFiles pins what go vet's result cache does with the
// files the analysis reads that are not Go source (docs/ci.md tells users
// what this test finds). go vet keys a package's cached result on the
// tool ID -V=full prints, which hashes .idemlint.yml files and the DDL
// they name: editing one makes go vet run the tool again. A DDL file named
// only by -schema= on the go vet command line is not hashed (go vet asks
// for the ID without the flags), so an edit of it is served from the
// cache until -a (or go clean -cache). Whether the tool ran for a package
// is read from go vet -x, which prints each run of the tool (after an
// environment assignment or two) following the cd into the package's
// directory; the findings' words do not matter.
func TestVetCacheSchemaFiles(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go vet, and go vet -a, which rebuilds the standard library's packages")
	}
	dir := copyModule(t, outputModule(t))
	store := filepath.Join(dir, "store")
	write := func(name, content string) {
		t.Helper()
		path := filepath.Join(dir, name)
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
		require.NoError(t, os.WriteFile(path, []byte(content), 0o644))
	}
	// _ddl is a directory schema discovery skips: only the configuration
	// and the flag name these files.
	write("_ddl/users.sql", "CREATE TABLE users (id bigserial PRIMARY KEY, email text NOT NULL UNIQUE);\n")
	write("store/.idemlint.yml", "schema: [_ddl/users.sql]\n")
	vet := func(args ...string) (analysed bool, output string) {
		t.Helper()
		r := run(t, dir, append([]string{"go", "vet", "-x", "-vettool=" + binary}, append(args, "./store")...)...)
		require.Contains(t, []int{0, 1}, r.code, r.stderr)
		return toolRanIn(r.stderr, binary, store), r.stderr
	}

	vet()
	analysed, out := vet()
	assert.False(t, analysed, "nothing changed: go vet serves the cached result\n%s", out)

	write("_ddl/users.sql", "CREATE TABLE users (id bigserial PRIMARY KEY, email text NOT NULL);\n")
	analysed, out = vet()
	assert.True(t, analysed, "a DDL file a package's .idemlint.yml names changed the tool ID\n%s", out)
	analysed, _ = vet()
	assert.False(t, analysed)

	write("store/.idemlint.yml", "schema: [_ddl/users.sql]\nversion-column: rev\n")
	analysed, _ = vet()
	assert.True(t, analysed, "the package's .idemlint.yml changed the tool ID")

	// The limit: a file named only on the command line.
	require.NoError(t, os.Remove(filepath.Join(store, ".idemlint.yml")))
	write("_ddl/flag.sql", "CREATE TABLE users (id bigserial PRIMARY KEY, email text NOT NULL UNIQUE);\n")
	vet("-schema=_ddl/flag.sql")
	write("_ddl/flag.sql", "CREATE TABLE users (id bigserial PRIMARY KEY, email text NOT NULL);\n")
	analysed, _ = vet("-schema=_ddl/flag.sql")
	assert.False(t, analysed, "a -schema= file is not in the tool ID: go vet serves the stale result")
	analysed, _ = vet("-a", "-schema=_ddl/flag.sql")
	assert.True(t, analysed, "-a bypasses go vet's cache")
}

// toolRanIn reports whether go vet -x's trace shows the tool run in dir.
func toolRanIn(trace, tool, dir string) bool {
	cwd := ""
	for _, line := range strings.Split(trace, "\n") {
		if d, ok := strings.CutPrefix(line, "cd "); ok {
			cwd = strings.TrimSpace(d)
			continue
		}
		if cwd == dir && strings.Contains(line, tool+" ") && strings.Contains(line, "vet.cfg") {
			return true
		}
	}
	return false
}
