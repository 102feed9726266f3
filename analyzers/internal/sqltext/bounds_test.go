package sqltext

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// TestPathologicalInputsAreBounded feeds inputs built to make a careless
// parser recurse without bound or go quadratic, each a few hundred kilobytes,
// and checks every one is summarised quickly.
func TestPathologicalInputsAreBounded(t *testing.T) {
	const n = 50_000
	inputs := map[string]string{
		"deep parentheses":     "SELECT " + strings.Repeat("(", n) + "1" + strings.Repeat(")", n),
		"unclosed parentheses": "SELECT " + strings.Repeat("(", n),
		"stray closers":        "SELECT 1" + strings.Repeat(")", n),
		"deep subqueries":      strings.Repeat("SELECT * FROM (", n/16) + "SELECT 1" + strings.Repeat(")", n/16),
		"unary chain":          "SELECT " + strings.Repeat("- ", n) + "1",
		"not chain":            "SELECT * FROM t WHERE " + strings.Repeat("NOT ", n) + "a",
		"and chain":            "SELECT * FROM t WHERE a = 1" + strings.Repeat(" AND a = 1", n/4),
		"or chain":             "SELECT * FROM t WHERE a = ?" + strings.Repeat(" OR a = ?", n/4),
		"long IN list":         "SELECT * FROM t WHERE id IN (?" + strings.Repeat(", ?", n) + ")",
		"many rows":            "INSERT INTO t (a, b) VALUES (?, ?)" + strings.Repeat(", (?, ?)", n/4),
		"many assignments":     "UPDATE t SET a = 1" + strings.Repeat(", a = a + 1", n/4),
		"broken assignments":   "UPDATE t SET " + strings.Repeat("a b c, ", n/4),
		"quotes":               strings.Repeat("'", n),
		"backslash quotes":     strings.Repeat(`'\'`, n),
		"comment openers":      strings.Repeat("/*", n),
		"dollar tags":          strings.Repeat("$a$", n),
		"many statements":      strings.Repeat("SELECT 1;", n/4),
		"case chain":           "SELECT " + strings.Repeat("CASE WHEN a THEN ", n/4) + "1",
		"call nesting":         "SELECT " + strings.Repeat("f(", n) + strings.Repeat(")", n),
		"brackets":             "SELECT a" + strings.Repeat("[", n),
		"garbage":              strings.Repeat("\x00\xff#?:@$", n/4),
	}
	start := time.Now()
	for name, sql := range inputs {
		began := time.Now()
		st := Parse(sql)
		ParseAll(sql)
		ParseCondition(sql)
		ParseExpr(sql)
		ParseSetList(sql)
		assert.NotNil(t, st, name)
		assert.Less(t, time.Since(began), 2*time.Second, "%s took too long", name)
	}
	t.Logf("all pathological inputs: %v", time.Since(start))

	assert.Equal(t, KindUnknown, Parse(inputs["deep parentheses"]).Kind, "nesting beyond the bound is unknown")
	assert.Equal(t, KindUnknown, Parse(inputs["and chain"]).Kind, "a chain beyond the bound is unknown")
	assert.True(t, Parse(inputs["long IN list"]).Understood(), "a long flat list is fine")
	assert.True(t, Parse(inputs["many rows"]).Understood())
}
