package sqltext

import (
	"strings"
	"testing"
)

// fuzzSeeds are inputs aimed at the lexer's and parser's edges, added to
// the realistic statements and fragments as seeds.
var fuzzSeeds = []string{
	"", ";", "(", ")", "((", "))", "$", "$$", "$a$", "$a", "$1$", "?", "??", "?|", ":", "::", "@", "@@", "#", "/*", "*/", "--",
	"'", `"`, "`", `E'\`, `'\'`, `'a\'b'`, "U&'", "x'", "/*! */", "/*/", "-- name: X :one",
	"SELECT (", "SELECT ((((((((((1))))))))))", "SELECT * FROM t WHERE a IN", "UPDATE t SET (a, b) = ",
	"INSERT INTO t (a", "INSERT INTO t (a) VALUES (1", "INSERT INTO t (a) VALUES (1) ON CONFLICT (", "WITH x AS (",
	"SELECT CASE WHEN", "SELECT CAST(1 AS", "SELECT ARRAY[", "SELECT EXTRACT(", "SELECT INTERVAL",
	"SELECT a::", "SELECT a[1", "SELECT f(a AS", "LOCK TABLE", "SET TRANSACTION ISOLATION LEVEL",
	"SELECT * FROM t FOR UPDATE OF", "SELECT sqlc.arg(", "SELECT sqlc.arg(a", "SELECT 1 UNION", "DELETE FROM t USING",
	"SELECT\x00\xff\xfe", "SELECT 'a' 'b' \"c\"", "UPDATE t SET a = a + + + 1", "SELECT NOT NOT NOT a",
	"SELECT * FROM t WHERE a BETWEEN 1", "SELECT * FROM t WHERE a IS", "SELECT * FROM t WHERE a IS DISTINCT",
	"SELECT 1 FROM (SELECT 1) AS", "SELECT * FROM a JOIN", "SELECT * FROM a JOIN b ON", "ROLLBACK TO",
	"INSERT INTO t VALUES (1) AS new (", "INSERT OR", "UPDATE OR", "SELECT ?TableAlias.", "SELECT 1 FROM t WHERE (a, b) = (1)",
	// Found by fuzzing.
	`UPDATE""SET""WHERE""`,
}

func FuzzParse(f *testing.F) {
	for _, tc := range realisticStatements {
		f.Add(tc.sql)
	}
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, sql string) {
		checkStatement(t, sql, Parse(sql), 0)
		for _, st := range ParseAll(sql) {
			checkStatement(t, sql, st, 0)
		}
	})
}

func FuzzParseFragment(f *testing.F) {
	for _, tc := range conditionCases {
		f.Add(tc.fragment)
	}
	for _, tc := range exprCases {
		f.Add(tc.fragment)
	}
	for _, tc := range setListCases {
		f.Add(tc.fragment)
	}
	for _, tc := range conflictCases {
		f.Add(tc.fragment)
	}
	for _, tc := range rowLockCases {
		f.Add(tc.fragment)
	}
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c := ParseCondition(s)
		if c == nil {
			t.Fatal("ParseCondition returned nil")
		}
		checkCondition(t, s, c)
		e := ParseExpr(s)
		if e == nil {
			t.Fatal("ParseExpr returned nil")
		}
		checkExpr(t, s, *e)
		list := ParseSetList(s)
		if list == nil {
			t.Fatal("ParseSetList returned nil")
		}
		for _, a := range list.Assignments {
			checkExpr(t, s, a.Value)
			if a.Value.Kind == ExprUnknown && !list.Unknown {
				t.Errorf("unknown assignment value in a known set list %q", s)
			}
		}
		if ParseConflict(s) == nil {
			t.Fatal("ParseConflict returned nil")
		}
		ParseRowLock(s)
	})
}

// checkStatement asserts the invariants every summary keeps, whatever the
// input: a kind is unknown only with a reason, parts flagged unknown make
// the statement not understood, texts are taken from the input, and
// placeholders are well-formed.
func checkStatement(t *testing.T, sql string, st *Statement, depth int) {
	t.Helper()
	if st == nil {
		t.Fatal("nil statement")
	}
	if st.Kind == KindUnknown && len(st.Unknown) == 0 {
		t.Errorf("unknown kind without a reason for %q", sql)
	}
	if st.Kind == KindUpsert && st.Conflict == nil {
		t.Errorf("upsert without a conflict clause for %q", sql)
	}
	hidden := false
	for _, a := range st.Set {
		checkExpr(t, sql, a.Value)
		hidden = hidden || a.Value.Kind == ExprUnknown
	}
	for _, row := range st.InsertRows {
		for _, v := range row {
			checkExpr(t, sql, v)
			hidden = hidden || v.Kind == ExprUnknown
		}
	}
	if st.Where != nil {
		checkCondition(t, sql, st.Where)
		hidden = hidden || st.Where.Unknown
	}
	if c := st.Conflict; c != nil {
		hidden = hidden || c.Unknown
		for _, a := range c.Set {
			checkExpr(t, sql, a.Value)
		}
	}
	for _, ph := range st.Placeholders {
		checkPlaceholder(t, sql, ph)
	}
	if hidden && len(st.Unknown) == 0 {
		t.Errorf("a part is unknown but the statement has no unknown reason: %q", sql)
	}
	if depth < 3 {
		for _, sub := range st.Subqueries {
			checkStatement(t, sql, sub, depth+1)
		}
		for _, cte := range st.With {
			checkStatement(t, sql, cte.Statement, depth+1)
		}
	}
}

func checkCondition(t *testing.T, sql string, c *Condition) {
	t.Helper()
	if !strings.Contains(sql, c.Text) {
		t.Errorf("condition text %q is not from %q", c.Text, sql)
	}
	for _, cmp := range c.Comparisons {
		if cmp.Column.Name == "" && cmp.Column.Table == "" {
			t.Errorf("comparison without a column in %q", sql)
		}
		for _, ph := range cmp.Operand.Placeholders {
			checkPlaceholder(t, sql, ph)
		}
	}
}

func checkExpr(t *testing.T, sql string, e Expr) {
	t.Helper()
	if !strings.Contains(sql, e.Text) {
		t.Errorf("expression text %q is not from %q", e.Text, sql)
	}
	if e.Kind == ExprUnknown && (len(e.Columns) > 0 || len(e.Excluded) > 0) {
		t.Errorf("unknown expression %q claims columns", e.Text)
	}
	if e.Kind == ExprPlaceholder && len(e.Placeholders) != 1 {
		t.Errorf("placeholder expression %q has %d placeholders", e.Text, len(e.Placeholders))
	}
	for _, ph := range e.Placeholders {
		checkPlaceholder(t, sql, ph)
	}
}

func checkPlaceholder(t *testing.T, sql string, ph Placeholder) {
	t.Helper()
	if ph.Style == 0 || ph.Position < 0 || (ph.Position == 0 && ph.Name == "" && ph.Style != PlaceholderDollar && ph.Style != PlaceholderNumberedQuestion) {
		t.Errorf("malformed placeholder %+v in %q", ph, sql)
	}
}
