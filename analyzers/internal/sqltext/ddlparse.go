package sqltext

import (
	"sort"
	"strings"
)

// The DDL parser: statements, CREATE TABLE and its elements, CREATE UNIQUE
// INDEX (ddl.go has the catalog they build).

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
