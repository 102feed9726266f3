package sqltext

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// describeTokens renders tokens as kind:text, with kinds w (word, shown
// lowercased), q (quoted identifier, shown unquoted), s (string), n
// (number), p (placeholder), v (variable), o (operator), . (punctuation),
// x (invalid).
func describeTokens(r *lexResult) string {
	var out []string
	for _, t := range r.tokens {
		var s string
		switch t.kind {
		case tokWord:
			s = "w:" + t.word
		case tokQuotedIdent:
			s = "q:" + t.word
		case tokString:
			s = "s:" + t.text
		case tokNumber:
			s = "n:" + t.text
		case tokPlaceholder:
			s = "p:" + r.placeholders[t.placeholder].String()
		case tokVariable:
			s = "v:" + t.word
		case tokOp:
			s = "o:" + t.text
		case tokPunct:
			s = t.text
		default:
			s = "x:" + t.text
		}
		out = append(out, s)
	}
	return strings.Join(out, " ")
}

func TestLex(t *testing.T) {
	cases := []struct{ src, want string }{
		{"SELECT id FROM Users", "w:select w:id w:from w:users"},
		{`'a''b' E'c\'d' e'\\'`, `s:'a''b' s:E'c\'d' s:e'\\'`},
		{"$$x;y$$ $t$it's$t$ $1", "s:$$x;y$$ s:$t$it's$t$ p:$1"},
		{"$a$ nested $b$ inner $b$ $a$", "s:$a$ nested $b$ inner $b$ $a$"},
		{`"Q""x" ` + "`b``c`", `q:Q"x q:b` + "`c"},
		{"1 1.5e3 .5 0x1F 1_000", "n:1 n:1.5e3 n:.5 n:0x1F n:1_000"},
		{"x'0A' B'01' N'na' U&'d\\0061'", `s:x'0A' s:B'01' s:N'na' s:U&'d\0061'`},
		{"a::int a->>'k' a->'k' a #>> '{x}' a #> '{x}' a #- '{x}'", "w:a o::: w:int w:a o:->> s:'k' w:a o:-> s:'k' w:a o:#>> s:'{x}' w:a o:#> s:'{x}' w:a o:#- s:'{x}'"},
		{"a || b <> c != d <= e >= f <=> g == h", "w:a o:|| w:b o:<> w:c o:!= w:d o:<= w:e o:>= w:f o:<=> w:g o:== w:h"},
		{"a @> b <@ c && d ~* e !~ f", "w:a o:@> w:b o:<@ w:c o:&& w:d o:~* w:e o:!~ w:f"},
		{"a -- comment\nb", "w:a w:b"},
		{"a /* x /* nested */ y */ b", "w:a w:b"},
		{"/* a /* b */ c", "w:c"}, // MySQL/SQLite: not nested
		{"a\n# comment\nb", "w:a w:b"},
		{"# comment first\nb", "w:b"},
		{"a # b", "w:a o:# w:b"},
		{"? ?3 ?name ?|", "p:?1 p:?3 p:?name o:?|"},
		{"data ? 'k' AND id = $1", "w:data o:? s:'k' w:and w:id o:= p:$1"},
		{"data ?& array['a'] AND data ?| array['b']", "w:data o:?& w:array [ s:'a' ] w:and w:data o:?| w:array [ s:'b' ]"},
		{":name :=x a[1:2]", "p::name o::= w:x w:a [ n:1 o:: n:2 ]"},
		{"@name @@session.tx_isolation @ -5", "p:@name v:@@session.tx_isolation o:@ o:- n:5"},
		{"sqlc.arg(author_id) sqlc.narg('bio') sqlc.slice(ids)", "p:sqlc.arg(author_id) p:sqlc.arg(bio) p:sqlc.arg(ids)"},
		{"$name $1 $$", "p:$name p:$1 x:$$"},
		{"t.a .5 t.5", "w:t . w:a n:.5 w:t . n:5"},
		{"a$b ünï", "w:a$b w:ünï"},
		{"'unterminated", "x:'unterminated"},
		{"\\G", `x:\ w:g`},
		{"a;b", "w:a ; w:b"},
		{`"" ` + "``", `x:"" ` + "x:``"},
	}
	for _, tc := range cases {
		assert.Equal(t, tc.want, describeTokens(lex(tc.src)), "source: %q", tc.src)
	}
}

func TestLexBackslashEscapes(t *testing.T) {
	// PostgreSQL reading: the backslash is an ordinary character.
	r := lex(`SELECT 'a\', 'b'`)
	assert.Equal(t, `w:select s:'a\' , s:'b'`, describeTokens(r))
	assert.Empty(t, r.problems)

	// Only the MySQL reading terminates every literal.
	r = lex(`SELECT 'it\'s'`)
	assert.Equal(t, `w:select s:'it\'s'`, describeTokens(r))
	assert.Empty(t, r.problems)

	// The MySQL reading leaves a quote open: the standard one is taken.
	r = lex(`SELECT 'a\' , 'b'`)
	assert.Equal(t, `w:select s:'a\' , s:'b'`, describeTokens(r))
	assert.Empty(t, r.problems)

	// Both readings are clean but split differently: flagged.
	r = lex(`SELECT 'a\' OR 1=1 -- '`)
	assert.Equal(t, []string{"string literal: backslash escapes make the token boundaries dialect-dependent"}, r.problems)

	// With backticks the MySQL reading is taken.
	r = lex("SELECT `x` FROM t WHERE a = 'a\\' OR 1=1 -- '")
	assert.Empty(t, r.problems)
	assert.Equal(t, "w:select q:x w:from w:t w:where w:a o:= s:'a\\' OR 1=1 -- '", describeTokens(r))
}

func TestLexProblems(t *testing.T) {
	cases := []struct{ src, want string }{
		{"/* open", "comment: unterminated /* comment"},
		{"'open", "literal: unterminated quoted text"},
		{`"open`, "literal: unterminated quoted text"},
		{"$q$ open", "literal: unterminated dollar-quoted string"},
		{"/*! STRAIGHT_JOIN */", "comment: MySQL executable comment /*! */"},
	}
	for _, tc := range cases {
		assert.Equal(t, []string{tc.want}, lex(tc.src).problems, "source: %q", tc.src)
	}
	assert.Empty(t, lex("/*+ INDEX(t idx) */ SELECT 1").problems, "optimizer hints are comments")
}

func TestLeadingComments(t *testing.T) {
	r := lex("-- name: GetUser :one\n/* more */ SELECT 1 -- after")
	assert.Equal(t, []string{" name: GetUser :one", " more "}, r.leadingComments)
}

func TestPlaceholders(t *testing.T) {
	cases := []struct {
		sql  string
		want []Placeholder
	}{
		{"SELECT * FROM t WHERE a = $2 AND b = $1 AND c = $2", []Placeholder{
			{Style: PlaceholderDollar, Position: 2}, {Style: PlaceholderDollar, Position: 1}, {Style: PlaceholderDollar, Position: 2}}},
		{"SELECT * FROM t WHERE a = ? AND b IN (?, ?)", []Placeholder{
			{Style: PlaceholderQuestion, Position: 1}, {Style: PlaceholderQuestion, Position: 2}, {Style: PlaceholderQuestion, Position: 3}}},
		{"SELECT * FROM t WHERE a = ?2 AND b = ? AND c = ?1", []Placeholder{
			{Style: PlaceholderNumberedQuestion, Position: 2}, {Style: PlaceholderQuestion, Position: 3}, {Style: PlaceholderNumberedQuestion, Position: 1}}},
		{"INSERT INTO t (a, b) VALUES (:a, :b)", []Placeholder{
			{Style: PlaceholderColon, Name: "a"}, {Style: PlaceholderColon, Name: "b"}}},
		{"SELECT * FROM t WHERE a = @a OR b = @A", []Placeholder{
			{Style: PlaceholderAt, Name: "a"}, {Style: PlaceholderAt, Name: "A"}}},
		{"SELECT * FROM t WHERE a = $a", []Placeholder{{Style: PlaceholderDollarName, Name: "a"}}},
		{"SELECT * FROM t WHERE a = sqlc.arg(a) AND b = sqlc.narg('b')", []Placeholder{
			{Style: PlaceholderSqlcArg, Name: "a"}, {Style: PlaceholderSqlcArg, Name: "b"}}},
		{"SELECT * FROM t WHERE ?TableAlias.id = ? AND x = ?name", []Placeholder{
			{Style: PlaceholderQuestionName, Name: "TableAlias"}, {Style: PlaceholderQuestion, Position: 1}, {Style: PlaceholderQuestionName, Name: "name"}}},
		{"SELECT * FROM t WHERE data ? 'k' AND id = $1", []Placeholder{{Style: PlaceholderDollar, Position: 1}}},
		{"SELECT '?', \"?\", $$?$$ FROM t -- ?\nWHERE a = ?", []Placeholder{{Style: PlaceholderQuestion, Position: 1}}},
		{"SELECT 1", nil},
	}
	for _, tc := range cases {
		assert.Equal(t, tc.want, Parse(tc.sql).Placeholders, "SQL: %s", tc.sql)
	}
	assert.True(t, Placeholder{Style: PlaceholderColon, Name: "a"}.Named())
	assert.False(t, Placeholder{Style: PlaceholderDollar, Position: 1}.Named())
}
