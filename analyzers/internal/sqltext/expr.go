package sqltext

// This file holds the expression parser: a precedence-climbing parser over
// tokens that builds a small syntax tree (node). Nothing here is exported;
// summarize.go turns trees into Expr, Condition and Comparison.

// nodeKind is the syntactic form of an expression node.
type nodeKind uint8

const (
	nUnknown     nodeKind = iota // not understood; op holds the reason
	nColumn                      // [qual.]name
	nStar                        // * or qual.*
	nPlaceholder                 // ph indexes the lexer's placeholders
	nLiteral                     // string, number, TRUE/FALSE, typed literal
	nNull                        // NULL
	nDefault                     // DEFAULT
	nVariable                    // MySQL @@system_variable
	nCall                        // op(args): op is the lowercased function name, qual its schema
	nBinary                      // args[0] op args[1]: arithmetic, comparison, AND, OR, LIKE, ...
	nUnary                       // op args[0]: NOT, -, +, ~
	nBetween                     // args[0] [NOT] BETWEEN args[1] AND args[2]
	nIn                          // args[0] [NOT] IN args[1] (nList, nSubquery or an expression)
	nIs                          // args[0] IS [NOT] … args[1]
	nList                        // (a, b, …) or ROW(a, b)
	nParen                       // (a)
	nSubquery                    // (SELECT …): sub is the parsed query
	nExists                      // EXISTS (SELECT …): sub is the parsed query
	nQuantified                  // ANY(x), ALL(x), SOME(x): op is "any" or "all"
	nCase                        // CASE … END: args are all its sub-expressions
	nCast                        // args[0]::type, CAST(args[0] AS type)
	nArray                       // ARRAY[…], ARRAY(…)
)

// node is an expression syntax tree node. first and last are the indexes of
// its first and last token (last < first for an empty unknown node).
type node struct {
	kind nodeKind
	// op is the operator or keyword, lowercased; the function name for
	// nCall; the reason for nUnknown.
	op string
	// qual is a column's qualifier or a function's schema.
	qual string
	// name is a column's name.
	name string
	// ph indexes lexResult.placeholders for nPlaceholder.
	ph   int
	args []*node
	// sub is the query of nSubquery and nExists.
	sub         *Statement
	first, last int
}

// Operator precedence, loosest first, following PostgreSQL's table (which
// MySQL's and SQLite's agree with on everything that matters here).
const (
	precOr    = 1 // OR, XOR
	precAnd   = 2 // AND
	precNot   = 3 // NOT
	precIs    = 4 // IS, ISNULL, NOTNULL
	precCmp   = 5 // = <> < > <= >=
	precLike  = 6 // BETWEEN IN LIKE ILIKE SIMILAR REGEXP GLOB
	precOther = 7 // any other operator: || -> ->> @> …
	precAdd   = 8 // + -
	precMul   = 9 // * / % DIV MOD
	precExp   = 10
	precUnary = 11
	precAt    = 12 // AT TIME ZONE, COLLATE
)

// maxDepth bounds the nesting of expressions and subqueries. Real SQL
// nests a handful of levels; the bound keeps the recursion (and the stack)
// small on adversarial input.
const maxDepth = 100

// maxChain bounds the operators in one chain (a AND b AND c …). A chain
// builds a left-deep tree that the summarisers walk recursively; ORMs that
// spell IN lists as OR chains stay far below the bound.
const maxChain = 10000

func (p *parser) enter() bool {
	p.depth++
	if p.depth > maxDepth {
		p.abort("nesting deeper than 100 levels")
		return false
	}
	return true
}

func (p *parser) leave() { p.depth-- }

// unknownHere returns an unknown node for the current token, consuming
// nothing.
func (p *parser) unknownHere(reason string) *node {
	return &node{kind: nUnknown, op: reason, first: p.pos, last: p.pos}
}

// parseExpr parses an expression whose operators bind at least as tightly
// as minPrec.
func (p *parser) parseExpr(minPrec int) *node {
	if !p.enter() {
		return p.unknownHere("too deep")
	}
	defer p.leave()
	left := p.parsePrefix()
	if left.kind == nUnknown {
		return left
	}
	for chain := 0; ; chain++ {
		op, prec := p.infixOperator()
		if prec == 0 || prec < minPrec {
			return left
		}
		if chain == maxChain {
			p.abort("expression with more than 10000 operators")
			return p.unknownHere("too long")
		}
		left = p.parseInfix(left, op, prec)
		if left.kind == nUnknown {
			return left
		}
	}
}

func (p *parser) parsePrefix() *node {
	t := p.peek()
	first := p.pos
	switch {
	case t.isWord("not"):
		p.next()
		arg := p.parseExpr(precNot)
		return &node{kind: nUnary, op: "not", args: []*node{arg}, first: first, last: arg.last}
	case t.kind == tokOp && (t.text == "-" || t.text == "+" || t.text == "~" || t.text == "!" || t.text == "@"):
		p.next()
		arg := p.parseExpr(precUnary)
		return &node{kind: nUnary, op: t.text, args: []*node{arg}, first: first, last: arg.last}
	}
	return p.parsePrimary()
}

// infixOperator returns the infix or postfix operator at the current token
// and its precedence, or prec 0 if the token cannot continue an
// expression.
func (p *parser) infixOperator() (string, int) {
	t := p.peek()
	switch t.kind {
	case tokWord:
		switch t.word {
		case "or", "xor":
			return t.word, precOr
		case "and":
			return "and", precAnd
		case "is", "isnull", "notnull":
			return t.word, precIs
		case "in", "between", "like", "ilike", "similar", "regexp", "rlike", "glob", "match":
			return t.word, precLike
		case "not":
			switch p.peekAt(1).word {
			case "in", "between", "like", "ilike", "similar", "regexp", "rlike", "glob", "match":
				return "not", precLike
			}
		case "div", "mod":
			return t.word, precMul
		case "collate":
			return "collate", precAt
		case "at":
			if p.peekAt(1).isWord("time") && p.peekAt(2).isWord("zone") {
				return "at time zone", precAt
			}
		}
	case tokOp:
		switch t.text {
		case "=", "==", "<>", "!=", "<", ">", "<=", ">=", "<=>":
			return t.text, precCmp
		case "+", "-":
			return t.text, precAdd
		case "*", "/", "%":
			return t.text, precMul
		case "^":
			return "^", precExp
		case "::", ":=", ":":
			// :: is handled as a postfix in parsePrimary; := (MySQL
			// assignment) and a lone : end the expression.
			return "", 0
		case "#":
			// A '#' that the lexer did not take for a comment: a MySQL
			// comment after code, or PostgreSQL's XOR. Either reading
			// is a guess, so the expression is unknown.
			return "#", precOther
		}
		return t.text, precOther
	}
	return "", 0
}

func (p *parser) parseInfix(left *node, op string, prec int) *node {
	first := left.first
	switch op {
	case "is":
		return p.parseIs(left)
	case "isnull", "notnull":
		last := p.pos
		p.next()
		isOp := "is"
		if op == "notnull" {
			isOp = "is not"
		}
		return &node{kind: nIs, op: isOp, args: []*node{left, {kind: nNull, first: last, last: last}}, first: first, last: last}
	case "collate":
		p.next()
		if !p.peek().isName() {
			return p.unknownHere("COLLATE without a collation")
		}
		left.last = p.pos
		p.next()
		return left
	case "#":
		return p.unknownHere("'#' is a MySQL comment or PostgreSQL's XOR")
	case "at time zone":
		p.next()
		p.next()
		p.next()
		right := p.parseExpr(prec + 1)
		return &node{kind: nBinary, op: op, args: []*node{left, right}, first: first, last: right.last}
	}
	negated := false
	if op == "not" {
		p.next()
		negated = true
		op = p.peek().word
	}
	p.next()
	switch op {
	case "in":
		right := p.parseInOperand()
		return &node{kind: nIn, op: notPrefix(negated, "in"), args: []*node{left, right}, first: first, last: right.last}
	case "between":
		p.acceptWord("symmetric")
		low := p.parseExpr(precLike + 1)
		if low.kind == nUnknown {
			return low
		}
		if !p.acceptWord("and") {
			return p.unknownHere("BETWEEN without AND")
		}
		high := p.parseExpr(precLike + 1)
		return &node{kind: nBetween, op: notPrefix(negated, "between"), args: []*node{left, low, high}, first: first, last: high.last}
	case "similar":
		if !p.acceptWord("to") {
			return p.unknownHere("SIMILAR without TO")
		}
		op = "similar to"
		fallthrough
	case "like", "ilike", "regexp", "rlike", "glob", "match":
		right := p.parseExpr(precLike + 1)
		if p.acceptWord("escape") {
			esc := p.parseExpr(precLike + 1)
			right = &node{kind: nBinary, op: "escape", args: []*node{right, esc}, first: right.first, last: esc.last}
		}
		return &node{kind: nBinary, op: notPrefix(negated, op), args: []*node{left, right}, first: first, last: right.last}
	}
	// Comparison operators may be followed by a quantifier: = ANY (…).
	if prec == precCmp {
		if q := p.peek(); (q.isWord("any") || q.isWord("all") || q.isWord("some")) && p.peekAt(1).isPunct("(") {
			right := p.parseQuantified()
			return &node{kind: nBinary, op: op, args: []*node{left, right}, first: first, last: right.last}
		}
	}
	right := p.parseExpr(prec + 1)
	return &node{kind: nBinary, op: op, args: []*node{left, right}, first: first, last: right.last}
}

func notPrefix(negated bool, op string) string {
	if negated {
		return "not " + op
	}
	return op
}

// parseIs parses what follows IS: [NOT] NULL / TRUE / FALSE / UNKNOWN /
// DISTINCT FROM x.
func (p *parser) parseIs(left *node) *node {
	first := left.first
	p.next()
	op := "is"
	if p.acceptWord("not") {
		op = "is not"
	}
	t := p.peek()
	switch {
	case t.isWord("null"):
		p.next()
		return &node{kind: nIs, op: op, args: []*node{left, {kind: nNull, first: p.pos - 1, last: p.pos - 1}}, first: first, last: p.pos - 1}
	case t.isWord("true") || t.isWord("false") || t.isWord("unknown"):
		p.next()
		return &node{kind: nIs, op: op, args: []*node{left, {kind: nLiteral, first: p.pos - 1, last: p.pos - 1}}, first: first, last: p.pos - 1}
	case t.isWord("distinct") && p.peekAt(1).isWord("from"):
		p.next()
		p.next()
		right := p.parseExpr(precIs + 1)
		return &node{kind: nIs, op: op + " distinct from", args: []*node{left, right}, first: first, last: right.last}
	}
	return p.unknownHere("IS followed by " + describeToken(t))
}

// parseInOperand parses the right side of IN: a parenthesised list or
// query, or (GORM's "id IN ?", sqlc's "IN (sqlc.slice(ids))") an
// expression.
func (p *parser) parseInOperand() *node {
	if p.peek().isPunct("(") {
		return p.parseParen()
	}
	return p.parseExpr(precLike + 1)
}

func (p *parser) parseQuantified() *node {
	first := p.pos
	q := p.next().word
	if q == "some" {
		q = "any"
	}
	inner := p.parseParen()
	return &node{kind: nQuantified, op: q, args: []*node{inner}, first: first, last: inner.last}
}

// parseParen parses a parenthesised group at the current '(' : a subquery,
// a single expression (nParen) or a list (nList).
func (p *parser) parseParen() *node {
	first := p.pos
	closeAt := p.closing(p.pos)
	if startsQuery(p.peekAt(1), p.peekAt(2)) {
		sub := p.parseNested(closeAt)
		if p.cur != nil {
			p.cur.Subqueries = append(p.cur.Subqueries, sub)
		}
		return &node{kind: nSubquery, sub: sub, first: first, last: closeAt}
	}
	p.next()
	var items []*node
	for !p.peek().isPunct(")") && p.peek().kind != tokEOF {
		item := p.parseExpr(0)
		items = append(items, item)
		if item.kind == nUnknown || !p.acceptPunct(",") {
			break
		}
	}
	if p.pos != closeAt || !p.acceptPunct(")") {
		reason := "unbalanced parentheses"
		if p.pos < closeAt {
			reason = "unexpected " + describeToken(p.peek())
		}
		p.jumpPast(closeAt)
		return &node{kind: nUnknown, op: reason, first: first, last: p.pos - 1}
	}
	if len(items) == 1 {
		return &node{kind: nParen, args: items, first: first, last: closeAt}
	}
	return &node{kind: nList, args: items, first: first, last: closeAt}
}

// startsQuery reports whether a '(' followed by a and b opens a query.
func startsQuery(a, b token) bool {
	if a.isWord("select") || a.isWord("with") || a.isWord("values") || (a.isWord("table") && b.isName()) {
		return true
	}
	// ((SELECT …) UNION (SELECT …))
	return a.isPunct("(") && (b.isWord("select") || b.isWord("with"))
}

func describeToken(t token) string {
	switch t.kind {
	case tokEOF:
		return "end of text"
	case tokWord:
		return upperASCII(t.word)
	case tokString:
		return "string"
	case tokNumber:
		return "number"
	case tokPlaceholder:
		return "placeholder"
	case tokInvalid:
		if len(t.text) > 1 {
			return "unterminated literal"
		}
	}
	if len(t.text) > 20 {
		return t.text[:20] + "…"
	}
	return t.text
}

func upperASCII(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'a' && c <= 'z' {
			b[i] = c - 'a' + 'A'
		}
	}
	return string(b)
}
