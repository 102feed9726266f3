package sqltext

import (
	"strings"
	"sync"
)

// Parse summarises one SQL statement. It never fails and never panics:
// what it does not understand is reported in Statement.Kind (KindUnknown)
// and Statement.Unknown. A text holding more than one statement is
// KindUnknown; use ParseAll for scripts.
func Parse(sql string) *Statement {
	parsed.Lock()
	st, ok := parsed.m[sql]
	parsed.Unlock()
	if ok {
		return st
	}
	st = parse(sql)
	parsed.Lock()
	if len(parsed.m) >= maxParsed {
		clear(parsed.m)
	}
	parsed.m[sql] = st
	parsed.Unlock()
	return st
}

// parsed memoises Parse: the analyzers ask several questions of one call
// (its lock, its rows, its update, its columns), each parsing its query
// again, and a Statement is never modified once returned. Bounded, for
// long-lived drivers (gopls): cleared when full.
var parsed = struct {
	sync.Mutex
	m map[string]*Statement
}{m: map[string]*Statement{}}

const maxParsed = 4096

func parse(sql string) *Statement {
	p := newParser(sql)
	p.skipSemicolons()
	if p.peek().kind == tokEOF {
		st := &Statement{Sqlc: p.sqlcHeader()}
		p.unknown(st, "empty statement")
		return st
	}
	st := p.parseTopStatement(true)
	p.skipSemicolons()
	if p.peek().kind != tokEOF {
		st.Kind = KindUnknown
		p.unknown(st, "multiple statements")
	}
	return st
}

// ParseAll summarises every statement of a ;-separated script. Placeholder
// positions run over the whole text, as a driver that binds ? arguments
// client-side numbers them.
func ParseAll(sql string) []*Statement {
	p := newParser(sql)
	var out []*Statement
	p.skipSemicolons()
	for p.peek().kind != tokEOF {
		out = append(out, p.parseTopStatement(len(out) == 0))
		p.skipSemicolons()
	}
	return out
}

// parser is a recursive-descent parser over the tokens of one text. It
// bounds its own work: every loop consumes a token or stops, parentheses
// are matched once up front so that skipping a group is O(1), and nesting
// is capped (maxDepth), after which the parser aborts and every pending
// call unwinds at once.
type parser struct {
	lx   *lexResult
	src  string
	toks []token
	// closeParen[i] is the index of the ')' closing the '(' at i, or
	// len(toks) when it is never closed.
	closeParen []int
	// balanced is false when some parenthesis is unmatched.
	balanced bool
	pos      int
	// end bounds the tokens of the construct being parsed (a
	// parenthesised subquery): tokens at or after end read as EOF.
	end   int
	depth int
	// orGroups counts the ORs at the top of the condition being
	// summarised (Comparison.Disjunct).
	orGroups    int
	aborted     bool
	abortReason string
	// cur is the statement being built; advisory-lock calls found in its
	// expressions are recorded on it.
	cur *Statement
	// fragment is set when parsing a fragment rather than a statement.
	fragment bool
}

func newParser(src string) *parser {
	lx := lex(src)
	p := &parser{lx: lx, src: src, toks: lx.tokens, end: len(lx.tokens), balanced: true}
	p.closeParen = make([]int, len(p.toks))
	var open []int
	for i, t := range p.toks {
		switch {
		case t.isPunct("("):
			open = append(open, i)
		case t.isPunct(")"):
			if len(open) == 0 {
				p.balanced = false
				continue
			}
			p.closeParen[open[len(open)-1]] = i
			open = open[:len(open)-1]
		}
	}
	for _, i := range open {
		p.closeParen[i] = len(p.toks)
		p.balanced = false
	}
	return p
}

var eofToken = token{kind: tokEOF, placeholder: -1}

func (p *parser) peek() token { return p.peekAt(0) }

func (p *parser) peekAt(k int) token {
	i := p.pos + k
	if p.aborted || i >= p.end {
		return eofToken
	}
	return p.toks[i]
}

func (p *parser) next() token {
	t := p.peek()
	if t.kind != tokEOF {
		p.pos++
	}
	return t
}

func (p *parser) atWord(w string) bool { return p.peek().isWord(w) }

func (p *parser) acceptWord(w string) bool {
	if p.atWord(w) {
		p.pos++
		return true
	}
	return false
}

// atWords reports whether the next tokens are the words ws.
func (p *parser) atWords(ws ...string) bool {
	for i, w := range ws {
		if !p.peekAt(i).isWord(w) {
			return false
		}
	}
	return true
}

// acceptWords consumes the words ws if they are next, else nothing.
func (p *parser) acceptWords(ws ...string) bool {
	if !p.atWords(ws...) {
		return false
	}
	p.pos += len(ws)
	return true
}

func (p *parser) acceptPunct(s string) bool {
	if p.peek().isPunct(s) {
		p.pos++
		return true
	}
	return false
}

func (p *parser) acceptOp(s string) bool {
	if p.peek().isOp(s) {
		p.pos++
		return true
	}
	return false
}

func (p *parser) atStatementEnd() bool {
	t := p.peek()
	return t.kind == tokEOF || t.isPunct(";")
}

func (p *parser) skipSemicolons() {
	for p.acceptPunct(";") {
	}
}

// closing returns the index of the ')' closing the '(' at i, never beyond
// the current bound.
func (p *parser) closing(i int) int {
	if i >= len(p.toks) || !p.toks[i].isPunct("(") {
		return i
	}
	return min(p.closeParen[i], p.end)
}

// jumpPast moves to the token after index i (a closing parenthesis).
func (p *parser) jumpPast(i int) {
	p.pos = min(max(i+1, p.pos), p.end)
}

// skipOne consumes one token, or a whole parenthesised group.
func (p *parser) skipOne() {
	if p.peek().isPunct("(") {
		p.jumpPast(p.closing(p.pos))
		return
	}
	p.next()
}

func (p *parser) abort(reason string) {
	if !p.aborted {
		p.aborted = true
		p.abortReason = reason
	}
}

// text returns the source text of tokens first..last.
func (p *parser) text(first, last int) string {
	if first > last || first >= len(p.toks) {
		return ""
	}
	last = min(last, len(p.toks)-1)
	return p.src[p.toks[first].pos:p.toks[last].end()]
}

func (p *parser) nodeText(n *node) string { return p.text(n.first, n.last) }

// placeholdersIn returns the placeholders among tokens first..last.
func (p *parser) placeholdersIn(first, last int) []Placeholder {
	var out []Placeholder
	last = min(last, len(p.toks)-1)
	for i := max(first, 0); i <= last; i++ {
		if t := p.toks[i]; t.kind == tokPlaceholder && t.placeholder >= 0 {
			out = append(out, p.lx.placeholders[t.placeholder])
		}
	}
	return out
}

// maxUnknownReasons bounds Statement.Unknown: past a few reasons more
// detail helps nobody, and de-duplication stays cheap.
const maxUnknownReasons = 16

// unknown records that part of st was not understood.
func (p *parser) unknown(st *Statement, reason string) {
	if st == nil {
		return
	}
	if len(st.Unknown) == maxUnknownReasons {
		st.Unknown = append(st.Unknown, "more parts not understood")
	}
	if len(st.Unknown) > maxUnknownReasons {
		return
	}
	for _, r := range st.Unknown {
		if r == reason {
			return
		}
	}
	st.Unknown = append(st.Unknown, reason)
}

// recoverTo records an unexpected token in part and skips to the next
// token stop accepts (or the end), consuming at least one token.
func (p *parser) recoverTo(st *Statement, part string, stop func(token) bool) {
	p.unknown(st, part+": unexpected "+describeToken(p.peek()))
	p.skipOne()
	for !p.atStatementEnd() && !stop(p.peek()) {
		p.skipOne()
	}
}

// merge adds what a nested statement (subquery, CTE, INSERT's query)
// contributes to the statement containing it.
func (p *parser) merge(into, from *Statement) {
	into.RowLocks = append(into.RowLocks, from.RowLocks...)
	into.AdvisoryLocks = append(into.AdvisoryLocks, from.AdvisoryLocks...)
	for _, r := range from.Unknown {
		p.unknown(into, r)
	}
}

// parseTopStatement parses a statement of the text and adds what applies
// to the whole text: the sqlc header and the lexer's problems.
func (p *parser) parseTopStatement(first bool) *Statement {
	st := p.parseStatement()
	if first {
		st.Sqlc = p.sqlcHeader()
	}
	for _, pr := range p.lx.problems {
		p.unknown(st, pr)
	}
	if !p.balanced {
		p.unknown(st, "unbalanced parentheses")
	}
	if p.aborted {
		st.Kind = KindUnknown
		p.unknown(st, p.abortReason)
	}
	return st
}

// parseStatement parses one statement up to ';' or the current bound.
func (p *parser) parseStatement() *Statement {
	st := &Statement{}
	outer := p.cur
	p.cur = st
	defer func() { p.cur = outer }()
	if !p.enter() {
		return st
	}
	defer p.leave()

	start := p.pos
	if p.atWord("with") {
		p.parseWith(st)
	}
	p.parseBody(st)
	if !p.atStatementEnd() {
		p.unknown(st, "unexpected "+describeToken(p.peek()))
		for !p.atStatementEnd() {
			p.skipOne()
		}
	}
	st.Placeholders = p.placeholdersIn(start, p.pos-1)
	return st
}

// parseNested parses the statement inside the parentheses ending at
// closeAt (the current token is the '('), merges what it contributes into
// the current statement, and moves past the ')'.
func (p *parser) parseNested(closeAt int) *Statement {
	p.next() // (
	savedEnd := p.end
	p.end = closeAt
	sub := p.parseStatement()
	p.end = savedEnd
	p.jumpPast(closeAt)
	if p.cur != nil {
		p.merge(p.cur, sub)
	}
	return sub
}

// otherVerbs start statements that read or write no rows by themselves.
var otherVerbs = map[string]bool{
	"set": true, "reset": true, "show": true, "create": true, "alter": true, "drop": true,
	"grant": true, "revoke": true, "comment": true, "analyze": true, "analyse": true, "vacuum": true,
	"listen": true, "notify": true, "unlisten": true, "pragma": true, "attach": true, "detach": true,
	"reindex": true, "cluster": true, "refresh": true, "discard": true, "checkpoint": true,
	"use": true, "describe": true, "desc": true, "optimize": true, "flush": true, "kill": true,
	"prepare": true, "deallocate": true, "unlock": true, "rename": true, "declare": true,
	"close": true, "security": true, "checksum": true, "repair": true,
}

// opaqueVerbs start statements that may write rows in ways the text does
// not show (procedures, anonymous code blocks, prepared statements, bulk
// loads, MERGE): they are unknown.
var opaqueVerbs = map[string]bool{
	"call": true, "do": true, "execute": true, "exec": true, "copy": true, "merge": true,
	"load": true, "import": true, "handler": true, "upsert": true,
}

func (p *parser) parseBody(st *Statement) {
	t := p.peek()
	switch {
	case t.isWord("select") || t.isWord("values") || t.isWord("table") || t.isPunct("("):
		p.parseQuery(st)
	case t.isWord("insert") || t.isWord("replace"):
		p.parseInsert(st)
	case t.isWord("update"):
		p.parseUpdate(st)
	case t.isWord("delete"):
		p.parseDelete(st)
	case t.isWord("truncate"):
		p.parseTruncate(st)
	case t.isWord("lock"):
		p.parseLockTable(st)
	case t.isWord("begin") || t.isWord("start") || t.isWord("commit") || t.isWord("end") ||
		t.isWord("rollback") || t.isWord("abort") || t.isWord("savepoint") || t.isWord("release"):
		p.parseTransaction(st)
	case t.isWord("set") && p.setsTransaction():
		p.parseTransaction(st)
	case t.isWord("explain"):
		st.Verb = "explain"
		if a := p.peekAt(1); a.isWord("analyze") || a.isWord("analyse") || (a.isPunct("(") && (p.peekAt(2).isWord("analyze") || p.peekAt(2).isWord("analyse"))) {
			p.unknown(st, "EXPLAIN ANALYZE runs the statement")
		} else {
			st.Kind = KindOther
		}
		p.skipRest()
	case t.kind == tokWord && otherVerbs[t.word]:
		st.Kind, st.Verb = KindOther, t.word
		p.skipRest()
	case t.kind == tokWord && opaqueVerbs[t.word]:
		st.Verb = t.word
		p.unknown(st, upperASCII(t.word)+" statement")
		p.skipRest()
	case t.kind == tokEOF || t.isPunct(";"):
		p.unknown(st, "empty statement")
	default:
		if t.kind == tokWord {
			st.Verb = t.word
		}
		p.unknown(st, "unrecognised statement "+describeToken(t))
		p.skipRest()
	}
}

func (p *parser) skipRest() {
	for !p.atStatementEnd() {
		p.skipOne()
	}
}

// parseWith parses WITH [RECURSIVE] name [(cols)] AS [[NOT] MATERIALIZED] (stmt), ….
func (p *parser) parseWith(st *Statement) {
	p.next() // with
	p.acceptWord("recursive")
	for !p.aborted {
		if !p.peek().isName() {
			p.unknown(st, "with: unexpected "+describeToken(p.peek()))
			return
		}
		name := p.next().word
		if p.peek().isPunct("(") {
			p.jumpPast(p.closing(p.pos))
		}
		if !p.acceptWord("as") {
			p.unknown(st, "with: unexpected "+describeToken(p.peek()))
			return
		}
		p.acceptWord("not")
		p.acceptWord("materialized")
		if !p.peek().isPunct("(") {
			p.unknown(st, "with: unexpected "+describeToken(p.peek()))
			return
		}
		sub := p.parseNested(p.closing(p.pos))
		st.With = append(st.With, CTE{Name: name, Statement: sub})
		if !p.acceptPunct(",") {
			return
		}
	}
}

// sqlcHeader parses sqlc's "-- name: GetUser :one" (or /* name: … */)
// from the comments before the first token.
func (p *parser) sqlcHeader() *SqlcHeader {
	for _, c := range p.lx.leadingComments {
		fields := strings.Fields(c)
		if len(fields) >= 3 && fields[0] == "name:" && strings.HasPrefix(fields[2], ":") {
			return &SqlcHeader{Name: fields[1], Command: fields[2]}
		}
	}
	return nil
}
