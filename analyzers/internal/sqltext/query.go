package sqltext

import "strings"

// This file parses queries: SELECT, VALUES, TABLE, their FROM lists,
// WHERE clauses and locking clauses.

func (p *parser) parseQuery(st *Statement) {
	st.Kind, st.Verb = KindSelect, "select"
	p.parseQueryTerm(st)
	compound := false
	for p.atWord("union") || p.atWord("intersect") || p.atWord("except") || p.atWord("minus") {
		p.next()
		if !p.acceptWord("all") {
			p.acceptWord("distinct")
		}
		compound = true
		branch := &Statement{}
		p.parseQueryTerm(branch)
		p.merge(st, branch)
	}
	if compound {
		p.unknown(st, "compound query (UNION, INTERSECT, EXCEPT)")
	}
	p.parseQueryTail(st)
}

// parseQueryTerm parses a SELECT core, a parenthesised query, VALUES or
// TABLE name.
func (p *parser) parseQueryTerm(st *Statement) {
	t := p.peek()
	switch {
	case t.isPunct("("):
		closeAt := p.closing(p.pos)
		if !p.enter() {
			return
		}
		p.next()
		savedEnd := p.end
		p.end = closeAt
		p.parseQuery(st)
		if !p.atStatementEnd() {
			p.recoverTo(st, "query", func(token) bool { return false })
		}
		p.end = savedEnd
		p.jumpPast(closeAt)
		p.leave()
	case t.isWord("select"):
		p.parseSelectCore(st)
	case t.isWord("values"):
		p.next()
		for p.peek().isPunct("(") {
			row := p.parseParen()
			if row.kind == nUnknown {
				p.unknown(st, "values: "+row.op)
			}
			if !p.acceptPunct(",") {
				break
			}
		}
	case t.isWord("table"):
		p.next()
		if ref, ok := p.parseTableName(); ok {
			st.Table = ref
		} else {
			p.unknown(st, "table: unexpected "+describeToken(p.peek()))
		}
	default:
		p.unknown(st, "query: unexpected "+describeToken(t))
	}
}

// selectModifiers are the words that may follow SELECT before its list.
var selectModifiers = map[string]bool{
	"all": true, "distinctrow": true, "high_priority": true, "straight_join": true,
	"sql_small_result": true, "sql_big_result": true, "sql_buffer_result": true,
	"sql_no_cache": true, "sql_cache": true, "sql_calc_found_rows": true,
}

// isSelectClause reports whether t starts a clause of a SELECT after its
// list, or a clause that ends the SELECT.
func isSelectClause(t token) bool {
	if t.kind != tokWord {
		return t.isPunct(")")
	}
	switch t.word {
	case "from", "where", "group", "having", "window", "order", "limit", "offset", "fetch", "for",
		"lock", "union", "intersect", "except", "minus", "into", "on", "returning":
		return true
	}
	return false
}

func (p *parser) parseSelectCore(st *Statement) {
	p.next() // select
	for {
		t := p.peek()
		if t.isWord("distinct") {
			p.next()
			if p.acceptWord("on") && p.peek().isPunct("(") {
				p.jumpPast(p.closing(p.pos))
			}
			continue
		}
		if t.kind == tokWord && selectModifiers[t.word] {
			p.next()
			continue
		}
		break
	}
	if !p.atStatementEnd() && !isSelectClause(p.peek()) {
		st.SelectList = p.parseResultColumns(st, "select")
	}
	if p.atWord("into") {
		p.unknown(st, "SELECT INTO")
		p.next()
		for !p.atStatementEnd() && !isSelectClause(p.peek()) {
			p.skipOne()
		}
	}
	if !p.atStatementEnd() && !isSelectClause(p.peek()) {
		p.recoverTo(st, "select", isSelectClause)
	}
	if p.acceptWord("from") {
		p.parseFromList(st, true)
		if !p.atStatementEnd() && !isSelectClause(p.peek()) {
			p.recoverTo(st, "from", isSelectClause)
		}
	}
	if p.atWord("where") {
		st.Where = p.parseWhere(st)
	}
	if p.acceptWords("group", "by") {
		p.parseExprList(st, "group by")
		p.acceptWords("with", "rollup")
	}
	if p.acceptWord("having") {
		n := p.parseExpr(0)
		p.conditionSummary(st, n, "having")
		p.skipUnparsed(n)
	}
	if p.acceptWord("window") {
		for p.peek().isName() && p.peekAt(1).isWord("as") && p.peekAt(2).isPunct("(") {
			p.pos += 2
			p.jumpPast(p.closing(p.pos))
			if !p.acceptPunct(",") {
				break
			}
		}
	}
	if !p.atStatementEnd() && !isSelectClause(p.peek()) {
		p.recoverTo(st, "select", isSelectClause)
	}
}

// parseQueryTail parses the clauses after a query's core, in any order:
// ORDER BY, LIMIT, OFFSET, FETCH, and the locking clauses (PostgreSQL
// accepts them before or after LIMIT).
func (p *parser) parseQueryTail(st *Statement) {
	for !p.aborted {
		switch {
		case p.acceptWords("order", "by"):
			p.parseOrderList(st)
		case p.acceptWord("limit"):
			if !p.acceptWord("all") {
				p.parseExprList(st, "limit")
			}
		case p.acceptWord("offset"):
			p.parseExprList(st, "offset")
			if !p.acceptWord("rows") {
				p.acceptWord("row")
			}
		case p.acceptWord("fetch"):
			if !p.acceptWord("first") {
				p.acceptWord("next")
			}
			if !p.atWord("row") && !p.atWord("rows") {
				p.parseExprList(st, "fetch")
			}
			if !p.acceptWord("rows") {
				p.acceptWord("row")
			}
			if !p.acceptWord("only") {
				p.acceptWords("with", "ties")
			}
		case p.atWord("for"):
			if p.acceptWords("for", "read", "only") {
				continue
			}
			p.next()
			lock, ok := p.parseRowLock()
			if !ok {
				p.unknown(st, "locking clause: unexpected "+describeToken(p.peek()))
				return
			}
			st.RowLocks = append(st.RowLocks, lock)
		case p.acceptWords("lock", "in", "share", "mode"):
			st.RowLocks = append(st.RowLocks, RowLock{Strength: LockInShareMode})
		case p.atWord("into"):
			// MySQL's SELECT … INTO @var / OUTFILE at the end.
			p.unknown(st, "SELECT INTO")
			p.next()
			for !p.atStatementEnd() && !isSelectClause(p.peek()) {
				p.skipOne()
			}
		default:
			return
		}
	}
}

// parseRowLock parses a locking clause after FOR: UPDATE | NO KEY UPDATE |
// SHARE | KEY SHARE, then [OF t, …] [NOWAIT | SKIP LOCKED].
func (p *parser) parseRowLock() (RowLock, bool) {
	var l RowLock
	switch {
	case p.acceptWord("update"):
		l.Strength = LockForUpdate
	case p.acceptWords("no", "key", "update"):
		l.Strength = LockForNoKeyUpdate
	case p.acceptWord("share"):
		l.Strength = LockForShare
	case p.acceptWords("key", "share"):
		l.Strength = LockForKeyShare
	default:
		return l, false
	}
	if p.acceptWord("of") {
		for {
			t := p.peek()
			if t.kind == tokPlaceholder {
				// bun: For("UPDATE OF ?TableAlias")
				p.next()
				l.Of = append(l.Of, t.text)
			} else if ref, ok := p.parseTableName(); ok {
				l.Of = append(l.Of, ref.Name)
			} else {
				return l, false
			}
			if !p.acceptPunct(",") {
				break
			}
		}
	}
	switch {
	case p.acceptWord("nowait"):
		l.Wait = LockNoWait
	case p.acceptWords("skip", "locked"):
		l.Wait = LockSkipLocked
	}
	return l, true
}

// parseResultColumns parses a SELECT or RETURNING list.
func (p *parser) parseResultColumns(st *Statement, part string) []ResultColumn {
	var out []ResultColumn
	for !p.aborted {
		n := p.parseExpr(0)
		rc := ResultColumn{Expr: p.exprSummary(n, nil)}
		if n.kind == nUnknown {
			p.unknown(st, part+": "+n.op)
			p.skipItem()
		} else {
			switch alias := p.parseAlias(); {
			case alias != "":
				rc.Name = alias
			case n.kind == nColumn:
				rc.Name = n.name
			case n.kind == nStar:
				rc.Name = "*"
			}
		}
		if rc.Expr.Kind == ExprUnknown && n.kind != nUnknown {
			p.unknown(st, part+": "+unknownReason(n))
		}
		out = append(out, rc)
		if !p.acceptPunct(",") {
			return out
		}
	}
	return out
}

// skipItem skips to the next ',' or clause keyword after a list item that
// failed to parse.
func (p *parser) skipItem() {
	for !p.atStatementEnd() && !p.peek().isPunct(",") && !isSelectClause(p.peek()) && !isClauseWord(p.peek()) {
		p.skipOne()
	}
}

// isClauseWord reports words that start a clause of some statement.
func isClauseWord(t token) bool {
	if t.kind != tokWord {
		return false
	}
	switch t.word {
	case "set", "values", "value", "select", "using", "do", "default", "where", "returning", "on", "from":
		return true
	}
	return false
}

// parseExprList parses a comma-separated list of expressions whose values
// no summary describes (GROUP BY, LIMIT), for the subqueries, advisory
// locks and unknown parts inside.
func (p *parser) parseExprList(st *Statement, part string) {
	for !p.aborted {
		n := p.parseExpr(0)
		if reason := unknownReason(n); reason != "" {
			p.unknown(st, part+": "+reason)
			p.skipItem()
		}
		if !p.acceptPunct(",") {
			return
		}
	}
}

func (p *parser) parseOrderList(st *Statement) {
	for !p.aborted {
		n := p.parseExpr(0)
		if reason := unknownReason(n); reason != "" {
			p.unknown(st, "order by: "+reason)
			p.skipItem()
		}
		if !p.acceptWord("asc") {
			p.acceptWord("desc")
		}
		if p.acceptWord("using") {
			p.next()
		}
		if p.acceptWord("nulls") {
			p.next()
		}
		if !p.acceptPunct(",") {
			return
		}
	}
}

// notAliases are words that cannot be a bare (AS-less) alias because they
// continue the statement.
var notAliases = func() map[string]bool {
	m := map[string]bool{}
	for w := range notOperands {
		m[w] = true
	}
	for _, w := range strings.Fields(`left right limit offset window lock values value set returning
		fetch natural minus tablesample partition default overriding read write low_priority
		nowait skip of key no share update use force ignore straight_join`) {
		m[w] = true
	}
	return m
}()

// parseAlias parses [AS] alias, returning "" when there is none.
func (p *parser) parseAlias() string {
	if p.atWord("as") && p.peekAt(1).isName() {
		p.next()
		return p.next().word
	}
	t := p.peek()
	if t.kind == tokQuotedIdent || (t.kind == tokWord && !notAliases[t.word]) {
		p.next()
		return t.word
	}
	return ""
}

// parseTableName parses [catalog.][schema.]name.
func (p *parser) parseTableName() (TableRef, bool) {
	t := p.peek()
	if !t.isName() || (t.kind == tokWord && notOperands[t.word]) {
		return TableRef{}, false
	}
	parts := []string{p.next().word}
	for len(parts) < 3 && p.peek().isPunct(".") && p.peekAt(1).isName() {
		p.next()
		parts = append(parts, p.next().word)
	}
	ref := TableRef{Name: parts[len(parts)-1]}
	if len(parts) > 1 {
		ref.Schema = parts[len(parts)-2]
	}
	return ref, true
}

func (p *parser) atJoin() bool {
	t := p.peek()
	if t.kind != tokWord {
		return false
	}
	switch t.word {
	case "join", "inner", "cross", "natural", "full", "straight_join":
		return true
	case "left", "right":
		return !p.peekAt(1).isPunct("(")
	}
	return false
}

// parseFromList parses FROM items and joins. With primary, the first item
// is the statement's main table.
func (p *parser) parseFromList(st *Statement, primary bool) {
	p.parseFromItem(st, primary)
	for !p.aborted {
		switch {
		case p.acceptPunct(","):
			p.parseFromItem(st, false)
		case p.atJoin():
			p.parseJoin(st)
		default:
			return
		}
	}
}

func (p *parser) parseJoin(st *Statement) {
	p.acceptWord("natural")
	switch {
	case p.acceptWord("left") || p.acceptWord("right") || p.acceptWord("full"):
		p.acceptWord("outer")
	case p.acceptWord("inner") || p.acceptWord("cross"):
	}
	if !p.acceptWord("join") && !p.acceptWord("straight_join") {
		p.unknown(st, "join: unexpected "+describeToken(p.peek()))
		return
	}
	p.parseFromItem(st, false)
	switch {
	case p.acceptWord("on"):
		n := p.parseExpr(0)
		p.conditionSummary(st, n, "join")
		p.skipUnparsed(n)
	case p.acceptWord("using"):
		if p.peek().isPunct("(") {
			p.jumpPast(p.closing(p.pos))
		}
	}
}

func (p *parser) parseFromItem(st *Statement, primary bool) {
	p.acceptWord("lateral")
	p.acceptWord("only")
	t := p.peek()
	var ref TableRef
	isTable := false
	switch {
	case t.isPunct("("):
		closeAt := p.closing(p.pos)
		if startsQuery(p.peekAt(1), p.peekAt(2)) {
			st.Subqueries = append(st.Subqueries, p.parseNested(closeAt))
			if primary {
				p.unknown(st, "from: subquery")
			}
		} else {
			// A parenthesised join: (a JOIN b ON …).
			if !p.enter() {
				return
			}
			p.next()
			savedEnd := p.end
			p.end = closeAt
			p.parseFromList(st, primary)
			if !p.atStatementEnd() {
				p.recoverTo(st, "from", func(token) bool { return false })
			}
			p.end = savedEnd
			p.jumpPast(closeAt)
			p.leave()
		}
	case t.isName() && !(t.kind == tokWord && notOperands[t.word]):
		first := p.pos
		ref, _ = p.parseTableName()
		if p.peek().isPunct("(") {
			// A set-returning function: generate_series(…), unnest(…).
			p.pos = first
			n := p.parseExpr(precUnary)
			if reason := unknownReason(n); reason != "" {
				p.unknown(st, "from: "+reason)
			}
			if primary {
				p.unknown(st, "from: function")
			}
		} else {
			p.acceptOp("*")
			isTable = true
		}
	default:
		p.unknown(st, "from: unexpected "+describeToken(t))
		if t.kind == tokPlaceholder {
			p.next()
		}
		return
	}
	ref.Alias = p.parseAlias()
	if ref.Alias != "" && p.peek().isPunct("(") {
		p.jumpPast(p.closing(p.pos)) // column aliases
	}
	p.skipTableHints()
	if !isTable {
		return
	}
	if primary {
		st.Table = ref
	} else {
		st.From = append(st.From, ref)
	}
}

// skipTableHints skips MySQL index hints and PARTITION lists and
// PostgreSQL's TABLESAMPLE, which do not change which rows are meant.
func (p *parser) skipTableHints() {
	for !p.aborted {
		switch {
		case (p.atWord("use") || p.atWord("force") || p.atWord("ignore")) && (p.peekAt(1).isWord("index") || p.peekAt(1).isWord("key")):
			p.pos += 2
			if p.acceptWord("for") {
				if !p.acceptWord("join") {
					p.next() // ORDER / GROUP
					p.acceptWord("by")
				}
			}
			if p.peek().isPunct("(") {
				p.jumpPast(p.closing(p.pos))
			}
		case p.atWord("partition") && p.peekAt(1).isPunct("("):
			p.next()
			p.jumpPast(p.closing(p.pos))
		case p.atWord("tablesample"):
			p.next()
			p.next() // method
			if p.peek().isPunct("(") {
				p.jumpPast(p.closing(p.pos))
			}
			if p.acceptWord("repeatable") && p.peek().isPunct("(") {
				p.jumpPast(p.closing(p.pos))
			}
		default:
			return
		}
	}
}

// parseWhere parses WHERE condition at the current WHERE.
func (p *parser) parseWhere(st *Statement) *Condition {
	p.next() // where
	if p.atWords("current", "of") {
		p.pos += 2
		p.next()
		p.unknown(st, "where: CURRENT OF cursor")
		return &Condition{Unknown: true}
	}
	n := p.parseExpr(0)
	c := p.conditionSummary(st, n, "where")
	p.skipUnparsed(n)
	return c
}

// skipUnparsed skips, without reporting again, what is left of an
// expression whose parse failed (and was reported as unknown): up to the
// next clause keyword, ',' or ')'.
func (p *parser) skipUnparsed(n *node) {
	if unknownReason(n) == "" {
		return
	}
	for !p.atStatementEnd() && !p.peek().isPunct(",") && !isSelectClause(p.peek()) && !isClauseWord(p.peek()) {
		p.skipOne()
	}
}
