package sqltext

// This file parses the statements that write rows: INSERT (with its
// conflict clauses), UPDATE, DELETE and TRUNCATE.

func (p *parser) parseInsert(st *Statement) {
	st.Verb = p.next().word
	st.Kind = KindInsert
	var conflict *Conflict
	if st.Verb == "replace" {
		conflict = &Conflict{Syntax: ConflictReplace, Action: ActionReplace}
	}
	for !p.aborted {
		switch {
		case p.acceptWord("low_priority") || p.acceptWord("delayed") || p.acceptWord("high_priority"):
			continue
		case p.acceptWord("ignore"):
			conflict = &Conflict{Syntax: ConflictIgnore, Action: ActionNothing}
			continue
		case p.atWord("or") && st.Verb == "insert":
			// SQLite: INSERT OR REPLACE | IGNORE | ABORT | FAIL | ROLLBACK.
			p.next()
			switch p.next().word {
			case "replace":
				conflict = &Conflict{Syntax: ConflictReplace, Action: ActionReplace}
			case "ignore":
				conflict = &Conflict{Syntax: ConflictIgnore, Action: ActionNothing}
			case "abort", "fail", "rollback":
			default:
				p.unknown(st, "insert: unknown OR clause")
			}
			continue
		}
		break
	}
	p.acceptWord("into")
	table, ok := p.parseTableName()
	if !ok {
		st.Kind = KindUnknown
		p.unknown(st, "insert: no table")
		p.skipRest()
		return
	}
	st.Table = table
	if p.atWord("as") && p.peekAt(1).isName() {
		// PostgreSQL: INSERT INTO t AS alias.
		p.next()
		st.Table.Alias = p.next().word
	}
	if p.atWord("partition") && p.peekAt(1).isPunct("(") {
		p.next()
		p.jumpPast(p.closing(p.pos))
	}
	if p.peek().isPunct("(") && !startsQuery(p.peekAt(1), p.peekAt(2)) {
		p.parseInsertColumns(st)
	}
	if p.acceptWord("overriding") {
		p.next()
		p.acceptWord("value")
	}
	p.parseInsertSource(st)
	sc := &scope{excluded: []string{"excluded"}}
	if p.atWord("as") && p.peekAt(1).isName() {
		// MySQL 8.0.19+: VALUES (…) AS new [(a, b)] ON DUPLICATE KEY UPDATE c = new.c.
		p.next()
		sc.excluded = append(sc.excluded, p.next().word)
		if p.peek().isPunct("(") {
			p.jumpPast(p.closing(p.pos))
			sc.aliasColumns = true
		}
	}
	for p.atWords("on", "conflict") || p.atWords("on", "duplicate") {
		if conflict != nil && conflict.Syntax == ConflictOnConflict {
			p.unknown(st, "insert: several ON CONFLICT clauses")
		}
		p.next() // on
		conflict = p.parseConflictClause(st, sc)
	}
	if conflict != nil {
		st.Kind = KindUpsert
		st.Conflict = conflict
		if conflict.Unknown {
			p.unknown(st, "conflict clause")
		}
	}
	if p.acceptWord("returning") {
		st.Returning = p.parseResultColumns(st, "returning")
	}
}

func (p *parser) parseInsertColumns(st *Statement) {
	closeAt := p.closing(p.pos)
	p.next() // (
	for p.pos < closeAt {
		ref, ok := p.parseTableName() // a column: [t.]name
		if !ok {
			p.unknown(st, "insert columns: unexpected "+describeToken(p.peek()))
			st.InsertColumns = nil
			p.jumpPast(closeAt)
			return
		}
		st.InsertColumns = append(st.InsertColumns, ref.Name)
		if !p.acceptPunct(",") {
			break
		}
	}
	if !p.acceptPunct(")") {
		p.unknown(st, "insert columns: unexpected "+describeToken(p.peek()))
		st.InsertColumns = nil
		p.jumpPast(closeAt)
	}
}

func (p *parser) parseInsertSource(st *Statement) {
	t := p.peek()
	switch {
	case t.isWord("values") || t.isWord("value"):
		p.next()
		for !p.aborted {
			p.acceptWord("row") // MySQL: VALUES ROW(…), ROW(…)
			if !p.peek().isPunct("(") {
				p.unknown(st, "values: unexpected "+describeToken(p.peek()))
				return
			}
			st.InsertRows = append(st.InsertRows, p.parseValuesRow(st))
			if !p.acceptPunct(",") {
				return
			}
		}
	case t.isWord("default") && p.peekAt(1).isWord("values"):
		p.pos += 2
	case t.isWord("select") || t.isWord("with") || t.isPunct("(") || t.isWord("table"):
		sub := &Statement{}
		outer := p.cur
		p.cur = sub
		start := p.pos
		if p.atWord("with") {
			p.parseWith(sub)
		}
		p.parseQuery(sub)
		sub.Placeholders = p.placeholdersIn(start, p.pos-1)
		p.cur = outer
		st.InsertQuery = sub
		p.merge(st, sub)
	case t.isWord("set"):
		// MySQL: INSERT INTO t SET a = 1, b = ?.
		p.next()
		var row []Expr
		for _, a := range p.parseAssignments(st, TableRef{}, nil, "insert set") {
			st.InsertColumns = append(st.InsertColumns, a.Column)
			row = append(row, a.Value)
		}
		st.InsertRows = [][]Expr{row}
	default:
		st.Kind = KindUnknown
		p.unknown(st, "insert: unexpected "+describeToken(t))
		p.skipRest()
	}
}

func (p *parser) parseValuesRow(st *Statement) []Expr {
	closeAt := p.closing(p.pos)
	p.next() // (
	var row []Expr
	for p.pos < closeAt && !p.aborted {
		n := p.parseExpr(0)
		e := p.exprSummary(n, nil)
		if e.Kind == ExprUnknown {
			p.unknown(st, "values: "+unknownReason(n))
			for p.pos < closeAt && !p.peek().isPunct(",") {
				p.skipOne()
			}
		}
		row = append(row, e)
		if !p.acceptPunct(",") {
			break
		}
	}
	if !p.acceptPunct(")") {
		p.unknown(st, "values: unexpected "+describeToken(p.peek()))
		p.jumpPast(closeAt)
	}
	if st.InsertColumns != nil && len(row) != len(st.InsertColumns) {
		p.unknown(st, "values: row length differs from the column list")
	}
	return row
}

// parseConflictClause parses what follows ON: CONFLICT … or DUPLICATE KEY
// UPDATE ….
func (p *parser) parseConflictClause(st *Statement, sc *scope) *Conflict {
	if p.acceptWords("duplicate", "key", "update") {
		c := &Conflict{Syntax: ConflictOnDuplicateKey, Action: ActionUpdate}
		mysql := &scope{excluded: sc.excluded[1:], valuesFunc: true, aliasColumns: sc.aliasColumns}
		c.Set = p.parseAssignments(st, st.Table, mysql, "on duplicate key update")
		c.Unknown = sc.aliasColumns || anyUnknownValue(c.Set)
		return c
	}
	p.next() // conflict
	c := &Conflict{Syntax: ConflictOnConflict}
	switch {
	case p.peek().isPunct("("):
		p.parseConflictTarget(st, c)
		if p.atWord("where") {
			c.TargetWhere = p.parseWhere(st)
			c.Unknown = c.Unknown || c.TargetWhere.Unknown
		}
	case p.acceptWords("on", "constraint"):
		if !p.peek().isName() {
			c.Unknown = true
			return c
		}
		c.TargetConstraint = p.next().word
	}
	if !p.acceptWord("do") {
		c.Unknown = true
		p.unknown(st, "on conflict: unexpected "+describeToken(p.peek()))
		return c
	}
	switch {
	case p.acceptWord("nothing"):
		c.Action = ActionNothing
	case p.acceptWord("update"):
		c.Action = ActionUpdate
		if p.acceptWord("set") {
			c.Set = p.parseAssignments(st, st.Table, sc, "on conflict do update")
			c.Unknown = c.Unknown || anyUnknownValue(c.Set)
		} else if !p.fragment {
			// bun's On("CONFLICT (x) DO UPDATE") leaves SET to .Set();
			// a whole statement needs it.
			c.Unknown = true
			p.unknown(st, "on conflict: DO UPDATE without SET")
		}
		if p.atWord("where") {
			c.Where = p.parseWhere(st)
			c.Unknown = c.Unknown || c.Where.Unknown
		}
	default:
		c.Unknown = true
		p.unknown(st, "on conflict: unexpected "+describeToken(p.peek()))
	}
	return c
}

// parseConflictTarget parses ON CONFLICT's (col [COLLATE c] [opclass], …).
func (p *parser) parseConflictTarget(st *Statement, c *Conflict) {
	closeAt := p.closing(p.pos)
	p.next() // (
	for p.pos < closeAt && !p.aborted {
		t := p.peek()
		after := p.peekAt(1)
		if t.isName() && (after.isPunct(",") || after.isPunct(")") || after.isWord("collate") || after.kind == tokWord) {
			p.next()
			c.TargetColumns = append(c.TargetColumns, t.word)
			if p.acceptWord("collate") {
				p.next()
			}
			if p.peek().kind == tokWord { // operator class
				p.next()
			}
		} else {
			// An index expression: ON CONFLICT (lower(email)).
			c.Unknown = true
			p.unknown(st, "on conflict: expression target")
			for p.pos < closeAt && !p.peek().isPunct(",") {
				p.skipOne()
			}
		}
		if !p.acceptPunct(",") {
			break
		}
	}
	if !p.acceptPunct(")") {
		c.Unknown = true
		p.unknown(st, "on conflict: unexpected "+describeToken(p.peek()))
		p.jumpPast(closeAt)
	}
	if c.Unknown {
		c.TargetColumns = nil
	}
}

func anyUnknownValue(set []Assignment) bool {
	for _, a := range set {
		if a.Value.Kind == ExprUnknown {
			return true
		}
	}
	return false
}

func (p *parser) parseUpdate(st *Statement) {
	st.Verb = p.next().word
	st.Kind = KindUpdate
	for p.acceptWord("low_priority") || p.acceptWord("ignore") {
	}
	if p.atWord("or") {
		// SQLite: UPDATE OR REPLACE | IGNORE | ….
		p.next()
		p.next()
	}
	p.acceptWord("only")
	table, ok := p.parseTableName()
	if !ok {
		st.Kind = KindUnknown
		p.unknown(st, "update: no table")
		p.skipRest()
		return
	}
	p.acceptOp("*")
	table.Alias = p.parseAlias()
	p.skipTableHints()
	st.Table = table
	if p.peek().isPunct(",") || p.atJoin() {
		// MySQL multi-table UPDATE: the SET columns may belong to any
		// of the tables.
		for p.acceptPunct(",") || p.atJoin() {
			if p.atJoin() {
				p.parseJoin(st)
			} else {
				p.parseFromItem(st, false)
			}
		}
		p.unknown(st, "multi-table UPDATE")
	}
	if !p.acceptWord("set") {
		st.Kind = KindUnknown
		p.unknown(st, "update: unexpected "+describeToken(p.peek()))
		p.skipRest()
		return
	}
	st.Set = p.parseAssignments(st, st.Table, nil, "set")
	if p.acceptWord("from") {
		p.parseFromList(st, false)
	}
	if p.atWord("where") {
		st.Where = p.parseWhere(st)
	}
	p.parseQueryTail(st) // MySQL/SQLite ORDER BY … LIMIT …
	if p.acceptWord("returning") {
		st.Returning = p.parseResultColumns(st, "returning")
	}
}

func (p *parser) parseDelete(st *Statement) {
	st.Verb = p.next().word
	st.Kind = KindDelete
	for p.acceptWord("low_priority") || p.acceptWord("quick") || p.acceptWord("ignore") {
	}
	if !p.acceptWord("from") {
		// MySQL multi-table DELETE: DELETE t1[, t2] FROM t1 JOIN t2 ….
		ref, ok := p.parseTableName()
		if !ok {
			st.Kind = KindUnknown
			p.unknown(st, "delete: unexpected "+describeToken(p.peek()))
			p.skipRest()
			return
		}
		st.Table = ref
		p.unknown(st, "multi-table DELETE")
		for !p.atStatementEnd() && !p.atWord("from") {
			p.skipOne()
		}
		if p.acceptWord("from") {
			p.parseFromList(st, false)
		}
	} else {
		p.acceptWord("only")
		ref, ok := p.parseTableName()
		if !ok {
			st.Kind = KindUnknown
			p.unknown(st, "delete: no table")
			p.skipRest()
			return
		}
		p.acceptOp("*")
		ref.Alias = p.parseAlias()
		st.Table = ref
		if p.peek().isPunct(",") {
			p.unknown(st, "multi-table DELETE")
			for p.acceptPunct(",") {
				p.parseFromItem(st, false)
			}
		}
	}
	if p.acceptWord("using") {
		p.parseFromList(st, false)
	}
	if p.atWord("where") {
		st.Where = p.parseWhere(st)
	}
	p.parseQueryTail(st)
	if p.acceptWord("returning") {
		st.Returning = p.parseResultColumns(st, "returning")
	}
}

// parseTruncate: TRUNCATE deletes every row of its tables.
func (p *parser) parseTruncate(st *Statement) {
	st.Verb = p.next().word
	st.Kind = KindDelete
	p.acceptWord("table")
	p.acceptWord("only")
	ref, ok := p.parseTableName()
	if !ok {
		st.Kind = KindUnknown
		p.unknown(st, "truncate: no table")
		p.skipRest()
		return
	}
	st.Table = ref
	if p.peek().isPunct(",") {
		p.unknown(st, "TRUNCATE of several tables")
	}
	p.skipRest()
}
