package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCodeClimate: -codeclimate writes the report GitLab's code quality
// widget reads: a JSON array with one issue per finding (once across the
// test variant), each with the fields GitLab requires and the detail as
// the content's body, the sub-rule as check_name, the headline as the
// description, a path relative to the working directory, the baseline's
// fingerprint, severity major; the same bytes on every run, to a file or
// to stdout, with the text output and its exit status unchanged.
func TestCodeClimate(t *testing.T) {
	dir := outputModule(t)
	report := filepath.Join(t.TempDir(), "gl-code-quality-report.json")
	r := run(t, dir, binary, "-codeclimate="+report, "./...")
	require.Equal(t, 3, r.code, "the text output and its status as without -codeclimate: %s", r.stderr)
	assert.Contains(t, r.stderr, usersRace)
	data, err := os.ReadFile(report)
	require.NoError(t, err)

	again := filepath.Join(t.TempDir(), "again.json")
	require.Equal(t, 3, run(t, dir, binary, "-codeclimate="+again, "./...").code)
	second, err := os.ReadFile(again)
	require.NoError(t, err)
	assert.Equal(t, string(data), string(second), "stable bytes")
	stdout := run(t, dir, binary, "-codeclimate=-", "./...")
	require.Equal(t, 3, stdout.code)
	assert.Equal(t, string(data), stdout.stdout)
	assert.Contains(t, stdout.stderr, usersRace, "the text still goes to stderr")

	var raw []map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(data, &raw), "a JSON array")
	require.Len(t, raw, 2, "once each across the test variant")
	for _, issue := range raw {
		var keys []string
		for k := range issue {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		assert.Equal(t, []string{"check_name", "content", "description", "fingerprint", "location", "severity"}, keys)
	}

	var issues []codeClimateIssue
	require.NoError(t, json.Unmarshal(data, &issues))
	users := issues[1]
	assert.Equal(t, "checkinsert/race", users.CheckName)
	assert.Equal(t, "major", users.Severity)
	assert.Equal(t, "store/users.go", users.Location.Path)
	assert.Equal(t, 20, users.Location.Lines.Begin)
	assert.Equal(t, "two callers can both insert into users: each finds no row by email first", users.Description, "the headline")
	require.NotNil(t, users.Content)
	assert.True(t, strings.HasPrefix(users.Content.Body, "insert into users after the lookup"), "the detail is the content's body: %s", users.Content.Body)
	assert.NotContains(t, users.Description, "(checkinsert/race)", "the rule is check_name, not part of the message")
	assert.Equal(t, "store/accounts.go", issues[0].Location.Path, "sorted by file and position")

	// The fingerprint is the baseline entry's, as SARIF's is.
	base := filepath.Join(t.TempDir(), "b.json")
	require.Equal(t, 0, run(t, dir, binary, "-baseline="+base, "-write-baseline", "./...").code)
	b, err := readBaseline(base)
	require.NoError(t, err)
	fingerprints := map[string]string{}
	for _, e := range b.entries {
		fingerprints[e.Function] = e.fingerprint()
	}
	assert.Equal(t, fingerprints["(*Users).SignUp"], users.Fingerprint)
	assert.Equal(t, fingerprints["OpenAccount"], issues[0].Fingerprint)

	// Paths are relative to the working directory, as in SARIF and the
	// text output.
	sub := run(t, filepath.Join(dir, "store"), binary, "-codeclimate=-", ".")
	require.Equal(t, 3, sub.code, sub.stderr)
	var fromStore []codeClimateIssue
	require.NoError(t, json.Unmarshal([]byte(sub.stdout), &fromStore))
	require.Len(t, fromStore, 2)
	assert.Equal(t, "users.go", fromStore[1].Location.Path)

	// No findings: an empty array, which GitLab reads as a clean report.
	clean := run(t, dir, binary, "-codeclimate=-", "./clean")
	assert.Equal(t, 0, clean.code, clean.stderr)
	assert.Equal(t, "[]\n", clean.stdout)

	// The baseline applies: recorded findings are not in the report.
	filtered := run(t, dir, binary, "-baseline="+base, "-codeclimate=-", "./...")
	assert.Equal(t, 0, filtered.code, filtered.stderr)
	assert.Equal(t, "[]\n", filtered.stdout)
}

// TestCodeClimateFingerprintOccurrences: GitLab keys issues by
// fingerprint, so identical findings of one function (one baseline entry
// each) get distinct fingerprints after the first, and the first keeps
// the baseline's.
func TestCodeClimateFingerprintOccurrences(t *testing.T) {
	seen := map[string]int{}
	first := codeClimateFingerprint("abc", seen)
	second := codeClimateFingerprint("abc", seen)
	third := codeClimateFingerprint("abc", seen)
	other := codeClimateFingerprint("def", seen)
	assert.Equal(t, "abc", first)
	assert.Equal(t, "def", other)
	assert.NotEqual(t, first, second)
	assert.NotEqual(t, second, third)
	assert.Len(t, second, 64)
	assert.Equal(t, second, codeClimateFingerprint("abc", map[string]int{"abc": 1}), "deterministic")
}
