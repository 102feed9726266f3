package dialect

import (
	"fmt"
	"go/constant"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/ops"
	"github.com/idemlint/idemlint/analyzers/internal/sqltext"
)

// The lookups and inserts, reads, writes and updates of sqlc-generated
// query methods, by their SQL: a :one SELECT by key whose result struct
// holds the columns, an UPDATE whose placeholders take the caller's
// arguments or the fields of its <Name>Params, an INSERT.

// sqlcRow classifies a call of a generated method of the package under
// analysis by its SQL, its placeholders bound to the call's arguments (or
// their fields).
func sqlcRow(call ssa.CallInstruction, callee *ssa.Function, gf ops.GeneratedFact) []*ops.RowOp {
	q := sqlcQueryOf(gf)
	if q == nil || q.Dynamic {
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
			return ops.FieldValue(v, b.Field)
		}
		return v
	}
	op := ops.StatementRow(stmt, bind)
	if op == nil {
		return nil
	}
	op.Lib, op.FromLibrary, op.NilResult = sqlcLib, true, -1
	// A :one SELECT returns the driver's ErrNoRows from its Scan.
	op.ErrWhenNotFound = op.Kind == ops.Lookup && q.Cmd == ":one" && ops.EmptyWhenNotFound(stmt)
	switch {
	case q.Handle >= 0 && q.Handle+off < len(args):
		op.Handle = ops.Root(args[q.Handle+off])
	case off == 1 && len(args) > 0:
		op.Handle = ops.Root(args[0])
	}
	op.Desc = sqlcRowDesc(op, q)
	return []*ops.RowOp{op}
}

// sqlcOwnRows makes the lookup or insert of a generated method from its
// own query, for its summary, its placeholders bound to its parameters:
// refs maps the stand-in value of each bound parameter (or field) to it.
// A :one lookup returns the driver's not-found error as it is; a :many or
// :exec one has no not-found outcome of its own.
func sqlcOwnRows(fn *ssa.Function, gf ops.GeneratedFact, refs map[ssa.Value]ops.ParamRef) []*ops.RowOp {
	q := sqlcQueryOf(gf)
	if q == nil || q.Dynamic {
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
		refs[v] = ops.ParamRef{Param: b.Param + off, Field: b.Field}
		return v
	}
	stmt := sqltext.Parse(q.SQL)
	op := ops.StatementRow(stmt, bind)
	if op == nil {
		return nil
	}
	op.Lib, op.NilResult = sqlcLib, -1
	op.Propagates = op.Kind == ops.Lookup && q.Cmd == ":one"
	op.ErrWhenNotFound = op.Propagates && ops.EmptyWhenNotFound(stmt)
	op.Desc = sqlcRowDesc(op, q)
	if q.Handle >= 0 && q.Handle+off < len(fn.Params) {
		op.Handle = fn.Params[q.Handle+off]
	}
	return []*ops.RowOp{op}
}

// sqlcRowDesc names a generated method's lookup or insert for messages.
func sqlcRowDesc(op *ops.RowOp, q *sqlcQuery) string {
	if op.Kind == ops.Lookup {
		return fmt.Sprintf("the lookup of %s by %s (sqlc %s)", op.Table, strings.Join(op.KeyColumns(), ", "), q.Name)
	}
	return fmt.Sprintf("the INSERT into %s (sqlc %s)", op.Table, q.Name)
}

// sqlcRead makes the read of a call of a generated :one SELECT by key.
func sqlcRead(call *ssa.Call, callee *ssa.Function, gf ops.GeneratedFact) *ops.ColumnRead {
	q := sqlcQueryOf(gf)
	if q == nil || q.Dynamic || len(q.Cols) == 0 {
		return nil
	}
	stmt := sqltext.Parse(q.SQL)
	if stmt.Kind != sqltext.KindSelect || !stmt.Understood() || stmt.Table.Name == "" || len(stmt.From) > 0 {
		return nil
	}
	lk := ops.StatementRow(stmt, sqlcBinder(call, q))
	if lk == nil || lk.Kind != ops.Lookup {
		return nil
	}
	row := ops.ResultValue(call, 0)
	if row == nil {
		return nil
	}
	base := ops.RowLocal(row)
	rd := &ops.ColumnRead{Instr: call, Table: stmt.Table.Name, Keys: lk.Keys, Lib: sqlcLib, Desc: ops.FuncName(callee), Handle: sqlcHandle(call, q)}
	_, isPtr := row.Type().Underlying().(*types.Pointer)
	for _, c := range q.Cols {
		var addr ssa.Value
		if _, isAlloc := base.(*ssa.Alloc); isAlloc || isPtr {
			// A local holding the row, or a pointer to it
			// (emit_result_struct_pointers): its fields are loaded.
			addr = &ssa.FieldAddr{X: base, Field: c.Field}
		} else {
			addr = &ssa.Field{X: base, Field: c.Field}
		}
		rd.Cols = append(rd.Cols, ops.ReadCol{Column: c.Column, Addr: addr})
	}
	return rd
}

// sqlcWrites makes the writes of a call of a generated UPDATE whose
// placeholders the call's arguments fill.
func sqlcWrites(call *ssa.Call, callee *ssa.Function, gf ops.GeneratedFact) []*ops.ColumnWrite {
	q := sqlcQueryOf(gf)
	if q == nil || q.Dynamic || q.each() {
		return nil
	}
	return ops.StatementWrites(call, sqltext.Parse(q.SQL), sqlcHandle(call, q), sqlcBinder(call, q), sqlcLib, ops.FuncName(callee))
}

// sqlcUpdate summarises the UPDATE a call of a generated method runs,
// and what the caller can see of its count: nothing for :exec, the count
// for :execrows and :execresult.
func sqlcUpdate(call ssa.CallInstruction, callee *ssa.Function, gf ops.GeneratedFact) *ops.Update {
	q := sqlcQueryOf(gf)
	if q == nil || q.Dynamic {
		return nil
	}
	u := ops.StatementUpdate(sqltext.Parse(q.SQL))
	if u == nil {
		return nil
	}
	u.Lib, u.Method, u.Declared = sqlcLib, q.Name, q.Cmd
	u.Desc = "the UPDATE of " + u.Table + " (sqlc " + q.Name + ")"
	// It runs on the handle its Queries was bound to (New, WithTx), or
	// on its handle argument: where its transaction's locks are.
	if args, i := call.Common().Args, q.Handle+1; q.Handle >= 0 && i < len(args) {
		u.Handle = ops.Root(args[i])
	} else if args := call.Common().Args; q.Handle < 0 && callee.Signature.Recv() != nil && len(args) > 0 {
		u.Handle = ops.Root(args[0])
	}
	switch {
	case q.Cmd == ":exec":
		u.Count = ops.CountUnobservable
	case q.Affected:
		u.Count = ops.CountUseOf(call)
	default:
		u.Count = ops.CountUnknown // :one / :many with RETURNING: no row is the miss
	}
	return u
}
