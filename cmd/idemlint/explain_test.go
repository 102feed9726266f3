package main

import (
	"bytes"
	"flag"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/packages"

	"github.com/idemlint/idemlint/analyzers"
)

var update = flag.Bool("update", false, "rewrite testdata/explain.golden")

// An explainCase is a synthetic finding of one category, as the analyzers
// report them: the headline, the detail first at the finding's own
// position, then the evidence in the category's order.
type explainCase struct {
	category string
	line     int // of the finding, in svc/orders.go
	evidence []explainEvidence
}

type explainEvidence struct {
	file    string // "" for svc/orders.go
	line    int
	message string
}

// explainCases has a finding of every category that has a timeline; the
// lostupdate/writeback twice, with and without another writer.
var explainCases = []explainCase{
	{"checkinsert/race", 20, []explainEvidence{{"", 18, "the lookup of users by email in store.(*UserStore).ByEmail"}}},
	{"checkinsert/effect-before-claim", 32, []explainEvidence{{"", 28, "the lookup of payouts by order in Payouts.Find"}, {"", 35, "the insert: the INSERT into payouts"}}},
	{"checkinsert/firstorcreate", 40, nil},
	{"lostupdate/writeback", 47, []explainEvidence{{"", 45, "the read: gorm.(*DB).First"}}},
	{"lostupdate/writeback", 55, []explainEvidence{{"", 50, "the read: gorm.(*DB).First"}, {"svc/status.go", 12, "another writer of status: (*Orders).Cancel (UPDATE orders SET status)"}}},
	{"lockacrosscall/call", 64, []explainEvidence{{"", 61, "the lock: SELECT ... FOR UPDATE on orders in store.(*OrderStore).LockOrder"}}},
	{"noversion/predicate", 70, nil},
	{"noversion/unchecked", 75, nil},
	{"noversion/bypass", 80, nil},
	{"retrypost/nokey", 90, []explainEvidence{{"", 86, "the retry: the loop around it"}}},
	{"retrypost/freshkey", 100, []explainEvidence{{"", 96, "the retry: the loop around it"}}},
	{"retrypost/unknown-effect", 110, []explainEvidence{{"", 106, "the retry: retry.Do"}}},
}

// syntheticFindings makes the findings of explainCases in files under wd
// (which the driver prints relative to the working directory), and one
// directive finding, which has no timeline.
func syntheticFindings(t *testing.T, wd string) []*finding {
	t.Helper()
	fset := token.NewFileSet()
	files := map[string]*token.File{}
	lineStart := func(name string, line int) token.Pos {
		if name == "" {
			name = "svc/orders.go"
		}
		f := files[name]
		if f == nil {
			content := []byte(strings.Repeat("\tx := 1\n", 120))
			f = fset.AddFile(filepath.Join(wd, filepath.FromSlash(name)), -1, len(content))
			f.SetLinesForContent(content)
			files[name] = f
		}
		return f.LineStart(line) + 1
	}
	pkg := &packages.Package{ID: "example.com/svc", Fset: fset}
	var out []*finding
	add := func(category string, d analysis.Diagnostic) {
		name, _, _ := strings.Cut(category, "/")
		a := analyzers.Lookup(name)
		require.NotNil(t, a, category)
		out = append(out, &finding{analyzer: a, pkg: pkg, diag: d, posn: fset.Position(d.Pos)})
	}
	for _, c := range explainCases {
		pos := lineStart("", c.line)
		d := analysis.Diagnostic{Pos: pos, End: pos + 6, Category: c.category, Message: "headline of " + c.category}
		d.Related = append(d.Related, analysis.RelatedInformation{Pos: d.Pos, End: d.End, Message: "the detail of " + c.category + ": evidence, consequence, fix"})
		for _, e := range c.evidence {
			d.Related = append(d.Related, analysis.RelatedInformation{Pos: lineStart(e.file, e.line), Message: e.message})
		}
		add(c.category, d)
	}
	pos := lineStart("", 115)
	add("ignoredirective/malformed", analysis.Diagnostic{Pos: pos, Category: "ignoredirective/malformed", Message: "this directive names no analyzer"})
	return out
}

// TestExplainGolden: -explain draws under each finding, after its related
// lines, the timeline of its category, with file:line positions relative
// to the working directory; a finding without a timeline is printed as
// without -explain.
func TestExplainGolden(t *testing.T) {
	wd, err := os.Getwd()
	require.NoError(t, err)
	findings := syntheticFindings(t, wd)
	var got bytes.Buffer
	printText(&got, findings, -1, true)
	golden := filepath.Join("testdata", "explain.golden")
	if *update {
		require.NoError(t, os.WriteFile(golden, got.Bytes(), 0o644))
	}
	want, err := os.ReadFile(golden)
	require.NoError(t, err)
	assert.Equal(t, string(want), got.String())

	// Without -explain nothing but the findings and their related lines.
	var plain bytes.Buffer
	printText(&plain, findings, -1, false)
	assert.NotContains(t, plain.String(), "outcome:")
	for _, line := range strings.SplitAfter(strings.TrimSuffix(plain.String(), "\n"), "\n") {
		assert.Contains(t, got.String(), line)
	}
}

// TestEveryRuleHasATimeline: every sub-rule an analyzer of the registry
// documents is in explainCases and has a timeline, so that a new one
// fails here until it gets its template. ignoredirective diagnoses
// directives and races nothing. An analyzer that lists no sub-rules
// (lockacrosscall) must have its one category in explainCases.
func TestEveryRuleHasATimeline(t *testing.T) {
	covered := map[string]bool{}
	for _, c := range explainCases {
		covered[c.category] = true
		assert.True(t, analyzers.HasTimeline(c.category), c.category)
	}
	for _, a := range analyzers.All() {
		if a.Name == analyzers.AlwaysOn {
			continue
		}
		for _, r := range documentedRules(a) {
			if r.ID != a.Name {
				assert.True(t, covered[r.ID], "%s has no timeline (report/timeline.go) or no case in explainCases", r.ID)
				continue
			}
			found := false
			for c := range covered {
				found = found || strings.HasPrefix(c, a.Name+"/")
			}
			assert.True(t, found, "no category of %s in explainCases", a.Name)
		}
	}
}

// TestExplainMarkdown: a SARIF result's message.markdown is the headline,
// the detail and the timeline as a Markdown table, escaped so that a
// method's (*T) does not start emphasis; a finding without a timeline
// has its headline alone.
func TestExplainMarkdown(t *testing.T) {
	wd, err := os.Getwd()
	require.NoError(t, err)
	findings := syntheticFindings(t, wd)
	race := findings[0]
	race.diag.Related[0].Message = "the detail: store.(*UserStore).ByEmail found no_row | nothing"
	want := "headline of checkinsert/race\n\n" +
		"the detail: store.(\\*UserStore).ByEmail found no\\_row \\| nothing\n\n" +
		"*how two concurrent requests interleave:*\n\n" +
		"| where | request A | request B |\n|---|---|---|\n" +
		"| `svc/orders.go:18` | look up the key → no row |  |\n" +
		"| `svc/orders.go:18` |  | look up the key → no row: A has not inserted yet |\n" +
		"| `svc/orders.go:20` | insert the row → inserted |  |\n" +
		"| `svc/orders.go:20` |  | insert the row → a second row, or a unique violation |\n\n" +
		"**Outcome:** two rows for one key, or B gets a unique violation instead of the row A inserted"
	assert.Equal(t, want, findingMarkdown(wd, race))

	// A step the finding names no position for.
	predicate := findings[6]
	require.Equal(t, "noversion/predicate", predicate.diag.Category)
	assert.Contains(t, findingMarkdown(wd, predicate), "\n| - | read the row → version 3 |  |\n")

	directive := findings[len(findings)-1]
	assert.Equal(t, "this directive names no analyzer", findingMarkdown(wd, directive))
}

var (
	explainFindingLine = regexp.MustCompile(`^(\S+):(\d+):\d+: .* \(([a-z]+/[a-z-]+)\)$`)
	relatedLine        = regexp.MustCompile(`^(\S+):(\d+):\d+: \t`)
	stepLine           = regexp.MustCompile(`^\t(\S+:\d+|-)   `)
)

// A printedFinding is a finding of the text output with what follows it.
type printedFinding struct {
	category string
	at       map[string]bool // file:line of the finding and its related lines
	steps    []string        // file:line of each timeline step
	title    bool            // a timeline's title line follows it
	outcome  bool
}

// parseExplained splits -explain's text output into its findings.
func parseExplained(t *testing.T, out string) []*printedFinding {
	t.Helper()
	var found []*printedFinding
	var cur *printedFinding
	for _, line := range strings.Split(out, "\n") {
		if m := explainFindingLine.FindStringSubmatch(line); m != nil && !strings.Contains(line, ": \t") {
			cur = &printedFinding{category: m[3], at: map[string]bool{m[1] + ":" + m[2]: true}}
			found = append(found, cur)
			continue
		}
		if cur == nil {
			continue
		}
		switch m := relatedLine.FindStringSubmatch(line); {
		case m != nil:
			cur.at[m[1]+":"+m[2]] = true
		case stepLine.MatchString(line):
			cur.steps = append(cur.steps, stepLine.FindStringSubmatch(line)[1])
		case strings.HasPrefix(line, "\thow ") && strings.HasSuffix(line, ":"):
			cur.title = true
		case strings.HasPrefix(line, "\toutcome: "):
			cur.outcome = true
		}
	}
	return found
}

// checkExplained: every finding of a category with a timeline has one,
// each step at the finding's position, one of its related lines', or
// none the finding names.
func checkExplained(t *testing.T, found []*printedFinding) {
	t.Helper()
	for _, f := range found {
		if !analyzers.HasTimeline(f.category) {
			continue
		}
		assert.True(t, f.title && f.outcome && len(f.steps) >= 3, "%s has a timeline: %+v", f.category, f)
		for _, s := range f.steps {
			assert.True(t, s == "-" || f.at[s], "%s: step at %s, not a position of the finding %v", f.category, s, f.at)
		}
	}
}

// TestExplainOutput: -explain on a module keeps the exit status and the
// findings, and draws a timeline under each.
func TestExplainOutput(t *testing.T) {
	dir := outputModule(t)
	plain := run(t, dir, binary, "./...")
	r := run(t, dir, binary, "-explain", "./...")
	require.Equal(t, 3, r.code, r.stderr)
	found := parseExplained(t, r.stderr)
	require.Len(t, found, 2, r.stderr)
	checkExplained(t, found)
	assert.Equal(t, []string{"store/accounts.go:12", "store/accounts.go:12", "store/accounts.go:14", "store/accounts.go:14"}, found[0].steps)
	for _, line := range strings.SplitAfter(strings.TrimSuffix(plain.stderr, "\n"), "\n") {
		assert.Contains(t, r.stderr, line, "the findings as without -explain")
	}
	assert.Empty(t, r.stdout)

	clean := run(t, dir, binary, "-explain", "./clean")
	assert.Equal(t, 0, clean.code, clean.stderr)
	assert.Empty(t, clean.stderr)
}

// TestExplainDemo: -explain on the demo service draws a timeline under
// every finding findings.txt expects of the analyzers the registry has.
func TestExplainDemo(t *testing.T) {
	dir := demoService(t)

	want := 0
	for _, e := range readFindings(t, filepath.Join(dir, "findings.txt")) {
		name, _, _ := strings.Cut(e.category, "/")
		if e.want && analyzers.Lookup(name) != nil {
			want++
		}
	}
	r := run(t, dir, binary, "-explain", "./...")
	require.Equal(t, 3, r.code, r.stderr)
	found := parseExplained(t, r.stderr)
	assert.Len(t, found, want, "the findings findings.txt expects: %s", r.stderr)
	checkExplained(t, found)
	categories := map[string]bool{}
	for _, f := range found {
		categories[f.category] = true
		assert.True(t, analyzers.HasTimeline(f.category), "every finding of the demo has a timeline: %s", f.category)
	}
	assert.GreaterOrEqual(t, len(categories), 5, "the demo covers most categories: %v", categories)
}
