package knowledge

import (
	"go/constant"
	"go/types"
	"strings"
)

// The rows of ent's generated API: what a call of the generated client does.

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
//     Clone, Select, GroupBy, Aggregate, Modify, With<X> (Chain: the
//     eager loading of edge X, a query of its own); ForUpdate and
//     ForShare (LockStep, Clauses=0: the lock options); First, FirstX,
//     FirstID, FirstIDX, Only, OnlyX, OnlyID, OnlyIDX (Find, One), All,
//     AllX, IDs, IDsX, Count, CountX, Exist, ExistX (Find).
//   - <E>Select, <E>GroupBy, selector: every method taking a context
//     first (Scan, Strings, Int...): Find; Aggregate, Modify: Chain. The
//     selector is one type that every entity's Select and GroupBy
//     embeds: with more than one entity its promoted finishers have no
//     Entity.
//   - <E>Create: Set<F>, SetNillable<F> (SetStep, Value=0); the edge
//     setters Set<X>ID, SetNillable<X>ID, Set<X> (SetStep of the
//     foreign-key column when this row holds it, else Chain) and
//     Add<Y>IDs, Add<Y> (Chain), see entEdgeSetter; OnConflict
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
//     Value=0), And, Or, Not (Predicate, Cond=0), and the edge
//     predicates Has<X> and Has<X>With (Predicate "HAS", Cond=0; Column
//     the foreign key when this row holds it), see entEdgePredicate.
//
// A field method is one whose <F> has a Field<F> constant in the entity
// package, an edge method one whose <X> has an Edge<X> constant
// (entedges.go). The edge methods of the update builders (Set<X>ID,
// Clear<X>, Add<Y>IDs, Remove<Y>IDs) are not recognised: an update chain
// holding one stays unsummarised. Anything else returns nil, nil.
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
	e, b := ep.owner[named.Obj()], ep.shared[named.Obj()]
	if e != nil {
		b = e.builders[named.Obj()]
	}
	if b != EntNoBuilder {
		info := &EntInfo{Builder: b, Entity: e}
		switch b {
		case EntEntityClient:
			switch name {
			case "Query":
				info.Op = Find
				return row(Chain), info
			case "Get", "GetX":
				info.Op, info.One = Find, true
				r := row(Find, p(1, Cond))
				r.ErrNoRow = name == "Get" // a *NotFoundError
				return r, info
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
				r := row(Find)
				// The error variants return a *NotFoundError when no row
				// matched; the X variants panic with it.
				r.ErrNoRow = !strings.HasSuffix(name, "X")
				return r, info
			case "All", "AllX", "IDs", "IDsX", "Count", "CountX", "Exist", "ExistX":
				return row(Find), info
			}
			if entEagerLoad(e, fn) {
				return row(Chain), info
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
				if c, i := entSetter(e, info, name, row, "SetNillable", "Set"); c != nil {
					return c, i
				}
				return entEdgeSetter(e, info, fn, row)
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
	{"ContainsFold", "LIKE"}, {"EqualFold", "= FOLD"}, {"HasPrefix", "LIKE"}, {"HasSuffix", "LIKE"},
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
	return entEdgePredicate(e, info, call, fn.Name(), sig)
}

// entityPackage reports whether pkg has the shape of a generated entity
// package, in every ent version from v0.10 on: string constants Label,
// Table and FieldID, a []string variable Columns, and a function
// ValidColumn(string) bool. (The type OrderOption, of the same
// underlying type as the predicates, came with v0.12.)
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
	valid, ok := pkg.Scope().Lookup("ValidColumn").(*types.Func)
	if !ok {
		return false
	}
	sig := valid.Signature()
	return sig.Recv() == nil && sig.Params().Len() == 1 && sig.Results().Len() == 1 &&
		types.Identical(sig.Params().At(0).Type(), types.Typ[types.String]) &&
		types.Identical(sig.Results().At(0).Type(), types.Typ[types.Bool])
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
