package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDemoBaseline adopts idemlint on the demo service as docs/ci.md says
// to: -write-baseline records its findings and exits 0; -baseline then
// reports nothing and exits 0; a new hazard is the one finding reported,
// with status 3; a finding fixed leaves its entry stale, listed on
// stderr, with status 0. The assertions name rules, files and functions,
// not the messages' words.
func TestDemoBaseline(t *testing.T) {
	src := demoService(t)

	dir := filepath.Join(t.TempDir(), "demo")
	copyDemo(t, src, dir, "example.com/demo")
	base := filepath.Join(t.TempDir(), "idemlint-baseline.json")

	before := run(t, dir, binary, "./...")
	require.Equal(t, 3, before.code, before.stderr)
	demo := textFindings(before.stderr)
	require.NotEmpty(t, demo)

	w := run(t, dir, binary, "-baseline="+base, "-write-baseline", "./...")
	require.Equal(t, 0, w.code, w.stderr)
	assert.Regexp(t, `^idemlint: wrote \d+ findings to `+regexp.QuoteMeta(base)+"\n$", w.stderr)
	b, err := readBaseline(base)
	require.NoError(t, err)
	assert.Len(t, b.entries, len(demo), "one entry per finding the text output prints")

	r := run(t, dir, binary, "-baseline="+base, "./...")
	assert.Equal(t, 0, r.code, r.stderr)
	assert.Empty(t, r.stderr, "every finding is recorded")

	// A new hazard in the store package: the one finding reported.
	plans := filepath.Join(dir, "internal", "store", "plans.go")
	require.NoError(t, os.WriteFile(plans, []byte(`package store

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
	assert.Equal(t, []string{"internal/store/plans.go:14 checkinsert/race"}, textFindings(r.stderr), r.stderr)
	assert.NotContains(t, r.stderr, "match no finding", "nothing is stale yet")

	// RecordView fixed (the increment done in SQL, as the finding says)
	// and the new hazard removed: nothing is reported, and RecordView's
	// entry is listed as stale.
	articles := filepath.Join(dir, "internal", "store", "articles.go")
	code, err := os.ReadFile(articles)
	require.NoError(t, err)
	const writeBack = "\ta.Views++\n\tif err := db.Save(&a).Error; err != nil {"
	require.Contains(t, string(code), writeBack)
	fixed := strings.Replace(string(code), writeBack,
		"\tif err := db.Model(&a).UpdateColumn(\"views\", gorm.Expr(\"views + ?\", 1)).Error; err != nil {", 1)
	require.NoError(t, os.WriteFile(articles, []byte(fixed), 0o644))
	require.NoError(t, os.Remove(plans))
	r = run(t, dir, binary, "-baseline="+base, "./...")
	assert.Equal(t, 0, r.code, "stale entries do not fail the run: %s", r.stderr)
	assert.Empty(t, textFindings(r.stderr), r.stderr)
	stale := regexp.MustCompile(`(?m)^idemlint: baseline .*: 1 entries match no finding any more; rewrite the file with -write-baseline to drop them:\n\tlostupdate/writeback in example.com/demo/internal/store \(\*ArticleStore\)\.RecordView: `)
	assert.Regexp(t, stale, r.stderr)

	// Rewriting the baseline drops the entry: the file shrinks by one.
	w = run(t, dir, binary, "-baseline="+base, "-write-baseline", "./...")
	require.Equal(t, 0, w.code, w.stderr)
	b, err = readBaseline(base)
	require.NoError(t, err)
	assert.Len(t, b.entries, len(demo)-1)
	r = run(t, dir, binary, "-baseline="+base, "./...")
	assert.Equal(t, 0, r.code, r.stderr)
	assert.Empty(t, r.stderr)
}

// findingLine is a finding's first line in the text output, `file:line:col:
// message (rule)`; its related lines have a tab after the position.
var findingLine = regexp.MustCompile(`(?m)^([^\s:]+):(\d+):\d+: ([^\t].*) \(([a-z]+(?:/[a-z-]+)?)\)$`)

// textFindings returns each finding of the text output as "file:line rule".
func textFindings(stderr string) []string {
	var out []string
	for _, m := range findingLine.FindAllStringSubmatch(stderr, -1) {
		out = append(out, m[1]+":"+m[2]+" "+m[4])
	}
	return out
}
