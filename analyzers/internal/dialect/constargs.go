package dialect

import (
	"github.com/idemlint/idemlint/analyzers/internal/knowledge"
	"github.com/idemlint/idemlint/analyzers/internal/ssaval"
)

// constStrings returns the constant strings passed as the variadic
// parameter i of a builder step (column lists, squirrel's Columns, gorp's
// SetKeys); false when one is not a constant.
func constStrings(site knowledge.Site, i int) ([]string, bool) {
	vals, ok := site.Variadic(i)
	if !ok {
		return nil, false
	}
	var out []string
	for _, v := range vals {
		s, ok := ssaval.ConstString(v)
		if !ok {
			return nil, false
		}
		out = append(out, s)
	}
	return out, true
}
