package knowledge

// ent (entgo.io/ent v0.14.5) comes in two parts.
//
// The runtime, entgo.io/ent/..., is a library like any other: the rows of
// entRuntime below. The generated code calls it: sqlgraph's QueryNodes,
// CountNodes, CreateNode, BatchCreate, UpdateNode, UpdateNodes and
// DeleteNodes run the statements, and the sql package's builders add
// FOR UPDATE, ON CONFLICT and SET col = col + v. The table a sqlgraph call
// works on is in its spec: the generated code builds it with
// sqlgraph.NewQuerySpec(account.Table, ...), NewCreateSpec(account.Table,
// ...), NewUpdateSpec(account.Table, ...) or NewDeleteSpec(account.Table,
// ...), whose first argument is, after constant folding, the string
// constant "accounts" in SSA; the spec is the third argument of the
// sqlgraph call. Those constructors have no row: what the generated
// builders do is read from their shape instead (EntCall), not from their
// bodies, which run through interceptors, hooks and generic helpers.
//
// The generated code lives in the user's module, under the user's import
// path (example.com/app/ent), so it has no rows. EntPackage recognises the
// package by what it declares, and EntCall says what a method or function
// of it does: a *Call like a row's (Kind, Params, Result, Meaning) and an
// *EntInfo with the rest (the entity's table, the column a setter writes,
// the lock or conflict clause a step adds).
//
// How ent calls appear in SSA: every builder method is a static call on a
// pointer receiver of a generated type, and a chain is a sequence of calls
// each taking the previous one's result as its receiver:
//
//	t1 = (*ent.AccountClient).UpdateOneID(t0, id)
//	t2 = account.Version(v)                         // predicate.Account
//	t3 = (*ent.AccountUpdateOne).Where(t1, [t2]...)
//	t4 = (*ent.AccountUpdateOne).AddCounter(t3, 1)
//	t5 = (*ent.AccountUpdateOne).Save(t4, ctx)
//
// The entity client comes from a field of the Client or of the Tx
// (client.Account, tx.Account: a FieldAddr and a load, not a call), so a
// chain started from a Tx's field runs in that transaction. The finishers
// of a select or group-by (Strings, Ints, ...) are promoted from the
// embedded generated *selector, so they are promoted calls whose receiver
// type is selector.

const (
	entPkg        = "entgo.io/ent"
	entDialectPkg = "entgo.io/ent/dialect"
	entSQLPkg     = "entgo.io/ent/dialect/sql"
	sqlgraphPkg   = "entgo.io/ent/dialect/sql/sqlgraph"
)

// entRuntime is ent's runtime. Its builder rows are what ent's features
// sql/lock, sql/upsert and sql/modifier compile to, and what a user writes
// in a Modify(func(s *sql.Selector)) or an OnConflict(sql.ResolveWith(...)).
var entRuntime = library{
	name: "ent",
	pkgs: []string{entPkg},
	types: []Type{
		// sql.Tx{dialect.ExecQuerier; driver.Tx} is what (*sql.Driver).Tx
		// returns, as a dialect.Tx.
		{Pkg: entSQLPkg, Name: "Tx", Role: TxHandle},
		{Pkg: entSQLPkg, Name: "Driver", Role: DBHandle},
		{Pkg: entDialectPkg, Name: "Tx", Role: TxHandle},
		// The generated client's driver is a dialect.Driver that is the
		// generated txDriver inside a transaction.
		{Pkg: entDialectPkg, Name: "Driver", Role: EitherHandle},
	},
	calls: []Call{
		// The statements, on a driver (a transaction's txDriver or not)
		// and a spec whose Table the generated code sets (see above).
		{Func: fn(sqlgraphPkg, "QueryNodes"), Kind: Find},
		{Func: fn(sqlgraphPkg, "CountNodes"), Kind: Find},
		{Func: fn(sqlgraphPkg, "CreateNode"), Kind: Insert},
		{Func: fn(sqlgraphPkg, "BatchCreate"), Kind: Insert},
		// UpdateNode opens a transaction of its own on a driver outside
		// one, updates, then reads the row back; a miss is a
		// *sqlgraph.NotFoundError. UpdateNodes returns the affected count.
		{Func: fn(sqlgraphPkg, "UpdateNode"), Kind: Update},
		{Func: fn(sqlgraphPkg, "UpdateNodes"), Kind: Update},
		{Func: fn(sqlgraphPkg, "DeleteNodes"), Kind: Delete},
		// String matching on the driver's message: "Error 1062" (MySQL),
		// "violates unique constraint" (PostgreSQL), "UNIQUE constraint
		// failed" (SQLite). IsConstraintError is any constraint (unique,
		// foreign key, check) or a *sqlgraph.ConstraintError.
		{Func: fn(sqlgraphPkg, "IsUniqueConstraintError"), Kind: ErrorCheck, Params: []Param{p(0, ErrArg)}, Meaning: UniqueViolation},
		{Func: fn(sqlgraphPkg, "IsConstraintError"), Kind: ErrorCheck, Params: []Param{p(0, ErrArg)}, Meaning: UniqueViolation},

		// Row locks (feature sql/lock compiles ForUpdate and ForShare to
		// these): For's strength is sql.LockUpdate ("UPDATE"), LockShare,
		// LockNoKeyUpdate or LockKeyShare; the options are
		// sql.WithLockAction(sql.NoWait or sql.SkipLocked) and
		// sql.WithLockTables.
		{Func: method(entSQLPkg, "Selector", "ForUpdate"), Kind: LockStep, Params: []Param{p(0, Clauses)}, Result: ChainResult},
		{Func: method(entSQLPkg, "Selector", "ForShare"), Kind: LockStep, Params: []Param{p(0, Clauses)}, Result: ChainResult},
		{Func: method(entSQLPkg, "Selector", "For"), Kind: LockStep, Params: []Param{p(1, Clauses)}, Result: ChainResult},

		// ON CONFLICT (feature sql/upsert): options for
		// (*InsertBuilder).OnConflict and the generated OnConflict.
		{Func: method(entSQLPkg, "InsertBuilder", "OnConflict"), Kind: ConflictStep, Params: []Param{p(0, Clauses)}, Result: ChainResult},
		{Func: fn(entSQLPkg, "ConflictColumns"), Kind: ConflictStep, Params: []Param{p(0, Column)}},
		{Func: fn(entSQLPkg, "ConflictConstraint"), Kind: ConflictStep},
		{Func: fn(entSQLPkg, "ConflictWhere"), Kind: ConflictStep, Params: []Param{p(0, Cond)}},
		{Func: fn(entSQLPkg, "UpdateWhere"), Kind: ConflictStep, Params: []Param{p(0, Cond)}},
		{Func: fn(entSQLPkg, "DoNothing"), Kind: ConflictStep},
		// DO UPDATE SET c = c for the conflict columns: a no-op update that
		// makes RETURNING yield the existing row.
		{Func: fn(entSQLPkg, "ResolveWithIgnore"), Kind: ConflictStep},
		// DO UPDATE SET c = excluded.c for every inserted column.
		{Func: fn(entSQLPkg, "ResolveWithNewValues"), Kind: ConflictStep},
		{Func: fn(entSQLPkg, "ResolveWith"), Kind: ConflictStep, Params: []Param{p(0, Callback)}},
		// The DO UPDATE SET list ResolveWith's func builds.
		{Func: method(entSQLPkg, "UpdateSet", "Set"), Kind: SetStep, Params: []Param{p(0, Column), p(1, Value)}, Result: ChainResult},
		{Func: method(entSQLPkg, "UpdateSet", "Add"), Kind: AddStep, Params: []Param{p(0, Column), p(1, Value)}, Result: ChainResult},
		{Func: method(entSQLPkg, "UpdateSet", "SetExcluded"), Kind: SetStep, Params: []Param{p(0, Column)}, Result: ChainResult},
		{Func: method(entSQLPkg, "UpdateSet", "SetIgnore"), Kind: SetStep, Params: []Param{p(0, Column)}, Result: ChainResult},
		{Func: method(entSQLPkg, "UpdateSet", "SetNull"), Kind: SetStep, Params: []Param{p(0, Column)}, Result: ChainResult},

		// UPDATE's SET list (the generated SetX and AddX compile to these;
		// feature sql/modifier's Modify hands the builder to user code).
		// Add writes c = COALESCE(c, 0) + v: atomic.
		{Func: method(entSQLPkg, "UpdateBuilder", "Set"), Kind: SetStep, Params: []Param{p(0, Column), p(1, Value)}, Result: ChainResult},
		{Func: method(entSQLPkg, "UpdateBuilder", "Add"), Kind: AddStep, Params: []Param{p(0, Column), p(1, Value)}, Result: ChainResult},
		{Func: method(entSQLPkg, "UpdateBuilder", "SetNull"), Kind: SetStep, Params: []Param{p(0, Column)}, Result: ChainResult},

		// Transactions. The generated (*Client).Tx calls the driver's Tx
		// through the dialect.Driver interface; (*Client).BeginTx calls
		// BeginTx through an anonymous interface (no row can name it).
		// Both are *sql.Driver's methods when the client was opened with
		// ent.Open or sql.Open.
		{Func: method(entSQLPkg, "Driver", "Tx"), Kind: Begin, Result: TxResult},
		{Func: method(entSQLPkg, "Driver", "BeginTx"), Kind: Begin, Params: []Param{p(1, TxOptions)}, Result: TxResult},
		{Func: method(entDialectPkg, "Driver", "Tx"), Kind: Begin, Result: TxResult},
		// dialect.Tx embeds database/sql/driver.Tx, which declares these:
		// tx.Commit() on what (*sql.Driver).Tx or dialect.Driver's Tx
		// returned is an invoke of driver.Tx's method.
		{Func: method("database/sql/driver", "Tx", "Commit"), Kind: Commit},
		{Func: method("database/sql/driver", "Tx", "Rollback"), Kind: Rollback},

		// Raw SQL on a driver or transaction: args is an []any of binds, v
		// the *sql.Result or *sql.Rows to fill. *sql.Driver's are promoted
		// from its embedded sql.Conn.
		{Func: method(entSQLPkg, "Conn", "Exec"), Kind: Exec, Params: []Param{p(1, SQL), p(2, Binds)}},
		{Func: method(entSQLPkg, "Conn", "Query"), Kind: Query, Params: []Param{p(1, SQL), p(2, Binds)}},
		{Func: method(entDialectPkg, "ExecQuerier", "Exec"), Kind: Exec, Params: []Param{p(1, SQL), p(2, Binds)}},
		{Func: method(entDialectPkg, "ExecQuerier", "Query"), Kind: Query, Params: []Param{p(1, SQL), p(2, Binds)}},
	},
}
