package ops

import (
	"fmt"
	"go/constant"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/knowledge"
	"github.com/idemlint/idemlint/analyzers/internal/sqltext"
	"github.com/idemlint/idemlint/analyzers/internal/ssaval"
)

// This file gives lostupdate the reads and writes of sqlc-generated query
// methods at their calls: a :one SELECT by key whose result struct holds
// the columns, and an UPDATE whose placeholders take the caller's
// arguments or the fields of its <Name>Params. The generated code is
// usually another package of the module, so what a method runs travels as
// its summary's SQLC fact.

// An SQLCFact is what a sqlc-generated query method runs: its query, where
// each placeholder's value comes from, and, for a :one SELECT, the field of
// its result each column is scanned into.
type SQLCFact struct {
	Name, Cmd, SQL string
	// Binds[i] is placeholder i+1's: the parameter (receiver excluded)
	// and, for a <Name>Params argument, its field.
	Binds []SQLCBindFact
	// Cols are, for a :one SELECT, the columns scanned into fields of
	// result 0 (by field index; result 0 may point to the struct).
	Cols []SQLCColFact
	// Handle is the parameter (receiver excluded) holding the handle the
	// query runs on (emit_methods_with_db_argument); -1 when the Queries
	// was bound to one (New, WithTx).
	Handle int
}

// An SQLCBindFact is a placeholder's source: parameter Param (receiver
// excluded), or its field Field.
type SQLCBindFact struct {
	Param int
	Field string
}

// An SQLCColFact is a column scanned into field Field of the result.
type SQLCColFact struct {
	Column string
	Field  int
}

// sqlcQuerySummary adds to a sqlc-generated method's summary its SQLC
// fact, for the :one SELECTs and the UPDATEs lostupdate reads.
func sqlcQuerySummary(fn *ssa.Function, s *Summary) *Summary {
	f := sqlcFactOf(fn)
	if f == nil {
		return s
	}
	if s == nil {
		s = &Summary{}
	}
	s.SQLC = f
	return s
}

// sqlcHandleSummary adds to the summary of sqlc's generated New and
// WithTx the argument whose handle the Queries they return runs on.
func sqlcHandleSummary(fn *ssa.Function, s *Summary) *Summary {
	row := knowledge.SQLCHandle(fn)
	if row == nil {
		return s
	}
	i, ok := row.Param(knowledge.Handle)
	if !ok {
		return s
	}
	if fn.Signature.Recv() != nil {
		i++
	}
	if s == nil {
		s = &Summary{}
	}
	s.BindsHandle = i + 1
	return s
}

// boundHandle returns, for a root that is a call of sqlc's New or WithTx
// in another package, the root of the handle it binds; nil otherwise.
func (e *extractor) boundHandle(root ssa.Value) ssa.Value {
	if e == nil {
		return nil
	}
	call, ok := root.(*ssa.Call)
	if !ok {
		return nil
	}
	callee := call.Common().StaticCallee()
	if callee == nil || len(callee.Blocks) > 0 {
		return nil // in this package Root has seen through it already
	}
	s := e.summary(callee)
	if s == nil || s.BindsHandle == 0 || s.BindsHandle > len(call.Common().Args) {
		return nil
	}
	return Root(call.Common().Args[s.BindsHandle-1])
}

// sqlcFactOf computes the SQLC fact of a generated method with a body.
func sqlcFactOf(fn *ssa.Function) *SQLCFact {
	q := knowledge.SQLC(fn)
	if q == nil || q.Dynamic {
		return nil
	}
	stmt := sqltext.Parse(q.SQL)
	f := &SQLCFact{Name: q.Name, Cmd: q.Cmd, SQL: q.SQL, Handle: q.Handle}
	for _, b := range q.Binds {
		if b.Each {
			return nil
		}
		f.Binds = append(f.Binds, SQLCBindFact{Param: b.Param, Field: b.Field})
	}
	switch {
	case stmt.Kind == sqltext.KindUpdate:
		return f
	case stmt.Kind == sqltext.KindSelect && q.Cmd == ":one":
		f.Cols = scannedFields(fn, stmt)
		if len(f.Cols) > 0 {
			return f
		}
	}
	return nil
}

// scannedFields maps the select list of a generated :one method onto the
// fields of the struct it scans into and returns: the Scan call's
// destinations, &i.ID, &i.Balance, in select-list order.
func scannedFields(fn *ssa.Function, stmt *sqltext.Statement) []SQLCColFact {
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
			var out []SQLCColFact
			for j, d := range dests {
				fa, ok := ssaval.Unwrap(d).(*ssa.FieldAddr)
				if col, isCol := selectColumn(stmt, stmt.SelectList[j]); ok && isCol {
					out = append(out, SQLCColFact{Column: col, Field: fa.Field})
				}
			}
			return out
		}
	}
	return nil
}

// sqlcFact returns the SQLC fact of a callee: computed for a generated
// method of this package, else its summary's.
func (e *extractor) sqlcFact(callee *ssa.Function) *SQLCFact {
	if callee == nil {
		return nil
	}
	if len(callee.Blocks) > 0 {
		return sqlcFactOf(callee)
	}
	if s := e.summary(callee); s != nil {
		return s.SQLC
	}
	return nil
}

// sqlcHandle returns the root of the handle a call of a generated method
// runs on: its handle argument, or the Queries it is called on.
func sqlcHandle(call *ssa.Call, f *SQLCFact) ssa.Value {
	args := call.Common().Args
	i := 0 // the receiver
	if f.Handle >= 0 {
		i = f.Handle + 1
	}
	if i < len(args) {
		return Root(args[i])
	}
	return nil
}

// sqlcBinder returns the value the caller binds to each placeholder.
func sqlcBinder(call *ssa.Call, f *SQLCFact) func(sqltext.Placeholder) ssa.Value {
	args := call.Common().Args
	return func(p sqltext.Placeholder) ssa.Value {
		if p.Named() || p.Position < 1 || p.Position > len(f.Binds) {
			return nil
		}
		b := f.Binds[p.Position-1]
		i := b.Param + 1 // Args[0] is the receiver
		if b.Param < 0 || i >= len(args) {
			return nil
		}
		if b.Field == "" {
			return args[i]
		}
		return fieldValue(args[i], b.Field)
	}
}

// sqlcRead makes the read of a call of a generated :one SELECT by key.
func (e *extractor) sqlcRead(call *ssa.Call) *ColumnRead {
	callee := call.Common().StaticCallee()
	f := e.sqlcFact(callee)
	if f == nil || len(f.Cols) == 0 {
		return nil
	}
	stmt := sqltext.Parse(f.SQL)
	if stmt.Kind != sqltext.KindSelect || !stmt.Understood() || stmt.Table.Name == "" || len(stmt.From) > 0 {
		return nil
	}
	lk := StatementRow(stmt, sqlcBinder(call, f))
	if lk == nil || lk.Kind != Lookup {
		return nil
	}
	row := resultValue(call, 0)
	if row == nil {
		return nil
	}
	base := RowLocal(row)
	rd := &ColumnRead{Instr: call, Table: stmt.Table.Name, Keys: lk.Keys, Lib: "sqlc", Desc: calleeFuncName(callee), Handle: sqlcHandle(call, f)}
	_, isPtr := row.Type().Underlying().(*types.Pointer)
	for _, c := range f.Cols {
		var addr ssa.Value
		if _, isAlloc := base.(*ssa.Alloc); isAlloc || isPtr {
			// A local holding the row, or a pointer to it
			// (emit_result_struct_pointers): its fields are loaded.
			addr = &ssa.FieldAddr{X: base, Field: c.Field}
		} else {
			addr = &ssa.Field{X: base, Field: c.Field}
		}
		rd.Cols = append(rd.Cols, ReadCol{Column: c.Column, Addr: addr})
	}
	return rd
}

// sqlcWrites makes the writes of a call of a generated UPDATE.
func (e *extractor) sqlcWrites(call *ssa.Call) []*ColumnWrite {
	callee := call.Common().StaticCallee()
	f := e.sqlcFact(callee)
	if f == nil {
		return nil
	}
	return updateWrites(call, sqltext.Parse(f.SQL), sqlcHandle(call, f), sqlcBinder(call, f), "sqlc", calleeFuncName(callee))
}

// calleeFuncName names a callee as messages do: "bankdb.(*Queries).GetWallet".
func calleeFuncName(fn *ssa.Function) string {
	if obj, ok := fn.Object().(*types.Func); ok {
		return funcName(obj)
	}
	return FuncName(fn)
}

// sqlcRow classifies a call of a sqlc-generated method by its SQL, its
// placeholders bound to the call's arguments (or their fields).
func sqlcRow(call ssa.CallInstruction, callee *ssa.Function, q *knowledge.SQLCQuery) []*RowOp {
	if q.Dynamic {
		return nil
	}
	stmt := sqltext.Parse(q.SQL)
	args := call.Common().Args
	off := 0
	if callee.Signature.Recv() != nil {
		off = 1
	}
	bind := func(p sqltext.Placeholder) ssa.Value {
		if p.Named() || p.Position < 1 || p.Position > len(q.Binds) {
			return nil
		}
		b := q.Binds[p.Position-1]
		if b.Param < 0 || b.Each || b.Param+off >= len(args) {
			return nil
		}
		v := args[b.Param+off]
		if b.Field != "" {
			return fieldValue(v, b.Field)
		}
		return v
	}
	op := StatementRow(stmt, bind)
	if op == nil {
		return nil
	}
	op.Lib, op.FromLibrary, op.NilResult = "sqlc", true, -1
	switch {
	case q.Handle >= 0 && q.Handle+off < len(args):
		op.Handle = Root(args[q.Handle+off])
	case off == 1 && len(args) > 0:
		op.Handle = Root(args[0])
	}
	if op.Kind == Lookup {
		op.Desc = fmt.Sprintf("the lookup of %s by %s (sqlc %s)", op.Table, strings.Join(op.KeyColumns(), ", "), q.Name)
	} else {
		op.Desc = fmt.Sprintf("the INSERT into %s (sqlc %s)", op.Table, q.Name)
	}
	return []*RowOp{op}
}

// sqlcOwnRow makes the lookup or insert of a sqlc-generated method from
// its own query, its placeholders bound to its parameters: refs maps the
// stand-in value of each bound parameter (or field) to it. A :one lookup
// returns the driver's not-found error as it is.
func sqlcOwnRow(fn *ssa.Function, q *knowledge.SQLCQuery, refs map[ssa.Value]ParamRef) []*RowOp {
	if q.Dynamic {
		return nil
	}
	off := 0
	if fn.Signature.Recv() != nil {
		off = 1
	}
	bind := func(p sqltext.Placeholder) ssa.Value {
		if p.Named() || p.Position < 1 || p.Position > len(q.Binds) {
			return nil
		}
		b := q.Binds[p.Position-1]
		if b.Param < 0 || b.Each || b.Param+off >= len(fn.Params) {
			return nil
		}
		v := ssa.Value(fn.Params[b.Param+off])
		if b.Field != "" {
			v = ssa.NewConst(constant.MakeString(b.Field), types.Typ[types.String])
		}
		refs[v] = ParamRef{Param: b.Param + off, Field: b.Field}
		return v
	}
	op := StatementRow(sqltext.Parse(q.SQL), bind)
	if op == nil {
		return nil
	}
	op.Lib, op.NilResult = "sqlc", -1
	op.Propagates = op.Kind == Lookup && q.Cmd == ":one"
	if op.Kind == Lookup {
		op.Desc = fmt.Sprintf("the lookup of %s by %s (sqlc %s)", op.Table, strings.Join(op.KeyColumns(), ", "), q.Name)
	} else {
		op.Desc = fmt.Sprintf("the INSERT into %s (sqlc %s)", op.Table, q.Name)
	}
	if q.Handle >= 0 && q.Handle+off < len(fn.Params) {
		op.Handle = fn.Params[q.Handle+off]
	}
	return []*RowOp{op}
}
