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
	"./lostupdate/redisv8",      // go-redis v8: GET Int, then SET of one less; Decr silent
	"./lostupdate/redisquota",   // go-redis: GET (Int64, Result, Bytes and JSON), a value computed in Go, SET of the same key (through a key helper, Sprintf, a concatenation); DecrBy, HIncrBy, Watch with TxPipelined, a caller's value, another key silent
	"./lostupdate/mongowallet",  // MongoDB: FindOne(...).Decode(&w), then UpdateOne $set of the value computed in Go, or ReplaceOne of the copy; $inc, a filter on the value read, a field from the request silent
	"./lostupdate/xormwallet",   // xorm Get into a bean, then Update or Cols().Update of it, and an Update of the whole bean while other methods change its counters; Incr, Decr, ForUpdate in engine.Transaction or after Begin, Cols of the changed column silent
	"./lostupdate/gopgsvc",      // go-pg Select, then Update of the model, Column, Set and Value; a service over package gopgrepo (Get, Save)
	"./lostupdate/sqlxwallet",   // sqlx Get, then NamedExec of the row read (its field changed in Go) or of a map; an atomic SET, FOR UPDATE in the transaction, a caller's value silent
	"./lostupdate/goquwallet",   // goqu ScanStruct or database/sql Scan, then Update Set(goqu.Record) of a value computed in Go; goqu.L and ForUpdate(exp.Wait) silent
	"./lostupdate/gormstock",    // GORM Where(...).Updates(T{F: v}) of a struct literal (by value, by pointer under Model(&T{})) and a raw UPDATE, the stock computed in Go, under a floor (stock_num >= ?) both writers pass; an atomic gorm.Expr, a compare-and-set on the stock read, a typed count, a constant status silent
	"./lostupdate/jsondoc",      // a JSON document column decoded, changed in place (a key, a field, a helper), encoded and written back: database/sql, pgx, GORM, xorm; rows read by = ANY into a map by id, written back per id (pgx v4); FOR UPDATE, jsonb_set, a version predicate, an unchanged round trip, a replaced document silent
	"./lostupdate/wholerow",     // GORM: an issue read by a repository's GetByID, fields of a PATCH set, written whole by its Update (Save) while SetArchived and Transition change single columns; Updates(map), Select, a row built, a table no other function writes, FOR UPDATE in the transaction, a versioned model silent
	"./lostupdate/callback",     // sqlx, database/sql, pgx, GORM: the row read (SELECT * by sqlx Get), converted, passed to the caller's callback and written back by the id read back; a FOR UPDATE on the pool; the lock in the writing transaction, a copy, other columns silent

	// database/sql: a store's own Get (Query scanned into the entity in a
	// rows.Next loop), a count changed in Go, its Update of the entity;
	// the use cases over it are analyzers_test's TestWiring's.
	"./lostupdate/library/repository",
}

// TestFix checks the suggested fixes against fix.go.golden.
func TestFix(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, testutil.Fixtures(t), testutil.Whole(lostupdate.Analyzer), "./lostupdate/gormfix")
}

func Test(t *testing.T) {
	analysistest.Run(t, testutil.Fixtures(t), testutil.Whole(lostupdate.Analyzer), fixtures...)
}

// TestEnt010 runs the analyzer over a client generated by ent v0.10.1
// (testdata/fixtures-ent010, a module of its own: the fixtures module
// pins a current ent): Get or Only, then UpdateOneID or UpdateOne with SetX, inline and through a store writing the model it is given; AddX, ForUpdate, a caller's model silent.
func TestEnt010(t *testing.T) {
	analysistest.Run(t, testutil.Module(t, "fixtures-ent010"), testutil.Whole(lostupdate.Analyzer), "./lostupdate")
}

// TestRelated checks what // want cannot: each finding points at its
// read, earlier in the same file.
func TestRelated(t *testing.T) {
	results := analysistest.Run(t, testutil.Fixtures(t), testutil.Whole(lostupdate.Analyzer), fixtures...)
	n := 0
	for _, res := range results {
		for _, d := range res.Diagnostics {
			d.Related = testutil.Evidence(t, d)
			n++
			require.Equal(t, "lostupdate/writeback", d.Category)
			// The read first; a whole-row finding adds the other
			// writers it names.
			require.NotEmpty(t, d.Related, d.Message)
			pos := res.Pass.Fset.Position(d.Pos)
			read := res.Pass.Fset.Position(d.Related[0].Pos)
			assert.Equal(t, pos.Filename, read.Filename)
			assert.Less(t, read.Line, pos.Line, d.Message)
			assert.Contains(t, d.Related[0].Message, "the read: ")
		}
	}
	assert.Equal(t, 107, n)
}
