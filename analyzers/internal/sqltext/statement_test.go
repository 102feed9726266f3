package sqltext

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSelectList(t *testing.T) {
	st := Parse(`SELECT id, email AS e, count(*), u.*, *, balance + 1 total, "Name" FROM users u`)
	require.Equal(t, KindSelect, st.Kind)
	var names []string
	var kinds []ExprKind
	for _, rc := range st.SelectList {
		names = append(names, rc.Name)
		kinds = append(kinds, rc.Expr.Kind)
	}
	assert.Equal(t, []string{"id", "e", "", "*", "*", "total", "Name"}, names)
	assert.Equal(t, []ExprKind{ExprColumn, ExprColumn, ExprComputed, ExprStar, ExprStar, ExprComputed, ExprColumn}, kinds)
	assert.Equal(t, "balance + 1", st.SelectList[5].Expr.Text)
}

func TestReturning(t *testing.T) {
	st := Parse("UPDATE counters SET n = n + 1 WHERE k = $1 RETURNING n, n * 2 AS doubled, k")
	require.Len(t, st.Returning, 3)
	assert.Equal(t, "n", st.Returning[0].Name)
	assert.Equal(t, "doubled", st.Returning[1].Name)
	assert.Equal(t, ExprComputed, st.Returning[1].Expr.Kind)
	assert.Equal(t, "k", st.Returning[2].Name)
}

func TestColumnValues(t *testing.T) {
	st := Parse("INSERT INTO users (email, name, created_at) VALUES ($2, $1, now()), ($4, $3, now())")
	emails := st.ColumnValues("email")
	require.Len(t, emails, 2)
	ph, ok := emails[0].Placeholder()
	require.True(t, ok)
	assert.Equal(t, Placeholder{Style: PlaceholderDollar, Position: 2}, ph)
	ph, ok = emails[1].Placeholder()
	require.True(t, ok)
	assert.Equal(t, 4, ph.Position)
	assert.Equal(t, ExprComputed, st.ColumnValues("CREATED_AT")[0].Kind, "unquoted names fold to lower case")
	assert.Nil(t, st.ColumnValues("missing"))

	// A quoted name keeps its case (Prisma- and sqlc-style schemas):
	// asked for as the insert's own column names give it.
	quoted := Parse(`INSERT INTO "Workflow" ("id", "tenantId", "name") VALUES ($1::uuid, $2::uuid, $3::text)`)
	ph, ok = quoted.ColumnValues("tenantId")[0].Placeholder()
	require.True(t, ok)
	assert.Equal(t, 2, ph.Position)

	mysql := Parse("INSERT INTO t SET a = ?, b = ?")
	ph, ok = mysql.ColumnValues("b")[0].Placeholder()
	require.True(t, ok)
	assert.Equal(t, 2, ph.Position)

	misaligned := Parse("INSERT INTO t (a, b) VALUES (?)")
	assert.Nil(t, misaligned.ColumnValues("a"))
	assert.Nil(t, Parse("INSERT INTO t VALUES (?)").ColumnValues("a"), "no column list")
}

func TestConditionEquality(t *testing.T) {
	w := Parse(`UPDATE "users" SET "balance"=$1 WHERE "users"."version" = $2 AND "id" = $3 AND (x = 1 OR y = 2)`).Where
	cmp, ok := w.Equality("VERSION")
	require.True(t, ok)
	assert.Equal(t, ColumnRef{Table: "users", Name: "version"}, cmp.Column)
	assert.Equal(t, OperandPlaceholder, cmp.Operand.Kind)
	assert.Equal(t, "$2", cmp.Operand.Text)
	_, ok = w.Equality("x")
	assert.False(t, ok, "a comparison under OR is not a conjunct")
	_, ok = Parse("SELECT 1 FROM t WHERE version > $1").Where.Equality("version")
	assert.False(t, ok, "> does not pin a value")
	var none *Condition
	_, ok = none.Equality("id")
	assert.False(t, ok, "no WHERE")
}

func TestConditionDisjuncts(t *testing.T) {
	terms := func(sql string) map[string]int {
		out := map[string]int{}
		for _, c := range Parse(sql).Where.Comparisons {
			out[c.Column.Name] = c.Disjunct
		}
		return out
	}
	assert.Equal(t, map[string]int{"username": 1, "email": 2}, terms("SELECT id FROM users WHERE username = $1 OR email = $2"))
	assert.Equal(t, map[string]int{"deleted_at": 0, "username": 1, "org_id": 2, "email": 2},
		terms("SELECT id FROM users WHERE deleted_at IS NULL AND (username = $1 OR (org_id = $2 AND email = $3))"), "one OR among the top's AND-ed terms; a term's ANDs share its index")
	assert.Equal(t, map[string]int{"a": 1, "b": 2, "c": 3}, terms("SELECT 1 FROM t WHERE a = $1 OR b = $2 OR c = $3"))
	assert.Equal(t, map[string]int{"a": 0, "b": 0, "c": 0, "d": 0}, terms("SELECT 1 FROM t WHERE (a = $1 OR b = $2) AND (c = $3 OR d = $4)"), "two ORs: no term is a key alone")
	assert.Equal(t, map[string]int{"a": 1, "b": 0, "c": 0}, terms("SELECT 1 FROM t WHERE a = $1 OR NOT (b = $2 OR c = $3)"), "under NOT")
	assert.Equal(t, map[string]int{"a": 0, "b": 0}, terms("SELECT 1 FROM t WHERE a = $1 AND b = $2"))
	for _, c := range Parse("SELECT 1 FROM t WHERE a = $1 OR b = $2").Where.Comparisons {
		assert.False(t, c.Conjunct, "an OR-ed term is not a conjunct")
	}
}

func TestOperands(t *testing.T) {
	w := Parse("SELECT * FROM a JOIN b ON a.id = b.a_id WHERE b.x = a.y AND a.z IN ('p', 'q') AND a.w BETWEEN $1 AND 10 AND a.v IS NOT NULL").Where
	require.Len(t, w.Comparisons, 4)
	assert.Equal(t, OperandColumn, w.Comparisons[0].Operand.Kind)
	assert.Equal(t, ColumnRef{Table: "a", Name: "y"}, w.Comparisons[0].Operand.Column)
	assert.Equal(t, OperandLiteral, w.Comparisons[1].Operand.Kind)
	assert.Equal(t, "('p', 'q')", w.Comparisons[1].Operand.Text)
	assert.Equal(t, OperandExpr, w.Comparisons[2].Operand.Kind, "a placeholder and a constant")
	assert.Equal(t, []Placeholder{{Style: PlaceholderDollar, Position: 1}}, w.Comparisons[2].Operand.Placeholders)
	assert.Equal(t, OperandNull, w.Comparisons[3].Operand.Kind)
	assert.Equal(t, "is not", w.Comparisons[3].Op)
	assert.Equal(t, []Placeholder{{Style: PlaceholderDollar, Position: 1}}, w.Placeholders)
}

func TestTargetColumn(t *testing.T) {
	st := Parse("UPDATE accounts a SET balance = $1 FROM transfers t WHERE t.account_id = a.id")
	assert.True(t, st.TargetColumn(ColumnRef{Table: "a", Name: "id"}))
	assert.True(t, st.TargetColumn(ColumnRef{Table: "accounts", Name: "id"}))
	assert.False(t, st.TargetColumn(ColumnRef{Table: "t", Name: "account_id"}))
	assert.False(t, st.TargetColumn(ColumnRef{Name: "id"}), "unqualified with two tables is ambiguous")
	assert.True(t, Parse("SELECT * FROM users WHERE id = $1").TargetColumn(ColumnRef{Name: "id"}))
	assert.False(t, Parse("SELECT 1").TargetColumn(ColumnRef{Name: "id"}))
}

func TestWritesAndUpdatesOnConflict(t *testing.T) {
	assert.True(t, Parse("WITH d AS (DELETE FROM q WHERE id = $1 RETURNING *) SELECT * FROM d").Writes())
	assert.False(t, Parse("SELECT * FROM q FOR UPDATE").Writes())
	assert.True(t, Parse("INSERT INTO t (a) VALUES (1) ON CONFLICT DO NOTHING").Writes())
	assert.False(t, Parse("garbage").Writes())

	assert.True(t, Parse("INSERT INTO t (a) VALUES (1) ON CONFLICT (a) DO UPDATE SET a = 2").UpdatesOnConflict())
	assert.True(t, Parse("REPLACE INTO t (a) VALUES (1)").UpdatesOnConflict())
	assert.False(t, Parse("INSERT INTO t (a) VALUES (1) ON CONFLICT DO NOTHING").UpdatesOnConflict())
	assert.False(t, Parse("INSERT IGNORE INTO t (a) VALUES (1)").UpdatesOnConflict())
	assert.False(t, Parse("INSERT INTO t (a) VALUES (1)").UpdatesOnConflict())
}

func TestNestedStatements(t *testing.T) {
	st := Parse(`WITH claimed AS (
		SELECT id FROM jobs WHERE queue = $1 ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED
	)
	UPDATE jobs SET owner = $2 WHERE id IN (SELECT id FROM claimed) AND pg_try_advisory_xact_lock(id) RETURNING id`)
	require.Equal(t, KindUpdate, st.Kind)
	require.Len(t, st.With, 1)
	cte := st.With[0].Statement
	assert.Equal(t, "claimed", st.With[0].Name)
	assert.Equal(t, KindSelect, cte.Kind)
	assert.Equal(t, "jobs", cte.Table.Name)
	assert.Equal(t, []Placeholder{{Style: PlaceholderDollar, Position: 1}}, cte.Placeholders)
	assert.Equal(t, []RowLock{{Strength: LockForUpdate, Wait: LockSkipLocked}}, st.RowLocks, "the CTE's lock is the statement's")
	require.Len(t, st.Subqueries, 1)
	assert.Equal(t, "claimed", st.Subqueries[0].Table.Name)
	require.Len(t, st.AdvisoryLocks, 1)
	assert.Equal(t, ExprColumn, st.AdvisoryLocks[0].Args[0].Kind)
	assert.Len(t, st.Placeholders, 2)
}

func TestAdvisoryLockFields(t *testing.T) {
	st := Parse("SELECT pg_try_advisory_xact_lock_shared($1, $2)")
	require.Len(t, st.AdvisoryLocks, 1)
	l := st.AdvisoryLocks[0]
	assert.Equal(t, "pg_try_advisory_xact_lock_shared", l.Func)
	assert.True(t, l.Try)
	assert.True(t, l.Shared)
	assert.True(t, l.TransactionScoped)
	assert.False(t, l.Release)
	require.Len(t, l.Args, 2)
	assert.Equal(t, "$2", l.Args[1].Text)

	assert.Empty(t, Parse("SELECT myschema.pg_advisory_lock(1)").AdvisoryLocks, "not the pg_catalog function")
	assert.Len(t, Parse("SELECT PG_ADVISORY_LOCK(1)").AdvisoryLocks, 1)
}

func TestParseAll(t *testing.T) {
	sts := ParseAll("BEGIN; SELECT balance FROM accounts WHERE id = ? FOR UPDATE; UPDATE accounts SET balance = ? WHERE id = ?;; COMMIT;")
	require.Len(t, sts, 4)
	var got []string
	for _, st := range sts {
		got = append(got, describe(st))
	}
	assert.Equal(t, []string{
		"other | tx=begin",
		"select accounts | where=[id = ?1] | lock=[for update]",
		"update accounts | set=[balance=?2] | where=[id = ?3]",
		"other | tx=commit",
	}, got)
	assert.Empty(t, ParseAll("  ;; -- nothing"))
	assert.Len(t, ParseAll("SELECT 1"), 1)
}

func TestSqlcHeader(t *testing.T) {
	cases := []struct {
		sql  string
		want *SqlcHeader
	}{
		{"-- name: GetUser :one\nSELECT 1", &SqlcHeader{Name: "GetUser", Command: ":one"}},
		{"-- name: ListUsers :many\n-- a description\nSELECT 1", &SqlcHeader{Name: "ListUsers", Command: ":many"}},
		{"/* name: CreateUsers :copyfrom */ INSERT INTO t (a) VALUES ($1)", &SqlcHeader{Name: "CreateUsers", Command: ":copyfrom"}},
		{"-- name: Insert :batchexec\nINSERT INTO t (a) VALUES ($1)", &SqlcHeader{Name: "Insert", Command: ":batchexec"}},
		{"-- description\n-- name: X :execrows\nDELETE FROM t", &SqlcHeader{Name: "X", Command: ":execrows"}},
		{"SELECT 1 -- name: Late :one", nil},
		{"-- name: NoCommand\nSELECT 1", nil},
		{"-- a comment\nSELECT 1", nil},
	}
	for _, tc := range cases {
		assert.Equal(t, tc.want, Parse(tc.sql).Sqlc, "SQL: %q", tc.sql)
	}
}

func TestStringers(t *testing.T) {
	assert.Equal(t, "upsert", KindUpsert.String())
	assert.Equal(t, "Kind(42)", Kind(42).String())
	assert.Equal(t, "excluded", ExprExcluded.String())
	assert.Equal(t, "subquery", OperandSubquery.String())
	assert.Equal(t, "nothing", ActionNothing.String())
	assert.Equal(t, "for no key update", LockForNoKeyUpdate.String())
	assert.Equal(t, "LockStrength(0)", LockStrength(0).String())
	assert.Equal(t, "rollback to savepoint", TxRollbackToSavepoint.String())
	assert.Equal(t, "on duplicate key update", ConflictOnDuplicateKey.String())
	assert.Equal(t, "skip locked", LockSkipLocked.String())
	assert.Equal(t, "public.users", TableRef{Schema: "public", Name: "users"}.String())
	assert.Equal(t, "u.id", ColumnRef{Table: "u", Name: "id"}.String())
	assert.True(t, LockForUpdate.Exclusive())
	assert.False(t, LockForShare.Exclusive())
	for _, ph := range []Placeholder{
		{Style: PlaceholderDollar, Position: 3}, {Style: PlaceholderQuestion, Position: 1},
		{Style: PlaceholderColon, Name: "a"}, {Style: PlaceholderAt, Name: "a"},
		{Style: PlaceholderDollarName, Name: "a"}, {Style: PlaceholderQuestionName, Name: "a"},
		{Style: PlaceholderSqlcArg, Name: "a"},
	} {
		assert.NotEmpty(t, ph.String())
	}
}

func TestUnknownReasonsAreBounded(t *testing.T) {
	sql := "UPDATE t SET "
	for i := 0; i < 100; i++ {
		sql += "a" + string(rune('a'+i%26)) + " b" + string(rune('a'+i/26)) + ", "
	}
	st := Parse(sql)
	assert.LessOrEqual(t, len(st.Unknown), maxUnknownReasons+1)
	assert.False(t, st.Understood())
}

func TestNameFolding(t *testing.T) {
	st := Parse(`SELECT * FROM Users WHERE "Email" = $1 AND ÄGE = $2 AND interval = $3`)
	assert.Equal(t, "users", st.Table.Name)
	require.Len(t, st.Where.Comparisons, 3)
	assert.Equal(t, "Email", st.Where.Comparisons[0].Column.Name, "quoted names keep their case")
	assert.Equal(t, "Äge", st.Where.Comparisons[1].Column.Name, "only ASCII letters fold, as in PostgreSQL")
	assert.Equal(t, "interval", st.Where.Comparisons[2].Column.Name)
	_, ok := st.Where.Equality(`"Email"`)
	assert.True(t, ok)
	_, ok = st.Where.Equality("Email")
	assert.False(t, ok, "an unquoted name folds to email")
}
