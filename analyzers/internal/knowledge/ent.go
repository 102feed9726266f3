package knowledge

import (
	"go/constant"
	"go/types"
	"strings"
)

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

// An EntBuilder is which generated ent type a method belongs to.
type EntBuilder uint8

const (
	EntNoBuilder    EntBuilder = iota
	EntClient                  // Client: Tx, BeginTx
	EntTx                      // Tx: Commit, Rollback, Client
	EntEntityClient            // <E>Client, a field of Client and of Tx: Query, Create, UpdateOneID, Get...
	EntModel                   // <E>, the entity's struct: Update
	EntQuery                   // <E>Query: Where, ForUpdate, Only, All, Exist...
	EntSelect                  // <E>Select, <E>GroupBy and their embedded selector: Scan, Strings, Ints...
	EntCreate                  // <E>Create: SetX, OnConflict, Save
	EntCreateBulk              // <E>CreateBulk: OnConflict, Save
	EntUpsertOne               // <E>UpsertOne (feature sql/upsert): DoNothing, UpdateNewValues, SetX, AddX, Exec, ID
	EntUpsertBulk              // <E>UpsertBulk
	EntUpsert                  // <E>Upsert, the SET list of UpsertOne.Update's func: SetX, AddX, UpdateX
	EntUpdate                  // <E>Update: Where, SetX, AddX, Save (the affected count)
	EntUpdateOne               // <E>UpdateOne: Where, SetX, AddX, Save (the row; a miss is a NotFoundError)
	EntDelete                  // <E>Delete: Where, Exec (the affected count)
	EntDeleteOne               // <E>DeleteOne: Where, Exec (a miss is a NotFoundError)
	EntPredicates              // the entity package's predicates (account.EmailEQ, account.And)
	EntErrors                  // the package's error classifiers (ent.IsNotFound, ent.IsConstraintError)
)

var entBuilderNames = [...]string{
	EntNoBuilder: "none", EntClient: "client", EntTx: "tx", EntEntityClient: "entity-client",
	EntModel: "model", EntQuery: "query", EntSelect: "select", EntCreate: "create",
	EntCreateBulk: "create-bulk", EntUpsertOne: "upsert-one", EntUpsertBulk: "upsert-bulk",
	EntUpsert: "upsert-set", EntUpdate: "update", EntUpdateOne: "update-one", EntDelete: "delete",
	EntDeleteOne: "delete-one", EntPredicates: "predicates", EntErrors: "errors",
}

func (b EntBuilder) String() string {
	if int(b) < len(entBuilderNames) {
		return entBuilderNames[b]
	}
	return "EntBuilder(?)"
}

// EntInfo is what EntCall knows of a generated method or function beyond
// its *Call.
type EntInfo struct {
	Builder EntBuilder
	// Entity is the entity the method's builder works on; nil for the
	// Client, the Tx and the package's error classifiers.
	Entity *EntEntity
	// Op is the statement the method's builder ends in: Find, Insert
	// (an upsert's too), Update or Delete; Unknown for the Client, the Tx,
	// predicates and error classifiers.
	Op Kind
	// One is whether the builder works on one row given by id or model
	// (UpdateOneID, DeleteOne, Get, (*Account).Update) or the finder expects
	// one (Only, First): a miss is a *NotFoundError.
	One bool
	// Column and Field are, for a SetStep, an AddStep or a Predicate on a
	// field, the column ("balance") and the Go field ("Balance").
	Column, Field string
	// Excluded is a SetStep to the value the insert proposed (an upsert's
	// UpdateX, UPDATE SET c = excluded.c); Clear a SetStep to NULL (ClearX).
	Excluded, Clear bool
	// Lock is, for a LockStep, "FOR UPDATE" or "FOR SHARE".
	Lock string
	// Resolve is, for a ConflictStep, the action it sets: "DO NOTHING",
	// "IGNORE" (DO UPDATE SET c = c, which returns the existing row),
	// "UPDATE NEW VALUES" (DO UPDATE SET c = excluded.c), "UPDATE SET"
	// (Update(func): the func's SetX and AddX); "" for OnConflict, whose
	// arguments say, and OnConflictColumns, which sets the target.
	Resolve string
	// Affected is whether result 0 of the finisher is the affected-row
	// count ((*AccountUpdate).Save, (*AccountDelete).Exec).
	Affected bool
	// PredOp is, for a Predicate, the comparison: "=", "<>", ">", ">=",
	// "<", "<=", "IN", "NOT IN", "LIKE" (Contains, HasPrefix, HasSuffix,
	// EqualFold, ContainsFold), "IS NULL", "IS NOT NULL", or the
	// combinators "AND", "OR", "NOT".
	PredOp string
}

// String is a short description for messages and tests: the operation,
// the table and column, and the flags that are set.
func (i *EntInfo) String() string {
	var parts []string
	if i.Op != Unknown {
		parts = append(parts, i.Op.String())
	}
	if i.Entity != nil {
		where := i.Entity.Table
		if where == "" {
			where = i.Entity.Model.Name()
		}
		if i.Column != "" {
			where += "." + i.Column
		}
		parts = append(parts, where)
	}
	for _, f := range []struct {
		on   bool
		name string
	}{{i.One, "one"}, {i.Excluded, "excluded"}, {i.Clear, "null"}, {i.Affected, "affected"}} {
		if f.on {
			parts = append(parts, f.name)
		}
	}
	if i.Lock != "" {
		parts = append(parts, i.Lock)
	}
	if i.Resolve != "" {
		parts = append(parts, "on conflict "+i.Resolve)
	}
	if i.PredOp != "" {
		parts = append(parts, i.PredOp)
	}
	return strings.Join(parts, " ")
}

// EntPkg is a package generated by ent (example.com/app/ent).
type EntPkg struct {
	Pkg        *types.Package
	Client, Tx *types.TypeName
	Entities   []*EntEntity
	owner      map[*types.TypeName]*EntEntity // a builder type's entity
}

// EntEntity is one entity (schema type) of an EntPkg.
type EntEntity struct {
	// Model is the entity's struct (ent.Account); Client its client
	// (ent.AccountClient), the type of a field of both Client and Tx.
	Model, Client *types.TypeName
	// Pkg is the entity's own package (ent/account), which declares its
	// Table, Label and Field<F> constants, its predicates and OrderOption.
	Pkg *types.Package
	// Table is Pkg's Table constant ("accounts"); "" when Pkg was loaded
	// from export data that omits it (see EntCall).
	Table    string
	builders map[*types.TypeName]EntBuilder
}

// Column returns the column of the entity's field (Go name) f, from the
// entity package's Field<f> constant: Column("Balance") is "balance".
func (e *EntEntity) Column(f string) (string, bool) {
	return stringConst(e.Pkg, "Field"+f)
}

// EntPackage returns pkg as a package generated by ent, or nil. The rule,
// from what the package declares and imports, never from its path:
//
//  1. it declares a struct type Tx with the methods Commit() error,
//     Rollback() error and Client() *Client;
//  2. it declares a struct type Client with the methods
//     Tx(context.Context) (*Tx, error) and
//     BeginTx(context.Context, *sql.TxOptions) (*Tx, error) (ent's
//     sql.TxOptions is an alias of database/sql's);
//  3. it declares a function Driver(entgo.io/ent/dialect.Driver) with one
//     result (the Option that sets the client's driver);
//  4. it imports entgo.io/ent/dialect/sql/sqlgraph (true of a package
//     type-checked from source and, as checked for the fixture, of one
//     read from gc export data).
//
// Its entities are the fields that Client and Tx both have, of type
// *<E>Client, a struct of pkg with the methods Query, Create, CreateBulk,
// Update, UpdateOneID, Delete, DeleteOneID and Get; the builder types are
// the results of those methods (and of <E>Create.OnConflict,
// <E>CreateBulk.OnConflict, <E>UpsertOne.Update's func parameter,
// <E>Query.Select and GroupBy), never found by their names' suffixes. The
// entity package is the package of <E>Query.Order's parameter type
// (account.OrderOption).
//
// It costs a few dozen scope and method lookups an entity and caches
// nothing: the ops layer should call it once per package it analyses and
// use (*EntPkg).Call.
func EntPackage(pkg *types.Package) *EntPkg {
	if pkg == nil {
		return nil
	}
	client, tx := structTypeName(pkg, "Client"), structTypeName(pkg, "Tx")
	if client == nil || tx == nil {
		return nil
	}
	txPtr, clientPtr := types.NewPointer(tx.Type()), types.NewPointer(client.Type())
	is := func(t types.Type) func(types.Type) bool {
		return func(u types.Type) bool { return types.Identical(t, u) }
	}
	isErr, isTx := is(errorType), is(txPtr)
	if !hasMethod(tx, "Commit", nil, isErr) ||
		!hasMethod(tx, "Rollback", nil, isErr) ||
		!hasMethod(tx, "Client", nil, is(clientPtr)) ||
		!hasMethod(client, "Tx", []func(types.Type) bool{isContext}, isTx, isErr) ||
		!hasMethod(client, "BeginTx", []func(types.Type) bool{isContext, isEntTxOptions}, isTx, isErr) {
		return nil
	}
	driver, ok := pkg.Scope().Lookup("Driver").(*types.Func)
	if !ok || driver.Signature().Recv() != nil || driver.Signature().Params().Len() != 1 || driver.Signature().Results().Len() != 1 {
		return nil
	}
	if dn := namedOf(driver.Signature().Params().At(0).Type()); dn == nil || isPtr(driver.Signature().Params().At(0).Type()) || !isObj(dn.Obj(), entDialectPkg, "Driver") {
		return nil
	}
	imports := false
	for _, imp := range pkg.Imports() {
		if imp.Path() == sqlgraphPkg {
			imports = true
			break
		}
	}
	if !imports {
		return nil
	}
	ep := &EntPkg{Pkg: pkg, Client: client, Tx: tx, owner: map[*types.TypeName]*EntEntity{}}
	cst, tst := client.Type().Underlying().(*types.Struct), tx.Type().Underlying().(*types.Struct)
	for i := 0; i < cst.NumFields(); i++ {
		f := cst.Field(i)
		if f.Embedded() || !f.Exported() || !hasField(tst, f.Name(), f.Type()) {
			continue
		}
		if e := entEntity(pkg, f.Type()); e != nil {
			ep.Entities = append(ep.Entities, e)
			for tn := range e.builders {
				ep.owner[tn] = e
			}
		}
	}
	return ep
}

// entEntity returns the entity whose client is t, or nil when t is not a
// pointer to a generated entity client of pkg.
func entEntity(pkg *types.Package, t types.Type) *EntEntity {
	named := namedOf(t)
	if !isPtr(t) || named == nil || named.Obj().Pkg() != pkg {
		return nil
	}
	ec := named.Obj()
	e := &EntEntity{Client: ec, builders: map[*types.TypeName]EntBuilder{ec: EntEntityClient}}
	for _, m := range []struct {
		name string
		b    EntBuilder
	}{
		{"Query", EntQuery}, {"Create", EntCreate}, {"CreateBulk", EntCreateBulk}, {"Update", EntUpdate},
		{"UpdateOneID", EntUpdateOne}, {"Delete", EntDelete}, {"DeleteOneID", EntDeleteOne},
	} {
		tn := resultTypeName(ec, m.name, pkg)
		if tn == nil {
			return nil
		}
		e.builders[tn] = m.b
	}
	get := methodNamed(ec, "Get")
	if get == nil || get.Signature().Results().Len() != 2 {
		return nil
	}
	model := namedOf(get.Signature().Results().At(0).Type())
	if model == nil || model.Obj().Pkg() != pkg {
		return nil
	}
	e.Model = model.Obj()
	e.builders[e.Model] = EntModel
	var query, create, bulk *types.TypeName
	for tn, b := range e.builders {
		switch b {
		case EntQuery:
			query = tn
		case EntCreate:
			create = tn
		case EntCreateBulk:
			bulk = tn
		}
	}
	// Feature sql/upsert: OnConflict's results and the func parameter of
	// UpsertOne.Update.
	if one := resultTypeName(create, "OnConflict", pkg); one != nil {
		e.builders[one] = EntUpsertOne
		if upd := methodNamed(one, "Update"); upd != nil && upd.Signature().Params().Len() == 1 {
			if f, ok := upd.Signature().Params().At(0).Type().Underlying().(*types.Signature); ok && f.Params().Len() == 1 {
				if set := namedOf(f.Params().At(0).Type()); set != nil && set.Obj().Pkg() == pkg {
					e.builders[set.Obj()] = EntUpsert
				}
			}
		}
	}
	if b := resultTypeName(bulk, "OnConflict", pkg); b != nil {
		e.builders[b] = EntUpsertBulk
	}
	// Select and GroupBy, and the selector they embed.
	for _, name := range []string{"Select", "GroupBy"} {
		sel := resultTypeName(query, name, pkg)
		if sel == nil {
			continue
		}
		e.builders[sel] = EntSelect
		if st, ok := sel.Type().Underlying().(*types.Struct); ok {
			for i := 0; i < st.NumFields(); i++ {
				// The generated selector; <E>Select also embeds *<E>Query.
				if f := st.Field(i); f.Embedded() {
					if n := namedOf(f.Type()); n != nil && n.Obj().Pkg() == pkg && e.builders[n.Obj()] == EntNoBuilder {
						e.builders[n.Obj()] = EntSelect
					}
				}
			}
		}
	}
	// The entity package: Order(o ...account.OrderOption).
	if order := methodNamed(query, "Order"); order != nil && order.Signature().Variadic() {
		ps := order.Signature().Params()
		if s, ok := ps.At(ps.Len() - 1).Type().(*types.Slice); ok {
			if n := namedOf(s.Elem()); n != nil && n.Obj().Pkg() != nil {
				e.Pkg = n.Obj().Pkg()
				e.Table, _ = stringConst(e.Pkg, "Table")
			}
		}
	}
	if e.Pkg == nil {
		return nil
	}
	return e
}

// EntType returns the role of a generated ent type: TxHandle for the Tx,
// EitherHandle for the Client and the entity clients (a Client from
// (*Tx).Client, or an entity client from a Tx's field, runs in the
// transaction); NoTypeRole otherwise.
func EntType(t types.Type) TypeRole {
	named := namedOf(t)
	if named == nil {
		return NoTypeRole
	}
	ep := EntPackage(named.Obj().Pkg())
	if ep == nil {
		return NoTypeRole
	}
	switch named.Obj() {
	case ep.Tx:
		return TxHandle
	case ep.Client:
		return EitherHandle
	}
	for _, e := range ep.Entities {
		if e.Client == named.Obj() {
			return EitherHandle
		}
	}
	return NoTypeRole
}

// EntCall says what a method or function of ent-generated code does, or
// returns nil, nil. fn is the callee's *types.Func (an *ssa.Function's
// Object()); instances are resolved to their origin. The *Call is like a
// row of the tables (Func, Kind, Params, Result, Meaning; Lib "ent"), so a
// Site's Row can be set to it; the *EntInfo has the table, column and
// clause.
//
// What it recognises (the method names are ent's generator's, fixed for a
// builder type found by EntPackage's rule):
//
//   - Client: Tx (Begin, TxResult), BeginTx (Begin, TxOptions=1).
//   - Tx: Commit, Rollback; Client (NewHandle: a Client running in the
//     receiver transaction).
//   - <E>Client: Query, Create, CreateBulk (Model=0), MapCreateBulk,
//     Update, UpdateOne (Model=0), UpdateOneID (Cond=0), Delete, DeleteOne,
//     DeleteOneID: Chain steps that start a builder, with Op its
//     statement; Get and GetX: Find, One, Cond=1 (the id).
//   - <E> (the model): Update, a Chain step starting an update of it.
//   - <E>Query: Where (Chain, Cond=0), Limit, Offset, Unique, Order,
//     Clone, Select, GroupBy, Aggregate, Modify (Chain); ForUpdate and
//     ForShare (LockStep, Clauses=0: the lock options); First, FirstX,
//     FirstID, FirstIDX, Only, OnlyX, OnlyID, OnlyIDX (Find, One), All,
//     AllX, IDs, IDsX, Count, CountX, Exist, ExistX (Find).
//   - <E>Select, <E>GroupBy, selector: every method taking a context
//     first (Scan, Strings, Int...): Find; Aggregate, Modify: Chain.
//   - <E>Create: Set<F>, SetNillable<F> (SetStep, Value=0); OnConflict
//     (ConflictStep, Clauses=0), OnConflictColumns (ConflictStep,
//     Column=0); Save, SaveX, Exec, ExecX (Insert). <E>CreateBulk: the
//     same but setters.
//   - <E>UpsertOne, <E>UpsertBulk: DoNothing, Ignore, UpdateNewValues
//     (ConflictStep with Resolve), Update (ConflictStep, Callback=0);
//     Set<F> (SetStep), Add<F> (AddStep), Update<F> (SetStep, Excluded),
//     Clear<F> (SetStep, Clear); Exec, ExecX, ID, IDX (Insert). <E>Upsert:
//     the setters.
//   - <E>Update, <E>UpdateOne: Where (Chain, Cond=0), Select, Modify
//     (Chain); Set<F>, SetNillable<F> (SetStep), Add<F> (AddStep),
//     Clear<F> (SetStep, Clear); Save, SaveX, Exec, ExecX (Update;
//     Affected for <E>Update's Save).
//   - <E>Delete, <E>DeleteOne: Where (Chain); Exec, ExecX (Delete;
//     Affected for <E>Delete's Exec).
//   - In the EntPkg: IsNotFound (ErrorCheck, NotFound), IsConstraintError
//     (ErrorCheck, UniqueViolation: any constraint, a unique key among
//     them).
//   - In an entity package (see entityPackage): the field predicates
//     <F>, <F>EQ, <F>NEQ, <F>GT... (Predicate with Column and PredOp;
//     Value=0) and And, Or, Not (Predicate, Cond=0).
//
// A field method is one whose <F> has a Field<F> constant in the entity
// package: an edge's AddTagIDs or ClearOwner is not recognised. Anything
// else returns nil, nil.
//
// fn's package must be type-checked from source or its entity packages
// must be loaded in full: gc export data of the ent package alone holds
// only what its exported API refers to (account.OrderOption, not
// account.Table). So the ops layer should, in the pass of the generated
// package itself (whose direct imports are complete), call EntPackage once
// and (*EntPkg).Call for each of its functions, in the pass of an entity
// package call EntCall for its predicates, and export the results as
// facts. Called from an importer, Table may be "" and the field methods
// unrecognised (TestEntFromExportData).
func EntCall(fn *types.Func) (*Call, *EntInfo) {
	if fn == nil || fn.Pkg() == nil {
		return nil, nil
	}
	fn = fn.Origin()
	if ep := EntPackage(fn.Pkg()); ep != nil {
		return ep.Call(fn)
	}
	if fn.Signature().Recv() == nil {
		return entPredicate(fn, fn.Signature())
	}
	return nil, nil
}

// Call is EntCall for a method or function of ep's package (nil, nil for
// another's): what the ops layer calls, with the EntPkg of the package it
// analyses, for each of its functions.
func (ep *EntPkg) Call(fn *types.Func) (*Call, *EntInfo) {
	if ep == nil || fn == nil {
		return nil, nil
	}
	fn = fn.Origin()
	if fn.Pkg() != ep.Pkg {
		return nil, nil
	}
	sig := fn.Signature()
	if sig.Recv() == nil {
		return entErrorCheck(fn, sig)
	}
	named := namedOf(sig.Recv().Type())
	if named == nil {
		return nil, nil
	}
	name := fn.Name()
	row := func(k Kind, params ...Param) *Call {
		c := &Call{Func: FuncOf(fn), Kind: k, Params: params, Lib: "ent"}
		switch k {
		case Chain, SetStep, AddStep, LockStep, ConflictStep:
			c.Result = ChainResult
		case Begin:
			c.Result = TxResult
		case NewHandle:
			c.Result = ClientResult
		}
		return c
	}
	switch named.Obj() {
	case ep.Client:
		switch name {
		case "Tx":
			return row(Begin), &EntInfo{Builder: EntClient}
		case "BeginTx":
			return row(Begin, p(1, TxOptions)), &EntInfo{Builder: EntClient}
		}
		return nil, nil
	case ep.Tx:
		switch name {
		case "Commit":
			return row(Commit), &EntInfo{Builder: EntTx}
		case "Rollback":
			return row(Rollback), &EntInfo{Builder: EntTx}
		case "Client":
			return row(NewHandle), &EntInfo{Builder: EntTx}
		}
		return nil, nil
	}
	if e := ep.owner[named.Obj()]; e != nil {
		b := e.builders[named.Obj()]
		info := &EntInfo{Builder: b, Entity: e}
		switch b {
		case EntEntityClient:
			switch name {
			case "Query":
				info.Op = Find
				return row(Chain), info
			case "Get", "GetX":
				info.Op, info.One = Find, true
				return row(Find, p(1, Cond)), info
			case "Create":
				info.Op = Insert
				return row(Chain), info
			case "CreateBulk":
				info.Op = Insert
				return row(Chain, p(0, Model)), info
			case "MapCreateBulk":
				info.Op = Insert
				return row(Chain, p(0, Model), p(1, Callback)), info
			case "Update":
				info.Op = Update
				return row(Chain), info
			case "UpdateOne":
				info.Op, info.One = Update, true
				return row(Chain, p(0, Model)), info
			case "UpdateOneID":
				info.Op, info.One = Update, true
				return row(Chain, p(0, Cond)), info
			case "Delete":
				info.Op = Delete
				return row(Chain), info
			case "DeleteOne":
				info.Op, info.One = Delete, true
				return row(Chain, p(0, Model)), info
			case "DeleteOneID":
				info.Op, info.One = Delete, true
				return row(Chain, p(0, Cond)), info
			}
		case EntModel:
			if name == "Update" {
				info.Op, info.One = Update, true
				return row(Chain), info
			}
		case EntQuery:
			info.Op = Find
			switch name {
			case "Where":
				return row(Chain, p(0, Cond)), info
			case "Limit", "Offset", "Unique", "Order", "Clone", "Select", "GroupBy", "Aggregate":
				return row(Chain), info
			case "Modify":
				return row(Chain, p(0, Callback)), info
			case "ForUpdate":
				info.Lock = "FOR UPDATE"
				return row(LockStep, p(0, Clauses)), info
			case "ForShare":
				info.Lock = "FOR SHARE"
				return row(LockStep, p(0, Clauses)), info
			case "First", "FirstX", "FirstID", "FirstIDX", "Only", "OnlyX", "OnlyID", "OnlyIDX":
				info.One = true
				return row(Find), info
			case "All", "AllX", "IDs", "IDsX", "Count", "CountX", "Exist", "ExistX":
				return row(Find), info
			}
		case EntSelect:
			info.Op = Find
			switch name {
			case "Aggregate":
				return row(Chain), info
			case "Modify":
				return row(Chain, p(0, Callback)), info
			}
			if sig.Params().Len() > 0 && isContext(sig.Params().At(0).Type()) {
				return row(Find), info
			}
		case EntCreate, EntCreateBulk:
			info.Op = Insert
			switch name {
			case "Save", "SaveX", "Exec", "ExecX":
				return row(Insert), info
			case "OnConflict":
				return row(ConflictStep, p(0, Clauses)), info
			case "OnConflictColumns":
				return row(ConflictStep, p(0, Column)), info
			}
			if b == EntCreate {
				return entSetter(e, info, name, row, "SetNillable", "Set")
			}
		case EntUpsertOne, EntUpsertBulk, EntUpsert:
			info.Op = Insert
			if b != EntUpsert {
				switch name {
				case "DoNothing":
					info.Resolve = "DO NOTHING"
					return row(ConflictStep), info
				case "Ignore":
					info.Resolve = "IGNORE"
					return row(ConflictStep), info
				case "UpdateNewValues":
					info.Resolve = "UPDATE NEW VALUES"
					return row(ConflictStep), info
				case "Update":
					info.Resolve = "UPDATE SET"
					return row(ConflictStep, p(0, Callback)), info
				case "Exec", "ExecX", "ID", "IDX":
					return row(Insert), info
				}
			}
			return entSetter(e, info, name, row, "Set", "Add", "Update", "Clear")
		case EntUpdate, EntUpdateOne:
			info.Op, info.One = Update, b == EntUpdateOne
			switch name {
			case "Where":
				return row(Chain, p(0, Cond)), info
			case "Select", "Modify":
				if name == "Modify" {
					return row(Chain, p(0, Callback)), info
				}
				return row(Chain), info
			case "Save", "SaveX":
				info.Affected = b == EntUpdate
				return row(Update), info
			case "Exec", "ExecX":
				return row(Update), info
			}
			return entSetter(e, info, name, row, "SetNillable", "Set", "Add", "Clear")
		case EntDelete, EntDeleteOne:
			info.Op, info.One = Delete, b == EntDeleteOne
			switch name {
			case "Where":
				return row(Chain, p(0, Cond)), info
			case "Exec", "ExecX":
				info.Affected = b == EntDelete
				return row(Delete), info
			}
		}
		return nil, nil
	}
	return nil, nil
}

// entSetter recognises a field setter <prefix><F> among prefixes, tried in
// order, where F has a Field<F> constant.
func entSetter(e *EntEntity, info *EntInfo, name string, row func(Kind, ...Param) *Call, prefixes ...string) (*Call, *EntInfo) {
	for _, prefix := range prefixes {
		f, ok := strings.CutPrefix(name, prefix)
		if !ok || f == "" {
			continue
		}
		col, ok := e.Column(f)
		if !ok {
			continue
		}
		info.Column, info.Field = col, f
		switch prefix {
		case "Add":
			return row(AddStep, p(0, Value)), info
		case "Update":
			info.Excluded = true
			return row(SetStep), info
		case "Clear":
			info.Clear = true
			return row(SetStep), info
		}
		return row(SetStep, p(0, Value)), info
	}
	return nil, nil
}

// entErrorCheck recognises the generated error classifiers of an EntPkg.
func entErrorCheck(fn *types.Func, sig *types.Signature) (*Call, *EntInfo) {
	if sig.Params().Len() != 1 || sig.Results().Len() != 1 ||
		!types.Identical(sig.Params().At(0).Type(), errorType) ||
		!types.Identical(sig.Results().At(0).Type(), types.Typ[types.Bool]) {
		return nil, nil
	}
	var m ErrMeaning
	switch fn.Name() {
	case "IsNotFound":
		m = NotFound
	case "IsConstraintError":
		m = UniqueViolation
	default:
		return nil, nil
	}
	return &Call{Func: FuncOf(fn), Kind: ErrorCheck, Params: []Param{p(0, ErrArg)}, Meaning: m, Lib: "ent"},
		&EntInfo{Builder: EntErrors}
}

// entPredicateOps are the suffixes of a generated field predicate.
var entPredicateOps = []struct{ suffix, op string }{
	// Longest first, so that GTE is not taken for GT.
	{"ContainsFold", "LIKE"}, {"EqualFold", "LIKE"}, {"HasPrefix", "LIKE"}, {"HasSuffix", "LIKE"},
	{"Contains", "LIKE"}, {"NotIn", "NOT IN"}, {"NotNil", "IS NOT NULL"}, {"IsNil", "IS NULL"},
	{"NEQ", "<>"}, {"GTE", ">="}, {"LTE", "<="}, {"EQ", "="}, {"GT", ">"}, {"LT", "<"}, {"In", "IN"},
	{"", "="},
}

// entPredicate recognises a predicate of an entity package: a function
// returning a named type of another package whose underlying type is
// func(*entgo.io/ent/dialect/sql.Selector) (predicate.Account).
func entPredicate(fn *types.Func, sig *types.Signature) (*Call, *EntInfo) {
	pkg := fn.Pkg()
	if sig.Results().Len() != 1 || !isSelectorFunc(sig.Results().At(0).Type()) {
		return nil, nil
	}
	res := namedOf(sig.Results().At(0).Type())
	if res == nil || res.Obj().Pkg() == pkg || !entityPackage(pkg) {
		return nil, nil
	}
	e := &EntEntity{Pkg: pkg}
	e.Table, _ = stringConst(pkg, "Table")
	info := &EntInfo{Builder: EntPredicates, Entity: e}
	call := &Call{Func: FuncOf(fn), Kind: Predicate, Lib: "ent"}
	switch fn.Name() {
	case "And", "Or", "Not":
		info.PredOp = strings.ToUpper(fn.Name())
		call.Params = []Param{p(0, Cond)}
		return call, info
	}
	for _, op := range entPredicateOps {
		f, ok := strings.CutSuffix(fn.Name(), op.suffix)
		if !ok || f == "" {
			continue
		}
		col, ok := e.Column(f)
		if !ok {
			continue
		}
		info.Column, info.Field, info.PredOp = col, f, op.op
		if sig.Params().Len() > 0 {
			call.Params = []Param{p(0, Value)}
		}
		return call, info
	}
	return nil, nil
}

// entityPackage reports whether pkg has the shape of a generated entity
// package: string constants Label, Table and FieldID, a []string variable
// Columns, and a type OrderOption whose underlying type is
// func(*entgo.io/ent/dialect/sql.Selector).
func entityPackage(pkg *types.Package) bool {
	for _, c := range []string{"Label", "Table", "FieldID"} {
		if _, ok := stringConst(pkg, c); !ok {
			return false
		}
	}
	cols, ok := pkg.Scope().Lookup("Columns").(*types.Var)
	if !ok {
		return false
	}
	if s, ok := cols.Type().(*types.Slice); !ok || !types.Identical(s.Elem(), types.Typ[types.String]) {
		return false
	}
	order, ok := pkg.Scope().Lookup("OrderOption").(*types.TypeName)
	return ok && isSelectorFunc(order.Type())
}

// isSelectorFunc reports whether t's underlying type is
// func(*entgo.io/ent/dialect/sql.Selector).
func isSelectorFunc(t types.Type) bool {
	sig, ok := t.Underlying().(*types.Signature)
	if !ok || sig.Params().Len() != 1 || sig.Results().Len() != 0 {
		return false
	}
	pt := sig.Params().At(0).Type()
	named := namedOf(pt)
	return isPtr(pt) && named != nil && isObj(named.Obj(), entSQLPkg, "Selector")
}

// Helpers over go/types.

var errorType = types.Universe.Lookup("error").Type()

func isObj(obj types.Object, pkg, name string) bool {
	return obj != nil && obj.Pkg() != nil && obj.Pkg().Path() == pkg && obj.Name() == name
}

func isPtr(t types.Type) bool {
	_, ok := types.Unalias(t).(*types.Pointer)
	return ok
}

// structTypeName returns pkg's named struct type name, or nil.
func structTypeName(pkg *types.Package, name string) *types.TypeName {
	tn, ok := pkg.Scope().Lookup(name).(*types.TypeName)
	if !ok || tn.IsAlias() {
		return nil
	}
	if _, ok := tn.Type().Underlying().(*types.Struct); !ok {
		return nil
	}
	return tn
}

// methodNamed returns the method of tn's type (declared on it, pointer
// receiver or not) with this name, or nil.
func methodNamed(tn *types.TypeName, name string) *types.Func {
	if tn == nil {
		return nil
	}
	named, ok := types.Unalias(tn.Type()).(*types.Named)
	if !ok {
		return nil
	}
	for i := 0; i < named.NumMethods(); i++ {
		if m := named.Method(i); m.Name() == name {
			return m
		}
	}
	return nil
}

// hasMethod reports whether tn declares a method name whose parameter and
// result types match params and results, one predicate a type.
func hasMethod(tn *types.TypeName, name string, params []func(types.Type) bool, results ...func(types.Type) bool) bool {
	m := methodNamed(tn, name)
	if m == nil {
		return false
	}
	sig := m.Signature()
	return tupleMatches(sig.Params(), params) && tupleMatches(sig.Results(), results)
}

func tupleMatches(tuple *types.Tuple, want []func(types.Type) bool) bool {
	if tuple.Len() != len(want) {
		return false
	}
	for i, match := range want {
		if !match(tuple.At(i).Type()) {
			return false
		}
	}
	return true
}

// isEntTxOptions reports whether t is *entgo.io/ent/dialect/sql.TxOptions,
// an alias of *database/sql.TxOptions.
func isEntTxOptions(t types.Type) bool {
	named := namedOf(t)
	return isPtr(t) && named != nil && isObj(named.Obj(), "database/sql", "TxOptions")
}

func isContext(t types.Type) bool {
	named, ok := types.Unalias(t).(*types.Named)
	return ok && isObj(named.Obj(), "context", "Context")
}

// hasField reports whether st has a field name of type t.
func hasField(st *types.Struct, name string, t types.Type) bool {
	for i := 0; i < st.NumFields(); i++ {
		if f := st.Field(i); f.Name() == name && types.Identical(f.Type(), t) {
			return true
		}
	}
	return false
}

// resultTypeName returns the named type of pkg that tn's method name
// returns (first result, through a pointer), or nil.
func resultTypeName(tn *types.TypeName, name string, pkg *types.Package) *types.TypeName {
	m := methodNamed(tn, name)
	if m == nil || m.Signature().Results().Len() == 0 {
		return nil
	}
	named := namedOf(m.Signature().Results().At(0).Type())
	if named == nil || named.Obj().Pkg() != pkg {
		return nil
	}
	return named.Obj()
}

// stringConst returns the value of pkg's string constant name.
func stringConst(pkg *types.Package, name string) (string, bool) {
	if pkg == nil {
		return "", false
	}
	c, ok := pkg.Scope().Lookup(name).(*types.Const)
	if !ok || c.Val().Kind() != constant.String {
		return "", false
	}
	return constant.StringVal(c.Val()), true
}
