package dialect

import (
	"regexp"
	"strings"
)

// github.com/jinzhu/inflection v1.0.0's Plural, ported, which GORM, bun
// and go-pg all name their default tables with.

// inflection is one compiled rule of jinzhu/inflection.
type inflection struct {
	re      *regexp.Regexp
	replace string
}

// The rules of jinzhu/inflection v1.0.0 needed for Plural, in its order.
var (
	pluralRules = [][2]string{
		{"([a-z])$", "${1}s"},
		{"s$", "s"},
		{"^(ax|test)is$", "${1}es"},
		{"(octop|vir)us$", "${1}i"},
		{"(octop|vir)i$", "${1}i"},
		{"(alias|status)$", "${1}es"},
		{"(bu)s$", "${1}ses"},
		{"(buffal|tomat)o$", "${1}oes"},
		{"([ti])um$", "${1}a"},
		{"([ti])a$", "${1}a"},
		{"sis$", "ses"},
		{"(?:([^f])fe|([lr])f)$", "${1}${2}ves"},
		{"(hive)$", "${1}s"},
		{"([^aeiouy]|qu)y$", "${1}ies"},
		{"(x|ch|ss|sh)$", "${1}es"},
		{"(matr|vert|ind)(?:ix|ex)$", "${1}ices"},
		{"^(m|l)ouse$", "${1}ice"},
		{"^(m|l)ice$", "${1}ice"},
		{"^(ox)$", "${1}en"},
		{"^(oxen)$", "${1}"},
		{"(quiz)$", "${1}zes"},
	}
	irregulars = [][2]string{
		{"person", "people"},
		{"man", "men"},
		{"child", "children"},
		{"sex", "sexes"},
		{"move", "moves"},
		{"mombie", "mombies"},
	}
	uncountables = []string{"equipment", "information", "rice", "money", "species", "series", "fish", "sheep", "jeans", "police"}
)

// compiledPlurals is inflection's compiledPluralMaps: uncountables, then
// irregulars (upper, title and lower case), then the rules last to first,
// each in upper case, as written and case-insensitively.
var compiledPlurals = func() []inflection {
	var out []inflection
	for _, u := range uncountables {
		out = append(out, inflection{regexp.MustCompile("^(?i)(" + u + ")$"), "${1}"})
	}
	title := func(s string) string { return strings.ToUpper(s[:1]) + s[1:] }
	for _, ir := range irregulars {
		out = append(out,
			inflection{regexp.MustCompile(strings.ToUpper(ir[0]) + "$"), strings.ToUpper(ir[1])},
			inflection{regexp.MustCompile(title(ir[0]) + "$"), title(ir[1])},
			inflection{regexp.MustCompile(ir[0] + "$"), ir[1]},
		)
	}
	for i := len(pluralRules) - 1; i >= 0; i-- {
		r := pluralRules[i]
		out = append(out,
			inflection{regexp.MustCompile(strings.ToUpper(r[0])), strings.ToUpper(r[1])},
			inflection{regexp.MustCompile(r[0]), r[1]},
			inflection{regexp.MustCompile("(?i)" + r[0]), r[1]},
		)
	}
	return out
}()

// plural is inflection.Plural.
func plural(s string) string {
	for _, inf := range compiledPlurals {
		if inf.re.MatchString(s) {
			return inf.re.ReplaceAllString(s, inf.replace)
		}
	}
	return s
}
