package sqltext

import (
	"strconv"
	"strings"
)

// tokenKind classifies a token. Keywords are not a kind of their own: SQL's
// keywords are mostly non-reserved (a column may be called "key", "update"
// or "version"), so the parser decides from position whether a word is a
// keyword or a name.
type tokenKind uint8

const (
	tokEOF         tokenKind = iota
	tokWord                  // unquoted identifier or keyword; word holds it lowercased
	tokQuotedIdent           // "name" or `name`; word holds the name without quotes
	tokString                // '…', E'…', X'…', N'…', B'…', U&'…', $$…$$, $tag$…$tag$
	tokNumber                // 42, 4.2, .5, 1e10, 0x1F
	tokPlaceholder           // $1, ?, ?1, :name, @name, $name, ?name, sqlc.arg(name)
	tokVariable              // MySQL system variable @@name
	tokOp                    // operator symbol: = <> :: ->> || …
	tokPunct                 // ( ) , ; . [ ] { }
	tokInvalid               // a byte no dialect gives a meaning to, or an unterminated literal
)

// token is one lexical unit of the SQL text.
type token struct {
	kind tokenKind
	// text is the token's source text, exactly as written.
	text string
	// word is the token's normalised name: lowercased for tokWord, the
	// unquoted name for tokQuotedIdent, the parameter name for named
	// placeholders.
	word string
	// pos is the byte offset of the token in the source.
	pos int
	// placeholder indexes lexResult.placeholders for tokPlaceholder.
	placeholder int
}

// end is the byte offset just past the token.
func (t token) end() int { return t.pos + len(t.text) }

// isWord reports whether t is the unquoted word w (w must be lowercase).
func (t token) isWord(w string) bool { return t.kind == tokWord && t.word == w }

// isPunct reports whether t is the punctuation p.
func (t token) isPunct(p string) bool { return t.kind == tokPunct && t.text == p }

// isOp reports whether t is the operator op.
func (t token) isOp(op string) bool { return t.kind == tokOp && t.text == op }

// isName reports whether t can be an identifier: an unquoted word or a
// quoted identifier.
func (t token) isName() bool { return t.kind == tokWord || t.kind == tokQuotedIdent }

// lexResult is the tokenised form of one SQL text.
type lexResult struct {
	src          string
	tokens       []token
	placeholders []Placeholder
	// leadingComments are the comments before the first token, without
	// their delimiters (sqlc puts its "name: X :cmd" header there).
	leadingComments []string
	// problems are reasons the text cannot be fully trusted (an
	// unterminated literal, a MySQL executable comment); each becomes an
	// unknown part of the statement.
	problems []string
	// sawBackslashInString records whether a plain '…' string contained a
	// backslash, the one case where the dialects disagree on token
	// boundaries.
	sawBackslashInString bool
	// sawBacktick records a backtick-quoted identifier (MySQL, SQLite).
	sawBacktick bool
	// unterminated records a literal or comment that runs off the end;
	// unterminatedComment a block comment that does.
	unterminated        bool
	unterminatedComment bool
}

// lex tokenises src. It never fails: what it cannot read becomes a
// tokInvalid token or a problem.
//
// Two dialect differences change token boundaries and are resolved here:
//
//   - A backslash in '…' escapes the next character in MySQL (by default)
//     but is an ordinary character in PostgreSQL (standard_conforming_strings)
//     and SQLite. The text is first read the standard way; only if a string
//     contained a backslash is it read again the MySQL way, and the reading
//     that leaves no literal unterminated wins. When both readings are
//     clean but split the text differently, the standard one is used and
//     the statement is marked unknown.
//   - PostgreSQL block comments nest, MySQL and SQLite ones do not. The
//     text is read with nesting; if a comment then runs off the end, the
//     whole text is read again flat. (Deciding per comment would rescan
//     the rest of the text at every opener: quadratic on "/*/*/*…".)
func lex(src string) *lexResult {
	nested := true
	standard := lexWith(src, false, nested)
	if standard.unterminatedComment {
		nested = false
		standard = lexWith(src, false, nested)
	}
	if !standard.sawBackslashInString {
		return finishLex(standard)
	}
	mysql := lexWith(src, true, nested)
	standardClean := !standard.unterminated
	mysqlClean := !mysql.unterminated
	switch {
	case standardClean && !mysqlClean:
		return finishLex(standard)
	case mysqlClean && !standardClean:
		return finishLex(mysql)
	case standardClean && mysqlClean && !sameBoundaries(standard, mysql):
		if standard.sawBacktick {
			// Backticks only quote identifiers in MySQL and SQLite; of
			// those only MySQL reads backslash escapes, so the MySQL
			// reading is the likely one.
			return finishLex(mysql)
		}
		standard.problems = append(standard.problems, "string literal: backslash escapes make the token boundaries dialect-dependent")
	}
	return finishLex(standard)
}

func sameBoundaries(a, b *lexResult) bool {
	if len(a.tokens) != len(b.tokens) {
		return false
	}
	for i := range a.tokens {
		if a.tokens[i].pos != b.tokens[i].pos || a.tokens[i].kind != b.tokens[i].kind || len(a.tokens[i].text) != len(b.tokens[i].text) {
			return false
		}
	}
	return true
}

// lexer scans one SQL text.
type lexer struct {
	src string
	i   int
	// backslashEscapes makes '…' strings honour MySQL's backslash escapes.
	backslashEscapes bool
	// nestedComments makes /* … */ nest, as in PostgreSQL.
	nestedComments bool
	// unterminated is set by quoted when a literal runs off the end.
	unterminated bool
	res          *lexResult
}

func lexWith(src string, backslashEscapes, nestedComments bool) *lexResult {
	lx := &lexer{src: src, backslashEscapes: backslashEscapes, nestedComments: nestedComments, res: &lexResult{src: src}}
	// A statement has roughly one token per five bytes; reserving that
	// much avoids most slice growth.
	lx.res.tokens = make([]token, 0, len(src)/5+4)
	lx.run()
	return lx.res
}

func (lx *lexer) emit(kind tokenKind, start int, word string) {
	lx.res.tokens = append(lx.res.tokens, token{kind: kind, text: lx.src[start:lx.i], word: word, pos: start, placeholder: -1})
}

func (lx *lexer) problem(msg string) { lx.res.problems = append(lx.res.problems, msg) }

// unterminatedProblem records a literal or comment that runs off the end.
func (lx *lexer) unterminatedProblem(msg string) {
	lx.res.unterminated = true
	lx.problem(msg)
}

func (lx *lexer) peekByte(off int) byte {
	if lx.i+off < len(lx.src) {
		return lx.src[lx.i+off]
	}
	return 0
}

func (lx *lexer) run() {
	src := lx.src
	for lx.i < len(src) {
		c := src[lx.i]
		start := lx.i
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v':
			lx.i++
		case c == '-' && lx.peekByte(1) == '-':
			lx.lineComment(2)
		case c == '#' && lx.hashStartsComment():
			lx.lineComment(1)
		case c == '/' && lx.peekByte(1) == '*':
			lx.blockComment()
		case isWordStart(c):
			lx.wordOrPrefixedString()
		case isDigit(c) || (c == '.' && isDigit(lx.peekByte(1)) && !lx.followsName()):
			lx.number()
		case c == '\'':
			lx.quoted('\'', lx.backslashEscapes)
			lx.emitLiteral(tokString, start)
		case c == '"':
			lx.quoted('"', false)
			lx.emitQuotedIdent(start)
		case c == '`':
			lx.res.sawBacktick = true
			lx.quoted('`', false)
			lx.emitQuotedIdent(start)
		case c == '$':
			lx.dollar()
		case c == '?':
			lx.question()
		case c == ':':
			lx.colon()
		case c == '@':
			lx.at()
		case strings.IndexByte("(),;.[]{}", c) >= 0:
			lx.i++
			lx.emit(tokPunct, start, "")
		case isOpChar(c):
			lx.operator()
		default:
			// A stray byte (a backslash, a control character): kept as
			// a token so the parser sees something it cannot read and
			// reports that part unknown.
			lx.i++
			lx.emit(tokInvalid, start, "")
		}
	}
}

// hashStartsComment decides whether '#' starts a MySQL comment. In
// PostgreSQL '#' is the XOR operator and starts the JSON operators #>, #>>
// and #-, so a '#' is read as a comment only where no PostgreSQL text puts
// an operator: as the first non-blank character of a line and not followed
// by '>' or '-'. A '#' comment after code on the same line is therefore
// read as an operator; the words after it then fail to parse and that part
// of the statement is reported unknown rather than misread.
func (lx *lexer) hashStartsComment() bool {
	if n := lx.peekByte(1); n == '>' || n == '-' {
		return false
	}
	for j := lx.i - 1; j >= 0; j-- {
		switch lx.src[j] {
		case ' ', '\t', '\f', '\v':
			continue
		case '\n', '\r':
			return true
		default:
			return false
		}
	}
	return true
}

func (lx *lexer) lineComment(prefix int) {
	start := lx.i
	end := strings.IndexAny(lx.src[start:], "\r\n")
	if end < 0 {
		lx.i = len(lx.src)
	} else {
		lx.i = start + end
	}
	lx.comment(lx.src[start+prefix : lx.i])
}

// comment records a comment's text if no token precedes it.
func (lx *lexer) comment(text string) {
	if len(lx.res.tokens) == 0 {
		lx.res.leadingComments = append(lx.res.leadingComments, text)
	}
}

func (lx *lexer) blockComment() {
	start := lx.i
	if lx.peekByte(2) == '!' {
		// MySQL runs the text of /*! … */ as SQL: what looks like a
		// comment may be part of the statement.
		lx.problem("comment: MySQL executable comment /*! */")
	}
	var end int
	ok := false
	if lx.nestedComments {
		end, ok = nestedCommentEnd(lx.src, start)
	} else if j := strings.Index(lx.src[start+2:], "*/"); j >= 0 {
		end, ok = start+2+j+2, true
	}
	if !ok {
		lx.i = len(lx.src)
		lx.res.unterminatedComment = true
		lx.unterminatedProblem("comment: unterminated /* comment")
		return
	}
	lx.i = end
	lx.comment(lx.src[start+2 : end-2])
}

// nestedCommentEnd returns the offset just past the PostgreSQL-style
// (nesting) block comment that starts at start.
func nestedCommentEnd(src string, start int) (int, bool) {
	depth := 0
	for j := start; j+1 < len(src); {
		switch {
		case src[j] == '/' && src[j+1] == '*':
			depth++
			j += 2
		case src[j] == '*' && src[j+1] == '/':
			depth--
			j += 2
			if depth == 0 {
				return j, true
			}
		default:
			j++
		}
	}
	return 0, false
}

func (lx *lexer) wordOrPrefixedString() {
	start := lx.i
	c := lx.src[start]
	next := lx.peekByte(1)
	// String-literal prefixes: E'…' (C escapes), X'…'/B'…' (hex, bit),
	// N'…' (national). U&'…' and U&"…" carry Unicode escapes.
	if next == '\'' {
		switch c {
		case 'e', 'E':
			lx.i++
			lx.quoted('\'', true)
			lx.emitLiteral(tokString, start)
			return
		case 'x', 'X', 'b', 'B', 'n', 'N':
			lx.i++
			lx.quoted('\'', lx.backslashEscapes)
			lx.emitLiteral(tokString, start)
			return
		}
	}
	if (c == 'u' || c == 'U') && next == '&' && (lx.peekByte(2) == '\'' || lx.peekByte(2) == '"') {
		q := lx.peekByte(2)
		lx.i += 2
		lx.quoted(q, false)
		if q == '\'' {
			lx.emitLiteral(tokString, start)
		} else {
			lx.emitQuotedIdent(start)
		}
		return
	}
	lx.i++
	for lx.i < len(lx.src) && isWordPart(lx.src[lx.i]) {
		lx.i++
	}
	lx.emit(tokWord, start, lowerWord(lx.src[start:lx.i]))
}

func (lx *lexer) number() {
	start := lx.i
	src := lx.src
	if src[lx.i] == '0' && (lx.peekByte(1) == 'x' || lx.peekByte(1) == 'X') && isHexDigit(lx.peekByte(2)) {
		lx.i += 2
		for lx.i < len(src) && (isHexDigit(src[lx.i]) || src[lx.i] == '_') {
			lx.i++
		}
		lx.emit(tokNumber, start, "")
		return
	}
	for lx.i < len(src) && (isDigit(src[lx.i]) || src[lx.i] == '_') {
		lx.i++
	}
	if lx.i < len(src) && src[lx.i] == '.' && !(lx.peekByte(1) == '.') {
		lx.i++
		for lx.i < len(src) && isDigit(src[lx.i]) {
			lx.i++
		}
	}
	if lx.i < len(src) && (src[lx.i] == 'e' || src[lx.i] == 'E') {
		j := lx.i + 1
		if j < len(src) && (src[j] == '+' || src[j] == '-') {
			j++
		}
		if j < len(src) && isDigit(src[j]) {
			lx.i = j
			for lx.i < len(src) && isDigit(src[lx.i]) {
				lx.i++
			}
		}
	}
	lx.emit(tokNumber, start, "")
}

// quoted advances past a literal delimited by q that starts at lx.i (on the
// opening q), honouring doubled delimiters and, if asked, backslash
// escapes. An unterminated literal runs to the end of the text.
func (lx *lexer) quoted(q byte, backslashEscapes bool) {
	src := lx.src
	j := lx.i + 1
	for j < len(src) {
		c := src[j]
		switch {
		case c == '\\' && q == '\'':
			lx.res.sawBackslashInString = true
			if backslashEscapes {
				j += 2
				continue
			}
			j++
		case c == q:
			if j+1 < len(src) && src[j+1] == q {
				j += 2
				continue
			}
			lx.i = j + 1
			return
		default:
			j++
		}
	}
	lx.i = len(src)
	lx.unterminated = true
}

// emitLiteral emits the literal just scanned, or an invalid token if it ran
// off the end.
func (lx *lexer) emitLiteral(kind tokenKind, start int) {
	if lx.unterminated {
		lx.unterminated = false
		lx.emit(tokInvalid, start, "")
		lx.unterminatedProblem("literal: unterminated quoted text")
		return
	}
	lx.emit(kind, start, "")
}

func (lx *lexer) emitQuotedIdent(start int) {
	if lx.unterminated {
		lx.emitLiteral(tokQuotedIdent, start)
		return
	}
	text := lx.src[start:lx.i]
	open := strings.IndexAny(text, "\"`")
	q := text[open]
	name := text[open+1 : len(text)-1]
	if name == "" {
		// A zero-length identifier is an error in every dialect.
		lx.emit(tokInvalid, start, "")
		return
	}
	if strings.IndexByte(name, q) >= 0 {
		name = strings.ReplaceAll(name, string([]byte{q, q}), string(q))
	}
	lx.emit(tokQuotedIdent, start, name)
}

// dollar reads what starts with '$': a positional placeholder $1, a
// dollar-quoted string $$…$$ or $tag$…$tag$, or SQLite's named
// placeholder $name.
func (lx *lexer) dollar() {
	start := lx.i
	src := lx.src
	next := lx.peekByte(1)
	switch {
	case isDigit(next):
		lx.i++
		for lx.i < len(src) && isDigit(src[lx.i]) {
			lx.i++
		}
		n, err := strconv.Atoi(src[start+1 : lx.i])
		if err != nil {
			n = 0 // absurdly large: no argument has that position
		}
		lx.placeholder(start, Placeholder{Style: PlaceholderDollar, Position: n})
		return
	case next == '$' || isWordStart(next):
		j := lx.i + 1
		for j < len(src) && isTagPart(src[j]) {
			j++
		}
		if j < len(src) && src[j] == '$' {
			delim := src[start : j+1]
			end := strings.Index(src[j+1:], delim)
			if end < 0 {
				lx.i = len(src)
				lx.emit(tokInvalid, start, "")
				lx.unterminatedProblem("literal: unterminated dollar-quoted string")
				return
			}
			lx.i = j + 1 + end + len(delim)
			lx.emit(tokString, start, "")
			return
		}
		if next != '$' {
			lx.i = j
			for lx.i < len(src) && isWordPart(src[lx.i]) {
				lx.i++
			}
			lx.placeholder(start, Placeholder{Style: PlaceholderDollarName, Name: src[start+1 : lx.i]})
			return
		}
	}
	lx.i++
	lx.emit(tokInvalid, start, "")
}

// question reads what starts with '?': a positional placeholder ?, a
// numbered one ?1 (SQLite; bun's ?0 is zero-based, see doc.go), a bun named
// one ?name, or PostgreSQL's jsonb operators ?| and ?& (a bare ? that is
// really the jsonb operator is sorted out in finishLex).
func (lx *lexer) question() {
	start := lx.i
	src := lx.src
	next := lx.peekByte(1)
	switch {
	case next == '|' || next == '&':
		lx.i += 2
		lx.emit(tokOp, start, "")
	case isDigit(next):
		lx.i++
		for lx.i < len(src) && isDigit(src[lx.i]) {
			lx.i++
		}
		n, err := strconv.Atoi(src[start+1 : lx.i])
		if err != nil {
			n = 0
		}
		lx.placeholder(start, Placeholder{Style: PlaceholderNumberedQuestion, Position: n})
	case isWordStart(next):
		lx.i++
		for lx.i < len(src) && isWordPart(src[lx.i]) {
			lx.i++
		}
		lx.placeholder(start, Placeholder{Style: PlaceholderQuestionName, Name: src[start+1 : lx.i]})
	default:
		lx.i++
		lx.placeholder(start, Placeholder{Style: PlaceholderQuestion})
	}
}

// colon reads the cast operator ::, the assignment :=, a named placeholder
// :name (sqlx, SQLite), or a lone ':' (array slices).
func (lx *lexer) colon() {
	start := lx.i
	src := lx.src
	next := lx.peekByte(1)
	switch {
	case next == ':' || next == '=':
		lx.i += 2
		lx.emit(tokOp, start, "")
	case isWordStart(next):
		lx.i++
		for lx.i < len(src) && isWordPart(src[lx.i]) {
			lx.i++
		}
		lx.placeholder(start, Placeholder{Style: PlaceholderColon, Name: src[start+1 : lx.i]})
	default:
		lx.i++
		lx.emit(tokOp, start, "")
	}
}

// at reads a named placeholder @name (GORM, sqlc, SQL Server style; a MySQL
// user variable looks the same and is read as a placeholder too), a MySQL
// system variable @@name, or one of PostgreSQL's @ operators.
func (lx *lexer) at() {
	start := lx.i
	src := lx.src
	next := lx.peekByte(1)
	switch {
	case isWordStart(next):
		lx.i++
		for lx.i < len(src) && isWordPart(src[lx.i]) {
			lx.i++
		}
		lx.placeholder(start, Placeholder{Style: PlaceholderAt, Name: src[start+1 : lx.i]})
	case next == '@' && isWordStart(lx.peekByte(2)):
		lx.i += 2
		for lx.i < len(src) && (isWordPart(src[lx.i]) || src[lx.i] == '.') {
			lx.i++
		}
		lx.emit(tokVariable, start, lowerWord(src[start:lx.i]))
	default:
		lx.operator()
	}
}

// multiCharOps are the operators longer than one byte, longest first so
// that a prefix never shadows a longer operator.
var multiCharOps = []string{
	"->>", "#>>", "<=>", "!~*", "!~~", "~~*", "<<=", ">>=", "@@@",
	"->", "#>", "#-", "||", "&&", "<>", "!=", "<=", ">=", "<<", ">>",
	"@>", "<@", "!~", "~*", "~~", "==", "@@", "&<", "&>", "|/", "-|-",
}

func (lx *lexer) operator() {
	start := lx.i
	rest := lx.src[start:]
	for _, op := range multiCharOps {
		if strings.HasPrefix(rest, op) {
			lx.i += len(op)
			lx.emit(tokOp, start, "")
			return
		}
	}
	lx.i++
	lx.emit(tokOp, start, "")
}

func (lx *lexer) placeholder(start int, ph Placeholder) {
	lx.res.placeholders = append(lx.res.placeholders, ph)
	lx.emit(tokPlaceholder, start, ph.Name)
	lx.res.tokens[len(lx.res.tokens)-1].placeholder = len(lx.res.placeholders) - 1
}

// followsName reports whether the byte before lx.i ends a name or a closing
// bracket, in which case a '.' is qualification, not a decimal point.
func (lx *lexer) followsName() bool {
	if lx.i == 0 {
		return false
	}
	c := lx.src[lx.i-1]
	return isWordPart(c) || c == '"' || c == '`' || c == ')' || c == ']'
}

// finishLex applies the rules that need the whole token stream:
//
//   - sqlc.arg(name), sqlc.narg(name) and sqlc.slice(name) become one
//     placeholder token;
//   - when the text uses $n placeholders, a bare ? is PostgreSQL's jsonb
//     key-exists operator, not a placeholder (pgx and lib/pq never use ?);
//   - bare ? placeholders get their argument positions: the k-th ? is
//     argument k, and, as in SQLite, a ? after a numbered ?N continues
//     from the largest number so far.
func finishLex(r *lexResult) *lexResult {
	r.tokens = collapseSqlcMacros(r)
	hasDollar := false
	for _, ph := range r.placeholders {
		if ph.Style == PlaceholderDollar {
			hasDollar = true
			break
		}
	}
	kept := r.placeholders[:0:0]
	largest := 0
	for i := range r.tokens {
		t := &r.tokens[i]
		if t.kind != tokPlaceholder {
			continue
		}
		ph := r.placeholders[t.placeholder]
		switch ph.Style {
		case PlaceholderQuestion:
			if hasDollar {
				t.kind, t.placeholder = tokOp, -1
				continue
			}
			largest++
			ph.Position = largest
		case PlaceholderNumberedQuestion:
			largest = max(largest, ph.Position)
		}
		kept = append(kept, ph)
		t.placeholder = len(kept) - 1
	}
	r.placeholders = kept
	return r
}

// collapseSqlcMacros replaces the six tokens of sqlc.arg(name) (and narg,
// slice) with one placeholder token spanning them.
func collapseSqlcMacros(r *lexResult) []token {
	toks := r.tokens
	out := toks[:0]
	for i := 0; i < len(toks); i++ {
		if i+5 < len(toks) && toks[i].isWord("sqlc") && toks[i+1].isPunct(".") &&
			(toks[i+2].isWord("arg") || toks[i+2].isWord("narg") || toks[i+2].isWord("slice")) &&
			toks[i+3].isPunct("(") && toks[i+5].isPunct(")") {
			arg := toks[i+4]
			var name string
			switch arg.kind {
			case tokWord, tokQuotedIdent:
				name = arg.word
			case tokString:
				name = strings.Trim(arg.text, "'")
			}
			if name != "" {
				r.placeholders = append(r.placeholders, Placeholder{Style: PlaceholderSqlcArg, Name: name})
				out = append(out, token{
					kind: tokPlaceholder, text: r.src[toks[i].pos:toks[i+5].end()], word: name,
					pos: toks[i].pos, placeholder: len(r.placeholders) - 1,
				})
				i += 5
				continue
			}
		}
		out = append(out, toks[i])
	}
	return out
}

func isDigit(c byte) bool    { return c >= '0' && c <= '9' }
func isHexDigit(c byte) bool { return isDigit(c) || (c|0x20 >= 'a' && c|0x20 <= 'f') }

// isWordStart: identifiers start with a letter or underscore; bytes of
// multi-byte UTF-8 sequences are accepted as letters (PostgreSQL and MySQL
// allow non-ASCII letters in identifiers).
func isWordStart(c byte) bool {
	return (c|0x20 >= 'a' && c|0x20 <= 'z') || c == '_' || c >= 0x80
}

// isWordPart: PostgreSQL and MySQL also allow digits and '$' after the
// first character.
func isWordPart(c byte) bool { return isWordStart(c) || isDigit(c) || c == '$' }

// isTagPart: a dollar-quote tag is an identifier without '$'.
func isTagPart(c byte) bool { return isWordStart(c) || isDigit(c) }

func isOpChar(c byte) bool { return strings.IndexByte("+-*/<>=~!@#%^&|?:", c) >= 0 }

// lowerWord folds the ASCII letters of an unquoted word to lower case, as
// PostgreSQL does in UTF-8 databases (non-ASCII letters keep their case).
// It returns s itself when there is nothing to fold, and serves common
// uppercase keywords from a table, so that lexing "SELECT … FROM … WHERE"
// does not allocate per keyword.
func lowerWord(s string) string {
	first := -1
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 'A' && c <= 'Z' {
			first = i
			break
		}
	}
	if first < 0 {
		return s
	}
	if w, ok := upperKeywords[s]; ok {
		return w
	}
	b := []byte(s)
	for i := first; i < len(b); i++ {
		if c := b[i]; c >= 'A' && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// upperKeywords maps the uppercase spelling of frequent keywords to their
// lowercase form.
var upperKeywords = func() map[string]string {
	words := strings.Fields(`select from where and or not in is null insert into values update set delete
		returning on conflict do nothing for share key no nowait skip locked order by limit offset as
		join left right inner outer cross full using group having distinct union all exists between like
		ilike case when then else end cast default true false with replace ignore duplicate lock table
		mode begin commit rollback transaction isolation level serializable read write only count
		coalesce excluded asc desc interval current_timestamp now constraint`)
	m := make(map[string]string, len(words))
	for _, w := range words {
		m[strings.ToUpper(w)] = w
	}
	return m
}()
