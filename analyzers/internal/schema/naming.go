package schema

import (
	"crypto/sha1"
	"encoding/hex"
	"regexp"
	"strings"
	"unicode/utf8"
)

// GORM's default naming, ported from gorm.io/gorm v1.31.2 schema/naming.go
// (NamingStrategy with no TablePrefix, SingularTable, NameReplacer or
// NoLowerCase) and github.com/jinzhu/inflection v1.0.0 (Plural), so that the
// table of a model is the one GORM uses without adding either module to the
// build. A project that configures another NamingStrategy names its tables
// differently; a TableName method is then the way to tell idemlint too.

// gormTableName is NamingStrategy{}.TableName: the plural of the snake_case
// type name.
func gormTableName(typeName string) string { return plural(gormDBName(typeName)) }

// gormColumnName is NamingStrategy{}.ColumnName.
func gormColumnName(field string) string { return gormDBName(field) }

// gormIndexName is NamingStrategy{}.IndexName.
func gormIndexName(table, column string) string {
	return gormFormatName("idx", table, gormDBName(column))
}

// gormUniqueName is NamingStrategy{}.UniqueName.
func gormUniqueName(table, column string) string {
	return gormFormatName("uni", table, gormDBName(column))
}

func gormFormatName(prefix, table, name string) string {
	formatted := strings.ReplaceAll(strings.Join([]string{prefix, table, name}, "_"), ".", "_")
	const maxLength = 64
	if utf8.RuneCountInString(formatted) > maxLength {
		h := sha1.New()
		h.Write([]byte(formatted))
		formatted = formatted[0:maxLength-8] + hex.EncodeToString(h.Sum(nil))[:8]
	}
	return formatted
}

// commonInitialisms is GORM's list (from golint), in GORM's order: the
// replacer tries them in this order at each position.
var commonInitialisms = []string{"API", "ASCII", "CPU", "CSS", "DNS", "EOF", "GUID", "HTML", "HTTP", "HTTPS", "ID", "IP", "JSON", "LHS", "QPS", "RAM", "RHS", "RPC", "SLA", "SMTP", "SSH", "TLS", "TTL", "UID", "UI", "UUID", "URI", "URL", "UTF8", "VM", "XML", "XSRF", "XSS"}

// commonInitialismsReplacer maps each initialism to its title case ("ID"
// to "Id"), as cases.Title(language.Und) does for these ASCII words.
var commonInitialismsReplacer = func() *strings.Replacer {
	var pairs []string
	for _, s := range commonInitialisms {
		pairs = append(pairs, s, s[:1]+strings.ToLower(s[1:]))
	}
	return strings.NewReplacer(pairs...)
}()

// gormDBName is NamingStrategy.toDBName: "UserID" -> "user_id",
// "HTTPServer" -> "http_server".
func gormDBName(name string) string {
	if name == "" {
		return ""
	}
	var (
		value                          = commonInitialismsReplacer.Replace(name)
		buf                            strings.Builder
		lastCase, nextCase, nextNumber bool // upper case == true
		curCase                        = value[0] <= 'Z' && value[0] >= 'A'
	)
	for i, v := range value[:len(value)-1] {
		nextCase = value[i+1] <= 'Z' && value[i+1] >= 'A'
		nextNumber = value[i+1] >= '0' && value[i+1] <= '9'
		if curCase {
			if lastCase && (nextCase || nextNumber) {
				buf.WriteRune(v + 32)
			} else {
				if i > 0 && value[i-1] != '_' && value[i+1] != '_' {
					buf.WriteByte('_')
				}
				buf.WriteRune(v + 32)
			}
		} else {
			buf.WriteRune(v)
		}
		lastCase = curCase
		curCase = nextCase
	}
	if curCase {
		if !lastCase && len(value) > 1 {
			buf.WriteByte('_')
		}
		buf.WriteByte(value[len(value)-1] + 32)
	} else {
		buf.WriteByte(value[len(value)-1])
	}
	return buf.String()
}

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

// Plural is jinzhu/inflection's Plural, which GORM and bun both name
// their default tables with.
func Plural(s string) string { return plural(s) }

// plural is inflection.Plural.
func plural(s string) string {
	for _, inf := range compiledPlurals {
		if inf.re.MatchString(s) {
			return inf.re.ReplaceAllString(s, inf.replace)
		}
	}
	return s
}
