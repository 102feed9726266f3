package sqltext

import (
	"slices"
	"strings"
)

// What ALTER, DROP and RENAME do to a catalog's tables.

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
