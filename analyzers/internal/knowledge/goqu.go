package knowledge

const (
	goquPkg     = "github.com/doug-martin/goqu/v9"
	goquExecPkg = "github.com/doug-martin/goqu/v9/exec"
)

// goqu is doug-martin/goqu v9, a query builder with an executor of its
// own. Its datasets' ToSQL give the text and the binds to database/sql's
// calls, whose rows say what they do; a dataset made from a
// *goqu.Database or *goqu.TxDatabase (db.From, tx.Update...) runs its SQL
// itself through the finishers below, on the handle the chain started
// from. Both are read by goqu's dialect (ops.Library BuildSQL and Runner).
// The executor wraps database/sql: the not-found answer of ScanStruct and
// ScanVal is their bool result (false with a nil error: exec
// query_executor.go ScanStructContext), never sql.ErrNoRows.
var goqu = library{
	name: "goqu",
	pkgs: []string{goquPkg},
	types: []Type{
		{Pkg: goquPkg, Name: "Database", Role: DBHandle},
		{Pkg: goquPkg, Name: "TxDatabase", Role: TxHandle},
	},
	calls: append(append(goquHandleCalls("Database"), goquHandleCalls("TxDatabase")...),
		goquFinishers()...),
}

// goquHandleCalls are the SQL-text calls of *goqu.Database and
// *goqu.TxDatabase (database.go), which trace the query and hand it to
// the wrapped *sql.DB or *sql.Tx unchanged, and their transaction calls.
func goquHandleCalls(recv string) []Call {
	m := func(name string) Func { return method(goquPkg, recv, name) }
	calls := []Call{
		{Func: m("Exec"), Kind: Exec, Params: []Param{p(0, SQL), p(1, Binds)}, Result: ExecResult},
		{Func: m("ExecContext"), Kind: Exec, Params: []Param{p(1, SQL), p(2, Binds)}, Result: ExecResult},
		{Func: m("Query"), Kind: Query, Params: []Param{p(0, SQL), p(1, Binds)}, Result: RowsResult},
		{Func: m("QueryContext"), Kind: Query, Params: []Param{p(1, SQL), p(2, Binds)}, Result: RowsResult},
		{Func: m("QueryRow"), Kind: Query, Params: []Param{p(0, SQL), p(1, Binds)}, Result: RowResult},
		{Func: m("QueryRowContext"), Kind: Query, Params: []Param{p(1, SQL), p(2, Binds)}, Result: RowResult},
		{Func: m("Prepare"), Kind: Prepare, Params: []Param{p(0, SQL)}, Result: StmtResult},
		{Func: m("PrepareContext"), Kind: Prepare, Params: []Param{p(1, SQL)}, Result: StmtResult},
		// ScanStruct(&v, query, args...) scans the first row into v by
		// column name and returns (false, nil) when no row matched; the
		// bool, result 0, is the answer, as a count is (ScalarResult).
		{Func: m("ScanStruct"), Kind: Query, Params: []Param{p(0, Dest), p(1, SQL), p(2, Binds)}, Result: ScalarResult},
		{Func: m("ScanStructContext"), Kind: Query, Params: []Param{p(1, Dest), p(2, SQL), p(3, Binds)}, Result: ScalarResult},
		{Func: m("ScanVal"), Kind: Query, Params: []Param{p(0, Dest), p(1, SQL), p(2, Binds)}, Result: ScalarResult},
		{Func: m("ScanValContext"), Kind: Query, Params: []Param{p(1, Dest), p(2, SQL), p(3, Binds)}, Result: ScalarResult},
		{Func: m("ScanStructs"), Kind: Query, Params: []Param{p(0, Dest), p(1, SQL), p(2, Binds)}},
		{Func: m("ScanStructsContext"), Kind: Query, Params: []Param{p(1, Dest), p(2, SQL), p(3, Binds)}},
		{Func: m("ScanVals"), Kind: Query, Params: []Param{p(0, Dest), p(1, SQL), p(2, Binds)}},
		{Func: m("ScanValsContext"), Kind: Query, Params: []Param{p(1, Dest), p(2, SQL), p(3, Binds)}},
	}
	if recv == "Database" {
		return append(calls,
			Call{Func: m("Begin"), Kind: Begin, Result: TxResult},
			Call{Func: m("BeginTx"), Kind: Begin, Params: []Param{p(1, TxOptions)}, Result: TxResult},
			// WithTx(fn) begins, runs fn(tx) and commits when it returns
			// nil, else rolls back (TxDatabase.Wrap).
			Call{Func: m("WithTx"), Kind: TxFunc, Params: []Param{p(0, Callback)}, CallbackTx: 0},
		)
	}
	return append(calls,
		Call{Func: m("Commit"), Kind: Commit},
		Call{Func: m("Rollback"), Kind: Rollback},
	)
}

// goquFinishers run the SQL their receiver built, on the handle of the
// Database or TxDatabase it came from: the SelectDataset's scans (which
// add LIMIT 1 for ScanStruct and ScanVal, and select the struct's
// columns when the chain selects none) and Count, and the QueryExecutor
// that Executor() returns for every dataset (an INSERT, UPDATE or DELETE
// runs only through it).
func goquFinishers() []Call {
	scans := func(recv, pkg string) []Call {
		m := func(name string) Func { return method(pkg, recv, name) }
		return []Call{
			{Func: m("ScanStruct"), Kind: Query, Params: []Param{p(0, Dest)}, Result: ScalarResult},
			{Func: m("ScanStructContext"), Kind: Query, Params: []Param{p(1, Dest)}, Result: ScalarResult},
			{Func: m("ScanVal"), Kind: Query, Params: []Param{p(0, Dest)}, Result: ScalarResult},
			{Func: m("ScanValContext"), Kind: Query, Params: []Param{p(1, Dest)}, Result: ScalarResult},
			{Func: m("ScanStructs"), Kind: Query, Params: []Param{p(0, Dest)}},
			{Func: m("ScanStructsContext"), Kind: Query, Params: []Param{p(1, Dest)}},
			{Func: m("ScanVals"), Kind: Query, Params: []Param{p(0, Dest)}},
			{Func: m("ScanValsContext"), Kind: Query, Params: []Param{p(1, Dest)}},
		}
	}
	calls := append(scans("SelectDataset", goquPkg),
		// Count runs SELECT COUNT(*) with the dataset's WHERE: 0 when no
		// row matched.
		Call{Func: method(goquPkg, "SelectDataset", "Count"), Kind: Query, Result: ScalarResult},
		Call{Func: method(goquPkg, "SelectDataset", "CountContext"), Kind: Query, Result: ScalarResult},
		Call{Func: method(goquPkg, "SelectDataset", "Pluck"), Kind: Query, Params: []Param{p(0, Dest)}},
		Call{Func: method(goquPkg, "SelectDataset", "PluckContext"), Kind: Query, Params: []Param{p(1, Dest)}},
	)
	e := func(name string) Func { return method(goquExecPkg, "QueryExecutor", name) }
	return append(append(calls, scans("QueryExecutor", goquExecPkg)...),
		Call{Func: e("Exec"), Kind: Exec, Result: ExecResult},
		Call{Func: e("ExecContext"), Kind: Exec, Result: ExecResult},
		Call{Func: e("Query"), Kind: Query, Result: RowsResult},
		Call{Func: e("QueryContext"), Kind: Query, Result: RowsResult},
	)
}
