package config

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDisable: each path form matches what the go command's pattern of
// the same form would, relative to the file's directory; an entry naming
// an analyzer turns off its sub-rules, one naming a sub-rule only that.
func TestDisable(t *testing.T) {
	dir := module(t, map[string]string{
		"go.mod": "module example.com/m\n",
		".idemlint.yml": `version-column: rev
disable:
  - path: internal/legacy/...   # the directory and below
    analyzers: [lostupdate, retrypost/nokey]
  - path: ./internal/billing    # that directory only
    analyzers: checkinsert
  - path: cmd/seed/main.go      # one file
    analyzers: [noversion]
`,
		"internal/legacy/a.go":          "package legacy\n",
		"internal/legacy/orders/a.go":   "package orders\n",
		"internal/billing/a.go":         "package billing\n",
		"internal/billing/invoice/a.go": "package invoice\n",
		"internal/legacyx/a.go":         "package legacyx\n",
		"cmd/seed/main.go":              "package main\n",
		"cmd/seed/other.go":             "package main\n",
	})
	require.NoError(t, Validate(dir))
	for _, tc := range []struct {
		file, name string
		want       bool
	}{
		{"internal/legacy/a.go", "lostupdate", true},
		{"internal/legacy/a.go", "lostupdate/writeback", true},
		{"internal/legacy/orders/a.go", "lostupdate/writeback", true},
		{"internal/legacy/orders/a.go", "retrypost/nokey", true},
		{"internal/legacy/orders/a.go", "retrypost/bypass", false},
		{"internal/legacy/orders/a.go", "retrypost", false}, // a directive naming all of retrypost may still match another rule
		{"internal/legacy/orders/a.go", "checkinsert/race", false},
		{"internal/legacyx/a.go", "lostupdate", false}, // a prefix of the name is not the directory
		{"internal/billing/a.go", "checkinsert/race", true},
		{"internal/billing/invoice/a.go", "checkinsert/race", false},
		{"cmd/seed/main.go", "noversion/predicate", true},
		{"cmd/seed/other.go", "noversion/predicate", false},
	} {
		file := filepath.Join(dir, tc.file)
		c, err := For(filepath.Dir(file))
		require.NoError(t, err)
		assert.Equal(t, "rev", c.VersionColumn, "the other settings stand")
		assert.Equal(t, tc.want, c.Disables(file, tc.name), "%s %s", tc.file, tc.name)
	}
}

// TestDisableBelowAFile: the nearest file governs, and its paths are
// relative to its own directory; "..." is all it governs.
func TestDisableNearestFile(t *testing.T) {
	dir := module(t, map[string]string{
		"go.mod":                    "module example.com/m\n",
		".idemlint.yml":             "disable: [{path: svc/..., analyzers: [checkinsert]}]\n",
		"svc/tools/.idemlint.yml":   "disable:\n  - path: ...\n    analyzers: [lostupdate]\n",
		"svc/a.go":                  "package svc\n",
		"svc/tools/gen/a.go":        "package gen\n",
		"svc/tools/gen/sub/deep.go": "package sub\n",
	})
	file := filepath.Join(dir, "svc/tools/gen/sub/deep.go")
	c, err := For(filepath.Dir(file))
	require.NoError(t, err)
	assert.True(t, c.Disables(file, "lostupdate/writeback"))
	assert.False(t, c.Disables(file, "checkinsert/race"), "the nearer file replaces the outer one, disable included")
	file = filepath.Join(dir, "svc/a.go")
	c, err = For(filepath.Dir(file))
	require.NoError(t, err)
	assert.True(t, c.Disables(file, "checkinsert/race"))
}

func TestDisableErrors(t *testing.T) {
	for _, tc := range []struct{ yml, want string }{
		{"disable: lostupdate\n", ".idemlint.yml:1: disable: want a list of entries like {path: internal/legacy/..., analyzers: [lostupdate]}, got a string"},
		{"disable: [lostupdate]\n", ".idemlint.yml:1: disable: entry 1: want a list of entries like {path: internal/legacy/..., analyzers: [lostupdate]}, got a string"},
		{"disable:\n  - path: internal\n    analyzers: [lostupdates]\n", ".idemlint.yml:2: disable: entry 1: analyzers: lostupdates is not an idemlint analyzer (did you mean lostupdate?)"},
		{"disable:\n  - path: internal\n    analyzers: [retrypost/]\n", `.idemlint.yml:2: disable: entry 1: analyzers: "retrypost/" is not a sub-rule`},
		{"disable:\n  - path: internal\n    analyzers: []\n", ".idemlint.yml:2: disable: entry 1 names no analyzers"},
		{"disable:\n  - analyzers: [lostupdate]\n", ".idemlint.yml:2: disable: entry 1 has no path (use ... for the whole tree)"},
		{"disable:\n  - path: internal\n    linters: [lostupdate]\n", ".idemlint.yml:3: disable: entry 1: unknown key linters (an entry has path and analyzers)"},
		{"disable:\n  - path: /srv/app/internal\n    analyzers: [lostupdate]\n", `.idemlint.yml:2: disable: entry 1: path "/srv/app/internal": absolute`},
		{"disable:\n  - path: ../other\n    analyzers: [lostupdate]\n", `.idemlint.yml:2: disable: entry 1: path "../other": leaves the directory of the configuration file`},
		{"disable:\n  - path: internal/*/legacy\n    analyzers: [lostupdate]\n", `.idemlint.yml:2: disable: entry 1: path "internal/*/legacy": only a trailing /... is a pattern`},
		{"disable:\n  - path: internal/leg...\n    analyzers: [lostupdate]\n", `.idemlint.yml:2: disable: entry 1: path "internal/leg...": only a trailing /... is a pattern`},
		{"disable:\n  - path: [internal]\n    analyzers: [lostupdate]\n", ".idemlint.yml:2: disable: entry 1: path: want a path like internal/legacy/..., got a list"},
		{"disable:\n  - path: internal\n    analyzers: [3]\n", ".idemlint.yml:3: disable: entry 1: analyzers: item 1 is a number, want an analyzer name"},
		{"disabled: []\n", ".idemlint.yml:1: unknown setting disabled (known: schema, schema-discover, version-column, version-field, idempotency-headers, network-funcs, retry-funcs, idempotent-funcs, enable, disable)"},
	} {
		dir := module(t, map[string]string{"go.mod": "module example.com/m\n", ".idemlint.yml": tc.yml, "internal/a.go": "package internal\n"})
		_, err := For(dir)
		require.Error(t, err, tc.yml)
		assert.Contains(t, err.Error(), filepath.Join(dir, tc.want), tc.yml)
	}
}

// TestDisableMissingPath: a path that names nothing is an error when the
// configuration is validated, as a missing schema file is.
func TestDisableMissingPath(t *testing.T) {
	dir := module(t, map[string]string{
		"go.mod":               "module example.com/m\n",
		".idemlint.yml":        "disable:\n  - path: internal/legacy/...\n    analyzers: [lostupdate]\n  - path: internal/lgacy/...\n    analyzers: [lostupdate]\n",
		"internal/legacy/a.go": "package legacy\n",
	})
	_, err := For(dir)
	require.NoError(t, err, "For reads the file; Validate checks what it names")
	err = ValidateTree(dir)
	require.Error(t, err)
	assert.Equal(t, filepath.Join(dir, ".idemlint.yml")+`:4: disable: entry 2: path "internal/lgacy/...": `+filepath.Join(dir, "internal/lgacy")+`: no such file or directory (paths are relative to the directory of .idemlint.yml)`, err.Error())

	require.NoError(t, os.WriteFile(filepath.Join(dir, ".idemlint.yml"), []byte("disable:\n  - path: internal/legacy/a.go/...\n    analyzers: [lostupdate]\n"), 0o644))
	err = Validate(dir)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "not a directory, so /... matches nothing")
}

// TestDisableIsTheFilesOnly: the drivers' settings have no disable (the
// plugin's own disable takes analyzer names; flags have -NAME=false).
func TestDisableIsTheFilesOnly(t *testing.T) {
	assert.NotContains(t, Names(), "disable")
	var s Settings
	err := s.Set("disable", []any{})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "unknown setting disable")
}

// TestOptInRules: an opt-in rule is off unless enable names it, in every
// file; the other rules are on.
func TestOptInRules(t *testing.T) {
	off := &Config{}
	assert.True(t, off.Disables("/src/a.go", "retrypost/unknown-effect"))
	assert.False(t, off.Disables("/src/a.go", "retrypost/nokey"))
	on := &Config{Enable: []string{"retrypost/unknown-effect"}}
	assert.False(t, on.Disables("/src/a.go", "retrypost/unknown-effect"))
}
