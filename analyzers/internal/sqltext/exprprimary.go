package sqltext

// Primary expressions: literals, names, calls, EXTRACT, INTERVAL, CAST,
// CASE, and the postfix operators after them (expr.go has the operators).

// niladicFunctions are the SQL functions called without parentheses.
var niladicFunctions = map[string]bool{
	"current_date": true, "current_time": true, "current_timestamp": true, "localtime": true,
	"localtimestamp": true, "current_user": true, "session_user": true, "current_role": true,
	"current_catalog": true, "current_schema": true, "utc_timestamp": true, "utc_date": true,
	"utc_time": true, "sysdate": true, "systimestamp": true,
}

// notOperands are words that end an expression: they cannot be a column
// name where an operand is expected (each is reserved in PostgreSQL or
// MySQL). Column names that are non-reserved keywords (key, version,
// status, update, share) stay usable.
var notOperands = map[string]bool{
	"select": true, "from": true, "where": true, "group": true, "having": true, "window": true,
	"order": true, "limit": true, "offset": true, "fetch": true, "for": true, "union": true,
	"intersect": true, "except": true, "returning": true, "on": true, "using": true, "set": true,
	"into": true, "and": true, "or": true, "is": true, "in": true, "between": true, "like": true,
	"ilike": true, "when": true, "then": true, "else": true, "end": true, "as": true, "join": true,
	"inner": true, "cross": true, "natural": true, "full": true, "do": true, "with": true,
	"collate": true, "escape": true, "asc": true, "desc": true, "both": true, "leading": true,
	"trailing": true, "distinct": true, "all": true, "lateral": true, "only": true, "xor": true,
	"div": true, "mod": true, "straight_join": true,
}

func (p *parser) parsePrimary() *node {
	t := p.peek()
	first := p.pos
	var n *node
	switch t.kind {
	case tokPlaceholder:
		p.next()
		n = &node{kind: nPlaceholder, ph: t.placeholder, first: first, last: first}
		// bun's ?TableAlias.column names a column of the model's table.
		if p.lx.placeholders[t.placeholder].Style == PlaceholderQuestionName && p.peek().isPunct(".") && p.peekAt(1).isName() {
			p.next()
			col := p.next()
			n = &node{kind: nColumn, qual: t.text, name: col.word, first: first, last: p.pos - 1}
		}
	case tokNumber, tokString:
		p.next()
		n = &node{kind: nLiteral, first: first, last: first}
	case tokVariable:
		p.next()
		n = &node{kind: nVariable, first: first, last: first}
	case tokQuotedIdent:
		n = p.parseNamePath()
	case tokWord:
		n = p.parseWordPrimary()
	case tokPunct:
		switch t.text {
		case "(":
			n = p.parseParen()
		case "[":
			n = p.parseBracketList(first)
		}
	case tokOp:
		if t.text == "*" {
			p.next()
			n = &node{kind: nStar, first: first, last: first}
		}
	}
	if n == nil {
		return p.unknownHere("unexpected " + describeToken(t))
	}
	return p.parsePostfix(n)
}

// parsePostfix applies the tightly binding postfix forms: ::type casts and
// [subscripts].
func (p *parser) parsePostfix(n *node) *node {
	for n.kind != nUnknown {
		switch {
		case p.peek().isOp("::"):
			p.next()
			if !p.skipTypeName() {
				return p.unknownHere(":: without a type")
			}
			n = &node{kind: nCast, args: []*node{n}, first: n.first, last: p.pos - 1}
		case p.peek().isPunct("["):
			sub := p.parseBracketList(p.pos)
			if sub.kind == nUnknown {
				return sub
			}
			n = &node{kind: nBinary, op: "[]", args: []*node{n, sub}, first: n.first, last: sub.last}
		default:
			return n
		}
	}
	return n
}

// parseBracketList parses [a, b] (ARRAY[…] contents) or a subscript [i] /
// slice [i:j].
func (p *parser) parseBracketList(first int) *node {
	p.next() // [
	var items []*node
	for !p.peek().isPunct("]") && p.peek().kind != tokEOF {
		item := p.parseExpr(0)
		items = append(items, item)
		if item.kind == nUnknown {
			return item
		}
		if !p.acceptPunct(",") && !p.acceptOp(":") {
			break
		}
	}
	if !p.acceptPunct("]") {
		return p.unknownHere("unexpected " + describeToken(p.peek()) + " in brackets")
	}
	return &node{kind: nList, args: items, first: first, last: p.pos - 1}
}

func (p *parser) parseWordPrimary() *node {
	t := p.peek()
	first := p.pos
	next := p.peekAt(1)
	switch t.word {
	case "null":
		p.next()
		return &node{kind: nNull, first: first, last: first}
	case "true", "false", "unknown":
		p.next()
		return &node{kind: nLiteral, first: first, last: first}
	case "default":
		p.next()
		return &node{kind: nDefault, first: first, last: first}
	case "case":
		return p.parseCase()
	case "cast", "try_cast":
		if next.isPunct("(") {
			return p.parseCast()
		}
	case "exists":
		if next.isPunct("(") {
			p.next()
			inner := p.parseParen()
			if inner.kind != nSubquery {
				return &node{kind: nUnknown, op: "EXISTS without a query", first: first, last: inner.last}
			}
			return &node{kind: nExists, sub: inner.sub, first: first, last: inner.last}
		}
	case "array":
		if next.isPunct("[") {
			p.next()
			list := p.parseBracketList(p.pos)
			return &node{kind: nArray, args: []*node{list}, first: first, last: list.last}
		}
		if next.isPunct("(") {
			p.next()
			inner := p.parseParen()
			return &node{kind: nArray, args: []*node{inner}, first: first, last: inner.last}
		}
	case "row":
		if next.isPunct("(") {
			p.next()
			inner := p.parseParen()
			if inner.kind == nParen {
				inner.kind = nList
			}
			inner.first = first
			return inner
		}
	case "interval":
		return p.parseInterval()
	case "extract":
		if next.isPunct("(") {
			return p.parseExtract()
		}
	}
	if notOperands[t.word] {
		return p.unknownHere("unexpected " + describeToken(t))
	}
	if niladicFunctions[t.word] && !next.isPunct("(") {
		p.next()
		return &node{kind: nCall, op: t.word, first: first, last: first}
	}
	// A type name followed by a string is a typed literal: DATE '2024-01-01',
	// TIMESTAMP '…', uuid '…', MySQL's _utf8mb4'…'.
	if next.kind == tokString {
		p.next()
		p.next()
		return &node{kind: nLiteral, first: first, last: first + 1}
	}
	return p.parseNamePath()
}

// parseNamePath parses name[.name[.name]] as a column, qual.* as a star,
// or name(args) as a function call.
func (p *parser) parseNamePath() *node {
	first := p.pos
	parts := []string{p.next().word}
	for p.peek().isPunct(".") {
		after := p.peekAt(1)
		if after.isOp("*") {
			p.next()
			p.next()
			return &node{kind: nStar, qual: parts[len(parts)-1], first: first, last: p.pos - 1}
		}
		if !after.isName() || len(parts) == 4 {
			break
		}
		p.next()
		parts = append(parts, p.next().word)
	}
	last := parts[len(parts)-1]
	qual := ""
	if len(parts) > 1 {
		qual = parts[len(parts)-2]
	}
	if p.peek().isPunct("(") {
		return p.parseCall(first, qual, lowerWord(last))
	}
	return &node{kind: nColumn, qual: qual, name: last, first: first, last: p.pos - 1}
}

// callKeywords are the words that separate the arguments of SQL's special
// function forms: SUBSTRING(s FROM 1 FOR 2), TRIM(BOTH 'x' FROM s),
// OVERLAY(s PLACING t FROM 1), POSITION(a IN b), CONVERT(s USING utf8mb4),
// GROUP_CONCAT(x ORDER BY y SEPARATOR ','), COUNT(DISTINCT x).
var callKeywords = map[string]bool{
	"from": true, "for": true, "placing": true, "separator": true, "both": true, "leading": true,
	"trailing": true, "distinct": true, "all": true, "order": true, "by": true, "asc": true,
	"desc": true, "nulls": true, "first": true, "last": true, "similar": true, "escape": true,
}

// parseCall parses the argument list of a function call at '(' and its
// trailing FILTER / WITHIN GROUP / OVER clauses.
func (p *parser) parseCall(first int, schema, name string) *node {
	closeAt := p.closing(p.pos)
	p.next() // (
	n := &node{kind: nCall, op: name, qual: schema, first: first}
	for p.pos < closeAt && !p.aborted {
		t := p.peek()
		switch {
		case t.isPunct(","):
			p.next()
		case t.kind == tokWord && callKeywords[t.word]:
			p.next()
		case t.isWord("using"):
			// CONVERT(s USING charset): the charset is not a column.
			p.next()
			if p.peek().isName() {
				p.next()
			}
		case t.isWord("as"):
			// CAST-like forms and JSON_TABLE(… COLUMNS …): skip the type.
			p.next()
			if !p.skipTypeName() {
				p.jumpPast(closeAt)
				n.kind, n.op, n.last = nUnknown, "unexpected AS in "+name+"()", p.pos-1
				return n
			}
		default:
			arg := p.parseExpr(0)
			if arg.kind == nUnknown {
				p.jumpPast(closeAt)
				arg.last = p.pos - 1
				return arg
			}
			n.args = append(n.args, arg)
		}
	}
	if !p.acceptPunct(")") {
		return &node{kind: nUnknown, op: "unbalanced parentheses", first: first, last: p.pos - 1}
	}
	n.last = p.pos - 1
	// Aggregate and window decorations are skipped: they filter or order
	// the rows an aggregate sees, which no summary describes.
	if p.peek().isWord("filter") && p.peekAt(1).isPunct("(") {
		p.next()
		p.jumpPast(p.closing(p.pos))
	}
	if p.peek().isWord("within") && p.peekAt(1).isWord("group") && p.peekAt(2).isPunct("(") {
		p.next()
		p.next()
		p.jumpPast(p.closing(p.pos))
	}
	if p.peek().isWord("over") {
		p.next()
		if p.peek().isPunct("(") {
			p.jumpPast(p.closing(p.pos))
		} else if p.peek().isName() {
			p.next()
		}
	}
	n.last = p.pos - 1
	p.noteCall(n)
	return n
}

// parseExtract parses EXTRACT(field FROM expr), whose field is a keyword,
// not a column.
func (p *parser) parseExtract() *node {
	first := p.pos
	p.next() // extract
	closeAt := p.closing(p.pos)
	p.next() // (
	if t := p.peek(); t.kind == tokWord || t.kind == tokString {
		p.next()
	}
	if !p.acceptWord("from") {
		p.jumpPast(closeAt)
		return &node{kind: nUnknown, op: "EXTRACT without FROM", first: first, last: p.pos - 1}
	}
	arg := p.parseExpr(0)
	if arg.kind == nUnknown || !p.acceptPunct(")") {
		p.jumpPast(closeAt)
		return &node{kind: nUnknown, op: "unexpected " + describeToken(p.peek()) + " in EXTRACT", first: first, last: p.pos - 1}
	}
	return &node{kind: nCall, op: "extract", args: []*node{arg}, first: first, last: p.pos - 1}
}

// intervalUnits are MySQL's INTERVAL units (INTERVAL 1 DAY, INTERVAL ?
// HOUR_MINUTE) and PostgreSQL's interval field qualifiers.
var intervalUnits = map[string]bool{
	"microsecond": true, "second": true, "minute": true, "hour": true, "day": true, "week": true,
	"month": true, "quarter": true, "year": true, "second_microsecond": true, "minute_microsecond": true,
	"minute_second": true, "hour_microsecond": true, "hour_second": true, "hour_minute": true,
	"day_microsecond": true, "day_second": true, "day_minute": true, "day_hour": true, "year_month": true,
	"to": true, "seconds": true, "minutes": true, "hours": true, "days": true,
}

// parseInterval parses INTERVAL '1 day' (a literal) or MySQL's INTERVAL
// expr unit (a computed value whose placeholders matter).
func (p *parser) parseInterval() *node {
	first := p.pos
	p.next() // interval
	if p.peek().kind == tokString {
		p.next()
		for p.peek().kind == tokWord && intervalUnits[p.peek().word] {
			p.next()
		}
		return &node{kind: nLiteral, first: first, last: p.pos - 1}
	}
	if !startsIntervalValue(p.peek()) {
		// A column called "interval".
		return &node{kind: nColumn, name: "interval", first: first, last: first}
	}
	arg := p.parseExpr(precAdd + 1)
	if arg.kind == nUnknown {
		return arg
	}
	if t := p.peek(); t.kind == tokWord && intervalUnits[t.word] {
		p.next()
	}
	return &node{kind: nCall, op: "interval", args: []*node{arg}, first: first, last: p.pos - 1}
}

// startsIntervalValue reports whether t can start the value of MySQL's
// INTERVAL expr unit, rather than follow a column called interval.
func startsIntervalValue(t token) bool {
	switch t.kind {
	case tokNumber, tokPlaceholder:
		return true
	case tokWord:
		return !notOperands[t.word]
	case tokPunct:
		return t.text == "("
	case tokOp:
		return t.text == "-"
	}
	return false
}

// parseCast parses CAST(x AS type).
func (p *parser) parseCast() *node {
	first := p.pos
	p.next() // cast
	closeAt := p.closing(p.pos)
	p.next() // (
	arg := p.parseExpr(0)
	if arg.kind == nUnknown || !p.acceptWord("as") || !p.skipTypeName() || !p.acceptPunct(")") {
		p.jumpPast(closeAt)
		return &node{kind: nUnknown, op: "malformed CAST", first: first, last: p.pos - 1}
	}
	return &node{kind: nCast, args: []*node{arg}, first: first, last: p.pos - 1}
}

// parseCase parses CASE [x] WHEN … THEN … [ELSE …] END, keeping every
// sub-expression as an argument.
func (p *parser) parseCase() *node {
	first := p.pos
	p.next() // case
	n := &node{kind: nCase, first: first}
	for !p.aborted {
		t := p.peek()
		switch {
		case t.isWord("end"):
			p.next()
			n.last = p.pos - 1
			return n
		case t.isWord("when") || t.isWord("then") || t.isWord("else"):
			p.next()
		default:
			arg := p.parseExpr(0)
			if arg.kind == nUnknown {
				return arg
			}
			n.args = append(n.args, arg)
			if next := p.peek(); !(next.isWord("when") || next.isWord("then") || next.isWord("else") || next.isWord("end")) {
				return p.unknownHere("unexpected " + describeToken(next) + " in CASE")
			}
		}
	}
	return p.unknownHere("too deep")
}

// skipTypeName skips a type name after :: or AS: name[.name], multi-word
// types (double precision, character varying, timestamp with time zone,
// MySQL's unsigned integer), modifiers (numeric(10,2)) and array brackets.
func (p *parser) skipTypeName() bool {
	t := p.peek()
	if !t.isName() {
		return false
	}
	p.next()
	base := t.word
	if p.peek().isPunct(".") && p.peekAt(1).isName() {
		p.next()
		base = p.next().word
	}
	switch base {
	case "double":
		p.acceptWord("precision")
	case "national":
		p.acceptWord("character")
		p.acceptWord("varying")
	case "character", "char", "bit":
		p.acceptWord("varying")
	case "unsigned", "signed":
		if !p.acceptWord("integer") {
			p.acceptWord("int")
		}
	}
	if p.peek().isPunct("(") {
		p.jumpPast(p.closing(p.pos))
	}
	// timestamp(3) with time zone
	if base == "timestamp" || base == "time" {
		if p.peekAt(1).isWord("time") && (p.peek().isWord("with") || p.peek().isWord("without")) {
			p.next()
			p.next()
			p.acceptWord("zone")
		}
	}
	for p.peek().isPunct("[") {
		p.next()
		if p.peek().kind == tokNumber {
			p.next()
		}
		if !p.acceptPunct("]") {
			return false
		}
	}
	return true
}
