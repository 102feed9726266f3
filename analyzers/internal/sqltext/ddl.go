package sqltext

import (
	"slices"
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
