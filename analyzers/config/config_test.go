package config

import (
	"flag"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// module writes files (path -> content) under a new directory and returns
// it.
func module(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		path := filepath.Join(dir, name)
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
		require.NoError(t, os.WriteFile(path, []byte(content), 0o644))
	}
	return dir
}

func withDriver(t *testing.T, s Settings) {
	t.Helper()
	require.NoError(t, SetDriver(s))
	t.Cleanup(func() { require.NoError(t, SetDriver(Settings{})) })
}

func TestDefaults(t *testing.T) {
	c, err := For("")
	require.NoError(t, err)
	assert.Equal(t, "version", c.VersionColumn)
	assert.Equal(t, "Version", c.VersionField)
	assert.Equal(t, []string{"Idempotency-Key", "X-Idempotency-Key"}, c.IdempotencyHeaders)
	assert.Empty(t, c.Schema)
	assert.Empty(t, c.Inputs())
}

func TestFile(t *testing.T) {
	dir := module(t, map[string]string{
		"go.mod": "module example.com/m\n",
		".idemlint.yml": `version-column: rev
version-field: Rev
schema: [db/schema.sql]
idempotency-headers: [x-request-key]
network-funcs: ["(*example.com/m/notify.Client).Send", example.com/m/sms.Send]
retry-funcs: [example.com/m/retry.Do]
`,
		"db/schema.sql": "CREATE TABLE t (id int primary key);\n",
		"svc/a.go":      "package svc\n",
	})
	c, err := For(filepath.Join(dir, "svc"))
	require.NoError(t, err)
	assert.Equal(t, dir, c.ModuleRoot)
	assert.Equal(t, filepath.Join(dir, ".idemlint.yml"), c.File)
	assert.Equal(t, "rev", c.VersionColumn)
	assert.Equal(t, "Rev", c.VersionField)
	assert.Equal(t, []string{filepath.Join(dir, "db/schema.sql")}, c.Schema, "schema files resolve against the module root")
	assert.Equal(t, []string{"Idempotency-Key", "X-Idempotency-Key", "X-Request-Key"}, c.IdempotencyHeaders)
	assert.Equal(t, []string{"(*example.com/m/notify.Client).Send", "example.com/m/sms.Send"}, c.NetworkFuncs)
	assert.Equal(t, []string{"example.com/m/retry.Do"}, c.RetryFuncs)
	assert.Equal(t, []string{c.File, filepath.Join(dir, "db/schema.sql")}, BuildInputs(filepath.Join(dir, "svc")))
	require.NoError(t, Validate(filepath.Join(dir, "svc")))
}

func TestNearestFileWinsAndModuleRootBounds(t *testing.T) {
	outer := module(t, map[string]string{
		".idemlint.yml":       "version-column: outside\n",
		"m/go.mod":            "module example.com/m\n",
		"m/.idemlint.yml":     "version-column: root\n",
		"m/svc/.idemlint.yml": "version-column: svc\n",
		"m/other/a.go":        "package other\n",
		"m/svc/a.go":          "package svc\n",
		"nomod/pkg/a.go":      "package pkg\n",
		"m/nested/go.mod":     "module example.com/nested\n",
		"m/nested/pkg/a.go":   "package pkg\n",
	})
	for dir, want := range map[string]string{
		"m/svc":        "svc",
		"m/other":      "root",
		"m/nested/pkg": "version", // the nested module's root has no file; the outer module's is not consulted
		"nomod/pkg":    "version", // outside any module, no file applies
	} {
		c, err := For(filepath.Join(outer, dir))
		require.NoError(t, err, dir)
		assert.Equal(t, want, c.VersionColumn, dir)
	}
}

func TestPrecedence(t *testing.T) {
	dir := module(t, map[string]string{
		"go.mod":        "module example.com/m\n",
		".idemlint.yml": "version-column: rev\nversion-field: Rev\nretry-funcs: [example.com/m.Retry]\n",
	})
	withDriver(t, Settings{VersionColumn: "lock_version", RetryFuncs: []string{"example.com/m.Again"}})
	c, err := For(dir)
	require.NoError(t, err)
	assert.Equal(t, "lock_version", c.VersionColumn, "the driver wins over the file")
	assert.Equal(t, "Rev", c.VersionField, "the file wins over the default")
	assert.Equal(t, []string{"example.com/m.Again"}, c.RetryFuncs, "lists replace, they do not merge")
}

func TestFileErrorsNameTheSetting(t *testing.T) {
	for _, tc := range []struct{ yml, want string }{
		{"version-colum: rev\n", "unknown setting version-colum"},
		{"version-column: 1rev\n", `version-column: "1rev" is not a SQL column name`},
		{"version-field: rev-x\n", `version-field: "rev-x" is not a Go field name`},
		{"idempotency-headers: [\"Idem Key\"]\n", `idempotency-headers: "Idem Key" is not an HTTP header name`},
		{"network-funcs: [Send]\n", `network-funcs: "Send" is not a function name`},
		{"retry-funcs: [\"(example.com/m.T.Do\"]\n", `retry-funcs: "(example.com/m.T.Do" is not a function name`},
		{"schema: [\"\"]\n", "schema: empty file name"},
		// Type errors name the setting and the line, never a Go type.
		{"version-column: [rev, v]\n", ".idemlint.yml:1: version-column: want a string, got a list"},
		{"# settings\nschema: {a: b}\n", ".idemlint.yml:2: schema: want a list of strings, got a mapping"},
		{"network-funcs: [example.com/m.Send, 3]\n", "network-funcs: want a list of strings, but item 2 is a number"},
		{"version-column: rev\nversion-colum: rev\n", ".idemlint.yml:2: unknown setting version-colum (known: schema, schema-discover, version-column"},
		{"schema-discover: no\n", ".idemlint.yml:1: schema-discover: want true or false, got a string"},
		{"schema-discover: [false]\n", ".idemlint.yml:1: schema-discover: want true or false, got a list"},
		{"version-column: a\nversion-column: b\n", ".idemlint.yml:2: version-column: set twice (first on line 1)"},
		{"- schema\n", ".idemlint.yml:1: want a mapping of settings"},
		{"version-column: [\n", ".idemlint.yml:"},
	} {
		dir := module(t, map[string]string{"go.mod": "module example.com/m\n", ".idemlint.yml": tc.yml})
		_, err := For(dir)
		require.Error(t, err, tc.yml)
		assert.Contains(t, err.Error(), filepath.Join(dir, ".idemlint.yml"), "the error names the file")
		assert.Contains(t, err.Error(), tc.want)
	}
}

func TestMissingSchemaFileNamed(t *testing.T) {
	dir := module(t, map[string]string{"go.mod": "module example.com/m\n", ".idemlint.yml": "schema: [db/missing.sql]\n"})
	err := Validate(dir)
	require.Error(t, err)
	assert.Equal(t, filepath.Join(dir, ".idemlint.yml")+":1: schema: "+filepath.Join(dir, "db/missing.sql")+": no such file or directory (schema files are named relative to the module root)", err.Error())

	// Named by the driver, the error names the flag.
	withDriver(t, Settings{Schema: []string{"db/other.sql"}})
	err = Validate(dir)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "flag -schema: "+filepath.Join(dir, "db/other.sql")+": no such file")
}

// TestValidateTree: a bad configuration file below the directory is found
// before any package is analysed; one in a nested module or under
// testdata is not ./...'s.
func TestValidateTree(t *testing.T) {
	dir := module(t, map[string]string{
		"go.mod":                   "module example.com/m\n",
		"svc/a.go":                 "package svc\n",
		"testdata/x/.idemlint.yml": "bad: 1\n",
		"nested/go.mod":            "module example.com/n\n",
		"nested/.idemlint.yml":     "bad: 1\n",
		"svc/deep/.idemlint.yml":   "version-column: rev\n",
	})
	require.NoError(t, ValidateTree(dir))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "svc", ".idemlint.yml"), []byte("schema: [db/missing.sql]\n"), 0o644))
	err := ValidateTree(dir)
	require.Error(t, err)
	assert.Contains(t, err.Error(), filepath.Join(dir, "svc", ".idemlint.yml")+":1: schema: ")
}

func TestFileChangeIsSeen(t *testing.T) {
	dir := module(t, map[string]string{"go.mod": "module example.com/m\n", ".idemlint.yml": "version-column: a\n"})
	c, err := For(dir)
	require.NoError(t, err)
	require.Equal(t, "a", c.VersionColumn)
	require.NoError(t, os.WriteFile(filepath.Join(dir, ".idemlint.yml"), []byte("version-column: bb\n"), 0o644))
	c, err = For(dir)
	require.NoError(t, err)
	assert.Equal(t, "bb", c.VersionColumn)
}

func TestFlags(t *testing.T) {
	t.Cleanup(func() { require.NoError(t, SetDriver(Settings{})) })
	fs := flag.NewFlagSet("idemlint", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	RegisterFlags(fs)
	require.NoError(t, fs.Parse([]string{
		"-version-column=rev", "-schema=a.sql,b.sql", "-schema", "c.sql",
		"-network-funcs=(*example.com/m.Client).Send", "-idempotency-headers=X-Key",
	}))
	c, err := For("")
	require.NoError(t, err)
	assert.Equal(t, "rev", c.VersionColumn)
	assert.Equal(t, []string{"a.sql", "b.sql", "c.sql"}, c.Schema, "list flags take commas and repeat")
	assert.Equal(t, []string{"(*example.com/m.Client).Send"}, c.NetworkFuncs)
	assert.Contains(t, c.IdempotencyHeaders, "X-Key")

	for _, tc := range []struct{ arg, want string }{
		{"-version-column=1x", `invalid value "1x" for flag -version-column: "1x" is not a SQL column name`},
		{"-retry-funcs=Do", `invalid value "Do" for flag -retry-funcs`},
	} {
		fs := flag.NewFlagSet("idemlint", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		RegisterFlags(fs)
		err := fs.Parse([]string{tc.arg})
		require.Error(t, err, tc.arg)
		assert.Contains(t, err.Error(), tc.want)
	}
}

// TestSchemaDiscover: on by default, off from the file, the driver over
// the file, and the flag boolean (bare, =false, a bad value).
func TestSchemaDiscover(t *testing.T) {
	c, err := For("")
	require.NoError(t, err)
	assert.True(t, c.SchemaDiscover, "on by default")
	dir := module(t, map[string]string{"go.mod": "module example.com/m\n", ".idemlint.yml": "schema-discover: false\n"})
	c, err = For(dir)
	require.NoError(t, err)
	assert.False(t, c.SchemaDiscover)
	on := true
	withDriver(t, Settings{SchemaDiscover: &on})
	c, err = For(dir)
	require.NoError(t, err)
	assert.True(t, c.SchemaDiscover, "the driver wins over the file")

	for _, tc := range []struct {
		args []string
		want bool
	}{
		{[]string{"-schema-discover=false"}, false},
		{[]string{"-schema-discover"}, true},
	} {
		fs := flag.NewFlagSet("idemlint", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		RegisterFlags(fs)
		require.NoError(t, fs.Parse(tc.args))
		c, err := For("")
		require.NoError(t, err)
		assert.Equal(t, tc.want, c.SchemaDiscover, "%v", tc.args)
	}
	fs := flag.NewFlagSet("idemlint", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	RegisterFlags(fs)
	err = fs.Parse([]string{"-schema-discover=maybe"})
	require.Error(t, err)
	assert.Contains(t, err.Error(), `invalid boolean value "maybe" for -schema-discover: "maybe" is not true or false`)
	assert.True(t, IsBool("schema-discover"))
	assert.False(t, IsBool("schema"))

	var s Settings
	require.NoError(t, s.Set("schema-discover", false), "the plugin's decoded JSON boolean")
	require.NotNil(t, s.SchemaDiscover)
	assert.False(t, *s.SchemaDiscover)
	err = s.Set("schema-discover", "false")
	require.Error(t, err)
	assert.Equal(t, "schema-discover: want true or false, got a string", err.Error())
}

func TestSetDriverValidates(t *testing.T) {
	err := SetDriver(Settings{VersionField: "not a field"})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "version-field")
}
