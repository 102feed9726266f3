package lostupdate_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/idemlint/idemlint/analyzers/internal/testutil"
	"github.com/idemlint/idemlint/analyzers/lostupdate"
)

var fixtures = []string{
	"./lostupdate/ledger",       // database/sql, sqlx and pgx: SELECT then UPDATE with a value computed in Go, by the key read or by the id the SELECT returned
	"./lostupdate/counters",     // GORM: First then Save, Update, UpdateColumn, Updates(map)
	"./lostupdate/gormfix",      // GORM Update of the old value plus or minus a delta, with its fix
	"./lostupdate/bunsvc",       // bun Scan, then NewUpdate of the model, Set and SetColumn
	"./lostupdate/gormgen",      // GORM generics: First, then Update of the same row
	"./lostupdate/entsvc",       // ent: Get or Only, then UpdateOneID or the entity's Update with SetX
	"./lostupdate/bank",         // sqlc: a :one query, then an UPDATE method whose params carry the value
	"./lostupdate/gormkeyed",    // GORM: read into one model, written through a fresh Model(&T{}) pinned by Where to the same key or the read row's id
	"./lostupdate/gormqueries",  // GORM: a Get helper returning the row it read by value, the caller's Model(&query).Update of a counter; gorm.Expr and the caller's values silent
	"./lostupdate/gormv1wallet", // GORM v1 (jinzhu/gorm): First then Save or Update; gorm.Expr and Set("gorm:query_option", "FOR UPDATE") silent
	"./lostupdate/sqwallet",     // squirrel-built SELECT then UPDATE Set of a value computed in Go; sq.Expr and Suffix("FOR UPDATE") silent
	"./lostupdate/walletrepo",   // pgx reached through a wrapper's field, in a package that imports no database library
	"./lostupdate/shop",         // services over package repo (GORM and bun repositories: Get returns a model, Save writes it whole), transactions passed to it
	"./lostupdate/gorpsvc",      // gorp SelectOne or Get into a struct, then Update(&row) of the whole row; Exec; a versioned table silent
	"./lostupdate/xormwallet",   // xorm Get into a bean, then Update or Cols().Update of it; Incr, Decr, ForUpdate in engine.Transaction or after Begin silent
	"./lostupdate/gopgsvc",      // go-pg Select, then Update of the model, Column, Set and Value; a service over package gopgrepo (Get, Save)
	"./lostupdate/sqlxwallet",   // sqlx Get, then NamedExec of the row read (its field changed in Go) or of a map; an atomic SET, FOR UPDATE in the transaction, a caller's value silent
	"./lostupdate/goquwallet",   // goqu ScanStruct or database/sql Scan, then Update Set(goqu.Record) of a value computed in Go; goqu.L and ForUpdate(exp.Wait) silent
	"./lostupdate/callback",     // sqlx, database/sql, pgx, GORM: the row read (SELECT * by sqlx Get), converted, passed to the caller's callback and written back by the id read back; a FOR UPDATE on the pool; the lock in the writing transaction, a copy, other columns silent
}

// TestFix checks the suggested fixes against fix.go.golden.
func TestFix(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, testutil.Fixtures(t), lostupdate.Analyzer, "./lostupdate/gormfix")
}

func Test(t *testing.T) {
	analysistest.Run(t, testutil.Fixtures(t), lostupdate.Analyzer, fixtures...)
}

// TestRelated checks what // want cannot: each finding points at its
// read, earlier in the same file.
func TestRelated(t *testing.T) {
	results := analysistest.Run(t, testutil.Fixtures(t), lostupdate.Analyzer, fixtures...)
	n := 0
	for _, res := range results {
		for _, d := range res.Diagnostics {
			n++
			require.Equal(t, "lostupdate/writeback", d.Category)
			require.Len(t, d.Related, 1, d.Message)
			pos := res.Pass.Fset.Position(d.Pos)
			read := res.Pass.Fset.Position(d.Related[0].Pos)
			assert.Equal(t, pos.Filename, read.Filename)
			assert.Less(t, read.Line, pos.Line, d.Message)
			assert.Contains(t, d.Related[0].Message, "the read: ")
		}
	}
	assert.Equal(t, 79, n)
}
