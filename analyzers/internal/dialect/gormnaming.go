package dialect

import (
	"crypto/sha1"
	"encoding/hex"
	"strings"
	"unicode/utf8"
)

// GORM's default naming, ported from gorm.io/gorm v1.31.2 schema/naming.go
// (NamingStrategy with no TablePrefix, SingularTable, NameReplacer or
// NoLowerCase), with github.com/jinzhu/inflection v1.0.0's Plural
// (inflection.go), so that the table of a model is the one GORM uses
// without adding either module to the build. A project that configures another NamingStrategy names its tables
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
