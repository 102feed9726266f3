package ops

import (
	"fmt"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/knowledge"
	"github.com/idemlint/idemlint/analyzers/internal/sqltext"
)

// A RowKind is what a row operation does.
type RowKind uint8

const (
	// Lookup reads one row by key: a SELECT whose WHERE pins columns to
	// bound values (EXISTS and count(*) included), a generated query
	// method's SELECT, or a helper whose summary says it does one.
	Lookup RowKind = iota + 1
	// Insert inserts a row with the values of its key columns: an INSERT
	// statement, a generated query method's INSERT, or a helper whose
	// summary says so.
	Insert
	// LookupOrInsert is both in one call, not atomic: GORM FirstOrCreate.
	LookupOrInsert
)

func (k RowKind) String() string {
	switch k {
	case Lookup:
		return "lookup"
	case Insert:
		return "insert"
	case LookupOrInsert:
		return "lookup-or-insert"
	}
	return "?"
}

// A KeyValue is a column a row operation pins (a lookup's WHERE col = $n)
// or writes (an insert's column), and the SSA value bound to it.
type KeyValue struct {
	Column string
	// Field is, when Column is "", the Go field of the GORM model that
	// holds the key (a struct condition, a created model's field); the
	// schema layer names its column.
	Field string
	Value ssa.Value
}

// A RowConflict is what an insert does when a row with the same key
// exists.
type RowConflict struct {
	// Columns is the conflict target (ON CONFLICT (email)); nil when the
	// clause names none, in which case any unique key counts (ON CONFLICT
	// DO NOTHING, INSERT IGNORE, ON DUPLICATE KEY UPDATE).
	Columns []string
	// Unknown is set when the clause was not understood.
	Unknown bool
}

// Covers reports whether the conflict clause makes an insert of the key
// columns idempotent: no target (any unique key), or a target within the
// key columns.
func (c *RowConflict) Covers(keys []string) bool {
	if c == nil {
		return false
	}
	if c.Unknown || len(c.Columns) == 0 {
		return true
	}
	for _, t := range c.Columns {
		found := false
		for _, k := range keys {
			if strings.EqualFold(t, k) {
				found = true
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// A RowOp is a lookup or an insert of a function, at the call that
// performs it (the library call, or the call of a helper that does it).
type RowOp struct {
	Kind  RowKind
	Instr ssa.CallInstruction
	// At is, for an insert a callback makes when the call Instr runs it
	// (a transaction's closure), the insert in the callback: where it is
	// reported. Nil otherwise.
	At ssa.CallInstruction
	// Table is the table read or written ("" when not known, or when
	// Model names it).
	Table string
	// Model is the model the operation reads or writes (an ORM's struct),
	// whose table the schema layer names unless Table does; nil for SQL.
	Model types.Type
	// Keys are the pinned or written columns with the values bound.
	Keys []KeyValue
	// Lib names the library family, whose dialect words the fix in
	// messages: "sql", "gorm", "bun", "xorm"... (dialect.Libs).
	Lib string
	// Conflict is an insert's conflict handling, nil when it has none.
	Conflict *RowConflict
	// HandlesUnique is set for a helper's insert whose own body checks
	// the insert's error for a unique violation.
	HandlesUnique bool
	// Handle is the root of the handle the operation runs on, when known.
	Handle ssa.Value
	// Desc names the operation for messages; Via the helper that performs
	// it ("" for the library call itself).
	Desc, Via string
	// For a helper's lookup: how it says it found nothing. NilResult is
	// the result it returns nil in (with a nil error), or -1; Sentinel the
	// error variable it returns ("pkg/path.ErrNotFound"); Propagates is
	// whether it returns the library's not-found error unchanged.
	NilResult  int
	Sentinel   string
	Propagates bool
	// FoundResult is, when HasFound, the bool result a helper's lookup
	// returns true in when it found the row (an exists helper).
	FoundResult int
	HasFound    bool
	// Narrowed is set for a lookup whose WHERE filters by more than its
	// Keys: a term the SQL summary does not understand (lower(title) =
	// lower($2), EXISTS (...)). The unique key it checks is then more than
	// the keys known, and messages must not name those alone as it.
	Narrowed bool
	// Alternatives are, for a lookup whose condition is an OR of terms
	// (username = $1 OR email = $2), each term's keys: finding nothing
	// says no row holds any term's key (with Keys). Rows makes one
	// lookup of each (ops/disjuncts.go).
	Alternatives [][]KeyValue
	// orGroups counts the conditions with an OR that gave Alternatives.
	orGroups int
	// ChainParam is, for a lookup a library call runs on a query the
	// function was given (func Exists(db *gorm.DB) (bool, error) counting
	// what its caller built), the parameter holding that query: the
	// caller's argument names the table and keys (Library.ChainRow).
	ChainParam *ssa.Parameter
	// NilErrNotFound is set for a helper's lookup whose error result is
	// nil exactly when it found nothing: a validator that looks the row
	// up and returns an error when it exists.
	NilErrNotFound bool
	// FromLibrary is set for a library call (its not-found error is the
	// library's); CountsFound for a lookup whose result 0 is the answer
	// (ent Exist, Count).
	FromLibrary, CountsFound bool
	// ErrWhenNotFound is set for a lookup whose error is not nil on every
	// path where it found nothing (knowledge.Call.NoRowIsError: GORM
	// First, QueryRow's Scan, sqlx Get; a helper returning such an error,
	// or its own sentinel, whenever nothing was found): the non-nil side
	// of err == nil then covers the found-nothing case, with the other
	// failures. A lookup whose "nothing matched" is no error (GORM Find,
	// xorm Get, a count, a helper returning nil, nil) never has it.
	ErrWhenNotFound bool
	// Inserted is, for an insert of a model, the model value given to the
	// library (a pointer to the struct, or the struct), which a summary
	// records as inserted whole when it is the function's parameter
	// (InsertFact.WholeParam).
	Inserted ssa.Value
	// ByUpdate marks an UPDATE used as a lookup (RowsAffected == 0, or
	// the count a library's update returns is 0, then insert); it is not
	// summarised for callers.
	ByUpdate bool
}

// Pos returns the position of the operation's call.
func (op *RowOp) Pos() token.Pos {
	if op.At != nil {
		return op.At.Pos()
	}
	return op.Instr.Pos()
}

// Evidence names the operation for messages, with the helper it is in.
func (op *RowOp) Evidence() string {
	if op.Via == "" {
		return op.Desc
	}
	return op.Desc + " in " + op.Via
}

// KeyColumns returns the columns of op's keys.
// Keyless reports whether a lookup pins no key: none AND-ed, none in the
// terms of an OR.
func (op *RowOp) Keyless() bool { return len(op.Keys) == 0 && len(op.Alternatives) == 0 }

func (op *RowOp) KeyColumns() []string {
	var cols []string
	for _, k := range op.Keys {
		cols = append(cols, k.Column)
	}
	return cols
}

// A ParamRef is where a summarised key's value comes from: parameter
// Param (SSA numbering, receiver first) or its field Field.
type ParamRef struct {
	Param int
	Field string
}

// A LookupFact is a lookup a function performs keyed by its parameters.
type LookupFact struct {
	Table      string
	Model      string // a GORM model, "pkg/path.Name"
	Columns    []string
	Fields     []string // a GORM model's Go field, where the column is ""
	Params     []ParamRef
	Handle     int // the parameter holding the handle, or -1
	Lib        string
	Desc       string
	NilResult  int
	Sentinel   string
	Propagates bool
	// FoundResult is, when HasFound, the bool result that says the row
	// was found.
	FoundResult int
	HasFound    bool
	// NilErrNotFound: the error result is nil exactly when nothing was
	// found (RowOp.NilErrNotFound).
	NilErrNotFound bool
	// Narrowed: the lookup filters by more than Columns (RowOp.Narrowed).
	Narrowed bool
	// ErrWhenNotFound: the error result is not nil whenever nothing was
	// found (RowOp.ErrWhenNotFound).
	ErrWhenNotFound bool
	// ChainParam is 1 + the parameter holding the query the lookup runs,
	// whose table and keys the caller's argument says
	// (RowOp.ChainParam); 0 otherwise.
	ChainParam int
}

// An InsertFact is an insert a function performs keyed by its parameters.
type InsertFact struct {
	Table         string
	Model         string
	Columns       []string
	Fields        []string
	Params        []ParamRef
	Handle        int
	Lib           string
	Desc          string
	Conflict      *RowConflict
	HandlesUnique bool
	// WholeParam is the parameter (SSA numbering, receiver first) holding
	// the model the function inserts as it was given (func (m *T) Create()
	// error { return db.Create(m).Error }), or -1: the caller's keys are
	// then the fields it reads from its argument, as for an insert of its
	// own (ModelKeys), but for the Overwritten ones, which the function
	// stores before inserting.
	WholeParam  int
	Overwritten []string
}

func (s *Summary) rowParts() []string {
	var parts []string
	for _, l := range s.Lookups {
		how := ""
		switch {
		case l.NilResult >= 0:
			how = fmt.Sprintf(" nil=r%d", l.NilResult)
		case l.Sentinel != "":
			how = " sentinel=" + l.Sentinel
		case l.Propagates:
			how = " propagates"
		}
		if l.HasFound {
			how += fmt.Sprintf(" found=r%d", l.FoundResult)
		}
		if l.ErrWhenNotFound {
			how += " err-when-not-found"
		}
		parts = append(parts, fmt.Sprintf("lookup(%s %s%s)", l.Table+l.Model, refs(l.Columns, l.Fields, l.Params), how))
	}
	for _, i := range s.Inserts {
		extra := ""
		if i.Conflict != nil {
			extra = " on-conflict"
		}
		if i.HandlesUnique {
			extra += " catches-unique"
		}
		if i.WholeParam >= 0 {
			extra += fmt.Sprintf(" whole=p%d", i.WholeParam)
		}
		parts = append(parts, fmt.Sprintf("insert(%s %s%s)", i.Table+i.Model, refs(i.Columns, i.Fields, i.Params), extra))
	}
	for _, p := range s.UniqueChecks {
		parts = append(parts, fmt.Sprintf("unique-check(p%d)", p))
	}
	return parts
}

func refs(cols, fields []string, params []ParamRef) string {
	var b []string
	for i, c := range cols {
		if c == "" && i < len(fields) {
			c = fields[i]
		}
		r := params[i]
		s := fmt.Sprintf("%s=p%d", c, r.Param)
		if r.Field != "" {
			s += "." + r.Field
		}
		b = append(b, s)
	}
	return strings.Join(b, ",")
}

// rowExt memoises the row operations of functions.
type rowExt struct {
	rows map[*ssa.Function][]*RowOp
}

func (e *extractor) rowState() *rowExt {
	if e.rowx == nil {
		e.rowx = &rowExt{rows: map[*ssa.Function][]*RowOp{}}
	}
	return e.rowx
}

// Rows returns the lookups and inserts of fn, in block and instruction
// order.
func (r *Result) Rows(fn *ssa.Function) []*RowOp {
	r.e.lazy.Lock()
	defer r.e.lazy.Unlock()
	return r.e.Rows(fn)
}

// Rows returns the lookups and inserts of fn.
func (e *extractor) Rows(fn *ssa.Function) []*RowOp {
	st := e.rowState()
	if rows, ok := st.rows[fn]; ok {
		return rows
	}
	st.rows[fn] = nil
	var rows []*RowOp
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(ssa.CallInstruction)
			if !ok {
				continue
			}
			switch instr.(type) {
			case *ssa.Go, *ssa.Defer:
				continue
			}
			for _, op := range splitAlternatives(e.classifyRow(call)) {
				op.Instr = call
				rows = append(rows, op)
			}
			rows = append(rows, e.callbackInserts(call)...)
		}
	}
	st.rows[fn] = rows
	return rows
}

func (e *extractor) classifyRow(call ssa.CallInstruction) []*RowOp {
	common := call.Common()
	site, resolved := knowledge.Resolve(common)
	if resolved && site.Row != nil {
		return e.libraryRow(call, site)
	}
	callee := common.StaticCallee()
	if callee == nil {
		if common.IsInvoke() {
			return e.helperRows(call)
		}
		return nil
	}
	if l, f := e.generatedHere(callee); f != nil {
		if l.GeneratedRow == nil {
			return nil
		}
		return l.GeneratedRow(call, callee, f)
	}
	if obj, ok := callee.Object().(*types.Func); ok {
		if l := claimant(obj); l != nil {
			if l.ClientRow != nil {
				if op := l.ClientRow(call, obj); op != nil {
					return []*RowOp{op}
				}
			}
			return nil
		}
	}
	return e.helperRows(call)
}

// libraryRow classifies a library call: SQL run by database/sql, sqlx or
// pgx, and GORM FirstOrCreate.
func (e *extractor) libraryRow(call ssa.CallInstruction, site knowledge.Site) []*RowOp {
	row := site.Row
	switch row.Kind {
	case knowledge.Query, knowledge.Exec:
		stmt, h := StatementOf(site)
		if stmt == nil {
			return nil
		}
		bind, ok := Binder(site)
		if !ok {
			return nil
		}
		op := StatementRow(stmt, bind)
		if op == nil {
			return nil
		}
		op.Handle, op.Lib, op.FromLibrary = h, sqlLib(site), true
		op.NilResult = -1
		op.ErrWhenNotFound = op.Kind == Lookup && !op.ByUpdate && row.NoRowIsError() && EmptyWhenNotFound(stmt)
		// A value that is zero when no row matched says so itself (n == 0).
		op.CountsFound = row.Result == knowledge.ScalarResult
		op.Desc = op.Kind.String() + " of " + op.Table + " (" + CalleeName(site) + ")"
		if op.Kind == Lookup {
			op.Desc = "the lookup of " + op.Table + " by " + op.KeyDesc()
			if stmt.Kind == sqltext.KindUpdate {
				op.Desc = "the UPDATE of " + op.Table + " by " + strings.Join(op.KeyColumns(), ", ")
			}
		} else {
			op.Desc = "the INSERT into " + op.Table
		}
		return []*RowOp{op}
	case knowledge.Find, knowledge.Insert, knowledge.FirstOrCreate, knowledge.Update, knowledge.Save:
		// An update is a lookup when the library returns its count
		// (RowOp.ByUpdate).
		if l := libraryAt(site); l != nil && l.Row != nil {
			if op := l.Row(site); op != nil {
				// A finder whose row says it fails when nothing matched; the
				// library's hook sets it where the arguments decide (a
				// single model's Scan).
				op.ErrWhenNotFound = op.ErrWhenNotFound || (op.Kind == Lookup && !op.CountsFound && row.ErrNoRow)
				return []*RowOp{op}
			}
		}
	}
	return nil
}

// stmtRow makes a lookup or an insert of a statement, binding its
// placeholders with bind. Nil when the statement is neither, or its key
// is not understood.
func StatementRow(stmt *sqltext.Statement, bind func(sqltext.Placeholder) ssa.Value) *RowOp {
	switch stmt.Kind {
	case sqltext.KindSelect:
		if len(stmt.RowLocks) > 0 && stmt.Table.Name == "" {
			return nil
		}
		q := stmt
		if q.Table.Name == "" || q.Where == nil {
			// SELECT EXISTS (SELECT 1 FROM t WHERE ...), SELECT count(*) ...
			q = nil
			for _, sub := range stmt.Subqueries {
				if sub.Table.Name != "" && sub.Where != nil {
					q = sub
					break
				}
			}
			if q == nil {
				return nil
			}
		}
		if len(q.From) > 0 {
			return nil // a join: which row is looked up is not the target's
		}
		op := &RowOp{Kind: Lookup, Table: q.Table.Name, Narrowed: q.Where.Unknown}
		for _, c := range q.Where.Comparisons {
			if !c.Conjunct || !c.Equality() || c.Operand.Kind != sqltext.OperandPlaceholder || len(c.Operand.Placeholders) != 1 || !q.TargetColumn(c.Column) {
				continue
			}
			if v := bind(c.Operand.Placeholders[0]); v != nil {
				op.Keys = append(op.Keys, KeyValue{Column: c.Column.Name, Value: v})
			}
		}
		addAlternatives(op, q.Where.Comparisons, q.TargetColumn, bind)
		if op.Keyless() {
			return nil
		}
		return op
	case sqltext.KindUpdate:
		// UPDATE ... WHERE key = $1, then an insert when it touched no
		// row: the found-nothing test is RowsAffected == 0.
		if stmt.Table.Name == "" || stmt.Where == nil || len(stmt.From) > 0 {
			return nil
		}
		op := &RowOp{Kind: Lookup, Table: stmt.Table.Name, ByUpdate: true}
		for _, c := range stmt.Where.Comparisons {
			if !c.Conjunct || !c.Equality() || c.Operand.Kind != sqltext.OperandPlaceholder || len(c.Operand.Placeholders) != 1 || !stmt.TargetColumn(c.Column) {
				continue
			}
			if v := bind(c.Operand.Placeholders[0]); v != nil {
				op.Keys = append(op.Keys, KeyValue{Column: c.Column.Name, Value: v})
			}
		}
		if len(op.Keys) == 0 {
			return nil
		}
		return op
	case sqltext.KindInsert, sqltext.KindUpsert:
		if stmt.Table.Name == "" || len(stmt.InsertRows) != 1 {
			return nil
		}
		op := &RowOp{Kind: Insert, Table: stmt.Table.Name}
		for _, col := range stmt.InsertColumns {
			vals := stmt.ColumnValues(col)
			if len(vals) != 1 {
				continue
			}
			p, ok := vals[0].Placeholder()
			if !ok {
				continue
			}
			if v := bind(p); v != nil {
				op.Keys = append(op.Keys, KeyValue{Column: col, Value: v})
			}
		}
		if stmt.Kind == sqltext.KindUpsert {
			op.Conflict = &RowConflict{Unknown: true}
			if c := stmt.Conflict; c != nil && !c.Unknown && c.TargetConstraint == "" {
				op.Conflict = &RowConflict{Columns: c.TargetColumns}
			}
		}
		if len(op.Keys) == 0 {
			return nil
		}
		return op
	}
	return nil
}

// EmptyWhenNotFound reports whether a SELECT returns no row when its
// WHERE matches none: it reads its columns (or constants) from one table,
// with no aggregate, as SELECT count(*) or SELECT EXISTS (...) do, which
// return a row either way.
func EmptyWhenNotFound(stmt *sqltext.Statement) bool {
	if stmt == nil || stmt.Kind != sqltext.KindSelect || stmt.Table.Name == "" || stmt.Where == nil || len(stmt.From) > 0 || len(stmt.SelectList) == 0 {
		return false
	}
	for _, c := range stmt.SelectList {
		switch c.Expr.Kind {
		case sqltext.ExprColumn, sqltext.ExprStar, sqltext.ExprLiteral:
		default:
			return false
		}
	}
	return true
}

func isErrorType(t types.Type) bool {
	return types.Identical(t, types.Universe.Lookup("error").Type())
}

// ChecksUnique reports whether fn tests err for a unique violation (see
// extractor.ChecksUnique).
func (r *Result) ChecksUnique(fn *ssa.Function, err ssa.Value) bool {
	r.e.lazy.Lock()
	defer r.e.lazy.Unlock()
	return r.e.ChecksUnique(fn, err)
}

// ErrOf returns the error value of a call: its error result, or GORM's
// Error field of the *gorm.DB it returns; nil if none.
func ErrOf(call ssa.CallInstruction) ssa.Value { return errOf(call) }
