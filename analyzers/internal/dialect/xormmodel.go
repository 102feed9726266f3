package dialect

import (
	"go/constant"
	"go/types"
	"reflect"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/knowledge"
	"github.com/idemlint/idemlint/analyzers/internal/ops"
)

// xorm's naming of a bean (xorm.io/xorm v1.4.3, tags/parser.go): the
// table is TableName() when the type has one, else the table mapper's
// name of the type; a field's column is the quoted word of its xorm tag
// ('user_email'), or a bare word that is no tag keyword nor SQL type,
// else the column mapper's name of the field. `xorm:"-"` skips the field.
//
// The mappers are the engine's, set at run time: NewEngine's default
// SnakeMapper (UserID is user_i_d) unless the program calls SetMapper,
// SetTableMapper or SetColumnMapper (the GonicMapper services set gives
// user_id). What the package under analysis sees of those calls (its own
// and its imports', through the schema layer's facts: xormNamingOf)
// decides: one known mapper set for the tables or the columns names
// them; otherwise (nothing seen, a mapper not known, two that differ)
// only what SnakeMapper and GonicMapper agree on is named, names without
// two capitals in a row, and a name they disagree on is left unknown.

// An xormMapper is one of names' mappers, or xormAgreed for a mapper not
// known.
type xormMapper uint8

const (
	xormAgreed xormMapper = iota // the name SnakeMapper and GonicMapper agree on
	xormSnake                    // names.SnakeMapper: every capital starts a word
	xormGonic                    // names.GonicMapper: a run of capitals is one word
	xormSame                     // names.SameMapper: the Go name itself
)

// xormMapperWords are the words of the settings (xormNaming), by mapper.
var xormMapperWords = map[xormMapper]string{xormSnake: "snake", xormGonic: "gonic", xormSame: "same"}

// An xormNaming is the mappers of the tables and of the columns.
type xormNaming struct{ table, column xormMapper }

// xormNames reads, for the schema layer's facts, what a SetMapper,
// SetTableMapper or SetColumnMapper call sets: "table=gonic",
// "column=gonic"; "?" for a mapper whose type is not one of names'
// (a variable of the interface, a PrefixMapper, a CacheMapper).
func xormNames(row *knowledge.Call, value types.Type) []string {
	if row.Func.Pkg != xormPkg {
		return nil
	}
	word := "?"
	if m := xormMapperOf(value); m != xormAgreed {
		word = xormMapperWords[m]
	}
	switch row.Func.Name {
	case "SetMapper":
		return []string{"table=" + word, "column=" + word}
	case "SetTableMapper":
		return []string{"table=" + word}
	case "SetColumnMapper":
		return []string{"column=" + word}
	}
	return nil
}

// xormMapperOf returns the mapper a value of type t is: names.SnakeMapper,
// GonicMapper (any of its values, LintGonicMapper too: its initialisms
// serve Table2Obj only) or SameMapper, or a pointer to one.
func xormMapperOf(t types.Type) xormMapper {
	if t == nil {
		return xormAgreed
	}
	t = types.Unalias(t)
	if p, ok := t.(*types.Pointer); ok {
		t = types.Unalias(p.Elem())
	}
	named, ok := t.(*types.Named)
	if !ok || named.Obj().Pkg() == nil || named.Obj().Pkg().Path() != xormNamesPkg {
		return xormAgreed
	}
	switch named.Obj().Name() {
	case "SnakeMapper":
		return xormSnake
	case "GonicMapper":
		return xormGonic
	case "SameMapper":
		return xormSame
	}
	return xormAgreed
}

// xormNamingOf reads the settings a package sees (xormNames): each of the
// tables' and the columns' mapper is the one known mapper set, or
// xormAgreed when none is, one is not known or two differ.
func xormNamingOf(settings []string) xormNaming {
	var n xormNaming
	for _, part := range []struct {
		kind string
		m    *xormMapper
	}{{"table", &n.table}, {"column", &n.column}} {
		var words []string
		for _, s := range settings {
			if kind, word, ok := strings.Cut(s, "="); ok && kind == part.kind {
				words = append(words, word)
			}
		}
		if len(words) != 1 {
			continue
		}
		for m, w := range xormMapperWords {
			if w == words[0] {
				*part.m = m
			}
		}
	}
	return n
}

// xormNamingAt is the naming the package of fn sees.
func xormNamingAt(fn *ssa.Function) xormNaming {
	return xormNamingOf(ops.Naming(fn, "xorm"))
}

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

// xormFieldOf reads the xorm tag of field i of st, naming its column
// with mapper m when the tag does not.
func xormFieldOf(st *types.Struct, i int, m xormMapper) xormField {
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
		out.column = m.name(f.Name())
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

// name is the name m gives a Go name (Obj2Table), "" when m is
// xormAgreed and the two mappers disagree.
func (m xormMapper) name(goName string) string {
	switch m {
	case xormSnake:
		return xormSnakeName(goName)
	case xormGonic:
		return xormGonicName(goName)
	case xormSame:
		return goName
	}
	return xormMapped(goName)
}

// xormSnakeName is names.snakeCasedName: an underscore before each
// capital but the first, all lower case.
func xormSnakeName(name string) string {
	var b strings.Builder
	for i := 0; i < len(name); i++ {
		c := name[i]
		if 'A' <= c && c <= 'Z' {
			if i > 0 {
				b.WriteByte('_')
			}
			c += 'a' - 'A'
		}
		b.WriteByte(c)
	}
	return b.String()
}

// xormGonicName is names.gonicCasedName: an underscore before a capital
// that follows a lower-case letter, and before the last capital of a run
// followed by a lower-case letter (HTTPServer is http_server, TaskID
// task_id), all lower case.
func xormGonicName(name string) string {
	upper := func(r rune) bool { return 'A' <= r && r <= 'Z' }
	out := make([]rune, 0, len(name)+3)
	for i, c := range name {
		if upper(c) && i > 0 && !upper(out[len(out)-1]) {
			out = append(out, '_')
		}
		if !upper(c) && i > 1 {
			if l := len(out); upper(out[l-1]) && upper(out[l-2]) {
				out = append(out, out[l-1])
				out[l-1] = '_'
			}
		}
		out = append(out, c)
	}
	return strings.ToLower(string(out))
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
	typ    types.Type
	st     *types.Struct
	table  string
	naming xormNaming
}

// xormBeanOf returns the bean of a named struct type, with its table,
// named by naming; false when the table is not known (a TableName method
// whose body does not return a constant, or a type name the mappers
// disagree on). prog builds TableName's body.
func xormBeanOf(prog *ssa.Program, t types.Type, naming xormNaming) (xormBean, bool) {
	named, ok := types.Unalias(t).(*types.Named)
	if !ok {
		return xormBean{}, false
	}
	st, ok := named.Underlying().(*types.Struct)
	if !ok {
		return xormBean{}, false
	}
	b := xormBean{typ: t, st: st, naming: naming}
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
	b.table = naming.table.name(named.Obj().Name())
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
			f := xormFieldOf(b.st, i, b.naming.column)
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
		if f := xormFieldOf(b.st, i, b.naming.column); f.pk && !f.skip {
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
		if f := xormFieldOf(b.st, i, b.naming.column); f.version && !f.skip && f.column != "" {
			return f.column, b.st.Field(i).Name(), true
		}
	}
	return "", "", false
}
