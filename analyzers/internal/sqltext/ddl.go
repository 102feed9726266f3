package sqltext

import (
	"slices"
	"sort"
	"strings"
)

// This file reads DDL: the CREATE TABLE, CREATE UNIQUE INDEX, ALTER TABLE,
// DROP and RENAME statements of schema files and migrations, for the schema
// layer's unique keys and columns. It shares the tokenizer with the rest of
// the package and nothing else.
//
// What it understands, in the PostgreSQL, MySQL and SQLite spellings:
//
//   - CREATE [TEMP|UNLOGGED] TABLE [IF NOT EXISTS] name (…): columns, with
//     their inline PRIMARY KEY, UNIQUE [KEY] and MySQL's bare KEY; table
//     constraints PRIMARY KEY (…), UNIQUE [KEY|INDEX] [name] (…), and
//     CONSTRAINT name before either; MySQL's KEY/INDEX/FULLTEXT lines,
//     FOREIGN KEY, CHECK and EXCLUDE are read and ignored. LIKE, INHERITS,
//     PARTITION OF, OF type and AS SELECT leave the table incomplete.
//   - CREATE UNIQUE INDEX [CONCURRENTLY] [IF NOT EXISTS] [name] ON [ONLY]
//     table [USING method] (…) [INCLUDE …] [WHERE predicate]: a partial
//     index keeps its predicate.
//   - ALTER TABLE [IF EXISTS] [ONLY] t ADD [COLUMN] …, ADD [CONSTRAINT n]
//     UNIQUE|PRIMARY KEY (…), ADD CONSTRAINT n UNIQUE USING INDEX i, DROP
//     [COLUMN] c, DROP CONSTRAINT n, DROP PRIMARY KEY, DROP INDEX|KEY n,
//     RENAME [COLUMN] a TO b, RENAME CONSTRAINT|INDEX|KEY a TO b, RENAME
//     TO t2, MODIFY [COLUMN] and CHANGE [COLUMN] (MySQL); other actions are
//     ignored.
//   - DROP TABLE, DROP INDEX [… ON t], ALTER INDEX a RENAME TO b, RENAME
//     TABLE a TO b.
//
// Every other statement (CREATE TYPE, CREATE FUNCTION, INSERT, COMMENT ON,
// SET, …) is skipped silently. A statement of the kinds above that is not
// understood is skipped with a DDLProblem naming its line, and changes
// nothing; so does a part of the text the tokenizer cannot read (an
// unterminated literal, which takes the rest of the text with it).
//
// A key part that is not a plain column (lower(email), (a + b), a JSON
// path) makes the key an expression key: UniqueKey.Expression, with the
// text of each part in Parts. MySQL's prefix parts (email(191)) count as
// the column: a unique prefix makes the column unique.

// TableDef is a table as the DDL read so far leaves it.
type TableDef struct {
	// Schema is the qualifier of the table's name ("" when none was
	// written); Name is the table's name. Unquoted names are folded to
	// lower case, quoted ones keep their case.
	Schema, Name string
	Columns      []ColumnDef
	// Keys are the primary key and the unique constraints and indexes.
	Keys []UniqueKey
	// Created reports that a CREATE TABLE for the table was read. A table
	// named only by ALTER TABLE or CREATE INDEX (created in another file)
	// has Created false and is not Complete.
	Created bool
	// Complete reports that every column and unique key of the table is
	// known: false after LIKE, INHERITS, PARTITION OF, OF type, AS SELECT,
	// or when the table was not created here.
	Complete bool
	// Line is the line of the statement that created the table (or first
	// named it).
	Line int
	// LiteralSet are the columns an UPDATE of the script sets to a
	// literal without comparing them in its WHERE (a migration's UPDATE
	// modules SET version = 3 WHERE name = 'x'): a column the schema's
	// own data moves by hand, not one a program bumps.
	LiteralSet []string
}

// ColumnDef is a column of a table.
type ColumnDef struct {
	Name string
	// Type is the type as written, lower-cased ("" when none: SQLite).
	Type string
	Line int
}

// UniqueKey is a primary key, a unique constraint or a unique index.
type UniqueKey struct {
	// Name is the constraint's or index's name ("" when unnamed).
	Name string
	// Columns are the key's columns, in order; nil for an expression key.
	Columns []string
	// Parts is the source text of each key part.
	Parts []string
	// Expression reports that some part is not a plain column: the key is
	// not a plain column set.
	Expression bool
	// Primary marks the primary key.
	Primary bool
	// Index marks a key declared as an index (CREATE UNIQUE INDEX, MySQL's
	// UNIQUE KEY) rather than a constraint.
	Index bool
	// Where is the predicate of a partial unique index, as written: the
	// key holds only among the rows it selects.
	Where string
	Line  int
}

// Condition parses the predicate of a partial index (nil when the key is
// not partial).
func (k UniqueKey) Condition() *Condition {
	if k.Where == "" {
		return nil
	}
	return ParseCondition(k.Where)
}

// DDLProblem is a statement that was skipped, or text that could not be
// read.
type DDLProblem struct {
	Line int
	Msg  string
}

// Catalog is the tables a sequence of DDL scripts leaves, applied in order:
// the files of a migrations directory, say, where a later file alters a
// table an earlier one created. Each statement updates the tables in
// place.
type Catalog struct {
	tables []*TableDef // in the order first named; nil where dropped
	pos    map[*TableDef]int
	byName map[string][]*TableDef // by lower-cased name
}

// ParseDDL reads one DDL script.
func ParseDDL(script string) ([]*TableDef, []DDLProblem) {
	var c Catalog
	problems := c.Exec(script)
	return c.Tables(), problems
}

// Tables returns the tables in the order they were first named.
func (c *Catalog) Tables() []*TableDef {
	out := make([]*TableDef, 0, len(c.pos))
	for _, t := range c.tables {
		if t != nil {
			out = append(out, t)
		}
	}
	return out
}

// Table returns the table named name in schema ("" matches any schema; a
// table declared without a schema matches any), or nil. Names compare
// exactly as normalised, and case-insensitively when nothing matches
// exactly.
func (c *Catalog) Table(schema, name string) *TableDef {
	candidates := c.byName[strings.ToLower(name)]
	for _, fold := range []bool{false, true} {
		eq := func(a, b string) bool { return a == b }
		if fold {
			eq = strings.EqualFold
		}
		for _, t := range candidates {
			if eq(t.Name, name) && (schema == "" || t.Schema == "" || eq(t.Schema, schema)) {
				return t
			}
		}
	}
	return nil
}

func (c *Catalog) add(t *TableDef) {
	if c.pos == nil {
		c.pos = map[*TableDef]int{}
		c.byName = map[string][]*TableDef{}
	}
	c.pos[t] = len(c.tables)
	c.tables = append(c.tables, t)
	key := strings.ToLower(t.Name)
	c.byName[key] = append(c.byName[key], t)
}

func (c *Catalog) unindex(t *TableDef) {
	key := strings.ToLower(t.Name)
	list := c.byName[key]
	if i := slices.Index(list, t); i >= 0 {
		list = slices.Delete(slices.Clone(list), i, i+1)
	}
	if len(list) == 0 {
		delete(c.byName, key)
	} else {
		c.byName[key] = list
	}
}

func (c *Catalog) remove(t *TableDef) {
	c.unindex(t)
	c.tables[c.pos[t]] = nil
	delete(c.pos, t)
}

// replace puts t in old's place.
func (c *Catalog) replace(old, t *TableDef) {
	i := c.pos[old]
	c.unindex(old)
	delete(c.pos, old)
	c.tables[i] = t
	c.pos[t] = i
	key := strings.ToLower(t.Name)
	c.byName[key] = append(c.byName[key], t)
}

// rename gives t a new name.
func (c *Catalog) rename(t *TableDef, schema, name string) {
	c.unindex(t)
	if schema != "" {
		t.Schema = schema
	}
	t.Name = name
	key := strings.ToLower(name)
	c.byName[key] = append(c.byName[key], t)
}

// table returns the table schema.name, adding a placeholder (not Created,
// not Complete) when the catalog does not have it.
func (c *Catalog) table(schema, name string, line int) *TableDef {
	if t := c.Table(schema, name); t != nil {
		return t
	}
	t := &TableDef{Schema: schema, Name: name, Line: line}
	c.add(t)
	return t
}

// update records the columns an UPDATE of a known table sets to a
// literal without comparing them in its WHERE (TableDef.LiteralSet).
// Anything else about data changes nothing.
func (c *Catalog) update(text string) {
	st := Parse(text)
	if st.Kind != KindUpdate || st.Table.Name == "" {
		return
	}
	t := c.Table(st.Table.Schema, st.Table.Name)
	if t == nil {
		return
	}
	for _, a := range st.Set {
		if a.Value.Kind != ExprLiteral || a.SelfReferential || slices.Contains(t.LiteralSet, a.Column) {
			continue
		}
		compared := false
		if st.Where != nil {
			for _, cmp := range st.Where.Comparisons {
				if strings.EqualFold(cmp.Column.Name, a.Column) {
					compared = true
				}
			}
		}
		if !compared {
			t.LiteralSet = append(t.LiteralSet, a.Column)
		}
	}
}

// Exec applies the statements of script to the catalog and returns the
// problems found. A statement that is not understood changes nothing.
func (c *Catalog) Exec(script string) []DDLProblem {
	lx := lex(script)
	lines := newLineIndex(script)
	var problems []DDLProblem
	toks := lx.tokens
	if n := len(toks); n > 0 && toks[n-1].kind == tokInvalid && toks[n-1].end() == len(script) && len(toks[n-1].text) > 1 {
		// An unterminated literal runs to the end of the text.
		problems = append(problems, DDLProblem{Line: lines.line(toks[n-1].pos), Msg: "unterminated quoted text; the rest of the text is not read"})
		toks = toks[:n-1]
	}
	if lx.unterminatedComment {
		from := 0
		if len(toks) > 0 {
			from = toks[len(toks)-1].end()
		}
		if i := strings.Index(script[from:], "/*"); i >= 0 {
			from += i
		}
		problems = append(problems, DDLProblem{Line: lines.line(from), Msg: "unterminated /* comment; the rest of the text is not read"})
	}
	start := 0
	for i := 0; i <= len(toks); i++ {
		if i < len(toks) && !toks[i].isPunct(";") {
			continue
		}
		if i > start {
			if toks[start].kind == tokWord && strings.EqualFold(toks[start].text, "update") {
				c.update(script[toks[start].pos:toks[i-1].end()])
				start = i + 1
				continue
			}
			p := newDDLParser(script, toks[start:i], lines)
			if msg := p.statement(c); msg != "" {
				problems = append(problems, DDLProblem{Line: p.line, Msg: msg})
			}
		}
		start = i + 1
	}
	return problems
}

// lineIndex maps byte offsets to 1-based line numbers.
type lineIndex []int // offsets of line starts

func newLineIndex(s string) lineIndex {
	idx := lineIndex{0}
	for i := 0; i < len(s); i++ {
		if s[i] == '\n' {
			idx = append(idx, i+1)
		}
	}
	return idx
}

func (l lineIndex) line(pos int) int {
	return sort.Search(len(l), func(i int) bool { return l[i] > pos })
}

// ddlParser reads one statement's tokens.
type ddlParser struct {
	src   string
	toks  []token
	close []int // close[i]: index of the ')' closing the '(' at i, or len(toks)
	pos   int
	lines lineIndex
	line  int
	// verb names the statement in problems ("CREATE TABLE users").
	verb string
}

// ddlError aborts the statement with a message.
type ddlError string

func newDDLParser(src string, toks []token, lines lineIndex) *ddlParser {
	p := &ddlParser{src: src, toks: toks, lines: lines, line: lines.line(toks[0].pos)}
	p.close = make([]int, len(toks))
	var open []int
	for i, t := range toks {
		switch {
		case t.isPunct("("):
			open = append(open, i)
			p.close[i] = len(toks)
		case t.isPunct(")"):
			if len(open) > 0 {
				p.close[open[len(open)-1]] = i
				open = open[:len(open)-1]
			}
		}
	}
	return p
}

var ddlEOF = token{kind: tokEOF, placeholder: -1}

func (p *ddlParser) peekAt(k int) token {
	if p.pos+k < len(p.toks) {
		return p.toks[p.pos+k]
	}
	return ddlEOF
}

// checkValid fails on a token the tokenizer could not read anywhere in the
// statement: a recognised statement holding one is skipped, not guessed.
func (p *ddlParser) checkValid() {
	for _, t := range p.toks {
		if t.kind == tokInvalid {
			p.fail("unexpected " + describeToken(t))
		}
	}
}

func (p *ddlParser) peek() token { return p.peekAt(0) }
func (p *ddlParser) atEnd() bool { return p.pos >= len(p.toks) }

func (p *ddlParser) next() token {
	t := p.peek()
	if t.kind == tokInvalid {
		p.fail("unexpected " + describeToken(t))
	}
	if p.pos < len(p.toks) {
		p.pos++
	}
	return t
}

func (p *ddlParser) atWord(w string) bool { return p.peek().isWord(w) }

func (p *ddlParser) acceptWord(w string) bool {
	if p.atWord(w) {
		p.pos++
		return true
	}
	return false
}

// acceptWords consumes the words ws if they all come next.
func (p *ddlParser) acceptWords(ws ...string) bool {
	for i, w := range ws {
		if !p.peekAt(i).isWord(w) {
			return false
		}
	}
	p.pos += len(ws)
	return true
}

func (p *ddlParser) fail(msg string) { panic(ddlError(msg)) }

func (p *ddlParser) expectWord(w string) {
	if !p.acceptWord(w) {
		p.fail(strings.ToUpper(w) + " expected, found " + describeToken(p.peek()))
	}
}

// skip consumes one token, or a parenthesised group.
func (p *ddlParser) skip() {
	if p.peek().isPunct("(") {
		p.pos = min(p.close[p.pos]+1, len(p.toks))
		return
	}
	p.next()
}

// group returns the token range inside the parenthesised group at the
// current position and moves past it.
func (p *ddlParser) group(what string) (first, end int) {
	if !p.peek().isPunct("(") {
		p.fail("( expected before " + what + ", found " + describeToken(p.peek()))
	}
	open := p.pos
	closeAt := p.close[open]
	if closeAt >= len(p.toks) {
		p.fail(what + " is not closed")
	}
	p.pos = closeAt + 1
	return open + 1, closeAt
}

// split returns the ranges of the comma-separated items in first..end.
func (p *ddlParser) split(first, end int) [][2]int {
	var items [][2]int
	start := first
	for i := first; i < end; i++ {
		switch t := p.toks[i]; {
		case t.isPunct("("):
			i = p.close[i]
		case t.isPunct(","):
			items = append(items, [2]int{start, i})
			start = i + 1
		}
	}
	return append(items, [2]int{start, end})
}

// sub returns a parser over the tokens first..end.
func (p *ddlParser) sub(first, end int) *ddlParser {
	q := *p
	q.toks = p.toks[:end]
	q.pos = first
	return &q
}

func (p *ddlParser) text(first, end int) string {
	if first >= end {
		return ""
	}
	return p.src[p.toks[first].pos:p.toks[end-1].end()]
}

// name reads an identifier.
func (p *ddlParser) name(what string) string {
	t := p.peek()
	if !t.isName() {
		p.fail(what + " expected, found " + describeToken(t))
	}
	p.next()
	return t.word
}

// qualifiedName reads name, schema.name or catalog.schema.name.
func (p *ddlParser) qualifiedName(what string) (schema, name string) {
	name = p.name(what)
	for p.peek().isPunct(".") && p.peekAt(1).isName() {
		p.pos++
		schema, name = name, p.next().word
	}
	return schema, name
}

func qualified(schema, name string) string {
	if schema == "" {
		return name
	}
	return schema + "." + name
}

// statement applies one statement to c, or returns why it was skipped.
func (p *ddlParser) statement(c *Catalog) (problem string) {
	defer func() {
		if r := recover(); r != nil {
			msg, ok := r.(ddlError)
			if !ok {
				panic(r)
			}
			problem = "skipped " + p.verb + ": " + string(msg)
		}
	}()
	switch {
	case p.acceptWord("create"):
		p.acceptWords("or", "replace")
		for p.acceptWord("global") || p.acceptWord("local") || p.acceptWord("temp") || p.acceptWord("temporary") || p.acceptWord("unlogged") {
		}
		switch {
		case p.acceptWord("table"):
			p.verb = "CREATE TABLE"
			p.checkValid()
			p.createTable(c)
		case p.atWord("unique"):
			p.next()
			p.verb = "CREATE UNIQUE INDEX"
			p.checkValid()
			p.expectWord("index")
			p.createUniqueIndex(c)
		}
	case p.acceptWord("alter"):
		switch {
		case p.acceptWord("table"):
			p.verb = "ALTER TABLE"
			p.checkValid()
			p.alterTable(c)
		case p.acceptWord("index"):
			p.verb = "ALTER INDEX"
			p.checkValid()
			p.alterIndex(c)
		}
	case p.acceptWord("drop"):
		p.acceptWord("temporary")
		switch {
		case p.acceptWord("table"):
			p.verb = "DROP TABLE"
			p.checkValid()
			p.dropTable(c)
		case p.acceptWord("index"):
			p.verb = "DROP INDEX"
			p.checkValid()
			p.dropIndex(c)
		}
	case p.atWord("rename") && p.peekAt(1).isWord("table"):
		p.pos += 2
		p.verb = "RENAME TABLE"
		p.checkValid()
		p.renameTables(c)
	}
	return ""
}

func (p *ddlParser) createTable(c *Catalog) {
	ifNotExists := p.acceptWords("if", "not", "exists")
	schema, name := p.qualifiedName("table name")
	p.verb += " " + qualified(schema, name)
	old := c.Table(schema, name)
	if old != nil && old.Created && ifNotExists {
		return
	}
	t := &TableDef{Schema: schema, Name: name, Created: true, Complete: true, Line: p.line}
	if old != nil && !old.Created {
		// Keys declared before the table (by another file's statements)
		// still hold.
		t.Keys = append(t.Keys, old.Keys...)
	}
	switch {
	case p.atWord("partition") || p.atWord("of") || p.atWord("as") || p.atWord("like"):
		t.Complete = false
	default:
		first, end := p.group("the column list")
		for _, item := range p.split(first, end) {
			if item[0] == item[1] {
				if first == end {
					break // CREATE TABLE t () is valid in PostgreSQL
				}
				p.fail("empty item in the column list")
			}
			p.sub(item[0], item[1]).tableElement(t)
		}
		for !p.atEnd() {
			if p.atWord("inherits") || p.atWord("as") {
				t.Complete = false
			}
			p.skip()
		}
	}
	if old != nil {
		c.replace(old, t)
	} else {
		c.add(t)
	}
}

// elementStart reports whether the element begins with a table constraint
// or index rather than a column.
func (p *ddlParser) elementStart() bool {
	t, n := p.peek(), p.peekAt(1)
	switch {
	case t.kind != tokWord:
		return false
	case t.word == "constraint" || t.word == "unique" || t.word == "check" || t.word == "foreign" || t.word == "like" || t.word == "fulltext" || t.word == "spatial":
		return true
	case t.word == "primary":
		return n.isWord("key")
	case t.word == "exclude":
		return n.isWord("using") || n.isPunct("(")
	case t.word == "period":
		return n.isWord("for")
	case t.word == "key" || t.word == "index":
		return p.indexShape(1)
	}
	return false
}

// indexShape reports whether the tokens from offset k read as MySQL's
// "[name] [USING method] (column, …)" rather than a column's type: a
// column named key or index has a type, and a type's parenthesis holds
// numbers.
func (p *ddlParser) indexShape(k int) bool {
	if p.peekAt(k).isName() && !p.peekAt(k).isWord("using") && !p.peekAt(k+1).isPunct(".") {
		if !p.peekAt(k+1).isPunct("(") && !p.peekAt(k+1).isWord("using") {
			return false
		}
		k++
	}
	if p.peekAt(k).isWord("using") {
		return true
	}
	return p.peekAt(k).isPunct("(") && p.peekAt(k+1).kind != tokNumber
}

// tableElement reads one item of CREATE TABLE's list into t.
func (p *ddlParser) tableElement(t *TableDef) {
	if !p.elementStart() {
		col, keys := p.columnDef()
		t.Columns = append(t.Columns, col)
		t.Keys = append(t.Keys, keys...)
		return
	}
	if p.atWord("like") {
		t.Complete = false
		return
	}
	if k, ok := p.tableConstraint(); ok {
		t.Keys = append(t.Keys, k)
	}
}

// tableConstraint reads a table constraint or MySQL index line and returns
// the unique key it declares, if any.
func (p *ddlParser) tableConstraint() (UniqueKey, bool) {
	line := p.lines.line(p.peek().pos)
	constraintName := ""
	if p.acceptWord("constraint") {
		if !p.atWord("primary") && !p.atWord("unique") && !p.atWord("check") && !p.atWord("foreign") && !p.atWord("exclude") {
			constraintName = p.name("constraint name")
		}
	}
	k := UniqueKey{Name: constraintName, Line: line}
	switch {
	case p.acceptWords("primary", "key"):
		k.Primary = true
	case p.acceptWord("unique"):
		if p.acceptWord("nulls") {
			p.acceptWord("not")
			p.expectWord("distinct")
		}
		if p.acceptWord("key") || p.acceptWord("index") {
			k.Index = true
		}
	case p.atWord("check") || p.atWord("foreign") || p.atWord("exclude") || p.atWord("key") || p.atWord("index") || p.atWord("fulltext") || p.atWord("spatial") || p.atWord("period"):
		return k, false
	default:
		p.fail("constraint expected, found " + describeToken(p.peek()))
	}
	if p.atWord("using") && p.peekAt(1).isWord("index") {
		p.fail("USING INDEX in CREATE TABLE")
	}
	if p.peek().isName() && !p.atWord("using") {
		// MySQL's index name wins over the constraint's symbol.
		k.Name = p.name("index name")
	}
	if p.acceptWord("using") {
		p.name("index method")
	}
	p.keyParts(&k)
	return k, true
}

// keyParts reads "(part, …)" into k.
func (p *ddlParser) keyParts(k *UniqueKey) {
	first, end := p.group("the key's columns")
	if first == end {
		p.fail("a key without columns")
	}
	for _, item := range p.split(first, end) {
		if item[0] == item[1] {
			p.fail("empty key part")
		}
		k.Parts = append(k.Parts, p.text(item[0], item[1]))
		col, ok := p.plainPart(item[0], item[1])
		if !ok {
			k.Expression = true
			continue
		}
		k.Columns = append(k.Columns, col)
	}
	if k.Expression {
		k.Columns = nil
	}
}

// plainPart reads a key part that is a column, possibly with a prefix
// length, a collation, an operator class, a direction and a NULLS order.
func (p *ddlParser) plainPart(first, end int) (string, bool) {
	col := p.toks[first]
	if !col.isName() {
		return "", false
	}
	for i := first + 1; i < end; i++ {
		switch t := p.toks[i]; {
		case t.isPunct("("):
			// MySQL prefix length: email(191). Anything else is a call.
			c := p.close[i]
			if c != i+2 || p.toks[i+1].kind != tokNumber || i != first+1 {
				return "", false
			}
			i = c
		case t.isPunct("."):
			// A qualified operator class or collation (pg_catalog."C"),
			// not a qualified column.
			if i == first+1 {
				return "", false
			}
		case t.kind == tokWord || t.kind == tokQuotedIdent:
		default:
			return "", false
		}
	}
	return col.word, true
}

// columnTerminators are the words that end a column's type and start its
// constraints.
var columnTerminators = map[string]bool{
	"constraint": true, "primary": true, "unique": true, "not": true, "null": true,
	"default": true, "check": true, "references": true, "collate": true, "generated": true,
	"auto_increment": true, "autoincrement": true, "identity": true, "comment": true,
	"on": true, "key": true, "as": true, "visible": true, "invisible": true, "storage": true,
	"column_format": true, "srid": true, "compression": true, "charset": true,
}

func (p *ddlParser) atColumnTerminator() bool {
	t := p.peek()
	if t.kind != tokWord {
		return false
	}
	if t.word == "character" {
		return p.peekAt(1).isWord("set")
	}
	return columnTerminators[t.word]
}

// columnDef reads "name [type] [constraints]" and returns the column and
// the keys its inline constraints declare.
func (p *ddlParser) columnDef() (ColumnDef, []UniqueKey) {
	line := p.lines.line(p.peek().pos)
	col := ColumnDef{Name: p.name("column name"), Line: line}
	typeStart := p.pos
	for !p.atEnd() && !p.atColumnTerminator() {
		switch t := p.peek(); {
		case t.kind == tokWord || t.kind == tokQuotedIdent || t.kind == tokNumber || t.isPunct("(") || t.isPunct("[") || t.isPunct("]") || t.isPunct("."):
			p.skip()
		default:
			p.fail("unexpected " + describeToken(t) + " in the type of column " + col.Name)
		}
	}
	col.Type = strings.ToLower(p.text(typeStart, p.pos))
	var keys []UniqueKey
	name := ""
	prev := ""
	for !p.atEnd() {
		t := p.peek()
		switch {
		case t.isWord("constraint"):
			p.next()
			name = p.name("constraint name")
			prev = "constraint"
			continue
		case t.isWord("primary") && p.peekAt(1).isWord("key"):
			p.pos += 2
			keys = append(keys, UniqueKey{Name: name, Columns: []string{col.Name}, Parts: []string{col.Name}, Primary: true, Line: line})
			prev = "key"
		case t.isWord("unique"):
			p.next()
			k := UniqueKey{Name: name, Columns: []string{col.Name}, Parts: []string{col.Name}, Line: line}
			if p.acceptWord("key") {
				k.Index = true
			}
			keys = append(keys, k)
			prev = "key"
		case t.isWord("key") && prev != "primary" && prev != "unique" && prev != "foreign":
			// MySQL: KEY alone in a column definition is PRIMARY KEY.
			p.next()
			keys = append(keys, UniqueKey{Name: name, Columns: []string{col.Name}, Parts: []string{col.Name}, Primary: true, Line: line})
			prev = "key"
		case t.isPunct(",") || t.isPunct(";"):
			p.fail("unexpected " + describeToken(t))
		default:
			prev = t.word
			p.skip()
			continue
		}
		name = ""
	}
	return col, keys
}

func (p *ddlParser) createUniqueIndex(c *Catalog) {
	p.acceptWord("concurrently")
	ifNotExists := p.acceptWords("if", "not", "exists")
	k := UniqueKey{Index: true, Line: p.line}
	indexSchema := ""
	if !p.atWord("on") && !p.atWord("using") {
		indexSchema, k.Name = p.qualifiedName("index name")
	}
	if p.acceptWord("using") { // MySQL: USING before ON
		p.name("index method")
	}
	p.expectWord("on")
	p.acceptWord("only")
	schema, name := p.qualifiedName("table name")
	if schema == "" {
		schema = indexSchema // SQLite qualifies the index, not the table
	}
	if k.Name != "" {
		p.verb += " " + k.Name
	}
	p.verb += " ON " + qualified(schema, name)
	if p.acceptWord("using") {
		p.name("index method")
	}
	p.keyParts(&k)
	for !p.atEnd() {
		if p.acceptWord("where") {
			if p.atEnd() {
				p.fail("WHERE without a predicate")
			}
			k.Where = p.text(p.pos, len(p.toks))
			break
		}
		p.skip()
	}
	t := c.table(schema, name, p.line)
	if ifNotExists && k.Name != "" && t.keyIndex(k.Name) >= 0 {
		return
	}
	t.Keys = append(t.Keys, k)
}

// keyIndex returns the index in t.Keys of the key named name, or -1. An
// unnamed key also answers to the name the database gave it: PostgreSQL's
// t_pkey, t_a_b_key and t_a_b_idx, MySQL's PRIMARY and the first column's
// name.
func (t *TableDef) keyIndex(name string) int {
	for i, k := range t.Keys {
		if k.Name != "" && strings.EqualFold(k.Name, name) {
			return i
		}
	}
	for i, k := range t.Keys {
		if k.Name == "" && len(k.Columns) > 0 && slices.ContainsFunc(defaultKeyNames(t.Name, k), func(d string) bool { return strings.EqualFold(d, name) }) {
			return i
		}
	}
	return -1
}

func defaultKeyNames(table string, k UniqueKey) []string {
	if k.Primary {
		return []string{table + "_pkey", "PRIMARY"}
	}
	cols := strings.Join(k.Columns, "_")
	return []string{table + "_" + cols + "_key", table + "_" + cols + "_idx", k.Columns[0]}
}

func (t *TableDef) columnIndex(name string) int {
	for _, fold := range []bool{false, true} {
		for i, c := range t.Columns {
			if c.Name == name || (fold && strings.EqualFold(c.Name, name)) {
				return i
			}
		}
	}
	return -1
}

// dropColumn removes a column and the keys that contain it.
func (t *TableDef) dropColumn(name string) {
	if i := t.columnIndex(name); i >= 0 {
		t.Columns = append(t.Columns[:i:i], t.Columns[i+1:]...)
	}
	keys := t.Keys[:0:0]
	for _, k := range t.Keys {
		if !containsFold(k.Columns, name) {
			keys = append(keys, k)
		}
	}
	t.Keys = keys
}

func (t *TableDef) renameColumn(from, to string) {
	if i := t.columnIndex(from); i >= 0 {
		t.Columns[i].Name = to
	}
	for i, k := range t.Keys {
		if !containsFold(k.Columns, from) {
			continue
		}
		cols := append([]string(nil), k.Columns...)
		for j, c := range cols {
			if strings.EqualFold(c, from) {
				cols[j] = to
			}
		}
		t.Keys[i].Columns = cols
	}
}

func (t *TableDef) dropKey(name string) {
	if i := t.keyIndex(name); i >= 0 {
		t.Keys = append(t.Keys[:i:i], t.Keys[i+1:]...)
	}
}

func containsFold(list []string, s string) bool {
	for _, x := range list {
		if strings.EqualFold(x, s) {
			return true
		}
	}
	return false
}

func (p *ddlParser) alterTable(c *Catalog) {
	p.acceptWords("if", "exists")
	p.acceptWord("only")
	schema, name := p.qualifiedName("table name")
	if p.peek().isOp("*") {
		p.next()
	}
	p.verb += " " + qualified(schema, name)
	// Every action is read before any is applied, so that a statement
	// that is not understood changes nothing.
	var actions []func(*TableDef)
	for _, item := range p.split(p.pos, len(p.toks)) {
		if item[0] == item[1] {
			p.fail("empty action")
		}
		if a := p.sub(item[0], item[1]).alterAction(c); a != nil {
			actions = append(actions, a)
		}
	}
	t := c.table(schema, name, p.line)
	for _, a := range actions {
		a(t)
	}
}

// alterAction reads one action of ALTER TABLE and returns what it does to
// the table (nil for nothing).
func (p *ddlParser) alterAction(c *Catalog) func(*TableDef) {
	switch {
	case p.acceptWord("add"):
		if p.acceptWord("column") {
			p.acceptWords("if", "not", "exists")
			return p.addColumn()
		}
		if p.elementStart() {
			if p.atWord("like") {
				p.fail("LIKE in ALTER TABLE")
			}
			if a, ok := p.usingIndex(); ok {
				return a
			}
			if k, ok := p.tableConstraint(); ok {
				return func(t *TableDef) { t.Keys = append(t.Keys, k) }
			}
			return nil
		}
		p.acceptWords("if", "not", "exists")
		return p.addColumn()
	case p.acceptWord("drop"):
		switch {
		case p.acceptWord("column"):
			p.acceptWords("if", "exists")
			col := p.name("column name")
			return func(t *TableDef) { t.dropColumn(col) }
		case p.acceptWord("constraint"):
			p.acceptWords("if", "exists")
			key := p.name("constraint name")
			return func(t *TableDef) { t.dropKey(key) }
		case p.acceptWords("primary", "key"):
			return func(t *TableDef) {
				t.Keys = slices.DeleteFunc(t.Keys, func(k UniqueKey) bool { return k.Primary })
			}
		case p.acceptWord("index") || p.acceptWord("key"):
			key := p.name("index name")
			return func(t *TableDef) { t.dropKey(key) }
		case p.atWord("foreign") || p.atWord("check") || p.atWord("default") || p.atWord("partition"):
			return nil
		default:
			p.acceptWords("if", "exists")
			col := p.name("column name")
			return func(t *TableDef) { t.dropColumn(col) }
		}
	case p.acceptWord("rename"):
		switch {
		case p.acceptWord("to") || p.acceptWord("as"):
			schema, name := p.qualifiedName("table name")
			return func(t *TableDef) { c.rename(t, schema, name) }
		case p.acceptWord("constraint") || p.acceptWord("index") || p.acceptWord("key"):
			from := p.name("name")
			p.expectWord("to")
			to := p.name("name")
			return func(t *TableDef) {
				if i := t.keyIndex(from); i >= 0 {
					t.Keys[i].Name = to
				}
			}
		default:
			p.acceptWord("column")
			from := p.name("column name")
			p.expectWord("to")
			to := p.name("column name")
			return func(t *TableDef) { t.renameColumn(from, to) }
		}
	case p.acceptWord("modify"):
		p.acceptWord("column")
		return p.redefineColumn("")
	case p.acceptWord("change"):
		p.acceptWord("column")
		return p.redefineColumn(p.name("column name"))
	}
	// ALTER COLUMN, OWNER TO, SET …, ENABLE …, ATTACH PARTITION and the
	// rest change no column set or key.
	return nil
}

// usingIndex reads PostgreSQL's "[CONSTRAINT n] UNIQUE|PRIMARY KEY USING
// INDEX i", which turns an existing unique index into a constraint. It
// consumes nothing when the action is not of that form.
func (p *ddlParser) usingIndex() (func(*TableDef), bool) {
	save := p.pos
	name := ""
	if p.acceptWord("constraint") && p.peek().isName() {
		name = p.next().word
	}
	primary := p.acceptWords("primary", "key")
	if (!primary && !p.acceptWord("unique")) || !p.acceptWords("using", "index") {
		p.pos = save
		return nil, false
	}
	index := p.name("index name")
	return func(t *TableDef) {
		i := t.keyIndex(index)
		if i < 0 {
			return // created in a file not read
		}
		if name != "" {
			t.Keys[i].Name = name
		}
		t.Keys[i].Index = false
		t.Keys[i].Primary = t.Keys[i].Primary || primary
	}, true
}

func (p *ddlParser) addColumn() func(*TableDef) {
	col, keys := p.columnDef()
	return func(t *TableDef) {
		if t.columnIndex(col.Name) >= 0 {
			return // ADD COLUMN IF NOT EXISTS of a column that exists
		}
		t.Columns = append(t.Columns, col)
		t.Keys = append(t.Keys, keys...)
	}
}

// redefineColumn reads MySQL's MODIFY col def or CHANGE old col def.
func (p *ddlParser) redefineColumn(old string) func(*TableDef) {
	col, keys := p.columnDef()
	return func(t *TableDef) {
		if old != "" && !strings.EqualFold(old, col.Name) {
			t.renameColumn(old, col.Name)
		}
		if i := t.columnIndex(col.Name); i >= 0 {
			t.Columns[i] = col
		} else {
			t.Columns = append(t.Columns, col)
		}
		t.Keys = append(t.Keys, keys...)
	}
}

func (p *ddlParser) alterIndex(c *Catalog) {
	p.acceptWords("if", "exists")
	_, from := p.qualifiedName("index name")
	p.verb += " " + from
	if !p.acceptWords("rename", "to") {
		return
	}
	to := p.name("index name")
	for _, t := range c.tables {
		if t == nil {
			continue
		}
		if k := t.keyIndex(from); k >= 0 {
			t.Keys[k].Name = to
		}
	}
}

func (p *ddlParser) dropTable(c *Catalog) {
	p.acceptWords("if", "exists")
	var names [][2]string
	for {
		schema, name := p.qualifiedName("table name")
		names = append(names, [2]string{schema, name})
		if !p.peek().isPunct(",") {
			break
		}
		p.next()
	}
	for _, n := range names {
		if t := c.Table(n[0], n[1]); t != nil {
			c.remove(t)
		}
	}
}

func (p *ddlParser) dropIndex(c *Catalog) {
	p.acceptWord("concurrently")
	p.acceptWords("if", "exists")
	var names []string
	for {
		_, name := p.qualifiedName("index name")
		names = append(names, name)
		if !p.peek().isPunct(",") {
			break
		}
		p.next()
	}
	tables := c.tables
	mysql := false
	if p.acceptWord("on") { // MySQL, where every unique key is an index
		schema, name := p.qualifiedName("table name")
		t := c.Table(schema, name)
		if t == nil {
			return
		}
		tables, mysql = []*TableDef{t}, true
	}
	for _, name := range names {
		for _, t := range tables {
			if t == nil {
				continue
			}
			if k := t.keyIndex(name); k >= 0 && (t.Keys[k].Index || mysql) {
				t.dropKey(name)
			}
		}
	}
}

func (p *ddlParser) renameTables(c *Catalog) {
	var pairs [][4]string
	for {
		fs, fn := p.qualifiedName("table name")
		p.expectWord("to")
		ts, tn := p.qualifiedName("table name")
		pairs = append(pairs, [4]string{fs, fn, ts, tn})
		if !p.peek().isPunct(",") {
			break
		}
		p.next()
	}
	for _, r := range pairs {
		if t := c.Table(r[0], r[1]); t != nil {
			c.rename(t, r[2], r[3])
		}
	}
}
