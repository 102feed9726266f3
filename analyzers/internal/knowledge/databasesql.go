package knowledge

const sqlPkg = "database/sql"

// databaseSQL is database/sql. sqlx embeds its types, so sqlx's promoted
// calls (sqlxDB.Exec, sqlxTx.Commit) resolve to these rows.
var databaseSQL = library{
	name: "database/sql",
	types: []Type{
		{Pkg: sqlPkg, Name: "Tx", Role: TxHandle},
		{Pkg: sqlPkg, Name: "DB", Role: DBHandle},
		{Pkg: sqlPkg, Name: "Conn", Role: DBHandle},
	},
	sentinels: []Sentinel{
		{Pkg: sqlPkg, Name: "ErrNoRows", Meaning: NotFound},
	},
	calls: []Call{
		// Queries and statements on a DB, Tx or Conn.
		{Func: method(sqlPkg, "DB", "Query"), Kind: Query, Params: []Param{p(0, SQL), p(1, Binds)}, Result: RowsResult},
		{Func: method(sqlPkg, "DB", "QueryContext"), Kind: Query, Params: []Param{p(1, SQL), p(2, Binds)}, Result: RowsResult},
		{Func: method(sqlPkg, "DB", "QueryRow"), Kind: Query, Params: []Param{p(0, SQL), p(1, Binds)}, Result: RowResult},
		{Func: method(sqlPkg, "DB", "QueryRowContext"), Kind: Query, Params: []Param{p(1, SQL), p(2, Binds)}, Result: RowResult},
		{Func: method(sqlPkg, "DB", "Exec"), Kind: Exec, Params: []Param{p(0, SQL), p(1, Binds)}, Result: ExecResult},
		{Func: method(sqlPkg, "DB", "ExecContext"), Kind: Exec, Params: []Param{p(1, SQL), p(2, Binds)}, Result: ExecResult},
		{Func: method(sqlPkg, "DB", "Prepare"), Kind: Prepare, Params: []Param{p(0, SQL)}, Result: StmtResult},
		{Func: method(sqlPkg, "DB", "PrepareContext"), Kind: Prepare, Params: []Param{p(1, SQL)}, Result: StmtResult},
		{Func: method(sqlPkg, "Tx", "Query"), Kind: Query, Params: []Param{p(0, SQL), p(1, Binds)}, Result: RowsResult},
		{Func: method(sqlPkg, "Tx", "QueryContext"), Kind: Query, Params: []Param{p(1, SQL), p(2, Binds)}, Result: RowsResult},
		{Func: method(sqlPkg, "Tx", "QueryRow"), Kind: Query, Params: []Param{p(0, SQL), p(1, Binds)}, Result: RowResult},
		{Func: method(sqlPkg, "Tx", "QueryRowContext"), Kind: Query, Params: []Param{p(1, SQL), p(2, Binds)}, Result: RowResult},
		{Func: method(sqlPkg, "Tx", "Exec"), Kind: Exec, Params: []Param{p(0, SQL), p(1, Binds)}, Result: ExecResult},
		{Func: method(sqlPkg, "Tx", "ExecContext"), Kind: Exec, Params: []Param{p(1, SQL), p(2, Binds)}, Result: ExecResult},
		{Func: method(sqlPkg, "Tx", "Prepare"), Kind: Prepare, Params: []Param{p(0, SQL)}, Result: StmtResult},
		{Func: method(sqlPkg, "Tx", "PrepareContext"), Kind: Prepare, Params: []Param{p(1, SQL)}, Result: StmtResult},
		{Func: method(sqlPkg, "Conn", "QueryContext"), Kind: Query, Params: []Param{p(1, SQL), p(2, Binds)}, Result: RowsResult},
		{Func: method(sqlPkg, "Conn", "QueryRowContext"), Kind: Query, Params: []Param{p(1, SQL), p(2, Binds)}, Result: RowResult},
		{Func: method(sqlPkg, "Conn", "ExecContext"), Kind: Exec, Params: []Param{p(1, SQL), p(2, Binds)}, Result: ExecResult},
		{Func: method(sqlPkg, "Conn", "PrepareContext"), Kind: Prepare, Params: []Param{p(1, SQL)}, Result: StmtResult},

		// Prepared statements: the SQL was given to Prepare.
		{Func: method(sqlPkg, "Stmt", "Query"), Kind: Query, Params: []Param{p(0, Binds)}, Result: RowsResult},
		{Func: method(sqlPkg, "Stmt", "QueryContext"), Kind: Query, Params: []Param{p(1, Binds)}, Result: RowsResult},
		{Func: method(sqlPkg, "Stmt", "QueryRow"), Kind: Query, Params: []Param{p(0, Binds)}, Result: RowResult},
		{Func: method(sqlPkg, "Stmt", "QueryRowContext"), Kind: Query, Params: []Param{p(1, Binds)}, Result: RowResult},
		{Func: method(sqlPkg, "Stmt", "Exec"), Kind: Exec, Params: []Param{p(0, Binds)}, Result: ExecResult},
		{Func: method(sqlPkg, "Stmt", "ExecContext"), Kind: Exec, Params: []Param{p(1, Binds)}, Result: ExecResult},

		// Rows and results.
		{Func: method(sqlPkg, "Row", "Scan"), Kind: Scan, Params: []Param{p(0, Dest)}},
		{Func: method(sqlPkg, "Rows", "Scan"), Kind: Scan, Params: []Param{p(0, Dest)}},
		{Func: method(sqlPkg, "Result", "RowsAffected"), Kind: RowsAffected},

		// Transactions.
		{Func: method(sqlPkg, "DB", "Begin"), Kind: Begin, Result: TxResult},
		{Func: method(sqlPkg, "DB", "BeginTx"), Kind: Begin, Params: []Param{p(1, TxOptions)}, Result: TxResult},
		{Func: method(sqlPkg, "Conn", "BeginTx"), Kind: Begin, Params: []Param{p(1, TxOptions)}, Result: TxResult},
		{Func: method(sqlPkg, "Tx", "Commit"), Kind: Commit},
		{Func: method(sqlPkg, "Tx", "Rollback"), Kind: Rollback},
	},
}

const sqlxPkg = "github.com/jmoiron/sqlx"

// sqlx's own calls; the rest are database/sql's, promoted.
var sqlx = library{
	name: "sqlx",
	pkgs: []string{sqlxPkg},
	types: []Type{
		{Pkg: sqlxPkg, Name: "Tx", Role: TxHandle},
		{Pkg: sqlxPkg, Name: "DB", Role: DBHandle},
		{Pkg: sqlxPkg, Name: "Conn", Role: DBHandle},
	},
	calls: []Call{
		{Func: method(sqlxPkg, "DB", "Get"), Kind: Query, Params: []Param{p(0, Dest), p(1, SQL), p(2, Binds)}, ErrNoRow: true},
		{Func: method(sqlxPkg, "DB", "GetContext"), Kind: Query, Params: []Param{p(1, Dest), p(2, SQL), p(3, Binds)}, ErrNoRow: true},
		{Func: method(sqlxPkg, "DB", "Select"), Kind: Query, Params: []Param{p(0, Dest), p(1, SQL), p(2, Binds)}},
		{Func: method(sqlxPkg, "DB", "SelectContext"), Kind: Query, Params: []Param{p(1, Dest), p(2, SQL), p(3, Binds)}},
		{Func: method(sqlxPkg, "DB", "QueryRowx"), Kind: Query, Params: []Param{p(0, SQL), p(1, Binds)}, Result: RowResult},
		{Func: method(sqlxPkg, "DB", "QueryRowxContext"), Kind: Query, Params: []Param{p(1, SQL), p(2, Binds)}, Result: RowResult},
		{Func: method(sqlxPkg, "DB", "Queryx"), Kind: Query, Params: []Param{p(0, SQL), p(1, Binds)}, Result: RowsResult},
		{Func: method(sqlxPkg, "DB", "QueryxContext"), Kind: Query, Params: []Param{p(1, SQL), p(2, Binds)}, Result: RowsResult},
		{Func: method(sqlxPkg, "DB", "MustExec"), Kind: Exec, Params: []Param{p(0, SQL), p(1, Binds)}, Result: ExecResult},
		{Func: method(sqlxPkg, "DB", "MustExecContext"), Kind: Exec, Params: []Param{p(1, SQL), p(2, Binds)}, Result: ExecResult},
		{Func: method(sqlxPkg, "DB", "NamedExec"), Kind: Exec, Params: []Param{p(0, SQL), p(1, NamedBinds)}, Result: ExecResult},
		{Func: method(sqlxPkg, "DB", "NamedExecContext"), Kind: Exec, Params: []Param{p(1, SQL), p(2, NamedBinds)}, Result: ExecResult},
		{Func: method(sqlxPkg, "DB", "NamedQuery"), Kind: Query, Params: []Param{p(0, SQL), p(1, NamedBinds)}, Result: RowsResult},
		{Func: method(sqlxPkg, "DB", "NamedQueryContext"), Kind: Query, Params: []Param{p(1, SQL), p(2, NamedBinds)}, Result: RowsResult},
		{Func: method(sqlxPkg, "DB", "Preparex"), Kind: Prepare, Params: []Param{p(0, SQL)}, Result: StmtResult},
		{Func: method(sqlxPkg, "DB", "PreparexContext"), Kind: Prepare, Params: []Param{p(1, SQL)}, Result: StmtResult},
		{Func: method(sqlxPkg, "DB", "PrepareNamed"), Kind: Prepare, Params: []Param{p(0, SQL)}, Result: StmtResult},
		{Func: method(sqlxPkg, "DB", "PrepareNamedContext"), Kind: Prepare, Params: []Param{p(1, SQL)}, Result: StmtResult},
		{Func: method(sqlxPkg, "DB", "Beginx"), Kind: Begin, Result: TxResult},
		{Func: method(sqlxPkg, "DB", "MustBegin"), Kind: Begin, Result: TxResult},
		{Func: method(sqlxPkg, "DB", "BeginTxx"), Kind: Begin, Params: []Param{p(1, TxOptions)}, Result: TxResult},
		{Func: method(sqlxPkg, "DB", "MustBeginTx"), Kind: Begin, Params: []Param{p(1, TxOptions)}, Result: TxResult},
		{Func: method(sqlxPkg, "Conn", "BeginTxx"), Kind: Begin, Params: []Param{p(1, TxOptions)}, Result: TxResult},
		{Func: method(sqlxPkg, "Conn", "GetContext"), Kind: Query, Params: []Param{p(1, Dest), p(2, SQL), p(3, Binds)}, ErrNoRow: true},
		{Func: method(sqlxPkg, "Conn", "SelectContext"), Kind: Query, Params: []Param{p(1, Dest), p(2, SQL), p(3, Binds)}},
		{Func: method(sqlxPkg, "Conn", "QueryRowxContext"), Kind: Query, Params: []Param{p(1, SQL), p(2, Binds)}, Result: RowResult},
		{Func: method(sqlxPkg, "Conn", "QueryxContext"), Kind: Query, Params: []Param{p(1, SQL), p(2, Binds)}, Result: RowsResult},

		{Func: method(sqlxPkg, "Tx", "Get"), Kind: Query, Params: []Param{p(0, Dest), p(1, SQL), p(2, Binds)}, ErrNoRow: true},
		{Func: method(sqlxPkg, "Tx", "GetContext"), Kind: Query, Params: []Param{p(1, Dest), p(2, SQL), p(3, Binds)}, ErrNoRow: true},
		{Func: method(sqlxPkg, "Tx", "Select"), Kind: Query, Params: []Param{p(0, Dest), p(1, SQL), p(2, Binds)}},
		{Func: method(sqlxPkg, "Tx", "SelectContext"), Kind: Query, Params: []Param{p(1, Dest), p(2, SQL), p(3, Binds)}},
		{Func: method(sqlxPkg, "Tx", "QueryRowx"), Kind: Query, Params: []Param{p(0, SQL), p(1, Binds)}, Result: RowResult},
		{Func: method(sqlxPkg, "Tx", "QueryRowxContext"), Kind: Query, Params: []Param{p(1, SQL), p(2, Binds)}, Result: RowResult},
		{Func: method(sqlxPkg, "Tx", "Queryx"), Kind: Query, Params: []Param{p(0, SQL), p(1, Binds)}, Result: RowsResult},
		{Func: method(sqlxPkg, "Tx", "QueryxContext"), Kind: Query, Params: []Param{p(1, SQL), p(2, Binds)}, Result: RowsResult},
		{Func: method(sqlxPkg, "Tx", "MustExec"), Kind: Exec, Params: []Param{p(0, SQL), p(1, Binds)}, Result: ExecResult},
		{Func: method(sqlxPkg, "Tx", "MustExecContext"), Kind: Exec, Params: []Param{p(1, SQL), p(2, Binds)}, Result: ExecResult},
		{Func: method(sqlxPkg, "Tx", "NamedExec"), Kind: Exec, Params: []Param{p(0, SQL), p(1, NamedBinds)}, Result: ExecResult},
		{Func: method(sqlxPkg, "Tx", "NamedExecContext"), Kind: Exec, Params: []Param{p(1, SQL), p(2, NamedBinds)}, Result: ExecResult},
		{Func: method(sqlxPkg, "Tx", "NamedQuery"), Kind: Query, Params: []Param{p(0, SQL), p(1, NamedBinds)}, Result: RowsResult},
		{Func: method(sqlxPkg, "Tx", "Preparex"), Kind: Prepare, Params: []Param{p(0, SQL)}, Result: StmtResult},
		{Func: method(sqlxPkg, "Tx", "PreparexContext"), Kind: Prepare, Params: []Param{p(1, SQL)}, Result: StmtResult},
		{Func: method(sqlxPkg, "Tx", "PrepareNamed"), Kind: Prepare, Params: []Param{p(0, SQL)}, Result: StmtResult},
		{Func: method(sqlxPkg, "Tx", "PrepareNamedContext"), Kind: Prepare, Params: []Param{p(1, SQL)}, Result: StmtResult},

		{Func: method(sqlxPkg, "Stmt", "Get"), Kind: Query, Params: []Param{p(0, Dest), p(1, Binds)}, ErrNoRow: true},
		{Func: method(sqlxPkg, "Stmt", "GetContext"), Kind: Query, Params: []Param{p(1, Dest), p(2, Binds)}, ErrNoRow: true},
		{Func: method(sqlxPkg, "Stmt", "Select"), Kind: Query, Params: []Param{p(0, Dest), p(1, Binds)}},
		{Func: method(sqlxPkg, "Stmt", "SelectContext"), Kind: Query, Params: []Param{p(1, Dest), p(2, Binds)}},
		{Func: method(sqlxPkg, "Stmt", "QueryRowx"), Kind: Query, Params: []Param{p(0, Binds)}, Result: RowResult},
		{Func: method(sqlxPkg, "Stmt", "QueryRowxContext"), Kind: Query, Params: []Param{p(1, Binds)}, Result: RowResult},
		{Func: method(sqlxPkg, "Stmt", "MustExec"), Kind: Exec, Params: []Param{p(0, Binds)}, Result: ExecResult},
		{Func: method(sqlxPkg, "NamedStmt", "Get"), Kind: Query, Params: []Param{p(0, Dest), p(1, NamedBinds)}, ErrNoRow: true},
		{Func: method(sqlxPkg, "NamedStmt", "GetContext"), Kind: Query, Params: []Param{p(1, Dest), p(2, NamedBinds)}, ErrNoRow: true},
		{Func: method(sqlxPkg, "NamedStmt", "Select"), Kind: Query, Params: []Param{p(0, Dest), p(1, NamedBinds)}},
		{Func: method(sqlxPkg, "NamedStmt", "SelectContext"), Kind: Query, Params: []Param{p(1, Dest), p(2, NamedBinds)}},
		{Func: method(sqlxPkg, "NamedStmt", "Exec"), Kind: Exec, Params: []Param{p(0, NamedBinds)}, Result: ExecResult},
		{Func: method(sqlxPkg, "NamedStmt", "ExecContext"), Kind: Exec, Params: []Param{p(1, NamedBinds)}, Result: ExecResult},
		{Func: method(sqlxPkg, "NamedStmt", "MustExec"), Kind: Exec, Params: []Param{p(0, NamedBinds)}, Result: ExecResult},
		{Func: method(sqlxPkg, "Row", "Scan"), Kind: Scan, Params: []Param{p(0, Dest)}},
		{Func: method(sqlxPkg, "Row", "StructScan"), Kind: Scan, Params: []Param{p(0, Dest)}},
		{Func: method(sqlxPkg, "Rows", "StructScan"), Kind: Scan, Params: []Param{p(0, Dest)}},

		// Package functions over the Queryer and Execer interfaces.
		{Func: fn(sqlxPkg, "Get"), Kind: Query, Params: []Param{p(0, Handle), p(1, Dest), p(2, SQL), p(3, Binds)}, ErrNoRow: true},
		{Func: fn(sqlxPkg, "GetContext"), Kind: Query, Params: []Param{p(1, Handle), p(2, Dest), p(3, SQL), p(4, Binds)}, ErrNoRow: true},
		{Func: fn(sqlxPkg, "Select"), Kind: Query, Params: []Param{p(0, Handle), p(1, Dest), p(2, SQL), p(3, Binds)}},
		{Func: fn(sqlxPkg, "SelectContext"), Kind: Query, Params: []Param{p(1, Handle), p(2, Dest), p(3, SQL), p(4, Binds)}},
		{Func: fn(sqlxPkg, "MustExec"), Kind: Exec, Params: []Param{p(0, Handle), p(1, SQL), p(2, Binds)}, Result: ExecResult},
		{Func: fn(sqlxPkg, "MustExecContext"), Kind: Exec, Params: []Param{p(1, Handle), p(2, SQL), p(3, Binds)}, Result: ExecResult},
		{Func: fn(sqlxPkg, "NamedExec"), Kind: Exec, Params: []Param{p(0, Handle), p(1, SQL), p(2, NamedBinds)}, Result: ExecResult},
		{Func: fn(sqlxPkg, "NamedExecContext"), Kind: Exec, Params: []Param{p(1, Handle), p(2, SQL), p(3, NamedBinds)}, Result: ExecResult},
		{Func: method(sqlxPkg, "Queryer", "Queryx"), Kind: Query, Params: []Param{p(0, SQL), p(1, Binds)}, Result: RowsResult},
		{Func: method(sqlxPkg, "Queryer", "QueryRowx"), Kind: Query, Params: []Param{p(0, SQL), p(1, Binds)}, Result: RowResult},
		{Func: method(sqlxPkg, "QueryerContext", "QueryxContext"), Kind: Query, Params: []Param{p(1, SQL), p(2, Binds)}, Result: RowsResult},
		{Func: method(sqlxPkg, "QueryerContext", "QueryRowxContext"), Kind: Query, Params: []Param{p(1, SQL), p(2, Binds)}, Result: RowResult},
		{Func: method(sqlxPkg, "ExecerContext", "ExecContext"), Kind: Exec, Params: []Param{p(1, SQL), p(2, Binds)}, Result: ExecResult},
		{Func: method(sqlxPkg, "Execer", "Exec"), Kind: Exec, Params: []Param{p(0, SQL), p(1, Binds)}, Result: ExecResult},
	},
}
