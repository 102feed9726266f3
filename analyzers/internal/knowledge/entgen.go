package knowledge

import (
	"go/types"
	"strings"
	"sync"
)

// ent's generated code, recognised by its shape: the packages, entities and
// builders of a generated client (ent.go has the runtime's rows).

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
	// "<", "<=", "= FOLD" (EqualFold: an equality ignoring case, which
	// ent's sql.FieldEqualFold writes as lower(c) = lower(v), ILIKE of the
	// escaped value or a case-insensitive collation), "IN", "NOT IN",
	// "LIKE" (Contains, HasPrefix, HasSuffix, ContainsFold), "IS NULL",
	// "IS NOT NULL", the
	// combinators "AND", "OR", "NOT", or "HAS" for an edge's Has<X> and
	// Has<X>With.
	PredOp string
	// Edge is, for a method or predicate of an edge (SetGroupID,
	// SetGroup, HasGroupWith), the edge's Go name ("Group"); Column is
	// then its foreign-key column when the entity's own row holds it
	// (EntEntity.EdgeColumn), "" otherwise. Target is the table of the
	// entity at the edge's other end. See entedges.go.
	Edge, Target string
	// ByModel is a SetStep whose value is the other entity's model
	// (SetGroup(g)): the column is set to its ID field.
	ByModel bool
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
	if i.Edge != "" {
		parts = append(parts, "edge "+i.Edge+" to "+i.Target)
	}
	for _, f := range []struct {
		on   bool
		name string
	}{{i.One, "one"}, {i.Excluded, "excluded"}, {i.Clear, "null"}, {i.Affected, "affected"}, {i.ByModel, "by-model"}} {
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
	// shared are the builder types of more than one entity: the
	// generated selector that every <E>Select and <E>GroupBy embeds,
	// whose promoted finishers (Strings, Ints...) say nothing of which
	// entity they read.
	shared map[*types.TypeName]EntBuilder
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
// It costs a few dozen scope and method lookups an entity, and for ent
// before v0.12 a scan of the imports' functions; since EntCall, EntType
// and EntModelEntity ask it of every call and type they classify, the
// packages it recognised last are remembered (entPackages).
func EntPackage(pkg *types.Package) *EntPkg {
	if pkg == nil {
		return nil
	}
	if ep, ok := entPackages.get(pkg); ok {
		return ep
	}
	ep := entPackage(pkg)
	if ep != nil {
		entPackages.put(pkg, ep)
	}
	return ep
}

// entPackages remembers the EntPkg of the generated packages seen last.
// A non-ent package is rejected by its first lookups and not remembered.
// The bound keeps a long-lived process (gopls type-checks a package
// again after each edit) from holding every version of a package.
var entPackages = &recentPackages{max: 16}

type recentPackages struct {
	mu    sync.Mutex
	max   int
	order []*types.Package // least recently put first
	m     map[*types.Package]*EntPkg
}

func (r *recentPackages) get(pkg *types.Package) (*EntPkg, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	ep, ok := r.m[pkg]
	return ep, ok
}

func (r *recentPackages) put(pkg *types.Package, ep *EntPkg) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.m == nil {
		r.m = map[*types.Package]*EntPkg{}
	}
	if _, ok := r.m[pkg]; ok {
		return // another goroutine made the same
	}
	if len(r.order) == r.max {
		delete(r.m, r.order[0])
		r.order = r.order[1:]
	}
	r.order = append(r.order, pkg)
	r.m[pkg] = ep
}

func entPackage(pkg *types.Package) *EntPkg {
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
	ep := &EntPkg{Pkg: pkg, Client: client, Tx: tx, owner: map[*types.TypeName]*EntEntity{}, shared: map[*types.TypeName]EntBuilder{}}
	cst, tst := client.Type().Underlying().(*types.Struct), tx.Type().Underlying().(*types.Struct)
	preds := &predicatePackages{pkg: pkg}
	for i := 0; i < cst.NumFields(); i++ {
		f := cst.Field(i)
		if f.Embedded() || !f.Exported() || !hasField(tst, f.Name(), f.Type()) {
			continue
		}
		if e := entEntity(pkg, f.Type(), preds); e != nil {
			ep.Entities = append(ep.Entities, e)
			for tn, b := range e.builders {
				if prev := ep.owner[tn]; prev != nil || ep.shared[tn] != EntNoBuilder {
					delete(ep.owner, tn)
					ep.shared[tn] = b
					continue
				}
				ep.owner[tn] = e
			}
		}
	}
	return ep
}

// entEntity returns the entity whose client is t, or nil when t is not a
// pointer to a generated entity client of pkg.
func entEntity(pkg *types.Package, t types.Type, preds *predicatePackages) *EntEntity {
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
	// The entity package. Since ent v0.12 the query's Order takes the
	// entity package's option (Order(o ...account.OrderOption)); before
	// (v0.10, v0.11) the ent package's own OrderFunc, and nothing of the
	// generated client's API names the entity package: it is then the
	// package ent imports that declares the predicates Where takes
	// (entityPackageOf).
	order := namedOf(variadicElem(methodNamed(query, "Order")))
	if order == nil || !isSelectorFunc(order) {
		return nil
	}
	if order.Obj().Pkg() != pkg {
		e.Pkg = order.Obj().Pkg()
	} else if pred := namedOf(variadicElem(methodNamed(query, "Where"))); pred != nil && isSelectorFunc(pred) {
		e.Pkg = preds.of(pred)
	}
	// Without it (ent's package read from export data, which lists only
	// the imports its API refers to) the entity is still recognised, with
	// no Table and no field methods, as an importer sees v0.12's.
	if e.Pkg != nil {
		e.Table, _ = stringConst(e.Pkg, "Table")
	}
	return e
}

// variadicElem returns the element type of fn's variadic parameter, or nil.
func variadicElem(fn *types.Func) types.Type {
	if fn == nil || !fn.Signature().Variadic() {
		return nil
	}
	ps := fn.Signature().Params()
	if s, ok := ps.At(ps.Len() - 1).Type().(*types.Slice); ok {
		return s.Elem()
	}
	return nil
}

// predicatePackages finds, among pkg's imports that have the shape of an
// entity package (entityPackage), the one that declares a function
// returning a predicate type (account.ID(id) predicate.Account). The
// imports are scanned once, on the first question, for every entity.
type predicatePackages struct {
	pkg  *types.Package
	byTy map[*types.TypeName]*types.Package // nil until scanned
}

func (p *predicatePackages) of(pred *types.Named) *types.Package {
	if p.byTy == nil {
		p.byTy = map[*types.TypeName]*types.Package{}
		for _, imp := range p.pkg.Imports() {
			if !entityPackage(imp) {
				continue
			}
			scope := imp.Scope()
			for _, name := range scope.Names() {
				f, ok := scope.Lookup(name).(*types.Func)
				if !ok || f.Signature().Results().Len() != 1 {
					continue
				}
				if n, ok := types.Unalias(f.Signature().Results().At(0).Type()).(*types.Named); ok && p.byTy[n.Obj()] == nil {
					p.byTy[n.Obj()] = imp
				}
			}
		}
	}
	return p.byTy[pred.Obj()]
}

// EntModelEntity returns the entity whose model struct is t (or what t
// points to): ent.Account for *ent.Account; nil when t is no generated
// entity's model.
func EntModelEntity(t types.Type) *EntEntity {
	named := namedOf(t)
	if named == nil {
		return nil
	}
	ep := EntPackage(named.Obj().Pkg())
	if ep == nil {
		return nil
	}
	for _, e := range ep.Entities {
		if e.Model == named.Obj() {
			return e
		}
	}
	return nil
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
