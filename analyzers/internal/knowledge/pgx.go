package knowledge

// pgx is jackc/pgx v5, and v4 under its own import path: the same calls on
// *pgx.Conn, *pgxpool.Pool, *pgxpool.Conn and the pgx.Tx interface (so
// transaction calls are invokes), plus v4's BeginFunc methods.
var pgx = library{
	name:  "pgx",
	pkgs:  []string{"github.com/jackc/pgx/v5", "github.com/jackc/pgx/v4", "github.com/jackc/pgconn"},
	calls: append(pgxV5Calls(), pgxV4Calls()...),
	types: []Type{
		{Pkg: "github.com/jackc/pgx/v5", Name: "Tx", Role: TxHandle},
		{Pkg: "github.com/jackc/pgx/v5", Name: "Conn", Role: DBHandle},
		{Pkg: "github.com/jackc/pgx/v5/pgxpool", Name: "Pool", Role: DBHandle},
		{Pkg: "github.com/jackc/pgx/v5/pgxpool", Name: "Conn", Role: DBHandle},
		{Pkg: "github.com/jackc/pgx/v5/pgxpool", Name: "Tx", Role: TxHandle},
		{Pkg: "github.com/jackc/pgx/v5/pgconn", Name: "PgError", Role: DBError, CodeField: "Code"},
		{Pkg: "github.com/jackc/pgx/v5/pgtype", Name: "Text", Role: NullValue, ValidField: "Valid"},
		{Pkg: "github.com/jackc/pgx/v5/pgtype", Name: "Int2", Role: NullValue, ValidField: "Valid"},
		{Pkg: "github.com/jackc/pgx/v5/pgtype", Name: "Int4", Role: NullValue, ValidField: "Valid"},
		{Pkg: "github.com/jackc/pgx/v5/pgtype", Name: "Int8", Role: NullValue, ValidField: "Valid"},
		{Pkg: "github.com/jackc/pgx/v5/pgtype", Name: "Bool", Role: NullValue, ValidField: "Valid"},
		{Pkg: "github.com/jackc/pgx/v5/pgtype", Name: "Float4", Role: NullValue, ValidField: "Valid"},
		{Pkg: "github.com/jackc/pgx/v5/pgtype", Name: "Float8", Role: NullValue, ValidField: "Valid"},
		{Pkg: "github.com/jackc/pgx/v5/pgtype", Name: "Numeric", Role: NullValue, ValidField: "Valid"},
		{Pkg: "github.com/jackc/pgx/v5/pgtype", Name: "Timestamp", Role: NullValue, ValidField: "Valid"},
		{Pkg: "github.com/jackc/pgx/v5/pgtype", Name: "Timestamptz", Role: NullValue, ValidField: "Valid"},
		{Pkg: "github.com/jackc/pgx/v5/pgtype", Name: "Date", Role: NullValue, ValidField: "Valid"},
		{Pkg: "github.com/jackc/pgx/v5/pgtype", Name: "UUID", Role: NullValue, ValidField: "Valid"},
		{Pkg: "github.com/jackc/pgx/v4", Name: "Tx", Role: TxHandle},
		{Pkg: "github.com/jackc/pgx/v4", Name: "Conn", Role: DBHandle},
		{Pkg: "github.com/jackc/pgx/v4/pgxpool", Name: "Pool", Role: DBHandle},
		{Pkg: "github.com/jackc/pgx/v4/pgxpool", Name: "Conn", Role: DBHandle},
		{Pkg: "github.com/jackc/pgx/v4/pgxpool", Name: "Tx", Role: TxHandle},
		{Pkg: "github.com/jackc/pgconn", Name: "PgError", Role: DBError, CodeField: "Code"},
	},
	sentinels: []Sentinel{
		{Pkg: "github.com/jackc/pgx/v5", Name: "ErrNoRows", Meaning: NotFound},
		{Pkg: "github.com/jackc/pgx/v4", Name: "ErrNoRows", Meaning: NotFound},
	},
}

// pgxV5Calls adds v5's BeginFunc and BeginTxFunc, package functions taking
// the handle, to the common rows.
func pgxV5Calls() []Call {
	const root = "github.com/jackc/pgx/v5"
	return append(pgxCalls(root, root+"/pgconn"),
		Call{Func: fn(root, "BeginFunc"), Kind: TxFunc, Params: []Param{p(1, Handle), p(2, Callback)}, CallbackTx: 0},
		Call{Func: fn(root, "BeginTxFunc"), Kind: TxFunc, Params: []Param{p(1, Handle), p(2, TxOptions), p(3, Callback)}, CallbackTx: 0},
	)
}

// pgxCalls returns the rows common to pgx v4 and v5, whose import path is
// root and whose CommandTag lives in pgconnPkg.
func pgxCalls(root, pgconnPkg string) []Call {
	pool := root + "/pgxpool"
	var calls []Call
	// Every handle runs SQL the same way: (ctx, sql, args...).
	for _, h := range []struct{ pkg, recv string }{
		{root, "Conn"}, {root, "Tx"}, {pool, "Pool"}, {pool, "Conn"}, {pool, "Tx"},
	} {
		calls = append(calls,
			Call{Func: method(h.pkg, h.recv, "Query"), Kind: Query, Params: []Param{p(1, SQL), p(2, Binds)}, Result: RowsResult},
			Call{Func: method(h.pkg, h.recv, "QueryRow"), Kind: Query, Params: []Param{p(1, SQL), p(2, Binds)}, Result: RowResult},
			Call{Func: method(h.pkg, h.recv, "Exec"), Kind: Exec, Params: []Param{p(1, SQL), p(2, Binds)}, Result: ExecResult},
		)
		if h.recv != "Tx" {
			calls = append(calls,
				Call{Func: method(h.pkg, h.recv, "Begin"), Kind: Begin, Result: TxResult},
				Call{Func: method(h.pkg, h.recv, "BeginTx"), Kind: Begin, Params: []Param{p(1, TxOptions)}, Result: TxResult})
		} else {
			// Begin on a transaction starts a savepoint.
			calls = append(calls,
				Call{Func: method(h.pkg, h.recv, "Begin"), Kind: Savepoint, Result: TxResult},
				Call{Func: method(h.pkg, h.recv, "Commit"), Kind: Commit},
				Call{Func: method(h.pkg, h.recv, "Rollback"), Kind: Rollback})
		}
	}
	return append(calls,
		Call{Func: method(root, "Row", "Scan"), Kind: Scan, Params: []Param{p(0, Dest)}},
		Call{Func: method(root, "Rows", "Scan"), Kind: Scan, Params: []Param{p(0, Dest)}},
		Call{Func: method(root, "Batch", "Queue"), Kind: Queue, Params: []Param{p(0, SQL), p(1, Binds)}},
		Call{Func: method(pgconnPkg, "CommandTag", "RowsAffected"), Kind: RowsAffected},
		Call{Func: fn(root, "CollectOneRow"), Kind: Scan},
		Call{Func: fn(root, "CollectExactlyOneRow"), Kind: Scan},
		Call{Func: fn(root, "CollectRows"), Kind: Scan},
	)
}

// pgxV4Calls adds v4's differences: BeginFunc and BeginTxFunc are methods of
// the handles, and there are no Collect helpers.
func pgxV4Calls() []Call {
	const root, pool = "github.com/jackc/pgx/v4", "github.com/jackc/pgx/v4/pgxpool"
	var calls []Call
	for _, c := range pgxCalls(root, "github.com/jackc/pgconn") {
		if c.Func.Recv == "" { // the Collect helpers are v5's
			continue
		}
		calls = append(calls, c)
	}
	for _, h := range []struct{ pkg, recv string }{{root, "Conn"}, {root, "Tx"}, {pool, "Pool"}, {pool, "Conn"}, {pool, "Tx"}} {
		calls = append(calls,
			Call{Func: method(h.pkg, h.recv, "BeginFunc"), Kind: TxFunc, Params: []Param{p(1, Callback)}, CallbackTx: 0})
		if h.recv != "Tx" {
			calls = append(calls,
				Call{Func: method(h.pkg, h.recv, "BeginTxFunc"), Kind: TxFunc, Params: []Param{p(1, TxOptions), p(2, Callback)}, CallbackTx: 0})
		}
	}
	return calls
}
