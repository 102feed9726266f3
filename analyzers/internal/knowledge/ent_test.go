package knowledge_test

import (
	"go/types"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/tools/go/packages"

	"github.com/idemlint/idemlint/analyzers/internal/knowledge"
	"github.com/idemlint/idemlint/analyzers/internal/testutil"
)

const (
	entGen        = fixturesModule + "ent/ent"
	entAccount    = fixturesModule + "ent/ent/account"
	entMembership = fixturesModule + "ent/ent/membership"
)

func TestEntPackage(t *testing.T) {
	_, typed := generatedPkgs(t)
	ep := knowledge.EntPackage(typed[entGen])
	require.NotNil(t, ep)
	assert.Equal(t, "Client", ep.Client.Name())
	assert.Equal(t, "Tx", ep.Tx.Name())
	require.Len(t, ep.Entities, 2)
	e := ep.Entities[0]
	assert.Equal(t, "Account", e.Model.Name())
	assert.Equal(t, "AccountClient", e.Client.Name())
	assert.Equal(t, entAccount, e.Pkg.Path())
	assert.Equal(t, "accounts", e.Table)
	col, ok := e.Column("Balance")
	assert.True(t, ok)
	assert.Equal(t, "balance", col)
	_, ok = e.Column("Nope")
	assert.False(t, ok)

	// The edge between them: its foreign key is a column of memberships,
	// not of accounts (an O2M edge seen from the account).
	m := ep.Entities[1]
	assert.Equal(t, "Membership", m.Model.Name())
	assert.Equal(t, "memberships", m.Table)
	col, ok = m.EdgeColumn("Account")
	assert.True(t, ok)
	assert.Equal(t, "account_memberships", col)
	col, ok = m.EdgeColumn("Parent")
	assert.True(t, ok)
	assert.Equal(t, "membership_children", col)
	for _, c := range []struct {
		e    *knowledge.EntEntity
		edge string
	}{{e, "Memberships"}, {e, "Membership"}, {m, "Accounts"}, {m, "Role"}, {m, ""},
		// The tree's children are the other rows' column; next and prev
		// are the two names of one O2O edge on one column.
		{m, "Children"}, {m, "Next"}, {m, "Prev"}} {
		_, ok := c.e.EdgeColumn(c.edge)
		assert.False(t, ok, c.edge)
	}

	// Not ent's root package: its entity and predicate packages, the
	// schema, sqlc's output, ent's runtime.
	for _, path := range []string{entAccount, entGen + "/predicate", entGen + "/schema", fixturesModule + "sqlc/pgxdb", fixturesModule + "ent"} {
		assert.Nil(t, knowledge.EntPackage(typed[path]), path)
	}
	for _, imp := range typed[entGen].Imports() {
		assert.Nil(t, knowledge.EntPackage(imp), imp.Path())
	}
	assert.Nil(t, knowledge.EntPackage(nil))

	// The runtime is covered; the generated code is the user's.
	assert.True(t, knowledge.Covered("entgo.io/ent/dialect/sql/sqlgraph"))
	assert.False(t, knowledge.Covered(entGen))
}

func TestEntType(t *testing.T) {
	_, typed := generatedPkgs(t)
	scope := typed[entGen].Scope()
	for name, want := range map[string]knowledge.TypeRole{
		"Tx": knowledge.TxHandle, "Client": knowledge.EitherHandle, "AccountClient": knowledge.EitherHandle,
		"AccountQuery": knowledge.NoTypeRole, "Account": knowledge.NoTypeRole,
	} {
		tn := scope.Lookup(name)
		require.NotNil(t, tn, name)
		assert.Equal(t, want, knowledge.EntType(types.NewPointer(tn.Type())), name)
	}
}

// entWant is what EntCall should say of one generated method.
type entWant struct {
	kind    knowledge.Kind
	builder knowledge.EntBuilder
	op      knowledge.Kind
	params  []knowledge.Param
	info    string // EntInfo.String()
	meaning knowledge.ErrMeaning
}

func TestEntCall(t *testing.T) {
	_, typed := generatedPkgs(t)
	pkg, acct, memb := typed[entGen], typed[entAccount], typed[entMembership]
	p := func(i int, r knowledge.Role) knowledge.Param { return knowledge.Param{Index: i, Role: r} }
	const (
		chain, find, insert, update, del = knowledge.Chain, knowledge.Find, knowledge.Insert, knowledge.Update, knowledge.Delete
		set, add, lock, conflict, pred   = knowledge.SetStep, knowledge.AddStep, knowledge.LockStep, knowledge.ConflictStep, knowledge.Predicate
	)
	B := struct {
		client, tx, ec, model, query, sel, create, bulk, ups1, upsB, ups, upd, upd1, del, del1, preds, errs knowledge.EntBuilder
	}{knowledge.EntClient, knowledge.EntTx, knowledge.EntEntityClient, knowledge.EntModel, knowledge.EntQuery, knowledge.EntSelect,
		knowledge.EntCreate, knowledge.EntCreateBulk, knowledge.EntUpsertOne, knowledge.EntUpsertBulk, knowledge.EntUpsert,
		knowledge.EntUpdate, knowledge.EntUpdateOne, knowledge.EntDelete, knowledge.EntDeleteOne, knowledge.EntPredicates, knowledge.EntErrors}
	wants := map[string]entWant{
		"Client.Tx":                           {knowledge.Begin, B.client, 0, nil, "", 0},
		"Client.BeginTx":                      {knowledge.Begin, B.client, 0, []knowledge.Param{p(1, knowledge.TxOptions)}, "", 0},
		"Tx.Commit":                           {knowledge.Commit, B.tx, 0, nil, "", 0},
		"Tx.Rollback":                         {knowledge.Rollback, B.tx, 0, nil, "", 0},
		"Tx.Client":                           {knowledge.NewHandle, B.tx, 0, nil, "", 0},
		"AccountClient.Query":                 {chain, B.ec, find, nil, "find accounts", 0},
		"AccountClient.Get":                   {find, B.ec, find, []knowledge.Param{p(1, knowledge.Cond)}, "find accounts one", 0},
		"AccountClient.GetX":                  {find, B.ec, find, []knowledge.Param{p(1, knowledge.Cond)}, "find accounts one", 0},
		"AccountClient.Create":                {chain, B.ec, insert, nil, "insert accounts", 0},
		"AccountClient.CreateBulk":            {chain, B.ec, insert, []knowledge.Param{p(0, knowledge.Model)}, "insert accounts", 0},
		"AccountClient.MapCreateBulk":         {chain, B.ec, insert, []knowledge.Param{p(0, knowledge.Model), p(1, knowledge.Callback)}, "insert accounts", 0},
		"AccountClient.Update":                {chain, B.ec, update, nil, "update accounts", 0},
		"AccountClient.UpdateOne":             {chain, B.ec, update, []knowledge.Param{p(0, knowledge.Model)}, "update accounts one", 0},
		"AccountClient.UpdateOneID":           {chain, B.ec, update, []knowledge.Param{p(0, knowledge.Cond)}, "update accounts one", 0},
		"AccountClient.Delete":                {chain, B.ec, del, nil, "delete accounts", 0},
		"AccountClient.DeleteOne":             {chain, B.ec, del, []knowledge.Param{p(0, knowledge.Model)}, "delete accounts one", 0},
		"AccountClient.DeleteOneID":           {chain, B.ec, del, []knowledge.Param{p(0, knowledge.Cond)}, "delete accounts one", 0},
		"Account.Update":                      {chain, B.model, update, nil, "update accounts one", 0},
		"AccountQuery.Where":                  {chain, B.query, find, []knowledge.Param{p(0, knowledge.Cond)}, "find accounts", 0},
		"AccountQuery.Limit":                  {chain, B.query, find, nil, "find accounts", 0},
		"AccountQuery.Offset":                 {chain, B.query, find, nil, "find accounts", 0},
		"AccountQuery.Unique":                 {chain, B.query, find, nil, "find accounts", 0},
		"AccountQuery.Order":                  {chain, B.query, find, nil, "find accounts", 0},
		"AccountQuery.Clone":                  {chain, B.query, find, nil, "find accounts", 0},
		"AccountQuery.Select":                 {chain, B.query, find, nil, "find accounts", 0},
		"AccountQuery.GroupBy":                {chain, B.query, find, nil, "find accounts", 0},
		"AccountQuery.Aggregate":              {chain, B.query, find, nil, "find accounts", 0},
		"AccountQuery.Modify":                 {chain, B.query, find, []knowledge.Param{p(0, knowledge.Callback)}, "find accounts", 0},
		"AccountQuery.ForUpdate":              {lock, B.query, find, []knowledge.Param{p(0, knowledge.Clauses)}, "find accounts FOR UPDATE", 0},
		"AccountQuery.ForShare":               {lock, B.query, find, []knowledge.Param{p(0, knowledge.Clauses)}, "find accounts FOR SHARE", 0},
		"AccountSelect.Scan":                  {find, B.sel, find, nil, "find accounts", 0},
		"AccountSelect.Aggregate":             {chain, B.sel, find, nil, "find accounts", 0},
		"AccountSelect.Modify":                {chain, B.sel, find, []knowledge.Param{p(0, knowledge.Callback)}, "find accounts", 0},
		"AccountGroupBy.Scan":                 {find, B.sel, find, nil, "find accounts", 0},
		"AccountGroupBy.Aggregate":            {chain, B.sel, find, nil, "find accounts", 0},
		"AccountCreate.SetEmail":              {set, B.create, insert, []knowledge.Param{p(0, knowledge.Value)}, "insert accounts.email", 0},
		"AccountCreate.SetNillableBalance":    {set, B.create, insert, []knowledge.Param{p(0, knowledge.Value)}, "insert accounts.balance", 0},
		"AccountCreate.OnConflict":            {conflict, B.create, insert, []knowledge.Param{p(0, knowledge.Clauses)}, "insert accounts", 0},
		"AccountCreate.OnConflictColumns":     {conflict, B.create, insert, []knowledge.Param{p(0, knowledge.Column)}, "insert accounts", 0},
		"AccountCreateBulk.OnConflict":        {conflict, B.bulk, insert, []knowledge.Param{p(0, knowledge.Clauses)}, "insert accounts", 0},
		"AccountUpsertOne.DoNothing":          {conflict, B.ups1, insert, nil, "insert accounts on conflict DO NOTHING", 0},
		"AccountUpsertOne.Ignore":             {conflict, B.ups1, insert, nil, "insert accounts on conflict IGNORE", 0},
		"AccountUpsertOne.UpdateNewValues":    {conflict, B.ups1, insert, nil, "insert accounts on conflict UPDATE NEW VALUES", 0},
		"AccountUpsertOne.Update":             {conflict, B.ups1, insert, []knowledge.Param{p(0, knowledge.Callback)}, "insert accounts on conflict UPDATE SET", 0},
		"AccountUpsertOne.SetEmail":           {set, B.ups1, insert, []knowledge.Param{p(0, knowledge.Value)}, "insert accounts.email", 0},
		"AccountUpsertOne.AddCounter":         {add, B.ups1, insert, []knowledge.Param{p(0, knowledge.Value)}, "insert accounts.counter", 0},
		"AccountUpsertOne.UpdateBalance":      {set, B.ups1, insert, nil, "insert accounts.balance excluded", 0},
		"AccountUpsertOne.ID":                 {insert, B.ups1, insert, nil, "insert accounts", 0},
		"AccountUpsertBulk.Exec":              {insert, B.upsB, insert, nil, "insert accounts", 0},
		"AccountUpsertBulk.DoNothing":         {conflict, B.upsB, insert, nil, "insert accounts on conflict DO NOTHING", 0},
		"AccountUpsert.AddVersion":            {add, B.ups, insert, []knowledge.Param{p(0, knowledge.Value)}, "insert accounts.version", 0},
		"AccountUpsert.UpdateEmail":           {set, B.ups, insert, nil, "insert accounts.email excluded", 0},
		"AccountUpdate.Where":                 {chain, B.upd, update, []knowledge.Param{p(0, knowledge.Cond)}, "update accounts", 0},
		"AccountUpdate.SetBalance":            {set, B.upd, update, []knowledge.Param{p(0, knowledge.Value)}, "update accounts.balance", 0},
		"AccountUpdate.AddBalance":            {add, B.upd, update, []knowledge.Param{p(0, knowledge.Value)}, "update accounts.balance", 0},
		"AccountUpdate.SetNillableEmail":      {set, B.upd, update, []knowledge.Param{p(0, knowledge.Value)}, "update accounts.email", 0},
		"AccountUpdate.Modify":                {chain, B.upd, update, []knowledge.Param{p(0, knowledge.Callback)}, "update accounts", 0},
		"AccountUpdate.Save":                  {update, B.upd, update, nil, "update accounts affected", 0},
		"AccountUpdate.Exec":                  {update, B.upd, update, nil, "update accounts", 0},
		"AccountUpdateOne.Where":              {chain, B.upd1, update, []knowledge.Param{p(0, knowledge.Cond)}, "update accounts one", 0},
		"AccountUpdateOne.Select":             {chain, B.upd1, update, nil, "update accounts one", 0},
		"AccountUpdateOne.AddCounter":         {add, B.upd1, update, []knowledge.Param{p(0, knowledge.Value)}, "update accounts.counter one", 0},
		"AccountUpdateOne.SetCounter":         {set, B.upd1, update, []knowledge.Param{p(0, knowledge.Value)}, "update accounts.counter one", 0},
		"AccountUpdateOne.SetNillableCounter": {set, B.upd1, update, []knowledge.Param{p(0, knowledge.Value)}, "update accounts.counter one", 0},
		"AccountUpdateOne.Save":               {update, B.upd1, update, nil, "update accounts one", 0},
		"AccountUpdateOne.SaveX":              {update, B.upd1, update, nil, "update accounts one", 0},
		"AccountDelete.Where":                 {chain, B.del, del, []knowledge.Param{p(0, knowledge.Cond)}, "delete accounts", 0},
		"AccountDelete.Exec":                  {del, B.del, del, nil, "delete accounts affected", 0},
		"AccountDeleteOne.Exec":               {del, B.del1, del, nil, "delete accounts one", 0},
		"AccountDeleteOne.ExecX":              {del, B.del1, del, nil, "delete accounts one", 0},
		"IsNotFound":                          {knowledge.ErrorCheck, B.errs, 0, []knowledge.Param{p(0, knowledge.ErrArg)}, "", knowledge.NotFound},
		"IsConstraintError":                   {knowledge.ErrorCheck, B.errs, 0, []knowledge.Param{p(0, knowledge.ErrArg)}, "", knowledge.UniqueViolation},
		"account.Balance":                     {pred, B.preds, 0, []knowledge.Param{p(0, knowledge.Value)}, "accounts.balance =", 0},
		"account.VersionEQ":                   {pred, B.preds, 0, []knowledge.Param{p(0, knowledge.Value)}, "accounts.version =", 0},
		"account.VersionNEQ":                  {pred, B.preds, 0, []knowledge.Param{p(0, knowledge.Value)}, "accounts.version <>", 0},
		"account.CounterGTE":                  {pred, B.preds, 0, []knowledge.Param{p(0, knowledge.Value)}, "accounts.counter >=", 0},
		"account.CounterGT":                   {pred, B.preds, 0, []knowledge.Param{p(0, knowledge.Value)}, "accounts.counter >", 0},
		"account.IDIn":                        {pred, B.preds, 0, []knowledge.Param{p(0, knowledge.Value)}, "accounts.id IN", 0},
		"account.EmailNotIn":                  {pred, B.preds, 0, []knowledge.Param{p(0, knowledge.Value)}, "accounts.email NOT IN", 0},
		"account.EmailContainsFold":           {pred, B.preds, 0, []knowledge.Param{p(0, knowledge.Value)}, "accounts.email LIKE", 0},
		"account.ID":                          {pred, B.preds, 0, []knowledge.Param{p(0, knowledge.Value)}, "accounts.id =", 0},
		"account.And":                         {pred, B.preds, 0, []knowledge.Param{p(0, knowledge.Cond)}, "accounts AND", 0},
		"account.Not":                         {pred, B.preds, 0, []knowledge.Param{p(0, knowledge.Cond)}, "accounts NOT", 0},
		// The edge: its foreign key account_memberships is in the
		// memberships table.
		"MembershipCreate.SetAccountID":         {set, B.create, insert, []knowledge.Param{p(0, knowledge.Value)}, "insert memberships.account_memberships edge Account to accounts", 0},
		"MembershipCreate.SetNillableAccountID": {set, B.create, insert, []knowledge.Param{p(0, knowledge.Value)}, "insert memberships.account_memberships edge Account to accounts", 0},
		"MembershipCreate.SetAccount":           {set, B.create, insert, []knowledge.Param{p(0, knowledge.Value)}, "insert memberships.account_memberships edge Account to accounts by-model", 0},
		"MembershipCreate.SetRole":              {set, B.create, insert, []knowledge.Param{p(0, knowledge.Value)}, "insert memberships.role", 0},
		"AccountQuery.WithMemberships":          {chain, B.query, find, nil, "find accounts", 0},
		"MembershipQuery.WithAccount":           {chain, B.query, find, nil, "find memberships", 0},
		"MembershipCreate.SetParentID":          {set, B.create, insert, []knowledge.Param{p(0, knowledge.Value)}, "insert memberships.membership_children edge Parent to memberships", 0},
		"MembershipCreate.SetNextID":            {chain, B.create, insert, nil, "insert memberships edge Next to memberships", 0},
		"MembershipCreate.SetPrev":              {chain, B.create, insert, nil, "insert memberships edge Prev to memberships", 0},
		"MembershipCreate.AddChildIDs":          {chain, B.create, insert, nil, "insert memberships", 0},
		"membership.HasChildrenWith":            {pred, B.preds, 0, []knowledge.Param{p(0, knowledge.Cond)}, "memberships edge Children to memberships HAS", 0},
		"membership.HasParentWith":              {pred, B.preds, 0, []knowledge.Param{p(0, knowledge.Cond)}, "memberships.membership_children edge Parent to memberships HAS", 0},
		"AccountCreate.AddMembershipIDs":        {chain, B.create, insert, nil, "insert accounts", 0},
		"AccountCreate.AddMemberships":          {chain, B.create, insert, nil, "insert accounts", 0},
		"membership.HasAccountWith":             {pred, B.preds, 0, []knowledge.Param{p(0, knowledge.Cond)}, "memberships.account_memberships edge Account to accounts HAS", 0},
		"membership.HasAccount":                 {pred, B.preds, 0, nil, "memberships.account_memberships edge Account to accounts HAS", 0},
		"account.HasMembershipsWith":            {pred, B.preds, 0, []knowledge.Param{p(0, knowledge.Cond)}, "accounts edge Memberships to memberships HAS", 0},
		"account.HasMemberships":                {pred, B.preds, 0, nil, "accounts edge Memberships to memberships HAS", 0},
	}
	// Not recognised: not what the builders do in SQL, or not a field.
	unknown := []string{
		"Client.Debug", "Client.Close", "Client.Use", "Client.Intercept", "Client.Mutate",
		"Tx.OnCommit", "Tx.OnRollback", "AccountClient.Use", "AccountClient.Hooks",
		"AccountCreate.Mutation", "AccountUpdate.Mutation", "AccountMutation.SetBalance", "AccountMutation.AddBalance",
		"AccountMutation.Where", "Account.String", "Account.Unwrap", "NewClient", "Open", "Driver", "IsNotSingular",
		"MaskNotFound", "Asc", "account.ValidColumn", "account.ByEmail",
		// The update builders' edge methods are not recognised.
		"MembershipUpdate.SetAccountID", "MembershipUpdateOne.ClearAccount", "AccountUpdate.AddMembershipIDs",
		"AccountUpdateOne.RemoveMembershipIDs", "AccountUpdate.ClearMemberships", "account.ByMembershipsCount",
		"membership.ByAccountField",
	}
	lookup := func(key string) *types.Func {
		scope := pkg.Scope()
		recv, name, isMethod := entCut(key)
		if recv == "account" || recv == "membership" {
			scope := acct.Scope()
			if recv == "membership" {
				scope = memb.Scope()
			}
			obj, _ := scope.Lookup(name).(*types.Func)
			return obj
		}
		if !isMethod {
			obj, _ := scope.Lookup(key).(*types.Func)
			return obj
		}
		tn, _ := scope.Lookup(recv).(*types.TypeName)
		if tn == nil {
			return nil
		}
		obj, _, _ := types.LookupFieldOrMethod(types.NewPointer(tn.Type()), true, pkg, name)
		f, _ := obj.(*types.Func)
		return f
	}
	for key, w := range wants {
		fn := lookup(key)
		require.NotNil(t, fn, key)
		row, info := knowledge.EntCall(fn)
		if !assert.NotNil(t, row, key) || !assert.NotNil(t, info, key) {
			continue
		}
		assert.Equal(t, w.kind, row.Kind, key)
		assert.Equal(t, w.builder, info.Builder, key)
		assert.Equal(t, w.op, info.Op, key)
		assert.Equal(t, w.params, row.Params, key)
		assert.Equal(t, w.info, info.String(), key)
		assert.Equal(t, w.meaning, row.Meaning, key)
		assert.Equal(t, "ent", row.Lib, key)
		assert.Equal(t, knowledge.FuncOf(fn), row.Func, key)
	}
	for _, key := range unknown {
		fn := lookup(key)
		require.NotNil(t, fn, key)
		row, info := knowledge.EntCall(fn)
		assert.Nil(t, row, key)
		assert.Nil(t, info, key)
	}
	// The selector's promoted finishers.
	sel := lookup("AccountSelect.Strings")
	require.NotNil(t, sel)
	row, info := knowledge.EntCall(sel)
	require.NotNil(t, row)
	assert.Equal(t, knowledge.Find, row.Kind)
	assert.Equal(t, "selector", row.Func.Recv)
	assert.Equal(t, knowledge.EntSelect, info.Builder)
}

// entCut splits "Recv.Name".
func entCut(key string) (recv, name string, ok bool) {
	for i := range key {
		if key[i] == '.' {
			return key[:i], key[i+1:], true
		}
	}
	return "", key, false
}

// TestEntCallEveryMethod classifies every method of the generated
// builders: each is recognised with an entity, or not at all, and the
// setters name a column.
func TestEntCallEveryMethod(t *testing.T) {
	_, typed := generatedPkgs(t)
	pkg := typed[entGen]
	recognised := 0
	for _, name := range pkg.Scope().Names() {
		tn, ok := pkg.Scope().Lookup(name).(*types.TypeName)
		if !ok {
			continue
		}
		mset := types.NewMethodSet(types.NewPointer(tn.Type()))
		for i := 0; i < mset.Len(); i++ {
			fn := mset.At(i).Obj().(*types.Func)
			row, info := knowledge.EntCall(fn)
			if row == nil {
				continue
			}
			recognised++
			switch row.Kind {
			case knowledge.SetStep, knowledge.AddStep:
				assert.NotEmpty(t, info.Column, fn.FullName())
				assert.Equal(t, strings.ToLower(info.Entity.Model.Name())+"s", info.Entity.Table, fn.FullName())
				assert.True(t, strings.HasPrefix(tn.Name(), info.Entity.Model.Name()), fn.FullName())
			case knowledge.Find, knowledge.Insert, knowledge.Update, knowledge.Delete:
				assert.Equal(t, row.Kind, info.Op, fn.FullName())
			}
		}
	}
	assert.Greater(t, recognised, 150)
}

// TestEntFromExportData loads the generated package from gc export data,
// as go vet's unitchecker does for an importer: the package is recognised,
// but the entity package holds only what the exported API refers to, so
// the table and the field methods are unknown there. Hence EntCall is to
// be run in the generated package's own pass.
func TestEntFromExportData(t *testing.T) {
	dir := testutil.Fixtures(t)
	cfg := &packages.Config{
		Mode: packages.NeedName | packages.NeedTypes | packages.NeedImports,
		Dir:  dir,
		Env:  append(os.Environ(), "GOPROXY=off", "GOFLAGS=-mod=readonly", "GOWORK=off"),
	}
	pkgs, err := packages.Load(cfg, "./knowledge/ent/ent")
	require.NoError(t, err)
	require.Len(t, pkgs, 1)
	require.Empty(t, pkgs[0].Errors)
	ep := knowledge.EntPackage(pkgs[0].Types)
	require.NotNil(t, ep)
	require.Len(t, ep.Entities, 2)
	assert.Equal(t, "", ep.Entities[0].Table)
	tn := pkgs[0].Types.Scope().Lookup("AccountUpdateOne")
	require.NotNil(t, tn)
	obj, _, _ := types.LookupFieldOrMethod(types.NewPointer(tn.Type()), true, pkgs[0].Types, "Save")
	row, info := knowledge.EntCall(obj.(*types.Func))
	require.NotNil(t, row)
	assert.Equal(t, knowledge.Update, row.Kind)
	assert.Equal(t, "update Account one", info.String())
	obj, _, _ = types.LookupFieldOrMethod(types.NewPointer(tn.Type()), true, pkgs[0].Types, "AddCounter")
	row, _ = knowledge.EntCall(obj.(*types.Func))
	assert.Nil(t, row)
}
