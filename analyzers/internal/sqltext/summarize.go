package sqltext

// This file turns expression trees into the exported summaries: Expr,
// Condition with its Comparisons, Assignment, AdvisoryLock.

// scope says which names in a value expression denote the row proposed for
// insertion rather than a stored column.
type scope struct {
	// excluded are the qualifiers naming the proposed row: "excluded"
	// (PostgreSQL, SQLite) and a MySQL row alias (VALUES (…) AS new).
	excluded []string
	// valuesFunc makes VALUES(col) the proposed row's col (MySQL's ON
	// DUPLICATE KEY UPDATE).
	valuesFunc bool
	// aliasColumns: the MySQL row alias renames the columns, so a bare
	// name may denote the proposed row; such clauses are unknown.
	aliasColumns bool
}

func (sc *scope) isExcluded(qual string) bool {
	if sc == nil || qual == "" {
		return false
	}
	for _, q := range sc.excluded {
		if q == qual {
			return true
		}
	}
	return false
}

// excludedValuesCall returns col for VALUES(col) where that denotes the
// proposed row.
func (sc *scope) excludedValuesCall(n *node) (string, bool) {
	if sc == nil || !sc.valuesFunc || n.kind != nCall || n.op != "values" || n.qual != "" || len(n.args) != 1 || n.args[0].kind != nColumn {
		return "", false
	}
	return n.args[0].name, true
}

// unwrap strips grouping parentheses and casts, which do not change which
// value an expression denotes for our purposes ($1::uuid is still $1).
func unwrap(n *node) *node {
	for n.kind == nParen || n.kind == nCast {
		n = n.args[0]
	}
	return n
}

// unwrapParens strips only grouping parentheses.
func unwrapParens(n *node) *node {
	for n.kind == nParen {
		n = n.args[0]
	}
	return n
}

// unknownReason returns the reason of the first unknown node in n's tree,
// or "" if it has none.
func unknownReason(n *node) string {
	if n.kind == nUnknown {
		if n.op == "" {
			return "not understood"
		}
		return n.op
	}
	for _, a := range n.args {
		if r := unknownReason(a); r != "" {
			return r
		}
	}
	return ""
}

func isLiteral(n *node) bool {
	n = unwrap(n)
	if n.kind == nUnary && (n.op == "-" || n.op == "+") {
		n = unwrap(n.args[0])
	}
	return n.kind == nLiteral
}

// exprSummary summarises a value expression.
func (p *parser) exprSummary(n *node, sc *scope) Expr {
	e := Expr{Text: p.nodeText(n), Placeholders: p.placeholdersIn(n.first, n.last)}
	if unknownReason(n) != "" {
		e.Kind = ExprUnknown
		return e
	}
	p.collectColumns(n, sc, &e)
	bare := unwrap(n)
	switch {
	case bare.kind == nPlaceholder:
		e.Kind = ExprPlaceholder
	case isLiteral(bare):
		e.Kind = ExprLiteral
	case bare.kind == nNull:
		e.Kind = ExprNull
	case bare.kind == nDefault:
		e.Kind = ExprDefault
	case bare.kind == nColumn && sc.isExcluded(bare.qual):
		e.Kind = ExprExcluded
	case bare.kind == nColumn:
		e.Kind = ExprColumn
	case bare.kind == nStar:
		e.Kind = ExprStar
	case bare.kind == nSubquery:
		e.Kind = ExprSubquery
	default:
		if _, ok := sc.excludedValuesCall(bare); ok {
			e.Kind = ExprExcluded
		} else {
			e.Kind = ExprComputed
		}
	}
	if sc != nil && sc.aliasColumns && e.Kind != ExprPlaceholder && e.Kind != ExprLiteral {
		// A bare name may be the proposed row's column: claim nothing.
		return Expr{Text: e.Text, Kind: ExprUnknown, Placeholders: e.Placeholders}
	}
	return e
}

// collectColumns adds the columns n reads, outside subqueries, to e.
func (p *parser) collectColumns(n *node, sc *scope, e *Expr) {
	switch n.kind {
	case nColumn:
		if sc.isExcluded(n.qual) {
			e.Excluded = append(e.Excluded, n.name)
		} else {
			e.Columns = append(e.Columns, ColumnRef{Table: n.qual, Name: n.name})
		}
		return
	case nSubquery, nExists:
		return
	case nCall:
		if col, ok := sc.excludedValuesCall(n); ok {
			e.Excluded = append(e.Excluded, col)
			return
		}
	}
	for _, a := range n.args {
		p.collectColumns(a, sc, e)
	}
}

// parseAssignments parses a SET list: col = value, (a, b) = (x, y), ….
// target resolves qualifiers for SelfReferential; sc says which names
// denote the proposed row.
func (p *parser) parseAssignments(st *Statement, target TableRef, sc *scope, part string) []Assignment {
	var out []Assignment
	for !p.aborted {
		if p.peek().isPunct("(") {
			out = append(out, p.parseTupleAssignment(st, target, sc, part)...)
		} else if a, ok := p.parseAssignment(st, target, sc, part); ok {
			out = append(out, a)
		}
		if !p.acceptPunct(",") {
			return out
		}
	}
	return out
}

func (p *parser) parseAssignment(st *Statement, target TableRef, sc *scope, part string) (Assignment, bool) {
	t := p.peek()
	if !t.isName() || (t.kind == tokWord && notOperands[t.word]) {
		p.unknown(st, part+": unexpected "+describeToken(t))
		p.skipItem()
		return Assignment{}, false
	}
	col := p.parseNamePath()
	if col.kind != nColumn {
		p.unknown(st, part+": unexpected "+describeToken(t))
		p.skipItem()
		return Assignment{}, false
	}
	if !p.acceptOp("=") {
		p.unknown(st, part+": unexpected "+describeToken(p.peek()))
		p.skipItem()
		return Assignment{}, false
	}
	value := p.parseExpr(0)
	a := Assignment{Column: col.name, Value: p.exprSummary(value, sc)}
	if a.Value.Kind == ExprUnknown {
		reason := unknownReason(value)
		if reason == "" {
			reason = "row alias with column names"
		}
		p.unknown(st, part+": "+reason)
		p.skipItem()
	}
	a.SelfReferential = readsTargetColumn(a.Value, a.Column, target)
	return a, true
}

// parseTupleAssignment parses (a, b) = (x, y) | ROW(x, y) | (SELECT …).
func (p *parser) parseTupleAssignment(st *Statement, target TableRef, sc *scope, part string) []Assignment {
	closeAt := p.closing(p.pos)
	p.next() // (
	var cols []string
	for p.pos < closeAt {
		ref, ok := p.parseTableName()
		if !ok {
			break
		}
		cols = append(cols, ref.Name)
		if !p.acceptPunct(",") {
			break
		}
	}
	if p.pos != closeAt || len(cols) == 0 {
		p.jumpPast(closeAt)
		p.unknown(st, part+": malformed column list")
		p.skipItem()
		return nil
	}
	p.next() // )
	if !p.acceptOp("=") {
		p.unknown(st, part+": unexpected "+describeToken(p.peek()))
		p.skipItem()
		return nil
	}
	value := p.parseExpr(0)
	bare := unwrapParens(value)
	out := make([]Assignment, len(cols))
	for i, c := range cols {
		out[i].Column = c
		switch {
		case bare.kind == nList && len(bare.args) == len(cols):
			out[i].Value = p.exprSummary(bare.args[i], sc)
		case bare.kind == nSubquery:
			out[i].Value = p.exprSummary(bare, sc)
		default:
			out[i].Value = Expr{Text: p.nodeText(value), Kind: ExprUnknown, Placeholders: p.placeholdersIn(value.first, value.last)}
		}
		out[i].SelfReferential = readsTargetColumn(out[i].Value, c, target)
	}
	if anyUnknownValue(out) {
		reason := unknownReason(value)
		if reason == "" {
			reason = "column list and values differ in length"
		}
		p.unknown(st, part+": "+reason)
		p.skipItem()
	}
	return out
}

// readsTargetColumn reports whether v reads column col of the target table:
// the column unqualified or qualified by the table's name or alias. With no
// target (a fragment), any qualifier counts.
func readsTargetColumn(v Expr, col string, target TableRef) bool {
	for _, c := range v.Columns {
		if c.Name != col {
			continue
		}
		if c.Table == "" || target.Name == "" || c.Table == target.Name || (target.Alias != "" && c.Table == target.Alias) {
			return true
		}
	}
	return false
}

// conditionSummary summarises condition n of part ("where", "join", …) of
// st, recording unknown terms on st.
func (p *parser) conditionSummary(st *Statement, n *node, part string) *Condition {
	c := &Condition{Text: p.nodeText(n), Placeholders: p.placeholdersIn(n.first, n.last)}
	reason := ""
	p.orGroups = 0
	p.collectComparisons(c, n, true, 0, &reason)
	if p.orGroups > 1 {
		// (a OR b) AND (c OR d): found nothing says neither a∧c, a∧d, …
		// holds; no single term is a key on its own.
		for i := range c.Comparisons {
			c.Comparisons[i].Disjunct = 0
		}
	}
	if c.Unknown {
		p.unknown(st, part+": "+reason)
	}
	return c
}

func (c *Condition) markUnknown(reason *string, why string) {
	if !c.Unknown {
		*reason = why
	}
	c.Unknown = true
}

// collectComparisons walks a boolean expression. conjunct is true while
// every node above n is AND; term is the 1-based index of the term of the
// top-level OR that n is in (through ANDs only), 0 when none.
func (p *parser) collectComparisons(c *Condition, n *node, conjunct bool, term int, reason *string) {
	n = unwrapParens(n)
	switch n.kind {
	case nUnknown:
		c.markUnknown(reason, unknownReason(n))
	case nBinary:
		switch n.op {
		case "and":
			p.collectComparisons(c, n.args[0], conjunct, term, reason)
			p.collectComparisons(c, n.args[1], conjunct, term, reason)
		case "or":
			if conjunct {
				// An OR at the top, or one of the top's AND-ed terms:
				// a row matches when it matches one of its terms.
				p.orGroups++
				for k, t := range orTerms(n) {
					p.collectComparisons(c, t, false, k+1, reason)
				}
				return
			}
			p.collectComparisons(c, n.args[0], false, 0, reason)
			p.collectComparisons(c, n.args[1], false, 0, reason)
		case "xor":
			p.collectComparisons(c, n.args[0], false, 0, reason)
			p.collectComparisons(c, n.args[1], false, 0, reason)
		default:
			if isComparisonOp(n.op) {
				p.addComparison(c, n, n.op, n.args[0], n.args[1], conjunct, term, reason)
			} else {
				c.markUnknown(reason, "term is not a comparison: "+shorten(p.nodeText(n)))
			}
		}
	case nUnary:
		if n.op != "not" && n.op != "!" {
			c.markUnknown(reason, "term is not a comparison: "+shorten(p.nodeText(n)))
			return
		}
		if col := unwrapParens(n.args[0]); col.kind == nColumn {
			// WHERE NOT active: active = false.
			c.Comparisons = append(c.Comparisons, Comparison{
				Column: ColumnRef{Table: col.qual, Name: col.name}, Op: "=",
				Operand: Operand{Kind: OperandLiteral, Text: "false"}, Conjunct: conjunct, Disjunct: term,
			})
			return
		}
		p.collectComparisons(c, n.args[0], false, 0, reason)
	case nIn, nIs:
		p.addComparison(c, n, n.op, n.args[0], n.args[1], conjunct, term, reason)
	case nBetween:
		p.addComparison(c, n, n.op, n.args[0], &node{kind: nList, args: n.args[1:], first: n.args[1].first, last: n.args[2].last}, conjunct, term, reason)
	case nColumn:
		// WHERE active: active = true.
		c.Comparisons = append(c.Comparisons, Comparison{
			Column: ColumnRef{Table: n.qual, Name: n.name}, Op: "=",
			Operand: Operand{Kind: OperandLiteral, Text: "true"}, Conjunct: conjunct, Disjunct: term,
		})
	case nLiteral:
		// WHERE TRUE, WHERE 1: filters nothing out.
	case nExists:
		c.markUnknown(reason, "EXISTS")
	default:
		c.markUnknown(reason, "term is not a comparison: "+shorten(p.nodeText(n)))
	}
}

func isComparisonOp(op string) bool {
	switch op {
	case "=", "==", "<>", "!=", "<", ">", "<=", ">=", "<=>",
		"like", "not like", "ilike", "not ilike", "similar to", "not similar to",
		"regexp", "not regexp", "rlike", "not rlike", "glob", "not glob", "match", "not match",
		"~", "~*", "!~", "!~*", "~~", "!~~", "~~*", "@>", "<@", "&&", "?|", "?&", "?", "@@":
		return true
	}
	return false
}

// mirroredOps maps an operator to the one that gives the same comparison
// with operands swapped; operators not listed cannot be swapped.
var mirroredOps = map[string]string{
	"=": "=", "<>": "<>", "<": ">", ">": "<", "<=": ">=", ">=": "<=", "<=>": "<=>",
	"is distinct from": "is distinct from", "is not distinct from": "is not distinct from",
	"&&": "&&", "@>": "<@", "<@": "@>",
}

func normalizeOp(op string) string {
	switch op {
	case "==":
		return "="
	case "!=":
		return "<>"
	case "rlike":
		return "regexp"
	case "not rlike":
		return "not regexp"
	}
	return op
}

// addComparison adds "left op right" to c if one side is a column.
func (p *parser) addComparison(c *Condition, whole *node, op string, left, right *node, conjunct bool, term int, reason *string) {
	op = normalizeOp(op)
	l, r := unwrapParens(left), unwrapParens(right)
	// (a, b) = ($1, $2) is a = $1 AND b = $2.
	if op == "=" && l.kind == nList && r.kind == nList && len(l.args) == len(r.args) {
		for i := range l.args {
			p.addComparison(c, whole, op, l.args[i], r.args[i], conjunct, term, reason)
		}
		return
	}
	var column, other *node
	switch {
	case l.kind == nColumn:
		column, other = l, right
	case r.kind == nColumn && mirroredOps[op] != "":
		column, other, op = r, left, mirroredOps[op]
	case isConstant(l) && isConstant(r):
		return // 1 = 1
	default:
		c.markUnknown(reason, "comparison not on a column: "+shorten(p.nodeText(whole)))
		return
	}
	operand := p.operandSummary(other)
	if q := unwrapParens(other); q.kind == nQuantified {
		op += " " + q.op
		operand = p.operandSummary(q.args[0])
		operand.Text = p.nodeText(other)
	}
	if operand.Kind == OperandUnknown {
		c.markUnknown(reason, unknownReason(other))
	}
	c.Comparisons = append(c.Comparisons, Comparison{
		Column:   ColumnRef{Table: column.qual, Name: column.name},
		Op:       op,
		Operand:  operand,
		Conjunct: conjunct,
		Disjunct: term,
	})
}

// orTerms flattens a chain of ORs (a OR b OR c parses as (a OR b) OR c)
// into its terms, in source order.
func orTerms(n *node) []*node {
	n = unwrapParens(n)
	if n.kind == nBinary && n.op == "or" {
		return append(orTerms(n.args[0]), orTerms(n.args[1])...)
	}
	return []*node{n}
}

func isConstant(n *node) bool {
	n = unwrap(n)
	return isLiteral(n) || n.kind == nNull
}

// operandSummary summarises what a column is compared with.
func (p *parser) operandSummary(n *node) Operand {
	o := Operand{Text: p.nodeText(n), Placeholders: p.placeholdersIn(n.first, n.last)}
	if unknownReason(n) != "" {
		return o // OperandUnknown
	}
	bare := unwrap(n)
	switch {
	case bare.kind == nPlaceholder:
		o.Kind = OperandPlaceholder
	case isLiteral(bare):
		o.Kind = OperandLiteral
	case bare.kind == nNull:
		o.Kind = OperandNull
	case bare.kind == nColumn:
		o.Kind = OperandColumn
		o.Column = ColumnRef{Table: bare.qual, Name: bare.name}
	case bare.kind == nSubquery:
		o.Kind = OperandSubquery
	case bare.kind == nList:
		o.Kind = listOperandKind(bare.args)
	default:
		o.Kind = OperandExpr
	}
	return o
}

// listOperandKind classifies an IN list or BETWEEN pair: all placeholders,
// all constants, or a mix.
func listOperandKind(items []*node) OperandKind {
	allPlaceholders, allLiterals := len(items) > 0, len(items) > 0
	for _, it := range items {
		it = unwrap(it)
		if it.kind != nPlaceholder {
			allPlaceholders = false
		}
		if !isLiteral(it) {
			allLiterals = false
		}
	}
	switch {
	case allPlaceholders:
		return OperandPlaceholder
	case allLiterals:
		return OperandLiteral
	}
	return OperandExpr
}

// shorten keeps unknown-part descriptions short.
func shorten(s string) string {
	const maxLen = 40
	if len(s) <= maxLen {
		return s
	}
	return s[:maxLen] + "…"
}

// advisoryLockFuncs describe the advisory-lock functions. The keys are
// lowercased names; PostgreSQL's may be qualified by pg_catalog.
var advisoryLockFuncs = map[string]AdvisoryLock{
	"pg_advisory_lock":                 {},
	"pg_advisory_lock_shared":          {Shared: true},
	"pg_advisory_xact_lock":            {TransactionScoped: true},
	"pg_advisory_xact_lock_shared":     {TransactionScoped: true, Shared: true},
	"pg_try_advisory_lock":             {Try: true},
	"pg_try_advisory_lock_shared":      {Try: true, Shared: true},
	"pg_try_advisory_xact_lock":        {Try: true, TransactionScoped: true},
	"pg_try_advisory_xact_lock_shared": {Try: true, TransactionScoped: true, Shared: true},
	"pg_advisory_unlock":               {Release: true},
	"pg_advisory_unlock_shared":        {Release: true, Shared: true},
	"pg_advisory_unlock_all":           {Release: true},
	"get_lock":                         {Try: true},
	"release_lock":                     {Release: true},
	"release_all_locks":                {Release: true},
}

// noteCall records an advisory-lock call on the statement being built.
func (p *parser) noteCall(n *node) {
	if p.cur == nil || (n.qual != "" && n.qual != "pg_catalog") {
		return
	}
	lock, ok := advisoryLockFuncs[n.op]
	if !ok {
		return
	}
	lock.Func = n.op
	for _, a := range n.args {
		lock.Args = append(lock.Args, p.exprSummary(a, nil))
	}
	p.cur.AdvisoryLocks = append(p.cur.AdvisoryLocks, lock)
}
