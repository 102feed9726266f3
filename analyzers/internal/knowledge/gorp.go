package knowledge

const gorpPkg = "github.com/go-gorp/gorp/v3"

// gorp is go-gorp/gorp v3: SQL text for reads, structs for writes. *DbMap
// (outside any transaction) and *Transaction (DbMap.Begin's) have the same
// methods, which services call through the SqlExecutor interface both
// implement (invokes keyed by SqlExecutor; UpdateColumns, Begin, Prepare
// and the transaction's own calls are not in it). The SQL calls hand their
// text and binds to database/sql unchanged, except that a single struct or
// map argument is expanded as named parameters (:Name); the struct calls
// (Insert, Update, Delete, Get) build their SQL from the table registered
// for the struct's type (AddTableWithName(T{}, "t").SetKeys(...)), which
// the dialect reads. gorp has no callback transaction helper and no
// sentinel of its own: SelectOne returns sql.ErrNoRows.
var gorp = library{
	name: "gorp",
	pkgs: []string{gorpPkg},
	types: []Type{
		{Pkg: gorpPkg, Name: "DbMap", Role: DBHandle},
		{Pkg: gorpPkg, Name: "Transaction", Role: TxHandle},
		// Either of the two, as the service's field declares it.
		{Pkg: gorpPkg, Name: "SqlExecutor", Role: EitherHandle},
	},
	calls: gorpCalls(),
}

func gorpCalls() []Call {
	var calls []Call
	for _, recv := range []string{"DbMap", "Transaction", "SqlExecutor"} {
		m := func(name string) Func { return method(gorpPkg, recv, name) }
		calls = append(calls,
			// WithContext returns a copy running its statements with ctx.
			Call{Func: m("WithContext"), Kind: Chain, Result: ChainResult},
			// SelectOne(holder, query, args...) scans one row into holder (a
			// struct by column name, or one value) and returns sql.ErrNoRows
			// when no row matched (select.go SelectOne, selectVal).
			Call{Func: m("SelectOne"), Kind: Query, Params: []Param{p(0, Dest), p(1, SQL), p(2, Binds)}, ErrNoRow: true},
			// Select appends every row to *[]T, or returns them.
			Call{Func: m("Select"), Kind: Query, Params: []Param{p(0, Dest), p(1, SQL), p(2, Binds)}},
			// SelectInt and the others return the first column of the first
			// row, the zero value (0, "", an invalid Null*) with a nil error
			// when no row matched.
			Call{Func: m("SelectInt"), Kind: Query, Params: []Param{p(0, SQL), p(1, Binds)}, Result: ScalarResult},
			Call{Func: m("SelectNullInt"), Kind: Query, Params: []Param{p(0, SQL), p(1, Binds)}, Result: ScalarResult},
			Call{Func: m("SelectFloat"), Kind: Query, Params: []Param{p(0, SQL), p(1, Binds)}, Result: ScalarResult},
			Call{Func: m("SelectNullFloat"), Kind: Query, Params: []Param{p(0, SQL), p(1, Binds)}, Result: ScalarResult},
			Call{Func: m("SelectStr"), Kind: Query, Params: []Param{p(0, SQL), p(1, Binds)}, Result: ScalarResult},
			Call{Func: m("SelectNullStr"), Kind: Query, Params: []Param{p(0, SQL), p(1, Binds)}, Result: ScalarResult},
			Call{Func: m("Query"), Kind: Query, Params: []Param{p(0, SQL), p(1, Binds)}, Result: RowsResult},
			Call{Func: m("QueryRow"), Kind: Query, Params: []Param{p(0, SQL), p(1, Binds)}, Result: RowResult},
			Call{Func: m("Exec"), Kind: Exec, Params: []Param{p(0, SQL), p(1, Binds)}, Result: ExecResult},
			// Get(T{}, keys...) reads the row of T's table whose primary key
			// columns equal keys (in SetKeys order) into a new *T, returned
			// as interface{}; (nil, nil) when no row matched (gorp.go get).
			Call{Func: m("Get"), Kind: Find, Params: []Param{p(0, Model), p(1, Binds)}},
			// Insert(list...): an INSERT of every column of each pointed-to
			// struct, with no conflict clause; an autoincrement key is read
			// back into the struct.
			Call{Func: m("Insert"), Kind: Insert, Params: []Param{p(0, Model)}},
			// Update(list...): UPDATE t SET every column = the struct's WHERE
			// key = the struct's; with a version column (SetVersionCol) also
			// AND version = the struct's, setting it to version+1 and
			// returning OptimisticLockError when no row matched. The count
			// is result 0.
			Call{Func: m("Update"), Kind: Update, Params: []Param{p(0, Model)}},
			// Delete(list...): DELETE by key (and version).
			Call{Func: m("Delete"), Kind: Delete, Params: []Param{p(0, Model)}},
		)
	}
	for _, recv := range []string{"DbMap", "Transaction"} {
		m := func(name string) Func { return method(gorpPkg, recv, name) }
		calls = append(calls,
			// UpdateColumns(filter, list...): Update of the columns filter
			// accepts.
			Call{Func: m("UpdateColumns"), Kind: Update, Params: []Param{p(1, Model)}},
			Call{Func: m("Prepare"), Kind: Prepare, Params: []Param{p(0, SQL)}, Result: StmtResult},
		)
	}
	// Package functions over a SqlExecutor, which the methods call.
	for _, name := range []string{"SelectInt", "SelectNullInt", "SelectFloat", "SelectNullFloat", "SelectStr", "SelectNullStr"} {
		calls = append(calls, Call{Func: fn(gorpPkg, name), Kind: Query, Params: []Param{p(0, Handle), p(1, SQL), p(2, Binds)}, Result: ScalarResult})
	}
	return append(calls,
		// SelectOne(m, e, holder, query, args...): e runs it.
		Call{Func: fn(gorpPkg, "SelectOne"), Kind: Query, Params: []Param{p(1, Handle), p(2, Dest), p(3, SQL), p(4, Binds)}, ErrNoRow: true},

		// Transactions: Begin on the DbMap (BEGIN, with the DbMap's
		// context when WithContext gave one); the Transaction's Commit and
		// Rollback; savepoints inside it, by name.
		Call{Func: method(gorpPkg, "DbMap", "Begin"), Kind: Begin, Result: TxResult},
		Call{Func: method(gorpPkg, "Transaction", "Commit"), Kind: Commit},
		Call{Func: method(gorpPkg, "Transaction", "Rollback"), Kind: Rollback},
		Call{Func: method(gorpPkg, "Transaction", "Savepoint"), Kind: Savepoint},
		Call{Func: method(gorpPkg, "Transaction", "RollbackToSavepoint"), Kind: Savepoint},
		Call{Func: method(gorpPkg, "Transaction", "ReleaseSavepoint"), Kind: Savepoint},
	)
}
