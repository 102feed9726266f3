package dialect

import (
	"go/constant"
	"go/types"
	"reflect"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// xorm's naming of a bean (xorm.io/xorm v1.4.3, tags/parser.go): the
// table is TableName() when the type has one, else the table mapper's
// name of the type; a field's column is the quoted word of its xorm tag
// ('user_email'), or a bare word that is no tag keyword nor SQL type,
// else the column mapper's name of the field. The mappers are the
// engine's, set at run time: NewEngine's default SnakeMapper (UserID is
// user_i_d) and the GonicMapper services set instead (user_id) agree on
// names without two capitals in a row, and a name they disagree on is
// left unknown. `xorm:"-"` skips the field.

// xormKeywords are the words of an xorm tag that are not a column name:
// its tag handlers (tags/tag.go) and SQL types (schemas/type.go), upper
// case.
var xormKeywords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields("- <- -> PK NULL NOT AUTOINCR DEFAULT CREATED UPDATED DELETED VERSION UTC LOCAL NOTNULL INDEX UNIQUE " +
		"CACHE NOCACHE COMMENT EXTENDS UNSIGNED COLLATE JSON JSONB " +
		"BIT TINYINT SMALLINT MEDIUMINT INT INTEGER BIGINT NUMBER ENUM SET CHAR VARCHAR VARCHAR2 NCHAR NVARCHAR TINYTEXT TEXT NTEXT " +
		"CLOB MEDIUMTEXT LONGTEXT UUID UNIQUEIDENTIFIER SYSNAME DATE DATETIME SMALLDATETIME TIME TIMESTAMP TIMESTAMPZ YEAR DECIMAL " +
		"NUMERIC MONEY SMALLMONEY REAL FLOAT DOUBLE BINARY VARBINARY TINYBLOB BLOB MEDIUMBLOB LONGBLOB BYTEA BOOL BOOLEAN SERIAL " +
		"BIGSERIAL XML ARRAY INT8") {
		m[w] = true
	}
	return m
}()

// An xormField is what a bean field's tag says.
type xormField struct {
	column            string // "" when the mappers disagree
	pk, version, skip bool
}

// xormFieldOf reads the xorm tag of field i of st.
func xormFieldOf(st *types.Struct, i int) xormField {
	f := st.Field(i)
	tag := strings.TrimSpace(reflect.StructTag(st.Tag(i)).Get("xorm"))
	if tag == "-" || !f.Exported() {
		return xormField{skip: true}
	}
	var out xormField
	if tag == "" {
		// parseFieldWithNoTag: an int64 field named ID is the
		// autoincrement primary key.
		b, ok := f.Type().Underlying().(*types.Basic)
		out.pk = ok && b.Kind() == types.Int64 && strings.EqualFold(f.Name(), "ID")
	}
	for _, word := range xormTagWords(tag) {
		upper := strings.ToUpper(word)
		if k, _, _ := strings.Cut(upper, "("); xormKeywords[k] {
			out.pk = out.pk || upper == "PK"
			out.version = out.version || upper == "VERSION"
			continue
		}
		out.column = strings.Trim(word, "'")
	}
	if out.column == "" {
		out.column = xormMapped(f.Name())
	}
	return out
}

// xormTagWords splits a tag as splitTag does: at spaces outside quotes
// and parentheses.
func xormTagWords(tag string) []string {
	var words []string
	start, quoted, depth := 0, false, 0
	for i, c := range tag {
		switch {
		case c == '\'':
			quoted = !quoted
		case c == '(' && !quoted:
			depth++
		case c == ')' && !quoted:
			depth--
		case c == ' ' && !quoted && depth == 0:
			if start < i {
				words = append(words, tag[start:i])
			}
			start = i + 1
		}
	}
	if start < len(tag) {
		words = append(words, tag[start:])
	}
	return words
}

// xormMapped is the name SnakeMapper and GonicMapper both give a Go
// name, or "" when they differ (two capitals in a row).
func xormMapped(name string) string {
	var b strings.Builder
	prevUpper := false
	for i, c := range name {
		upper := 'A' <= c && c <= 'Z'
		if upper && prevUpper {
			return ""
		}
		if upper {
			if i > 0 {
				b.WriteByte('_')
			}
			c += 'a' - 'A'
		}
		prevUpper = upper
		b.WriteRune(c)
	}
	return b.String()
}

// An xormBean is a bean type's table and columns; a table named by
// Table("name") alone has no type, and no columns known.
type xormBean struct {
	typ   types.Type
	st    *types.Struct
	table string
}

// xormBeanOf returns the bean of a named struct type, with its table;
// false when the table is not known (a TableName method whose body does
// not return a constant, or a type name the mappers disagree on). prog
// builds TableName's body.
func xormBeanOf(prog *ssa.Program, t types.Type) (xormBean, bool) {
	named, ok := types.Unalias(t).(*types.Named)
	if !ok {
		return xormBean{}, false
	}
	st, ok := named.Underlying().(*types.Struct)
	if !ok {
		return xormBean{}, false
	}
	b := xormBean{typ: t, st: st}
	if obj, _, _ := types.LookupFieldOrMethod(types.NewPointer(named), true, named.Obj().Pkg(), "TableName"); obj != nil {
		fn, ok := obj.(*types.Func)
		if !ok || prog == nil {
			return xormBean{}, false
		}
		if b.table, ok = constResult(prog.FuncValue(fn)); !ok {
			return xormBean{}, false
		}
		return b, true
	}
	b.table = xormMapped(named.Obj().Name())
	return b, b.table != ""
}

// constResult returns the string constant every return of fn returns.
func constResult(fn *ssa.Function) (string, bool) {
	if fn == nil || len(fn.Blocks) == 0 {
		return "", false
	}
	out, seen := "", false
	for _, b := range fn.Blocks {
		ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
		if !ok {
			continue
		}
		if len(ret.Results) != 1 {
			return "", false
		}
		c, ok := ret.Results[0].(*ssa.Const)
		if !ok || c.Value == nil || c.Value.Kind() != constant.String || (seen && constant.StringVal(c.Value) != out) {
			return "", false
		}
		out, seen = constant.StringVal(c.Value), true
	}
	return out, seen
}

// column returns the column of a field of the bean; false for a field xorm
// skips, one it does not have, or one whose name is not known.
func (b xormBean) column(field string) (string, bool) {
	if b.st == nil {
		return "", false
	}
	for i := 0; i < b.st.NumFields(); i++ {
		if b.st.Field(i).Name() == field {
			f := xormFieldOf(b.st, i)
			return f.column, !f.skip && f.column != ""
		}
	}
	return "", false
}

// pk returns the primary key's column, when it is one known column.
func (b xormBean) pk() (string, bool) {
	col := ""
	if b.st == nil {
		return "", false
	}
	for i := 0; i < b.st.NumFields(); i++ {
		if f := xormFieldOf(b.st, i); f.pk && !f.skip {
			if col != "" || f.column == "" {
				return "", false
			}
			col = f.column
		}
	}
	return col, col != ""
}

// version returns the column and field of the version field
// (`xorm:"version"`), or false.
func (b xormBean) version() (col, field string, ok bool) {
	if b.st == nil {
		return "", "", false
	}
	for i := 0; i < b.st.NumFields(); i++ {
		if f := xormFieldOf(b.st, i); f.version && !f.skip && f.column != "" {
			return f.column, b.st.Field(i).Name(), true
		}
	}
	return "", "", false
}
