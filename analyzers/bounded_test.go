package analyzers_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/idemlint/idemlint/analyzers"
)

// TestHugeFunction: one generated function thousands of lines long, with
// branches nested hundreds deep, a loop around each block and a
// transaction per block, is analysed by the whole suite within a bound,
// forty two-way branches in a row between each lookup and its insert
// (2^40 paths), with no analysis error, and its one planted hazard per
// block is reported (the answer stays correct, not merely quick).
func TestHugeFunction(t *testing.T) {
	const blocks, depth, fan = 60, 40, 40
	var b strings.Builder
	b.WriteString(`package huge

import (
	"context"
	"database/sql"
	"errors"
)

// Run is generated: every block opens a transaction, nests branches,
// looks a key up and inserts it when absent.
func Run(ctx context.Context, db *sql.DB, keys []string, n int) error {
`)
	for i := range blocks {
		fmt.Fprintf(&b, "\tfor _, k%d := range keys {\n", i)
		fmt.Fprintf(&b, "\t\ttx%d, err := db.BeginTx(ctx, nil)\n\t\tif err != nil {\n\t\t\treturn err\n\t\t}\n", i)
		for d := range depth {
			fmt.Fprintf(&b, "%sif n > %d {\n", strings.Repeat("\t", 2+d), d)
		}
		ind := strings.Repeat("\t", 2+depth)
		fmt.Fprintf(&b, "%svar id int64\n", ind)
		fmt.Fprintf(&b, "%serr := tx%d.QueryRowContext(ctx, `SELECT id FROM t%d WHERE k = $1`, k%d).Scan(&id)\n", ind, i, i, i)
		// Sequential branches between the lookup and the insert: 2^fan
		// paths, which nothing may enumerate one by one.
		for f := range fan {
			fmt.Fprintf(&b, "%sif n&%d != 0 {\n%s\tid++\n%s} else {\n%s\tid--\n%s}\n", ind, 1<<(f%60), ind, ind, ind, ind)
		}
		fmt.Fprintf(&b, "%sif errors.Is(err, sql.ErrNoRows) {\n", ind)
		fmt.Fprintf(&b, "%s\t_, err = tx%d.ExecContext(ctx, `INSERT INTO t%d (k) VALUES ($1)`, k%d)\n", ind, i, i, i)
		fmt.Fprintf(&b, "%s}\n%sif err != nil {\n%s\t_ = tx%d.Rollback()\n%s\treturn err\n%s}\n", ind, ind, ind, i, ind, ind)
		for d := depth - 1; d >= 0; d-- {
			fmt.Fprintf(&b, "%s}\n", strings.Repeat("\t", 2+d))
		}
		fmt.Fprintf(&b, "\t\tif err := tx%d.Commit(); err != nil {\n\t\t\treturn err\n\t\t}\n\t}\n", i)
	}
	b.WriteString("\treturn nil\n}\n")
	src := b.String()
	require.Greater(t, strings.Count(src, "\n"), 5000)

	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/huge\n\ngo 1.26\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "huge.go"), []byte(src), 0o644))
	pkgs, err := packages.Load(&packages.Config{Mode: packages.LoadAllSyntax, Dir: dir}, "./...")
	require.NoError(t, err)
	require.Zero(t, packages.PrintErrors(pkgs))

	start := time.Now()
	graph, err := checker.Analyze(analyzers.All(), pkgs, nil)
	require.NoError(t, err)
	elapsed := time.Since(start)
	races := 0
	for act := range graph.All() {
		require.NoError(t, act.Err, "%s", act)
		if act.IsRoot {
			for _, d := range act.Diagnostics {
				if d.Category == "checkinsert/race" {
					races++
				}
			}
		}
	}
	assert.Equal(t, blocks, races, "one check-then-insert per block")
	assert.Less(t, elapsed, 60*time.Second, "the analysis of a %d-line function", strings.Count(src, "\n"))
	t.Logf("%d lines, %d blocks nested %d deep, %d branches in a row: %v", strings.Count(src, "\n"), blocks, depth, fan, elapsed)
}
