package sqltext

// Fragments are the pieces of SQL that query builders take as strings:
//
//	GORM  db.Where("id = ? AND version = ?", …)         ParseCondition
//	GORM  gorm.Expr("balance - ?", x)                    ParseExpr
//	bun   q.Where("?TableAlias.id = ?", …)               ParseCondition
//	bun   q.Set("count = count + 1")                     ParseSetList
//	bun   q.SetColumn("count", "count + ?", n)           ParseExpr
//	bun   q.On("CONFLICT (email) DO UPDATE")             ParseConflict
//	bun   q.For("UPDATE SKIP LOCKED")                    ParseRowLock
//
// Placeholder positions are relative to the fragment: the builder binds a
// fragment's ? to the arguments passed with it.

// newFragmentParser returns a parser for a fragment, with a scratch
// statement to collect what fragments do not report (advisory locks,
// unknown-part reasons).
func newFragmentParser(s string) (*parser, *Statement) {
	p := newParser(s)
	p.fragment = true
	st := &Statement{}
	p.cur = st
	return p, st
}

// fragmentTrusted reports whether the whole fragment was read: nothing is
// left over, the lexer had no problems and the parser did not give up.
func (p *parser) fragmentTrusted() bool {
	p.skipSemicolons()
	return p.peek().kind == tokEOF && len(p.lx.problems) == 0 && p.balanced && !p.aborted
}

// ParseCondition summarises a WHERE-condition fragment such as GORM's
// "id = ? AND version = ?" or "email = @email". A leading WHERE is
// accepted. An empty fragment is Unknown.
func ParseCondition(s string) *Condition {
	p, _ := newFragmentParser(s)
	p.acceptWord("where")
	if p.peek().kind == tokEOF {
		return &Condition{Text: s, Unknown: true}
	}
	n := p.parseExpr(0)
	c := p.conditionSummary(nil, n, "")
	if !p.fragmentTrusted() {
		c.Unknown = true
	}
	return c
}

// ParseExpr summarises a value-expression fragment such as GORM's
// gorm.Expr("count + ?") text. EXCLUDED.c and VALUES(c) are read as the
// proposed row's columns (ExprExcluded), as in an upsert's update branch.
func ParseExpr(s string) *Expr {
	p, _ := newFragmentParser(s)
	if p.peek().kind == tokEOF {
		return &Expr{Text: s}
	}
	n := p.parseExpr(0)
	e := p.exprSummary(n, fragmentScope())
	if !p.fragmentTrusted() {
		e = Expr{Text: e.Text, Kind: ExprUnknown, Placeholders: e.Placeholders}
	}
	return &e
}

func fragmentScope() *scope { return &scope{excluded: []string{"excluded"}, valuesFunc: true} }

// SetList is a parsed SET-list fragment.
type SetList struct {
	Assignments []Assignment
	// Unknown reports that some part of the fragment was not understood.
	Unknown bool
}

// ParseSetList summarises a SET-list fragment such as bun's
// Set("count = count + 1") or "a = ?, b = EXCLUDED.b". A leading SET is
// accepted. Qualifiers are not resolved: n = t.n + 1 is self-referential
// whatever t is.
func ParseSetList(s string) *SetList {
	p, st := newFragmentParser(s)
	p.acceptWord("set")
	if p.peek().kind == tokEOF {
		return &SetList{Unknown: true}
	}
	list := &SetList{Assignments: p.parseAssignments(st, TableRef{}, fragmentScope(), "set")}
	list.Unknown = len(st.Unknown) > 0 || !p.fragmentTrusted()
	return list
}

// ParseConflict summarises a conflict-clause fragment as given to bun's
// On(): "CONFLICT (email) DO NOTHING", "CONFLICT (email) DO UPDATE" (the
// SET list then comes from Set, so Conflict.Set is empty), "DUPLICATE KEY
// UPDATE a = VALUES(a)"; a leading ON is accepted. It never returns nil;
// a fragment that is not a conflict clause is Unknown.
func ParseConflict(s string) *Conflict {
	p, st := newFragmentParser(s)
	p.acceptWord("on")
	if !p.atWord("conflict") && !p.atWords("duplicate", "key", "update") {
		return &Conflict{Unknown: true}
	}
	c := p.parseConflictClause(st, fragmentScope())
	if len(st.Unknown) > 0 || !p.fragmentTrusted() {
		c.Unknown = true
	}
	return c
}

// ParseRowLock summarises a locking-clause fragment as given to bun's
// For(): "UPDATE", "NO KEY UPDATE SKIP LOCKED", "SHARE OF ?TableAlias"; a
// leading FOR is accepted, and so is MySQL's "LOCK IN SHARE MODE". It
// reports false when the fragment is not a locking clause.
func ParseRowLock(s string) (RowLock, bool) {
	p, _ := newFragmentParser(s)
	if p.acceptWords("lock", "in", "share", "mode") {
		return RowLock{Strength: LockInShareMode}, p.fragmentTrusted()
	}
	p.acceptWord("for")
	lock, ok := p.parseRowLock()
	if !ok || !p.fragmentTrusted() {
		return RowLock{}, false
	}
	return lock, true
}
