package knowledge

const (
	gopgPkg    = "github.com/go-pg/pg/v10"
	gopgORMPkg = "github.com/go-pg/pg/v10/orm"
)

// gopg is go-pg v10 (bun's predecessor). *pg.DB embeds the unexported
// *baseDB, which declares its Model, Exec, Query, Begin and
// RunInTransaction: on a *pg.DB they are promoted, so their rows are
// baseDB's. *pg.Tx declares its own. Services hold orm.DB or pg.DBI, both
// implemented by *pg.DB and *pg.Tx, whose calls are invokes. Model(...)
// starts an *orm.Query (pg.Query is an alias), one type for every
// statement: its steps mutate and return the receiver, and the finisher
// (Select, Insert, Update, Delete...) decides the statement. A single
// struct model that Select finds nothing for returns pg.ErrNoRows
// (orm/query.go: Select runs QueryOne for a struct model, which asserts
// one row).
var gopg = library{
	name: "gopg",
	pkgs: []string{gopgPkg}, // with orm beneath it
	types: []Type{
		{Pkg: gopgPkg, Name: "Tx", Role: TxHandle},
		{Pkg: gopgPkg, Name: "DB", Role: DBHandle},
		// The receiver of *pg.DB's promoted methods: db.Model(m) passes
		// the DB's embedded *baseDB, which only a *pg.DB holds.
		{Pkg: gopgPkg, Name: "baseDB", Role: DBHandle},
		// DBI and orm.DB are implemented by *pg.DB and *pg.Tx.
		{Pkg: gopgPkg, Name: "DBI", Role: EitherHandle},
		{Pkg: gopgORMPkg, Name: "DB", Role: EitherHandle},
		// pg.Error is an interface (implemented by internal.PGError, which
		// no program can name): errors.As(err, &pgErr) with var pgErr
		// pg.Error, then pgErr.IntegrityViolation() or pgErr.Field('C').
		{Pkg: gopgPkg, Name: "Error", Role: DBError, CodeField: ""},
	},
	sentinels: []Sentinel{
		// pg.ErrNoRows is internal.ErrNoRows: QueryOne, ExecOne and a
		// single model's Select return it when no row matched.
		{Pkg: gopgPkg, Name: "ErrNoRows", Meaning: NotFound},
	},
	calls: gopgCalls(),
}

func gopgCalls() []Call {
	var calls []Call
	// Every handle: *pg.DB (baseDB's promoted methods), *pg.Tx, and the
	// pg.DBI and orm.DB interfaces. Exec and Query take the SQL as an
	// interface{} with ? binds; Query and QueryOne scan into their model
	// (a struct, a slice, or pg.Scan(&a, &b)). QueryOne and ExecOne
	// return pg.ErrNoRows when no row was returned or affected
	// (base.go queryOne, execOne: internal.AssertOneRow).
	handles := []struct {
		pkg, recv string
	}{{gopgPkg, "baseDB"}, {gopgPkg, "Tx"}, {gopgPkg, "DBI"}, {gopgORMPkg, "DB"}}
	for _, h := range handles {
		m := func(name string) Func { return method(h.pkg, h.recv, name) }
		calls = append(calls,
			Call{Func: m("Model"), Kind: Chain, Params: []Param{p(0, Model)}, Result: ChainResult},
			Call{Func: m("ModelContext"), Kind: Chain, Params: []Param{p(1, Model)}, Result: ChainResult},
			Call{Func: m("Exec"), Kind: Exec, Params: []Param{p(0, SQL), p(1, Binds)}, Result: ExecResult},
			Call{Func: m("ExecContext"), Kind: Exec, Params: []Param{p(1, SQL), p(2, Binds)}, Result: ExecResult},
			Call{Func: m("ExecOne"), Kind: Exec, Params: []Param{p(0, SQL), p(1, Binds)}, Result: ExecResult},
			Call{Func: m("ExecOneContext"), Kind: Exec, Params: []Param{p(1, SQL), p(2, Binds)}, Result: ExecResult},
			Call{Func: m("Query"), Kind: Query, Params: []Param{p(0, Dest), p(1, SQL), p(2, Binds)}},
			Call{Func: m("QueryContext"), Kind: Query, Params: []Param{p(1, Dest), p(2, SQL), p(3, Binds)}},
			Call{Func: m("QueryOne"), Kind: Query, Params: []Param{p(0, Dest), p(1, SQL), p(2, Binds)}},
			Call{Func: m("QueryOneContext"), Kind: Query, Params: []Param{p(1, Dest), p(2, SQL), p(3, Binds)}},
		)
	}

	tx := func(name string) Func { return method(gopgPkg, "Tx", name) }
	q := func(name string) Func { return method(gopgORMPkg, "Query", name) }
	return append(calls,
		// Transactions (tx.go). RunInTransaction(ctx, fn func(*Tx) error)
		// begins, runs fn with the transaction, rolls back when fn returns
		// an error and commits otherwise.
		Call{Func: method(gopgPkg, "baseDB", "Begin"), Kind: Begin, Result: TxResult},
		Call{Func: method(gopgPkg, "baseDB", "BeginContext"), Kind: Begin, Result: TxResult},
		Call{Func: method(gopgPkg, "baseDB", "RunInTransaction"), Kind: TxFunc, Params: []Param{p(1, Callback)}, CallbackTx: 0},
		Call{Func: method(gopgPkg, "DBI", "Begin"), Kind: Begin, Result: TxResult},
		Call{Func: method(gopgPkg, "DBI", "RunInTransaction"), Kind: TxFunc, Params: []Param{p(1, Callback)}, CallbackTx: 0},
		// Tx.Begin "does not start new transaction": it returns the
		// receiver. Tx.RunInTransaction runs fn in the same transaction
		// (no savepoint) and then commits or rolls it back: it ends the
		// receiver as a TxFunc ends the transaction it began.
		Call{Func: tx("Begin"), Kind: Chain, Result: ChainResult},
		Call{Func: tx("RunInTransaction"), Kind: TxFunc, Params: []Param{p(1, Callback)}, CallbackTx: 0},
		Call{Func: tx("Commit"), Kind: Commit},
		Call{Func: tx("CommitContext"), Kind: Commit},
		Call{Func: tx("Rollback"), Kind: Rollback},
		Call{Func: tx("RollbackContext"), Kind: Rollback},
		// Close rolls back a transaction not yet committed or rolled back
		// (defer tx.Close() is the documented idiom).
		Call{Func: tx("Close"), Kind: Rollback},

		// *orm.Query steps. Where's condition is an SQL fragment with ?
		// binds (on an insert with OnConflict("... DO UPDATE"), the WHERE
		// of the update branch); WherePK adds WHERE pk = the model's.
		// DB(db) runs the query on db instead of the handle that made it.
		Call{Func: q("Model"), Kind: Chain, Params: []Param{p(0, Model)}, Result: ChainResult},
		Call{Func: q("Context"), Kind: Chain, Result: ChainResult},
		Call{Func: q("DB"), Kind: Chain, Params: []Param{p(0, Handle)}, Result: ChainResult},
		Call{Func: q("Table"), Kind: Chain, Result: ChainResult},
		Call{Func: q("Column"), Kind: Chain, Params: []Param{p(0, Column)}, Result: ChainResult},
		Call{Func: q("ColumnExpr"), Kind: Chain, Params: []Param{p(0, SQL), p(1, Binds)}, Result: ChainResult},
		Call{Func: q("ExcludeColumn"), Kind: Chain, Params: []Param{p(0, Column)}, Result: ChainResult},
		Call{Func: q("Relation"), Kind: Chain, Result: ChainResult},
		Call{Func: q("Join"), Kind: Chain, Params: []Param{p(0, SQL), p(1, Binds)}, Result: ChainResult},
		Call{Func: q("Where"), Kind: Chain, Params: []Param{p(0, Cond), p(1, Binds)}, Result: ChainResult},
		Call{Func: q("WhereOr"), Kind: Chain, Params: []Param{p(0, Cond), p(1, Binds)}, Result: ChainResult},
		// WhereIn(cond, slice) is Where(cond, pg.In(slice)).
		Call{Func: q("WhereIn"), Kind: Chain, Params: []Param{p(0, Cond)}, Result: ChainResult},
		Call{Func: q("WherePK"), Kind: Chain, Result: ChainResult},
		Call{Func: q("WhereGroup"), Kind: Chain, Result: ChainResult},
		Call{Func: q("Group"), Kind: Chain, Result: ChainResult},
		Call{Func: q("Order"), Kind: Chain, Result: ChainResult},
		Call{Func: q("OrderExpr"), Kind: Chain, Params: []Param{p(0, SQL), p(1, Binds)}, Result: ChainResult},
		Call{Func: q("Limit"), Kind: Chain, Result: ChainResult},
		Call{Func: q("Offset"), Kind: Chain, Result: ChainResult},
		Call{Func: q("Apply"), Kind: Chain, Result: ChainResult},
		// Returning("id"): with it a struct model's Insert, Update and
		// Delete run QueryOne, so nothing returned is pg.ErrNoRows.
		Call{Func: q("Returning"), Kind: Chain, Params: []Param{p(0, SQL), p(1, Binds)}, Result: ChainResult},
		// For("UPDATE"), For("UPDATE SKIP LOCKED"): the text after FOR.
		Call{Func: q("For"), Kind: LockStep, Params: []Param{p(0, SQL), p(1, Binds)}, Result: ChainResult},
		// OnConflict("(email) DO NOTHING"): the text after ON CONFLICT;
		// "... DO UPDATE" takes Set's assignments (or every data column
		// from EXCLUDED) for its update branch.
		Call{Func: q("OnConflict"), Kind: ConflictStep, Params: []Param{p(0, SQL), p(1, Binds)}, Result: ChainResult},
		// Set("balance = balance + ?", d): Update's SET list instead of the
		// model's columns (and the DO UPDATE branch's of an insert).
		Call{Func: q("Set"), Kind: SetStep, Params: []Param{p(0, SQL), p(1, Binds)}, Result: ChainResult},
		// Value(column, expr, args...) writes an SQL expression instead of
		// the model's value of column.
		Call{Func: q("Value"), Kind: SetStep, Params: []Param{p(0, Column), p(1, SQL), p(2, Binds)}, Result: ChainResult},

		// Finishers. Values passed to them are scanned into instead of the
		// model. Select, First and Last of a struct model return pg.ErrNoRows
		// when no row matched; of a slice they do not. SelectAndCount runs
		// Select and Count in two goroutines.
		Call{Func: q("Select"), Kind: Find, Params: []Param{p(0, Dest)}},
		Call{Func: q("SelectAndCount"), Kind: Find, Params: []Param{p(0, Dest)}},
		Call{Func: q("First"), Kind: Find},
		Call{Func: q("Last"), Kind: Find},
		Call{Func: q("Count"), Kind: Find},
		Call{Func: q("Exists"), Kind: Find},
		// Insert writes the model's columns (RETURNING the ones the
		// database fills). Without Returning it runs Query, not QueryOne:
		// an OnConflict("... DO NOTHING") that skips the row returns a
		// nil error and RowsAffected() == 0.
		Call{Func: q("Insert"), Kind: Insert, Params: []Param{p(0, Dest)}, Result: ExecResult},
		// SelectOrInsert(values...) selects, inserts when nothing matched,
		// and on an integrity violation of the insert selects again (up to
		// five tries, query.go): the unique key decides, as in the fix
		// checkinsert gives.
		Call{Func: q("SelectOrInsert"), Kind: FirstOrCreate, Params: []Param{p(0, Dest)}},
		// Update writes Set's assignments, or else the model's Column(...)
		// columns, or else all its data columns; it requires a Where or
		// WherePK step ("pg: Update and Delete queries require Where
		// clause"). UpdateNotZero omits the model's zero fields.
		Call{Func: q("Update"), Kind: Update, Params: []Param{p(0, Dest)}, Result: ExecResult},
		Call{Func: q("UpdateNotZero"), Kind: Update, Params: []Param{p(0, Dest)}, Result: ExecResult},
		// Delete is a soft delete (an Update of the soft_delete column) when
		// the model has one; ForceDelete deletes.
		Call{Func: q("Delete"), Kind: Delete, Params: []Param{p(0, Dest)}, Result: ExecResult},
		Call{Func: q("ForceDelete"), Kind: Delete, Params: []Param{p(0, Dest)}, Result: ExecResult},

		// Results and errors. pg.Result is orm.Result.
		Call{Func: method(gopgORMPkg, "Result", "RowsAffected"), Kind: RowsAffected},
		// pg.Error's IntegrityViolation reports SQLSTATE class 23 (the
		// unique violation among them); Field('C') is the SQLSTATE.
		Call{Func: method(gopgPkg, "Error", "IntegrityViolation"), Kind: ErrorCheck, Meaning: UniqueViolation},
		Call{Func: method(gopgPkg, "Error", "Field"), Kind: ErrorCode, Params: []Param{p(0, Key)}},
	)
}
