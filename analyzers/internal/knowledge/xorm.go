package knowledge

const (
	xormPkg        = "xorm.io/xorm"
	xormBuilderPkg = "xorm.io/builder"
)

// xorm is xorm.io/xorm (v1.4): a *xorm.Engine (the pool) and the
// *xorm.Session it makes, or the xorm.Interface and xorm.EngineInterface
// interfaces services declare fields of, whose calls are invokes keyed by
// the interface that declares the method (EngineInterface embeds
// Interface, so Get through an EngineInterface is Interface's row).
//
// A session is a mutable builder: each chain step sets part of the next
// statement on its receiver and returns it, and a finisher (Get, Insert,
// Update...) runs the statement and resets it. An Engine's chain step
// makes a session for one statement (NewSession with isAutoClose, then
// the step), so the handle is still the engine. Begin returns only an
// error: it turns the receiver session itself into a transaction
// (session_tx.go), hence a Begin row without TxResult. Engine.Transaction
// runs its callback with such a session and commits when it returns a nil
// error.
//
// Not-found is no error: Get returns (false, nil) when no row matched
// (session_get.go), Exist false, Count 0; only GetOrError returns
// ErrNotExist. Driver errors (a unique violation) come back unwrapped: the
// driver's types in dberrors.go and pgx.go. xorm has no ON CONFLICT API;
// conflict handling is raw SQL through Exec.
var xorm = library{
	name: "xorm",
	// xorm.io/builder's conditions (builder.Eq{"email": e}) are values
	// passed to Where; the dialect reads their keys.
	pkgs: []string{xormPkg, xormBuilderPkg},
	types: []Type{
		{Pkg: xormPkg, Name: "Engine", Role: DBHandle},
		// A session is a transaction between Begin and Commit or Rollback,
		// and inside Engine.Transaction's callback; otherwise each
		// statement commits by itself.
		{Pkg: xormPkg, Name: "Session", Role: EitherHandle},
		{Pkg: xormPkg, Name: "Interface", Role: EitherHandle},
		{Pkg: xormPkg, Name: "EngineInterface", Role: DBHandle},
	},
	sentinels: []Sentinel{
		// Returned by GetOrError only (session_get.go).
		{Pkg: xormPkg, Name: "ErrNotExist", Meaning: NotFound},
	},
	calls: xormCalls(),
}

func xormCalls() []Call {
	var calls []Call
	// What the Engine, the Session and Interface all declare. Engine's
	// are each NewSession() then the Session's method.
	for _, recv := range []string{"Engine", "Session", "Interface"} {
		m := func(name string) Func { return method(xormPkg, recv, name) }
		calls = append(calls,
			// Conditions: Where(query, args...) takes an SQL fragment
			// with ? binds, a map or a builder.Cond (builder.Eq{...}).
			Call{Func: m("Where"), Kind: Chain, Params: []Param{p(0, Cond), p(1, Binds)}, Result: ChainResult},
			// ID(pk) adds WHERE pk = ? for the table's primary key
			// (ProcessIDParam); a schemas.PK for a composite key.
			Call{Func: m("ID"), Kind: Chain, Params: []Param{p(0, Value)}, Result: ChainResult},
			Call{Func: m("In"), Kind: Chain, Params: []Param{p(0, Column), p(1, Binds)}, Result: ChainResult},
			Call{Func: m("NotIn"), Kind: Chain, Params: []Param{p(0, Column), p(1, Binds)}, Result: ChainResult},
			// Table("name") or Table(bean) names the table instead of the
			// bean passed to the finisher.
			Call{Func: m("Table"), Kind: Chain, Params: []Param{p(0, Model)}, Result: ChainResult},
			// Cols restricts the columns read, and the columns Update
			// writes (zero values included); MustCols adds columns Update
			// writes even when zero; AllCols writes every column.
			Call{Func: m("Cols"), Kind: Chain, Params: []Param{p(0, Column)}, Result: ChainResult},
			Call{Func: m("MustCols"), Kind: Chain, Params: []Param{p(0, Column)}, Result: ChainResult},
			Call{Func: m("AllCols"), Kind: Chain, Result: ChainResult},
			Call{Func: m("Omit"), Kind: Chain, Params: []Param{p(0, Column)}, Result: ChainResult},
			Call{Func: m("Select"), Kind: Chain, Params: []Param{p(0, SQL)}, Result: ChainResult},
			// NoAutoCondition: the bean's non-zero fields are not
			// conditions of Get, Find, Count and Delete.
			Call{Func: m("NoAutoCondition"), Kind: Chain, Result: ChainResult},
			Call{Func: m("Unscoped"), Kind: Chain, Result: ChainResult},
			Call{Func: m("Limit"), Kind: Chain, Result: ChainResult},
			Call{Func: m("OrderBy"), Kind: Chain, Result: ChainResult},
			Call{Func: m("Desc"), Kind: Chain, Result: ChainResult},
			Call{Func: m("Asc"), Kind: Chain, Result: ChainResult},
			Call{Func: m("Join"), Kind: Chain, Params: []Param{p(1, Model), p(2, Cond), p(3, Binds)}, Result: ChainResult},
			// Incr(col, n) and Decr(col, n) write SET col = col + ? and
			// col - ? on the next Update (n defaults to 1); SetExpr(col,
			// expr) writes SET col = expr, an SQL text or a builder.
			Call{Func: m("Incr"), Kind: AddStep, Params: []Param{p(0, Column), p(1, Value)}, Result: ChainResult},
			Call{Func: m("Decr"), Kind: AddStep, Params: []Param{p(0, Column), p(1, Value)}, Result: ChainResult},
			Call{Func: m("SetExpr"), Kind: SetStep, Params: []Param{p(0, Column), p(1, SQL)}, Result: ChainResult},
			// SQL(query, args...) replaces the statement: Get or Find runs
			// it.
			Call{Func: m("SQL"), Kind: Raw, Params: []Param{p(0, SQL), p(1, Binds)}, Result: ChainResult},

			// Finders. Get(bean) reads one row into bean (the bean's
			// non-zero fields are conditions) and returns (has, err);
			// Exist(bean...) and Count(bean...) query by the bean too.
			Call{Func: m("Get"), Kind: Find, Params: []Param{p(0, Dest)}},
			Call{Func: m("Exist"), Kind: Find, Params: []Param{p(0, Cond)}},
			Call{Func: m("Count"), Kind: Find, Params: []Param{p(0, Cond)}},
			Call{Func: m("Find"), Kind: Find, Params: []Param{p(0, Dest), p(1, Cond)}},
			Call{Func: m("FindAndCount"), Kind: Find, Params: []Param{p(0, Dest), p(1, Cond)}},
			// Iterate(bean, fn) calls fn with each row, not in a
			// transaction; Rows(bean) returns an xorm.Rows to Next/Scan.
			Call{Func: m("Iterate"), Kind: Find, Params: []Param{p(0, Cond)}},
			Call{Func: m("Rows"), Kind: Find, Params: []Param{p(0, Cond)}},
			Call{Func: m("Sum"), Kind: Find, Params: []Param{p(0, Cond), p(1, Column)}},
			Call{Func: m("SumInt"), Kind: Find, Params: []Param{p(0, Cond), p(1, Column)}},
			Call{Func: m("Sums"), Kind: Find, Params: []Param{p(0, Cond), p(1, Column)}},
			Call{Func: m("SumsInt"), Kind: Find, Params: []Param{p(0, Cond), p(1, Column)}},

			// Writes return (affected int64, err). Insert(beans...)
			// inserts each bean (a slice is a multi-row insert);
			// InsertOne(bean) one.
			Call{Func: m("Insert"), Kind: Insert, Params: []Param{p(0, Model)}},
			Call{Func: m("InsertOne"), Kind: Insert, Params: []Param{p(0, Model)}},
			// Update(bean, condiBeans...): a struct bean writes its
			// non-zero fields (or the Cols), a map its keys; the WHERE is
			// the chain's conditions and the condition bean's non-zero
			// fields, never the bean's own primary key. A struct bean
			// with a version field adds AND version = ? and SET version =
			// version + 1 by itself (session_update.go).
			Call{Func: m("Update"), Kind: Update, Params: []Param{p(0, Model), p(1, Cond)}},
			// Delete(beans...): a soft delete (UPDATE deleted) when the bean
			// has a deleted column and the chain is not Unscoped.
			Call{Func: m("Delete"), Kind: Delete, Params: []Param{p(0, Cond)}},

			// Raw SQL: the text is the first of sqlOrArgs, its binds the
			// rest (the dialect's BuildSQL reads them). Exec returns a
			// sql.Result; the Query forms return the rows as maps.
			Call{Func: m("Exec"), Kind: Exec, Params: []Param{p(0, SQL)}, Result: ExecResult},
			Call{Func: m("Query"), Kind: Query, Params: []Param{p(0, SQL)}},
			Call{Func: m("QueryString"), Kind: Query, Params: []Param{p(0, SQL)}},
			Call{Func: m("QueryInterface"), Kind: Query, Params: []Param{p(0, SQL)}},
		)
	}
	// Context and NewSession are EngineInterface's, not Interface's.
	for _, recv := range []string{"Engine", "Session", "EngineInterface"} {
		calls = append(calls, Call{Func: method(xormPkg, recv, "Context"), Kind: Chain, Result: ChainResult})
	}
	// The names of a bean's table and columns come from the engine's
	// mappers (tags/parser.go), NewEngine's SnakeMapper unless the program
	// sets another: SetMapper sets both, SetTableMapper and
	// SetColumnMapper one (engine.go). The Value is the names.Mapper; an
	// EngineGroup sets it on its master and every slave.
	for _, recv := range []string{"Engine", "EngineGroup", "EngineInterface"} {
		for _, name := range []string{"SetMapper", "SetTableMapper", "SetColumnMapper"} {
			calls = append(calls, Call{Func: method(xormPkg, recv, name), Kind: Naming, Params: []Param{p(0, Value)}})
		}
	}
	s := func(name string) Func { return method(xormPkg, "Session", name) }
	return append(calls,
		// NewSession makes a session on the engine's pool: each statement
		// commits by itself until Begin.
		Call{Func: method(xormPkg, "Engine", "NewSession"), Kind: NewHandle},
		Call{Func: method(xormPkg, "EngineInterface", "NewSession"), Kind: NewHandle},
		// Transaction(f): NewSession, Begin, f(session), Commit when f
		// returns a nil error; Close rolls back otherwise.
		Call{Func: method(xormPkg, "Engine", "Transaction"), Kind: TxFunc, Params: []Param{p(0, Callback)}, CallbackTx: 0},

		// Session only. ForUpdate adds FOR UPDATE to the next query (on
		// MSSQL a hint); it locks only inside a transaction.
		Call{Func: s("ForUpdate"), Kind: LockStep, Result: ChainResult},
		Call{Func: s("And"), Kind: Chain, Params: []Param{p(0, Cond), p(1, Binds)}, Result: ChainResult},
		Call{Func: s("Or"), Kind: Chain, Params: []Param{p(0, Cond), p(1, Binds)}, Result: ChainResult},
		// NoVersionCheck: Update adds neither the version predicate nor
		// the bump (statement.CheckVersion = false).
		Call{Func: s("NoVersionCheck"), Kind: Chain, Result: ChainResult},
		// GetOrError is Get returning ErrNotExist when nothing matched.
		Call{Func: s("GetOrError"), Kind: Find, Params: []Param{p(0, Dest)}, ErrNoRow: true},
		Call{Func: s("InsertMulti"), Kind: Insert, Params: []Param{p(0, Model)}},
		// Begin makes the receiver a transaction and returns only an
		// error; BeginTx with options.
		Call{Func: s("Begin"), Kind: Begin},
		Call{Func: s("BeginTx"), Kind: Begin, Params: []Param{p(0, TxOptions)}},
		Call{Func: s("Commit"), Kind: Commit},
		Call{Func: s("Rollback"), Kind: Rollback},
		// Close rolls back a transaction neither committed nor rolled
		// back (session.go), and releases the session.
		Call{Func: s("Close"), Kind: Rollback},
	)
}
