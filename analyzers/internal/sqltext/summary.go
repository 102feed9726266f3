package sqltext

import (
	"strconv"
	"strings"
)

// Kind is what a statement does to table rows.
type Kind uint8

const (
	// KindUnknown: the statement was not understood. Nothing else in the
	// summary may be relied on.
	KindUnknown Kind = iota
	// KindSelect: a query (SELECT, VALUES, TABLE), possibly locking rows.
	KindSelect
	// KindInsert: an INSERT with no conflict handling.
	KindInsert
	// KindUpdate: an UPDATE.
	KindUpdate
	// KindDelete: a DELETE.
	KindDelete
	// KindUpsert: an INSERT that says what to do when a row with the same
	// key exists: ON CONFLICT, ON DUPLICATE KEY UPDATE, INSERT IGNORE,
	// INSERT OR IGNORE/REPLACE, REPLACE INTO. Statement.Conflict says which
	// action; not every upsert updates (DO NOTHING, IGNORE).
	KindUpsert
	// KindOther: a statement that reads or writes no rows by itself:
	// transaction control, SET, LOCK TABLE, DDL, SHOW, ...
	KindOther
)

var kindNames = [...]string{"unknown", "select", "insert", "update", "delete", "upsert", "other"}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "Kind(" + strconv.Itoa(int(k)) + ")"
}

// Statement summarises one SQL statement.
//
// Slices are nil when the statement has no such part. A part that is
// present but not understood is flagged where it is (Expr.Kind ==
// ExprUnknown, Condition.Unknown, Conflict.Unknown) and listed in Unknown.
type Statement struct {
	Kind Kind
	// Verb is the statement's leading keyword, lowercased ("select",
	// "insert", "replace", "update", "delete", "begin", "lock", "create",
	// ...); for WITH … statements, the verb of the main statement.
	Verb string
	// Sqlc is the "-- name: X :cmd" header sqlc puts in front of every
	// query it generates, nil if there is none.
	Sqlc *SqlcHeader
	// Table is the statement's target: the table written by INSERT,
	// UPDATE and DELETE, or the main (first) FROM table of a SELECT. It is
	// zero when the statement has no table (SELECT pg_advisory_lock($1))
	// or the main FROM item is not a table (a subquery, a function).
	Table TableRef
	// From lists the other tables the statement reads: SELECT's further
	// FROM items and joins, UPDATE … FROM, DELETE … USING.
	From []TableRef
	// SelectList is a SELECT's result columns.
	SelectList []ResultColumn
	// InsertColumns is an INSERT's column list (MySQL's INSERT … SET
	// included); nil when the statement gives none, in which case values
	// go to the table's columns in declaration order, which this package
	// does not know.
	InsertColumns []string
	// InsertRows are the rows of an INSERT … VALUES, each value aligned
	// with InsertColumns by index.
	InsertRows [][]Expr
	// InsertQuery is the query of an INSERT … SELECT.
	InsertQuery *Statement
	// Set is an UPDATE's SET list.
	Set []Assignment
	// Where is the WHERE clause of a SELECT, UPDATE or DELETE; nil when
	// there is none (every row qualifies).
	Where *Condition
	// Conflict is what an upsert does on a key conflict.
	Conflict *Conflict
	// Returning is the RETURNING list of INSERT, UPDATE or DELETE.
	Returning []ResultColumn
	// RowLocks are the row-locking clauses of the statement's queries,
	// including those inside subqueries and CTEs: they lock rows too.
	RowLocks []RowLock
	// TableLocks are the tables locked by LOCK TABLE(S).
	TableLocks []TableLock
	// AdvisoryLocks are the advisory-lock function calls anywhere in the
	// statement.
	AdvisoryLocks []AdvisoryLock
	// Transaction describes a transaction-control statement (BEGIN,
	// COMMIT, SET TRANSACTION ISOLATION LEVEL, ...).
	Transaction *TransactionControl
	// With lists the statement's common table expressions.
	With []CTE
	// Subqueries are the queries nested in the statement's expressions and
	// FROM list, in source order (SELECT EXISTS (SELECT 1 FROM users WHERE
	// email = $1) is a lookup of users); CTEs are in With and the query of
	// INSERT … SELECT in InsertQuery. Their row locks, advisory locks and
	// unknown parts are also reported on this statement.
	Subqueries []*Statement
	// Placeholders are all the statement's placeholders in the order they
	// appear, subqueries included.
	Placeholders []Placeholder
	// Unknown lists, as short descriptions ("where: EXISTS", "from:
	// subquery"), the parts of the statement, its CTEs and subqueries that
	// were not understood. A rule that needs a part must not conclude from
	// it when the part is flagged.
	Unknown []string
}

// Understood reports whether the whole statement was understood: its kind
// is known and no part of it is unknown.
func (s *Statement) Understood() bool { return s.Kind != KindUnknown && len(s.Unknown) == 0 }

// Writes reports whether the statement, or one of its CTEs, inserts,
// updates or deletes rows. An unknown statement is not known to write.
func (s *Statement) Writes() bool {
	switch s.Kind {
	case KindInsert, KindUpdate, KindDelete, KindUpsert:
		return true
	}
	for _, c := range s.With {
		if c.Statement.Writes() {
			return true
		}
	}
	return false
}

// UpdatesOnConflict reports whether the statement is an upsert whose
// conflict action changes the existing row (DO UPDATE, ON DUPLICATE KEY
// UPDATE, REPLACE).
func (s *Statement) UpdatesOnConflict() bool {
	return s.Kind == KindUpsert && s.Conflict != nil &&
		(s.Conflict.Action == ActionUpdate || s.Conflict.Action == ActionReplace)
}

// ColumnValues returns the value INSERT … VALUES gives column in each
// row: which placeholder (or constant, or expression) goes to the column.
// It returns nil when the statement has no such column or its rows do not
// line up with the column list.
func (s *Statement) ColumnValues(column string) []Expr {
	// InsertColumns keep a quoted name's case ("tenantId"); the name
	// asked for may be either form.
	idx := -1
	for i, c := range s.InsertColumns {
		if c == column {
			idx = i
			break
		}
	}
	if idx < 0 {
		column = normalizeName(column)
		for i, c := range s.InsertColumns {
			if strings.EqualFold(c, column) {
				idx = i
				break
			}
		}
	}
	if idx < 0 || len(s.InsertRows) == 0 {
		return nil
	}
	out := make([]Expr, 0, len(s.InsertRows))
	for _, row := range s.InsertRows {
		if len(row) != len(s.InsertColumns) {
			return nil
		}
		out = append(out, row[idx])
	}
	return out
}

// TargetColumn reports whether c names a column of the statement's target
// table: it is qualified by the table's name or alias, or unqualified in a
// statement that reads no other table.
func (s *Statement) TargetColumn(c ColumnRef) bool {
	if s.Table.Name == "" {
		return false
	}
	if c.Table == "" {
		return len(s.From) == 0
	}
	return c.Table == s.Table.Name || (s.Table.Alias != "" && c.Table == s.Table.Alias)
}

// SqlcHeader is sqlc's query header "-- name: GetUser :one".
type SqlcHeader struct {
	// Name is the query name, also the generated method's name.
	Name string
	// Command is the query command as written, with its colon: ":one",
	// ":many", ":exec", ":execrows", ":execresult", ":execlastid",
	// ":copyfrom", ":batchexec", ":batchmany", ":batchone".
	Command string
}

// TableRef names a table. Unquoted names are lowercased (as PostgreSQL
// folds them); quoted names keep their case without the quotes.
type TableRef struct {
	// Schema is the schema (or MySQL database) qualifier, "" if none.
	Schema string
	// Name is the table name.
	Name string
	// Alias is the name the statement gives the table, "" if none.
	Alias string
}

// String returns schema.name (or name).
func (t TableRef) String() string {
	if t.Schema != "" {
		return t.Schema + "." + t.Name
	}
	return t.Name
}

// ColumnRef names a column, normalised like TableRef.
type ColumnRef struct {
	// Table is the qualifier as written (a table name or alias, schema
	// dropped), "" if unqualified.
	Table string
	// Name is the column name.
	Name string
}

func (c ColumnRef) String() string {
	if c.Table != "" {
		return c.Table + "." + c.Name
	}
	return c.Name
}

// ResultColumn is one item of a SELECT list or RETURNING list.
type ResultColumn struct {
	// Name is the output name: the alias, else the column name for a
	// column, "*" for * and t.*; "" for an unnamed expression.
	Name string
	Expr Expr
}

// Assignment is one "column = value" of a SET list.
type Assignment struct {
	// Column is the assigned column, qualifier dropped.
	Column string
	Value  Expr
	// SelfReferential reports that Value reads Column's current value
	// ("n = n + $1", "n = COALESCE(n, 0) + ?", "n = GREATEST(n, $1)"): the
	// database computes the new value from the row as it is when written,
	// so concurrent updates compose instead of overwriting each other.
	SelfReferential bool
}

// PlaceholderStyle is how a placeholder is written.
type PlaceholderStyle uint8

const (
	// PlaceholderDollar is PostgreSQL's $1.
	PlaceholderDollar PlaceholderStyle = iota + 1
	// PlaceholderQuestion is ? (database/sql with MySQL and SQLite
	// drivers, GORM, bun, sqlx before Rebind).
	PlaceholderQuestion
	// PlaceholderNumberedQuestion is SQLite's ?1. bun also accepts ?0,
	// zero-based: a caller that knows the text goes through bun's
	// formatter must add one to Position.
	PlaceholderNumberedQuestion
	// PlaceholderColon is :name (sqlx named queries, SQLite).
	PlaceholderColon
	// PlaceholderAt is @name (GORM named arguments, sqlc, SQLite). MySQL
	// user variables are written the same way and read as placeholders.
	PlaceholderAt
	// PlaceholderDollarName is SQLite's $name.
	PlaceholderDollarName
	// PlaceholderQuestionName is bun's ?name (named arguments and the
	// ?TableAlias, ?TableName, ?PKs templates).
	PlaceholderQuestionName
	// PlaceholderSqlcArg is sqlc's sqlc.arg(name), sqlc.narg(name) or
	// sqlc.slice(name).
	PlaceholderSqlcArg
)

// Placeholder is a bind parameter of the statement and the argument it
// takes its value from.
type Placeholder struct {
	Style PlaceholderStyle
	// Position is the 1-based position of the argument for positional
	// styles: n for $n and ?n, the ordinal for ?. It is 0 for named
	// placeholders.
	Position int
	// Name is the argument name for named styles, as written.
	Name string
}

// Named reports whether the placeholder takes its argument by name.
func (p Placeholder) Named() bool { return p.Position == 0 && p.Name != "" }

// String renders the placeholder in a canonical form: $2, ?1 (for the
// first ?), :name, @name, sqlc.arg(name).
func (p Placeholder) String() string {
	switch p.Style {
	case PlaceholderDollar:
		return "$" + strconv.Itoa(p.Position)
	case PlaceholderQuestion, PlaceholderNumberedQuestion:
		return "?" + strconv.Itoa(p.Position)
	case PlaceholderColon:
		return ":" + p.Name
	case PlaceholderAt:
		return "@" + p.Name
	case PlaceholderDollarName:
		return "$" + p.Name
	case PlaceholderQuestionName:
		return "?" + p.Name
	case PlaceholderSqlcArg:
		return "sqlc.arg(" + p.Name + ")"
	}
	return "?"
}

// ExprKind is the shape of a value expression.
type ExprKind uint8

const (
	// ExprUnknown: some part of the expression was not understood.
	ExprUnknown ExprKind = iota
	// ExprPlaceholder: a bare placeholder, possibly cast ($1::int).
	ExprPlaceholder
	// ExprLiteral: a constant: string, number, boolean, typed literal.
	ExprLiteral
	// ExprNull: NULL.
	ExprNull
	// ExprDefault: DEFAULT.
	ExprDefault
	// ExprColumn: a column of the statement's tables.
	ExprColumn
	// ExprExcluded: a column of the row proposed for insertion, in an
	// upsert's update branch: EXCLUDED.c, MySQL's VALUES(c) or row alias
	// new.c.
	ExprExcluded
	// ExprStar: * or t.* in a SELECT or RETURNING list.
	ExprStar
	// ExprSubquery: a parenthesised query.
	ExprSubquery
	// ExprComputed: anything else: arithmetic, function calls, CASE, ...
	ExprComputed
)

var exprKindNames = [...]string{"unknown", "placeholder", "literal", "null", "default", "column", "excluded", "star", "subquery", "computed"}

func (k ExprKind) String() string {
	if int(k) < len(exprKindNames) {
		return exprKindNames[k]
	}
	return "ExprKind(" + strconv.Itoa(int(k)) + ")"
}

// Expr summarises a value expression.
type Expr struct {
	// Text is the expression's source text.
	Text string
	Kind ExprKind
	// Columns are the columns the expression reads, outside subqueries,
	// excluding the proposed row's (those are in Excluded). For ExprColumn
	// it is the column itself. Empty for ExprUnknown, which claims nothing.
	Columns []ColumnRef
	// Excluded are the proposed row's columns the expression reads
	// (EXCLUDED.c, VALUES(c), new.c).
	Excluded []string
	// Placeholders are the placeholders the expression uses, subqueries
	// included.
	Placeholders []Placeholder
}

// ReadsColumn reports whether the expression reads the current value of
// the column called name (compared case-sensitively after normalisation),
// whatever its qualifier. Statement-level summaries resolve qualifiers
// against the target table instead (Assignment.SelfReferential); this is
// for fragments, which have no table: ParseExpr("count + ?").ReadsColumn("count").
// It is false for an ExprUnknown; callers check Kind first, since neither
// answer is known then.
func (e *Expr) ReadsColumn(name string) bool {
	name = normalizeName(name)
	for _, c := range e.Columns {
		if c.Name == name {
			return true
		}
	}
	return false
}

// Placeholder returns the placeholder of an ExprPlaceholder.
func (e *Expr) Placeholder() (Placeholder, bool) {
	if e.Kind == ExprPlaceholder && len(e.Placeholders) == 1 {
		return e.Placeholders[0], true
	}
	return Placeholder{}, false
}

// Condition summarises a boolean condition: a WHERE clause, a join's ON, an
// upsert's WHERE, or a fragment given to GORM's or bun's Where.
type Condition struct {
	// Text is the condition's source text.
	Text string
	// Comparisons are the comparisons of a column with something, in
	// source order, including those under OR and NOT (see
	// Comparison.Conjunct).
	Comparisons []Comparison
	// Unknown reports that some term is not a comparison this package can
	// summarise (EXISTS, a function of a column, a parse failure): rows may
	// be filtered by something not in Comparisons.
	Unknown bool
	// Placeholders are the placeholders the condition uses, subqueries
	// included.
	Placeholders []Placeholder
}

// Equality returns the first conjunct comparison that pins column name to
// one value (=, <=>, IS NOT DISTINCT FROM), whatever its qualifier.
func (c *Condition) Equality(name string) (Comparison, bool) {
	if c == nil {
		return Comparison{}, false
	}
	name = normalizeName(name)
	for _, cmp := range c.Comparisons {
		if cmp.Conjunct && cmp.Column.Name == name && cmp.Equality() {
			return cmp, true
		}
	}
	return Comparison{}, false
}

// Comparison is "column op operand". A comparison written the other way
// round ($1 = id) is stored with the column first and the operator
// mirrored.
type Comparison struct {
	Column ColumnRef
	// Op is the operator, lowercased, with synonyms merged: "=", "<>",
	// "<", ">", "<=", ">=", "<=>", "in", "not in", "like", "not like",
	// "ilike", "not ilike", "between", "not between", "is", "is not",
	// "is distinct from", "is not distinct from", "= any", "<> all", ...
	// A bare boolean column (WHERE active) is "= true".
	Op      string
	Operand Operand
	// Conjunct reports that the comparison is one of the AND-ed terms at
	// the top of the condition, so every row the statement touches
	// satisfies it. Comparisons under OR or NOT are listed with Conjunct
	// false.
	Conjunct bool
	// Disjunct is, for a comparison in a term of the condition's one OR
	// at the top (the whole condition, or one of its AND-ed terms), the
	// 1-based index of that term, the comparison being at its top or
	// under its ANDs; 0 otherwise, and for every comparison when there is
	// more than one such OR. A row that matched nothing matched none of
	// the terms: for a lookup that found nothing, each term's equalities
	// (with the conjuncts) are a key that no row holds.
	Disjunct int
}

// Equality reports whether the comparison pins the column to one value.
func (c Comparison) Equality() bool {
	return c.Op == "=" || c.Op == "<=>" || c.Op == "is not distinct from"
}

// OperandKind is what a column is compared with.
type OperandKind uint8

const (
	// OperandUnknown: not understood.
	OperandUnknown OperandKind = iota
	// OperandPlaceholder: one or more placeholders and nothing else
	// ($1, IN ($1, $2), BETWEEN ? AND ?, = ANY($1), $1::uuid).
	OperandPlaceholder
	// OperandLiteral: constants ('active', 3, TRUE, IN ('a', 'b')).
	OperandLiteral
	// OperandNull: NULL (IS NULL, IS NOT NULL).
	OperandNull
	// OperandColumn: another column (a join or correlation).
	OperandColumn
	// OperandSubquery: a subquery (IN (SELECT …)).
	OperandSubquery
	// OperandExpr: any other expression (now(), $1 + 1, a mix of
	// placeholders and constants).
	OperandExpr
)

var operandKindNames = [...]string{"unknown", "placeholder", "literal", "null", "column", "subquery", "expr"}

func (k OperandKind) String() string {
	if int(k) < len(operandKindNames) {
		return operandKindNames[k]
	}
	return "OperandKind(" + strconv.Itoa(int(k)) + ")"
}

// Operand is the right-hand side of a comparison.
type Operand struct {
	Kind OperandKind
	// Text is the operand's source text.
	Text string
	// Placeholders are the placeholders in the operand, in order.
	Placeholders []Placeholder
	// Column is the compared column of an OperandColumn.
	Column ColumnRef
}

// ConflictSyntax is how an upsert is written.
type ConflictSyntax uint8

const (
	// ConflictOnConflict is PostgreSQL's and SQLite's ON CONFLICT.
	ConflictOnConflict ConflictSyntax = iota + 1
	// ConflictOnDuplicateKey is MySQL's ON DUPLICATE KEY UPDATE.
	ConflictOnDuplicateKey
	// ConflictIgnore is MySQL's INSERT IGNORE and SQLite's INSERT OR
	// IGNORE. MySQL's IGNORE also turns other errors into warnings.
	ConflictIgnore
	// ConflictReplace is REPLACE INTO (MySQL, SQLite) and SQLite's INSERT
	// OR REPLACE: the old row is deleted and the new one inserted.
	ConflictReplace
)

var conflictSyntaxNames = [...]string{"", "on conflict", "on duplicate key update", "ignore", "replace"}

func (c ConflictSyntax) String() string {
	if int(c) < len(conflictSyntaxNames) && c != 0 {
		return conflictSyntaxNames[c]
	}
	return "ConflictSyntax(" + strconv.Itoa(int(c)) + ")"
}

// ConflictAction is what an upsert does with an existing row.
type ConflictAction uint8

const (
	// ActionUnknown: not understood.
	ActionUnknown ConflictAction = iota
	// ActionNothing keeps the existing row (DO NOTHING, IGNORE).
	ActionNothing
	// ActionUpdate updates the existing row (DO UPDATE SET, ON DUPLICATE
	// KEY UPDATE): Conflict.Set.
	ActionUpdate
	// ActionReplace deletes the existing row and inserts the new one.
	ActionReplace
)

var conflictActionNames = [...]string{"unknown", "nothing", "update", "replace"}

func (a ConflictAction) String() string {
	if int(a) < len(conflictActionNames) {
		return conflictActionNames[a]
	}
	return "ConflictAction(" + strconv.Itoa(int(a)) + ")"
}

// Conflict is an upsert's conflict clause.
type Conflict struct {
	Syntax ConflictSyntax
	Action ConflictAction
	// TargetColumns are the columns of ON CONFLICT (a, b); nil when the
	// clause names no target (MySQL, SQLite's OR IGNORE, ON CONFLICT DO
	// NOTHING): any unique key then counts.
	TargetColumns []string
	// TargetConstraint is the name in ON CONFLICT ON CONSTRAINT name.
	TargetConstraint string
	// TargetWhere is the partial-index predicate of ON CONFLICT (…) WHERE.
	TargetWhere *Condition
	// Set is the update branch's SET list; values that take the proposed
	// row's value are ExprExcluded.
	Set []Assignment
	// Where is the update branch's condition (DO UPDATE SET … WHERE).
	Where *Condition
	// Unknown reports that part of the clause was not understood (an
	// expression in the target, a MySQL row alias with column aliases).
	Unknown bool
}

// LockStrength is the strength of a row lock.
type LockStrength uint8

const (
	// LockForUpdate is FOR UPDATE.
	LockForUpdate LockStrength = iota + 1
	// LockForNoKeyUpdate is PostgreSQL's FOR NO KEY UPDATE.
	LockForNoKeyUpdate
	// LockForShare is FOR SHARE.
	LockForShare
	// LockForKeyShare is PostgreSQL's FOR KEY SHARE.
	LockForKeyShare
	// LockInShareMode is MySQL's LOCK IN SHARE MODE.
	LockInShareMode
)

var lockStrengthNames = [...]string{"", "for update", "for no key update", "for share", "for key share", "lock in share mode"}

func (s LockStrength) String() string {
	if int(s) < len(lockStrengthNames) && s != 0 {
		return lockStrengthNames[s]
	}
	return "LockStrength(" + strconv.Itoa(int(s)) + ")"
}

// Exclusive reports whether the lock blocks other writers' locks of the
// same strength (FOR UPDATE, FOR NO KEY UPDATE).
func (s LockStrength) Exclusive() bool { return s == LockForUpdate || s == LockForNoKeyUpdate }

// LockWait is what a locking read does when a row is already locked.
type LockWait uint8

const (
	// LockWaitBlock waits for the lock (the default).
	LockWaitBlock LockWait = iota
	// LockNoWait fails at once (NOWAIT).
	LockNoWait
	// LockSkipLocked skips locked rows (SKIP LOCKED).
	LockSkipLocked
)

var lockWaitNames = [...]string{"wait", "nowait", "skip locked"}

func (w LockWait) String() string {
	if int(w) < len(lockWaitNames) {
		return lockWaitNames[w]
	}
	return "LockWait(" + strconv.Itoa(int(w)) + ")"
}

// RowLock is a locking clause of a query.
type RowLock struct {
	Strength LockStrength
	// Of are the tables named by OF; nil means every table of the query.
	Of   []string
	Wait LockWait
}

// TableLock is one table locked by LOCK TABLE (PostgreSQL) or LOCK TABLES
// (MySQL).
type TableLock struct {
	Table TableRef
	// Mode is the lock mode, lowercased: PostgreSQL's "access exclusive"
	// (the default), "share", "row exclusive", ...; MySQL's "read", "read
	// local", "write", "low_priority write".
	Mode   string
	NoWait bool
}

// AdvisoryLock is a call of an advisory-lock function.
type AdvisoryLock struct {
	// Func is the function name, lowercased: "pg_advisory_xact_lock",
	// "get_lock", ...
	Func string
	// Release is true for the unlock functions (pg_advisory_unlock*,
	// RELEASE_LOCK, RELEASE_ALL_LOCKS).
	Release bool
	// Try is true when acquisition may fail without an error
	// (pg_try_advisory_*, and GET_LOCK, which returns 0 on timeout): the
	// result must be checked.
	Try bool
	// Shared is true for the _shared variants.
	Shared bool
	// TransactionScoped is true for the pg_*_xact_* functions, whose lock
	// is released at the end of the transaction. The others hold the lock
	// for the session (the pooled connection) until released.
	TransactionScoped bool
	// Args are the lock key arguments.
	Args []Expr
}

// TxOp is a transaction-control operation.
type TxOp uint8

const (
	// TxBegin: BEGIN, START TRANSACTION.
	TxBegin TxOp = iota + 1
	// TxCommit: COMMIT, END.
	TxCommit
	// TxRollback: ROLLBACK, ABORT.
	TxRollback
	// TxSavepoint: SAVEPOINT name.
	TxSavepoint
	// TxReleaseSavepoint: RELEASE [SAVEPOINT] name.
	TxReleaseSavepoint
	// TxRollbackToSavepoint: ROLLBACK TO [SAVEPOINT] name.
	TxRollbackToSavepoint
	// TxSetCharacteristics: SET TRANSACTION …, SET SESSION
	// CHARACTERISTICS AS TRANSACTION …, SET transaction_isolation = ….
	TxSetCharacteristics
)

var txOpNames = [...]string{"", "begin", "commit", "rollback", "savepoint", "release savepoint", "rollback to savepoint", "set transaction"}

func (o TxOp) String() string {
	if int(o) < len(txOpNames) && o != 0 {
		return txOpNames[o]
	}
	return "TxOp(" + strconv.Itoa(int(o)) + ")"
}

// TransactionControl describes a transaction-control statement.
type TransactionControl struct {
	Op TxOp
	// IsolationLevel is the level the statement sets, lowercased with
	// single spaces ("serializable", "repeatable read", "read committed",
	// "read uncommitted"); "" when it sets none.
	IsolationLevel string
	// ReadOnly is true for READ ONLY.
	ReadOnly bool
	// SQLiteMode is SQLite's BEGIN DEFERRED / IMMEDIATE / EXCLUSIVE,
	// lowercased; IMMEDIATE and EXCLUSIVE take the database write lock at
	// BEGIN.
	SQLiteMode string
	// Savepoint is the savepoint name of SAVEPOINT, RELEASE and ROLLBACK
	// TO.
	Savepoint string
}

// CTE is a common table expression: WITH name AS (statement).
type CTE struct {
	Name      string
	Statement *Statement
}

// normalizeName normalises a name given by a caller the way the parser
// normalises identifiers: a quoted name ("Email", `Email`) loses its
// quotes and keeps its case, an unquoted one is folded to lower case.
func normalizeName(s string) string {
	if len(s) >= 2 && (s[0] == '"' && s[len(s)-1] == '"' || s[0] == '`' && s[len(s)-1] == '`') {
		return s[1 : len(s)-1]
	}
	return lowerWord(s)
}
