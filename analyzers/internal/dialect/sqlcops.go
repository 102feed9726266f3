package dialect

import (
	"fmt"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/knowledge"
	"github.com/idemlint/idemlint/analyzers/internal/ops"
	"github.com/idemlint/idemlint/analyzers/internal/sqltext"
	"github.com/idemlint/idemlint/analyzers/internal/ssaval"
)

// sqlcLib is the family ops records on the operations of sqlc-generated
// code (a constant: sqlcDialect's hooks refer to it, and it to them).
const sqlcLib = "sqlc"

// sqlcLibrary is how calls of sqlc-generated code become operations. sqlc
// generates Go into the user's module and needs no package at run time:
// knowledge recognises a query method, and the New and WithTx that bind
// its Queries to a handle, by their bodies (knowledge.SQLC,
// knowledge.SQLCHandle), in their own package. Their callers are usually
// in another package, where what a method runs travels as its summary:
// the locks and rows it takes (ops' own facts) and its query (sqlcQuery).
var sqlcLibrary = &ops.Library{
	Name:            sqlcLib,
	Generated:       sqlcGenerated,
	Fact:            &sqlcQuery{},
	Summarize:       sqlcSummarize,
	OwnRows:         sqlcOwnRows,
	GeneratedOps:    sqlcOps,
	GeneratedRow:    sqlcRow,
	GeneratedRead:   sqlcRead,
	GeneratedWrites: sqlcWrites,
	GeneratedUpdate: sqlcUpdate,
	Binds:           sqlcBinds,
}

// A sqlcQuery is what a sqlc-generated query method runs (knowledge.SQLC),
// in the form its summary carries it to other packages: its query, where
// each placeholder's value comes from, and, for a :one SELECT, the field
// of its result each column is scanned into.
type sqlcQuery struct {
	// Name and Cmd are the header's: "UpdateBalanceVersioned",
	// ":execrows"; SQL is the constant, header included.
	Name, Cmd, SQL string
	// Affected is whether the caller sees the affected-row count
	// (:execrows, :execresult); Dynamic whether the SQL is edited at run
	// time (sqlc.slice), its binds then unknown.
	Affected, Dynamic bool
	// Handle is the parameter (receiver excluded) holding the handle the
	// query runs on (emit_methods_with_db_argument); -1 when the Queries
	// was bound to one (New, WithTx).
	Handle int
	// Binds[i] is placeholder i+1's: the parameter (receiver excluded)
	// and, for a <Name>Params argument, its field.
	Binds []sqlcBind
	// Cols are, for a :one SELECT whose binds are known, the columns
	// scanned into fields of result 0 (by field index; result 0 may
	// point to the struct).
	Cols []sqlcCol
}

// A sqlcBind is a placeholder's source: parameter Param (receiver
// excluded; -1 when not traced to one), or its field Field; Each when
// Param is a slice whose elements are bound one by one (:batchexec).
type sqlcBind struct {
	Param int
	Field string
	Each  bool
}

// A sqlcCol is a column scanned into field Field of the result.
type sqlcCol struct {
	Column string
	Field  int
}

func (*sqlcQuery) Lib() string { return sqlcLib }

func (q *sqlcQuery) String() string { return "sqlc(" + q.Name + " " + q.Cmd + ")" }

// each reports whether some placeholder is bound element by element of a
// slice, whose values a call cannot name.
func (q *sqlcQuery) each() bool {
	for _, b := range q.Binds {
		if b.Each {
			return true
		}
	}
	return false
}

// sqlcQueryOf returns the sqlc query of a generated function's fact, or
// nil.
func sqlcQueryOf(f ops.GeneratedFact) *sqlcQuery {
	q, _ := f.(*sqlcQuery)
	return q
}

// sqlcGenerated recognises a sqlc query method of the package under
// analysis and says what it runs.
func sqlcGenerated(fn *ssa.Function) ops.GeneratedFact {
	q := knowledge.SQLC(fn)
	if q == nil {
		return nil
	}
	f := &sqlcQuery{Name: q.Name, Cmd: q.Cmd, SQL: q.SQL, Affected: q.Affected, Dynamic: q.Dynamic, Handle: q.Handle}
	for _, b := range q.Binds {
		f.Binds = append(f.Binds, sqlcBind{Param: b.Param, Field: b.Field, Each: b.Each})
	}
	if stmt := sqltext.Parse(q.SQL); !f.Dynamic && !f.each() && stmt.Kind == sqltext.KindSelect && q.Cmd == ":one" {
		f.Cols = scannedFields(fn, stmt)
	}
	return f
}

// scannedFields maps the select list of a generated :one method onto the
// fields of the struct it scans into and returns: the Scan call's
// destinations, &i.ID, &i.Balance, in select-list order.
func scannedFields(fn *ssa.Function, stmt *sqltext.Statement) []sqlcCol {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(*ssa.Call)
			if !ok {
				continue
			}
			site, ok := knowledge.Resolve(call.Common())
			if !ok || site.Row == nil || site.Row.Kind != knowledge.Scan {
				continue
			}
			i, ok := site.Row.Param(knowledge.Dest)
			if !ok {
				continue
			}
			dests, ok := site.Variadic(i)
			if !ok || len(dests) != len(stmt.SelectList) {
				return nil
			}
			var out []sqlcCol
			for j, d := range dests {
				fa, ok := ssaval.Unwrap(d).(*ssa.FieldAddr)
				if col, isCol := ops.SelectColumn(stmt, stmt.SelectList[j]); ok && isCol {
					out = append(out, sqlcCol{Column: col, Field: fa.Field})
				}
			}
			return out
		}
	}
	return nil
}

// sqlcSummarize adds to a generated method's summary the lock its query
// takes and, for the :one SELECTs and the UPDATEs lostupdate and
// noversion read at its calls, the query itself.
func sqlcSummarize(fn *ssa.Function, gf ops.GeneratedFact, s *ops.Summary) *ops.Summary {
	q := sqlcQueryOf(gf)
	if q == nil || q.Dynamic {
		return s
	}
	stmt := sqltext.Parse(q.SQL)
	if stmt.Kind == sqltext.KindUpdate || len(q.Cols) > 0 {
		if s == nil {
			s = &ops.Summary{}
		}
		s.Generated = q
	}
	return sqlcLockSummary(fn, q, stmt, s)
}

// sqlcLockSummary adds to the summary of a generated method whose query
// locks rows (SELECT ... FOR UPDATE, an UPDATE) a lock on its receiver:
// the Queries is bound to the caller's handle (New(tx), q.WithTx(tx)),
// which is where the lock is taken. In the method's own body the handle
// is a field of the receiver, which no summary keeps.
func sqlcLockSummary(fn *ssa.Function, q *sqlcQuery, stmt *sqltext.Statement, s *ops.Summary) *ops.Summary {
	if fn.Signature.Recv() == nil {
		return s
	}
	desc, ok := ops.StatementLock(stmt)
	if !ok {
		return s
	}
	// The lock is on the Queries' handle (the receiver), or on the
	// handle argument of emit_methods_with_db_argument's methods.
	param := 0
	if q.Handle >= 0 {
		param = q.Handle + 1
	}
	if s == nil {
		s = &ops.Summary{}
	}
	for _, l := range s.Locks {
		if l.Param == param {
			return s
		}
	}
	s.Locks = append(s.Locks, ops.ParamLock{Param: param, Desc: fmt.Sprintf("%s (sqlc %s)", desc, q.Name), ReadOnly: stmt.Kind == sqltext.KindSelect})
	return s
}

// sqlcBinds returns, for sqlc's generated New(db) and q.WithTx(tx), the
// argument (receiver counted) holding the handle the Queries they return
// runs on; -1 for any other function.
func sqlcBinds(fn *ssa.Function) int {
	row := knowledge.SQLCHandle(fn)
	if row == nil {
		return -1
	}
	i, ok := row.Param(knowledge.Handle)
	if !ok {
		return -1
	}
	if fn.Signature.Recv() != nil {
		i++
	}
	return i
}

// sqlcOps classifies a call of a generated query method of the package
// under analysis by its SQL: the lock it takes on the handle it runs on.
func sqlcOps(call ssa.CallInstruction, callee *ssa.Function, gf ops.GeneratedFact) []*ops.Op {
	q := sqlcQueryOf(gf)
	if q == nil {
		return nil
	}
	stmt := sqltext.Parse(q.SQL)
	desc, ok := ops.StatementLock(stmt)
	if !ok {
		return nil
	}
	args := call.Common().Args
	var h ssa.Value
	switch {
	case q.Handle >= 0:
		i := q.Handle
		if callee.Signature.Recv() != nil {
			i++
		}
		if i < len(args) {
			h = ops.Root(args[i])
		}
	case callee.Signature.Recv() != nil && len(args) > 0:
		h = ops.Root(args[0])
	}
	return []*ops.Op{{Kind: ops.Lock, Handle: h, SQL: stmt, Desc: fmt.Sprintf("%s (sqlc %s)", desc, q.Name)}}
}

// sqlcHandle returns the root of the handle a call of a generated method
// runs on: its handle argument, or the Queries it is called on.
func sqlcHandle(call *ssa.Call, q *sqlcQuery) ssa.Value {
	args := call.Common().Args
	i := 0 // the receiver
	if q.Handle >= 0 {
		i = q.Handle + 1
	}
	if i < len(args) {
		return ops.Root(args[i])
	}
	return nil
}

// sqlcBinder returns the value a call of a generated method binds to each
// placeholder.
func sqlcBinder(call *ssa.Call, q *sqlcQuery) func(sqltext.Placeholder) ssa.Value {
	args := call.Common().Args
	return func(p sqltext.Placeholder) ssa.Value {
		if p.Named() || p.Position < 1 || p.Position > len(q.Binds) {
			return nil
		}
		b := q.Binds[p.Position-1]
		i := b.Param + 1 // Args[0] is the receiver
		if b.Param < 0 || i >= len(args) {
			return nil
		}
		if b.Field == "" {
			return args[i]
		}
		return ops.FieldValue(args[i], b.Field)
	}
}
