package main

import (
	"encoding/json"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestBaselineRoundTrip: -write-baseline records today's findings (once
// each, sorted, no line numbers); -baseline then reports nothing, keeps
// matching after lines move, reports a new finding, and lists on stderr
// the entries that match nothing any more.
func TestBaselineRoundTrip(t *testing.T) {
	dir := copyModule(t, outputModule(t))
	base := filepath.Join(dir, "idemlint-baseline.json")

	w := run(t, dir, binary, "-baseline="+base, "-write-baseline", "./...")
	require.Equal(t, 0, w.code, w.stderr)
	assert.Equal(t, "idemlint: wrote 2 findings to "+base+"\n", w.stderr)
	data, err := os.ReadFile(base)
	require.NoError(t, err)
	var file baselineFile
	require.NoError(t, json.Unmarshal(data, &file))
	assert.Equal(t, "idemlint", file.Tool)
	assert.Equal(t, 1, file.Version)
	require.Len(t, file.Findings, 2, "the test variant's copies count once")
	assert.Equal(t, baselineEntry{"checkinsert", "checkinsert/race", "example.com/output/store", "(*Users).SignUp",
		file.Findings[0].Message}, file.Findings[0], "sorted by package, then function")
	assert.Equal(t, "OpenAccount", file.Findings[1].Function)
	assert.NotContains(t, string(data), ":20:", "no line numbers")
	rewritten := run(t, dir, binary, "-baseline="+base, "-write-baseline", "./...")
	require.Equal(t, 0, rewritten.code)
	again, err := os.ReadFile(base)
	require.NoError(t, err)
	assert.Equal(t, string(data), string(again), "stable")

	r := run(t, dir, binary, "-baseline="+base, "./...")
	assert.Equal(t, 0, r.code, r.stderr)
	assert.Empty(t, r.stderr)

	// Lines added above the findings: the entries still match.
	users := filepath.Join(dir, "store", "users.go")
	src, err := os.ReadFile(users)
	require.NoError(t, err)
	moved := strings.Replace(string(src), "// Users stores", "// ErrClosed is returned after Close.\nvar ErrClosed = errors.New(\"closed\")\n\n// Users stores", 1)
	require.NoError(t, os.WriteFile(users, []byte(moved), 0o644))
	r = run(t, dir, binary, "-baseline="+base, "./...")
	assert.Equal(t, 0, r.code, r.stderr)
	assert.Empty(t, r.stderr)

	// A new finding is reported; the baseline's are not.
	require.NoError(t, os.WriteFile(filepath.Join(dir, "store", "plans.go"), []byte(`package store

import (
	"context"
	"database/sql"
	"errors"
)

// AddPlan adds the plan named name unless it exists.
func AddPlan(ctx context.Context, db *sql.DB, name string) error {
	var id int64
	err := db.QueryRowContext(ctx, `+"`SELECT id FROM plans WHERE name = $1`"+`, name).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		_, err = db.ExecContext(ctx, `+"`INSERT INTO plans (name) VALUES ($1)`"+`, name)
	}
	return err
}
`), 0o644))
	r = run(t, dir, binary, "-baseline="+base, "./...")
	assert.Equal(t, 3, r.code, r.stderr)
	assert.True(t, strings.HasPrefix(r.stderr, "store/plans.go:14:26: two callers can both insert into plans"), r.stderr)
	assert.Equal(t, 3, strings.Count(r.stderr, "\n"), "the new finding, its detail and its evidence: %s", r.stderr)

	// SignUp fixed: its entry is stale, listed, and the status stays that
	// of the findings.
	fixed := strings.Replace(moved, "`SELECT id FROM users WHERE email = $1`", "`SELECT id FROM users WHERE email = $1 FOR UPDATE`", 1)
	fixed = strings.Replace(fixed, "VALUES ($1)`, email)\n\t}", "VALUES ($1) ON CONFLICT (email) DO NOTHING`, email)\n\t}", 1)
	require.NoError(t, os.WriteFile(users, []byte(fixed), 0o644))
	require.NoError(t, os.Remove(filepath.Join(dir, "store", "plans.go")))
	r = run(t, dir, binary, "-baseline="+base, "./...")
	assert.Equal(t, 0, r.code, r.stderr)
	assert.True(t, strings.HasPrefix(r.stderr, "idemlint: baseline "+base+": 1 entries match no finding any more; rewrite the file with -write-baseline to drop them:\n\tcheckinsert/race in example.com/output/store (*Users).SignUp: two callers can both insert into users"), r.stderr)

	// Entries of packages this run did not analyse are not stale.
	r = run(t, dir, binary, "-baseline="+base, "./clean")
	assert.Equal(t, 0, r.code, r.stderr)
	assert.Empty(t, r.stderr)

	// The baseline applies to -json and -sarif too.
	js := run(t, dir, binary, "-baseline="+base, "-json", "-fail-on-findings", "./store")
	assert.Equal(t, 0, js.code, js.stderr)
	assert.Equal(t, "{}\n", js.stdout)
}

// TestBaselineMalformed: a baseline file that cannot be used is one error
// naming the file, status 2, before anything is analysed.
func TestBaselineMalformed(t *testing.T) {
	dir := outputModule(t)
	tmp := t.TempDir()
	cases := []struct{ content, want string }{
		{"{\n  \"tool\": \"idemlint\",\n  \"version\": 1,\n  \"findings\": [\n", "not an idemlint baseline: unexpected EOF"},
		{"{\"tool\": \"idemlint\", \"version\": 1,\n \"findings\": [{\"analyzer\": 3}]}", "not an idemlint baseline: line 2: json: cannot unmarshal number"},
		{`{"tool": "idemlint", "version": 1, "findings": [], "extra": true}`, `unknown field "extra"`},
		{`{"tool": "idemlint", "version": 2, "findings": []}`, "version 2, but this idemlint reads version 1"},
		{`{"tool": "staticcheck", "version": 1, "findings": []}`, `not an idemlint baseline (tool "staticcheck")`},
		{`{"tool": "idemlint", "version": 1, "findings": [{"analyzer": "checkinsert"}]}`, "finding 1 lacks its analyzer, package or message"},
		{"[]", "not an idemlint baseline"},
	}
	for i, c := range cases {
		name := filepath.Join(tmp, "b"+string(rune('0'+i))+".json")
		require.NoError(t, os.WriteFile(name, []byte(c.content), 0o644))
		r := run(t, dir, binary, "-baseline="+name, "./...")
		assert.Equal(t, 2, r.code, "%s: %s", c.content, r.stderr)
		assert.True(t, strings.HasPrefix(r.stderr, "idemlint: baseline "+name+": "), r.stderr)
		assert.Contains(t, r.stderr, c.want)
		assert.Equal(t, 1, strings.Count(r.stderr, "\n"), "one line: %s", r.stderr)
	}
	missing := filepath.Join(tmp, "missing.json")
	r := run(t, dir, binary, "-baseline="+missing, "./...")
	assert.Equal(t, 2, r.code, r.stderr)
	assert.Equal(t, "idemlint: baseline "+missing+": no such file (write it with -baseline="+missing+" -write-baseline)\n", r.stderr)
}

// TestSARIF: -sarif writes a SARIF 2.1.0 log that the published schema
// validates (checked by testdata/sarifcheck, a module of its own with a
// JSON Schema validator), with a rule per sub-rule, the findings once
// each, relative URIs against %SRCROOT%, related locations, the
// timeline in the message's markdown and the baseline fingerprint.
func TestSARIF(t *testing.T) {
	dir := outputModule(t)
	logFile := filepath.Join(t.TempDir(), "idemlint.sarif")
	r := run(t, dir, binary, "-sarif="+logFile, "./...")
	require.Equal(t, 3, r.code, "the text output and its status as without -sarif: %s", r.stderr)
	assert.Contains(t, r.stderr, usersRace)
	stdout := run(t, dir, binary, "-sarif=-", "./...")
	require.Equal(t, 3, stdout.code)
	data, err := os.ReadFile(logFile)
	require.NoError(t, err)
	assert.Equal(t, string(data), stdout.stdout)

	var log struct {
		Version string
		Runs    []struct {
			Tool struct {
				Driver struct {
					Name  string
					Rules []struct {
						ID               string
						HelpURI          string
						ShortDescription struct{ Text string }
						FullDescription  struct{ Text string }
					}
				}
			}
			OriginalURIBaseIDs map[string]struct{ URI string } `json:"originalUriBaseIds"`
			Results            []struct {
				RuleID    string
				RuleIndex int
				Message   struct{ Text, Markdown string }
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct {
							URI       string
							URIBaseID string `json:"uriBaseId"`
						}
						Region struct{ StartLine, StartColumn int }
					}
				}
				RelatedLocations []struct {
					Message struct{ Text string }
				}
				PartialFingerprints map[string]string
			}
		}
	}
	require.NoError(t, json.Unmarshal(data, &log))
	assert.Equal(t, "2.1.0", log.Version)
	require.Len(t, log.Runs, 1)
	run0 := log.Runs[0]
	assert.Equal(t, "idemlint", run0.Tool.Driver.Name)
	ids := map[string]int{}
	for i, rule := range run0.Tool.Driver.Rules {
		ids[rule.ID] = i
	}
	for _, id := range []string{"checkinsert/race", "checkinsert/firstorcreate", "checkinsert/effect-before-claim", "noversion/predicate", "retrypost/nokey", "lostupdate/writeback"} {
		assert.Contains(t, ids, id)
	}
	race := run0.Tool.Driver.Rules[ids["checkinsert/race"]]
	assert.Equal(t, "https://pkg.go.dev/github.com/idemlint/idemlint/analyzers/checkinsert", race.HelpURI)
	assert.Equal(t, "an insert on the path where a lookup of the same table and key found nothing", race.ShortDescription.Text)
	assert.True(t, strings.HasPrefix(race.FullDescription.Text, race.ShortDescription.Text+". It is reported at the insert"), race.FullDescription.Text)

	assert.Equal(t, fileURI(dir)+"/", run0.OriginalURIBaseIDs["%SRCROOT%"].URI)
	require.Len(t, run0.Results, 2, "once each across the test variant")
	res := run0.Results[1]
	assert.Equal(t, "checkinsert/race", res.RuleID)
	assert.Equal(t, ids["checkinsert/race"], res.RuleIndex)
	loc := res.Locations[0].PhysicalLocation
	assert.Equal(t, "store/users.go", loc.ArtifactLocation.URI)
	assert.Equal(t, "%SRCROOT%", loc.ArtifactLocation.URIBaseID)
	assert.Equal(t, 20, loc.Region.StartLine)
	assert.Equal(t, 28, loc.Region.StartColumn)
	// The text is the headline and the detail; the related locations
	// are the evidence only.
	assert.True(t, strings.HasPrefix(res.Message.Text, "two callers can both insert into users: each finds no row by email first\n\ninsert into users after the lookup"), res.Message.Text)
	require.Len(t, res.RelatedLocations, 1)
	assert.Equal(t, "the lookup of users by email", res.RelatedLocations[0].Message.Text)
	// The markdown adds the detail and the timeline to the headline.
	assert.True(t, strings.HasPrefix(res.Message.Markdown, markdownEscape(res.Message.Text)), res.Message.Markdown)
	assert.Contains(t, res.Message.Markdown, "| where | request A | request B |\n|---|---|---|\n| `store/users.go:18` | look up the key → no row |  |\n")
	assert.Contains(t, res.Message.Markdown, "\n\n**Outcome:** two rows for one key")

	// The fingerprint is the baseline entry's.
	base := filepath.Join(t.TempDir(), "b.json")
	require.Equal(t, 0, run(t, dir, binary, "-baseline="+base, "-write-baseline", "./...").code)
	b, err := readBaseline(base)
	require.NoError(t, err)
	var signUp baselineEntry
	for _, e := range b.entries {
		if e.Function == "(*Users).SignUp" {
			signUp = e
		}
	}
	assert.Equal(t, signUp.fingerprint(), res.PartialFingerprints["idemlintFingerprint/v1"])

	// An empty run is a valid log too.
	empty := filepath.Join(t.TempDir(), "empty.sarif")
	require.Equal(t, 0, run(t, dir, binary, "-sarif="+empty, "./clean").code)

	validateSARIF(t, logFile, empty)

	// The validator is real: a log without its tool's driver fails.
	bad := filepath.Join(t.TempDir(), "bad.sarif")
	require.NoError(t, os.WriteFile(bad, []byte(`{"version": "2.1.0", "runs": [{"tool": {}, "results": []}]}`), 0o644))
	out, err := sarifcheck(bad)
	assert.Error(t, err)
	assert.Contains(t, out, "missing property 'driver'")
}

// validateSARIF validates the files against the SARIF 2.1.0 schema in
// testdata/sarifcheck, with the validator that module requires.
func validateSARIF(t *testing.T, files ...string) {
	t.Helper()
	out, err := sarifcheck(files...)
	assert.NoError(t, err, "%s", out)
}

func sarifcheck(files ...string) (string, error) {
	cmd := exec.Command("go", append([]string{"run", "."}, files...)...)
	cmd.Dir = "testdata/sarifcheck"
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// TestSARIFColumns: SARIF counts columns in UTF-16 code units (its default
// columnKind), Go in bytes: a column after non-ASCII text moves left, one
// after a character outside the Basic Multilingual Plane counts it twice.
func TestSARIFColumns(t *testing.T) {
	file := filepath.Join(t.TempDir(), "a.go")
	require.NoError(t, os.WriteFile(file, []byte("x := \"héllo\" + f()\n\ty := \"😀\" + g()\n"), 0o644))
	cols := utf16Columns{}
	col := func(line, byteCol int) int {
		return cols.column(token.Position{Filename: file, Line: line, Column: byteCol})
	}
	assert.Equal(t, 1, col(1, 1))
	assert.Equal(t, 5, col(1, 5), "ASCII: the same")
	assert.Equal(t, 16, col(1, 17), "f after é (two bytes, one unit)")
	assert.Equal(t, 14, col(2, 16), "g after 😀 (four bytes, two units)")
	assert.Equal(t, 29, col(1, 30), "past the line's end: as far past it")
	assert.Equal(t, 7, cols.column(token.Position{Filename: file + ".missing", Line: 1, Column: 7}), "an unreadable file keeps Go's column")
}
