package knowledge

const (
	bunPkg      = "github.com/uptrace/bun"
	pgdriverPkg = "github.com/uptrace/bun/driver/pgdriver"
)

// bun is uptrace/bun: handles (*bun.DB, and bun.Tx and bun.Conn with value
// receivers, or the bun.IDB interface, whose calls are invokes) start query
// builders, whose steps and finishers are static calls on *SelectQuery,
// *InsertQuery, *UpdateQuery, *DeleteQuery and *RawQuery. bun.Tx embeds
// *sql.Tx and bun.Conn *sql.Conn, so their promoted methods (Prepare,
// PingContext) are database/sql's rows. No error is bun's own: a missing
// row is sql.ErrNoRows; the driver's errors are pgdriver.Error (below), or
// *pgconn.PgError under pgx's stdlib.
var bun = library{
	name: "bun",
	pkgs: []string{bunPkg}, // with dialect/pgdialect and driver/pgdriver beneath it
	types: []Type{
		{Pkg: bunPkg, Name: "Tx", Role: TxHandle},
		{Pkg: bunPkg, Name: "DB", Role: DBHandle},
		{Pkg: bunPkg, Name: "Conn", Role: DBHandle},
		// IDB is implemented by *DB, Conn and Tx.
		{Pkg: bunPkg, Name: "IDB", Role: EitherHandle},
		// pgdriver.Error has no code field: its SQLSTATE is Field('C'),
		// a method, whose row below is an ErrorCode (ops reads the code as
		// the result of Field called with the constant 'C' on the value
		// errors.As filled). It is a value type: errors.As(err, &pgErr)
		// with var pgErr pgdriver.Error.
		{Pkg: pgdriverPkg, Name: "Error", Role: DBError, CodeField: ""},
	},
	calls: bunCalls(),
}

func bunCalls() []Call {
	var calls []Call
	// Every handle starts the same builders.
	for _, recv := range []string{"DB", "Tx", "Conn", "IDB"} {
		m := func(name string) Func { return method(bunPkg, recv, name) }
		calls = append(calls,
			Call{Func: m("NewSelect"), Kind: Chain, Result: ChainResult},
			Call{Func: m("NewInsert"), Kind: Chain, Result: ChainResult},
			Call{Func: m("NewUpdate"), Kind: Chain, Result: ChainResult},
			Call{Func: m("NewDelete"), Kind: Chain, Result: ChainResult},
			// NewRaw(query, args...): its Scan or Exec runs it.
			Call{Func: m("NewRaw"), Kind: Raw, Params: []Param{p(0, SQL), p(1, Binds)}, Result: ChainResult},
		)
	}
	// Raw SQL on the handles: *DB and Tx have all six, Conn only the
	// Context forms; through IDB they are invokes of IConn, which IDB
	// embeds. Tx's without a context use the transaction's.
	for _, recv := range []string{"DB", "Tx"} {
		m := func(name string) Func { return method(bunPkg, recv, name) }
		calls = append(calls,
			Call{Func: m("Exec"), Kind: Exec, Params: []Param{p(0, SQL), p(1, Binds)}, Result: ExecResult},
			Call{Func: m("Query"), Kind: Query, Params: []Param{p(0, SQL), p(1, Binds)}, Result: RowsResult},
			Call{Func: m("QueryRow"), Kind: Query, Params: []Param{p(0, SQL), p(1, Binds)}, Result: RowResult},
		)
	}
	for _, recv := range []string{"DB", "Tx", "Conn", "IConn"} {
		m := func(name string) Func { return method(bunPkg, recv, name) }
		calls = append(calls,
			Call{Func: m("ExecContext"), Kind: Exec, Params: []Param{p(1, SQL), p(2, Binds)}, Result: ExecResult},
			Call{Func: m("QueryContext"), Kind: Query, Params: []Param{p(1, SQL), p(2, Binds)}, Result: RowsResult},
			Call{Func: m("QueryRowContext"), Kind: Query, Params: []Param{p(1, SQL), p(2, Binds)}, Result: RowResult},
		)
	}

	calls = append(calls,
		// *DB's Prepare returns a bun.Stmt, which embeds *sql.Stmt: its Exec
		// and Query calls are database/sql's Stmt rows, promoted. Tx's and
		// Conn's Prepare are *sql.Tx's and *sql.Conn's, promoted.
		Call{Func: method(bunPkg, "DB", "Prepare"), Kind: Prepare, Params: []Param{p(0, SQL)}, Result: StmtResult},
		Call{Func: method(bunPkg, "DB", "PrepareContext"), Kind: Prepare, Params: []Param{p(1, SQL)}, Result: StmtResult},

		// Transactions. RunInTx(ctx, opts, fn func(ctx, tx Tx) error) begins,
		// runs fn with the transaction as its parameter 1, and commits when
		// fn returns nil. Through IDB the receiver may be a Tx, where it is
		// a savepoint (as Tx.RunInTx below); ops tells by the receiver.
		Call{Func: method(bunPkg, "DB", "RunInTx"), Kind: TxFunc, Params: []Param{p(1, TxOptions), p(2, Callback)}, CallbackTx: 1},
		Call{Func: method(bunPkg, "Conn", "RunInTx"), Kind: TxFunc, Params: []Param{p(1, TxOptions), p(2, Callback)}, CallbackTx: 1},
		Call{Func: method(bunPkg, "IDB", "RunInTx"), Kind: TxFunc, Params: []Param{p(1, TxOptions), p(2, Callback)}, CallbackTx: 1},
		Call{Func: method(bunPkg, "DB", "Begin"), Kind: Begin, Result: TxResult},
		Call{Func: method(bunPkg, "DB", "BeginTx"), Kind: Begin, Params: []Param{p(1, TxOptions)}, Result: TxResult},
		Call{Func: method(bunPkg, "Conn", "BeginTx"), Kind: Begin, Params: []Param{p(1, TxOptions)}, Result: TxResult},
		Call{Func: method(bunPkg, "IDB", "BeginTx"), Kind: Begin, Params: []Param{p(1, TxOptions)}, Result: TxResult},
		// On a Tx, Begin and BeginTx run SAVEPOINT and return a Tx naming it
		// (BeginTx ignores its options), whose Commit is RELEASE SAVEPOINT
		// and Rollback ROLLBACK TO SAVEPOINT.
		Call{Func: method(bunPkg, "Tx", "Begin"), Kind: Savepoint, Result: TxResult},
		Call{Func: method(bunPkg, "Tx", "BeginTx"), Kind: Savepoint, Result: TxResult},
		// Tx.RunInTx runs fn in a savepoint of the same transaction, released
		// (not committed) when fn returns nil: its writes and row locks last
		// until the outer transaction ends, so it is a Savepoint, not a
		// TxFunc; fn still receives the (savepoint) Tx as its parameter 1.
		// Its options are ignored.
		Call{Func: method(bunPkg, "Tx", "RunInTx"), Kind: Savepoint, Params: []Param{p(2, Callback)}, CallbackTx: 1},
		Call{Func: method(bunPkg, "Tx", "Commit"), Kind: Commit},
		Call{Func: method(bunPkg, "Tx", "Rollback"), Kind: Rollback},
	)

	// Steps every builder has. Conn(db) makes the query run on db (a Tx,
	// often) instead of the handle that started it. Where's query is an
	// SQL fragment with ? binds (on an InsertQuery, the WHERE of the
	// upsert's DO UPDATE branch); WherePK(cols...) adds WHERE pk = the
	// model's (or those columns = the model's).
	for _, q := range []string{"SelectQuery", "InsertQuery", "UpdateQuery", "DeleteQuery"} {
		m := func(name string) Func { return method(bunPkg, q, name) }
		calls = append(calls,
			Call{Func: m("Conn"), Kind: Chain, Params: []Param{p(0, Handle)}, Result: ChainResult},
			Call{Func: m("Table"), Kind: Chain, Result: ChainResult},
			Call{Func: m("Where"), Kind: Chain, Params: []Param{p(0, Cond), p(1, Binds)}, Result: ChainResult},
			Call{Func: m("WhereOr"), Kind: Chain, Params: []Param{p(0, Cond), p(1, Binds)}, Result: ChainResult},
		)
		if q != "InsertQuery" {
			calls = append(calls,
				Call{Func: m("WherePK"), Kind: Chain, Params: []Param{p(0, Column)}, Result: ChainResult},
				Call{Func: m("WhereGroup"), Kind: Chain, Result: ChainResult},
			)
		}
		if q != "SelectQuery" {
			calls = append(calls,
				Call{Func: m("Returning"), Kind: Chain, Params: []Param{p(0, SQL), p(1, Binds)}, Result: ChainResult},
			)
		}
	}

	sel := func(name string) Func { return method(bunPkg, "SelectQuery", name) }
	ins := func(name string) Func { return method(bunPkg, "InsertQuery", name) }
	upd := func(name string) Func { return method(bunPkg, "UpdateQuery", name) }
	del := func(name string) Func { return method(bunPkg, "DeleteQuery", name) }
	raw := func(name string) Func { return method(bunPkg, "RawQuery", name) }
	return append(calls,
		// SelectQuery. Model(&m) is where Scan(ctx) with no dest reads the row.
		Call{Func: sel("Model"), Kind: Chain, Params: []Param{p(0, Dest)}, Result: ChainResult},
		Call{Func: sel("Column"), Kind: Chain, Params: []Param{p(0, Column)}, Result: ChainResult},
		Call{Func: sel("ColumnExpr"), Kind: Chain, Params: []Param{p(0, SQL), p(1, Binds)}, Result: ChainResult},
		Call{Func: sel("Join"), Kind: Chain, Params: []Param{p(0, SQL), p(1, Binds)}, Result: ChainResult},
		Call{Func: sel("Relation"), Kind: Chain, Result: ChainResult},
		Call{Func: sel("Order"), Kind: Chain, Result: ChainResult},
		Call{Func: sel("OrderExpr"), Kind: Chain, Params: []Param{p(0, SQL), p(1, Binds)}, Result: ChainResult},
		Call{Func: sel("Group"), Kind: Chain, Result: ChainResult},
		Call{Func: sel("Limit"), Kind: Chain, Result: ChainResult},
		Call{Func: sel("Offset"), Kind: Chain, Result: ChainResult},
		Call{Func: sel("Apply"), Kind: Chain, Result: ChainResult},
		// For("UPDATE"), For("UPDATE SKIP LOCKED"), For("SHARE OF ?", ...):
		// the text after FOR.
		Call{Func: sel("For"), Kind: LockStep, Params: []Param{p(0, SQL), p(1, Binds)}, Result: ChainResult},
		// Finishers. Scan into a single model returns sql.ErrNoRows when no
		// row matched; into a slice it does not.
		Call{Func: sel("Scan"), Kind: Find, Params: []Param{p(1, Dest)}},
		Call{Func: sel("ScanAndCount"), Kind: Find, Params: []Param{p(1, Dest)}},
		Call{Func: sel("Exists"), Kind: Find},
		Call{Func: sel("Count"), Kind: Find},
		Call{Func: sel("Rows"), Kind: Find, Result: RowsResult},
		Call{Func: sel("Exec"), Kind: Find, Params: []Param{p(1, Dest)}, Result: ExecResult},

		// InsertQuery.
		Call{Func: ins("Model"), Kind: Chain, Params: []Param{p(0, Model)}, Result: ChainResult},
		Call{Func: ins("Column"), Kind: Chain, Params: []Param{p(0, Column)}, Result: ChainResult},
		Call{Func: ins("ExcludeColumn"), Kind: Chain, Params: []Param{p(0, Column)}, Result: ChainResult},
		// Value(column, expr, args...) inserts an SQL expression instead of
		// the model's value.
		Call{Func: ins("Value"), Kind: SetStep, Params: []Param{p(0, Column), p(1, SQL), p(2, Binds)}, Result: ChainResult},
		// On("CONFLICT (email) DO NOTHING"), On("CONFLICT (id) DO UPDATE") with
		// Set for the update branch, On("DUPLICATE KEY UPDATE") on MySQL.
		Call{Func: ins("On"), Kind: ConflictStep, Params: []Param{p(0, SQL), p(1, Binds)}, Result: ChainResult},
		// Ignore: ON CONFLICT DO NOTHING (PostgreSQL), INSERT IGNORE (MySQL).
		Call{Func: ins("Ignore"), Kind: ConflictStep, Result: ChainResult},
		// Replace: REPLACE INTO (MySQL): a conflicting row is deleted, then
		// the new one inserted.
		Call{Func: ins("Replace"), Kind: ConflictStep, Result: ChainResult},
		// Set: the SET list of On's DO UPDATE branch ("n = EXCLUDED.n").
		Call{Func: ins("Set"), Kind: SetStep, Params: []Param{p(0, SQL), p(1, Binds)}, Result: ChainResult},
		// Exec(ctx, dest...) and Scan(ctx, dest...) insert; dest receives
		// RETURNING columns (the model by default).
		Call{Func: ins("Exec"), Kind: Insert, Params: []Param{p(1, Dest)}, Result: ExecResult},
		Call{Func: ins("Scan"), Kind: Insert, Params: []Param{p(1, Dest)}},

		// UpdateQuery. Model(m).WherePK() alone writes every column from m
		// (a blind write of values read earlier); Column(...) restricts it
		// to those columns, still from m; Set("n = n + 1") is atomic, while
		// Set("n = ?", v) writes v.
		Call{Func: upd("Model"), Kind: Chain, Params: []Param{p(0, Model)}, Result: ChainResult},
		Call{Func: upd("Column"), Kind: Chain, Params: []Param{p(0, Column)}, Result: ChainResult},
		Call{Func: upd("ExcludeColumn"), Kind: Chain, Params: []Param{p(0, Column)}, Result: ChainResult},
		Call{Func: upd("Set"), Kind: SetStep, Params: []Param{p(0, SQL), p(1, Binds)}, Result: ChainResult},
		// SetColumn(column, query, args...) emits column = query.
		Call{Func: upd("SetColumn"), Kind: SetStep, Params: []Param{p(0, Column), p(1, SQL), p(2, Binds)}, Result: ChainResult},
		// Value(column, query, args...) replaces the model's value of column
		// with an expression.
		Call{Func: upd("Value"), Kind: SetStep, Params: []Param{p(0, Column), p(1, SQL), p(2, Binds)}, Result: ChainResult},
		// OmitZero: zero fields of the model are not written.
		Call{Func: upd("OmitZero"), Kind: Chain, Result: ChainResult},
		// Bulk: UPDATE ... FROM (VALUES ...) of a slice model, by key.
		Call{Func: upd("Bulk"), Kind: Chain, Result: ChainResult},
		Call{Func: upd("Limit"), Kind: Chain, Result: ChainResult},
		Call{Func: upd("Exec"), Kind: Update, Params: []Param{p(1, Dest)}, Result: ExecResult},
		Call{Func: upd("Scan"), Kind: Update, Params: []Param{p(1, Dest)}},

		// DeleteQuery: a soft delete (UPDATE deleted_at) when the model has
		// a soft_delete column, unless ForceDelete.
		Call{Func: del("Model"), Kind: Chain, Params: []Param{p(0, Model)}, Result: ChainResult},
		Call{Func: del("ForceDelete"), Kind: Chain, Result: ChainResult},
		Call{Func: del("Exec"), Kind: Delete, Params: []Param{p(1, Dest)}, Result: ExecResult},
		Call{Func: del("Scan"), Kind: Delete, Params: []Param{p(1, Dest)}},

		// RawQuery: the SQL is NewRaw's, at the head of the receiver chain
		// (as a Stmt's is Prepare's). Scan reads its rows into dest, as
		// GORM's Raw(...).Scan; Exec runs it; what either does is in the SQL.
		Call{Func: raw("Conn"), Kind: Chain, Params: []Param{p(0, Handle)}, Result: ChainResult},
		Call{Func: raw("Scan"), Kind: Find, Params: []Param{p(1, Dest)}},
		Call{Func: raw("Exec"), Kind: Exec, Params: []Param{p(1, Dest)}, Result: ExecResult},

		// pgdriver.Error (value receiver): IntegrityViolation reports SQLSTATE
		// class 23 (23000, 23001, 23502, 23503, 23505, 23514, 23P01), the
		// unique violation among them; the error is the receiver. Field(k)
		// returns one field of the error response: Field('C') is the
		// SQLSTATE, other keys are messages (Key 0 is the field selector).
		Call{Func: method(pgdriverPkg, "Error", "IntegrityViolation"), Kind: ErrorCheck, Meaning: UniqueViolation},
		Call{Func: method(pgdriverPkg, "Error", "Field"), Kind: ErrorCode, Params: []Param{p(0, Key)}},
	)
}
