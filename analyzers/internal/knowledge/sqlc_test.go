package knowledge_test

import (
	"go/types"
	"os"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/ssa/ssautil"

	"github.com/idemlint/idemlint/analyzers/internal/knowledge"
	"github.com/idemlint/idemlint/analyzers/internal/testutil"
)

// genLoad loads the generated fixture packages once, from source, and
// builds their SSA.
var genLoad = struct {
	once  sync.Once
	err   error
	pkgs  map[string]*ssa.Package // by import path
	typed map[string]*types.Package
}{}

const fixturesModule = "example.com/fixtures/knowledge/"

func generatedPkgs(t *testing.T) (map[string]*ssa.Package, map[string]*types.Package) {
	t.Helper()
	dir := testutil.Fixtures(t)
	genLoad.once.Do(func() {
		cfg := &packages.Config{
			Mode: packages.LoadAllSyntax,
			Dir:  dir,
			Env:  append(os.Environ(), "GOPROXY=off", "GOFLAGS=-mod=readonly", "GOWORK=off"),
		}
		pkgs, err := packages.Load(cfg, "./knowledge/sqlc/...", "./knowledge/ent/...")
		if err != nil {
			genLoad.err = err
			return
		}
		if packages.PrintErrors(pkgs) > 0 {
			genLoad.err = assert.AnError
			return
		}
		prog, spkgs := ssautil.Packages(pkgs, ssa.BuilderMode(0))
		prog.Build()
		genLoad.pkgs = map[string]*ssa.Package{}
		genLoad.typed = map[string]*types.Package{}
		for i, p := range pkgs {
			genLoad.pkgs[p.PkgPath] = spkgs[i]
			genLoad.typed[p.PkgPath] = p.Types
		}
	})
	require.NoError(t, genLoad.err)
	return genLoad.pkgs, genLoad.typed
}

// genMember returns the function or method (on *T) name of the package.
func genMember(t *testing.T, pkg *ssa.Package, recv, name string) *ssa.Function {
	t.Helper()
	if recv == "" {
		fn := pkg.Func(name)
		require.NotNil(t, fn, name)
		return fn
	}
	typ := pkg.Type(recv)
	require.NotNil(t, typ, recv)
	sel := pkg.Prog.MethodSets.MethodSet(types.NewPointer(typ.Type())).Lookup(pkg.Pkg, name)
	require.NotNil(t, sel, recv+"."+name)
	return pkg.Prog.MethodValue(sel)
}

func TestParseSQLCHeader(t *testing.T) {
	for _, tc := range []struct {
		sql, name, cmd string
		ok             bool
	}{
		{"-- name: GetAccount :one\nSELECT 1", "GetAccount", ":one", true},
		{"-- name: ListAccounts :many\nSELECT 1", "ListAccounts", ":many", true},
		{"-- name: SetBalance :exec\nUPDATE t SET b = $1", "SetBalance", ":exec", true},
		{"-- name: Bump :execrows\n", "Bump", ":execrows", true},
		{"-- name: Del :execresult\n", "Del", ":execresult", true},
		{"-- name: Create :execlastid\n", "Create", ":execlastid", true},
		{"-- name: Copy :copyfrom\n", "Copy", ":copyfrom", true},
		{"-- name: B :batchexec\n", "B", ":batchexec", true},
		{"-- name: B :batchone\n", "B", ":batchone", true},
		{"-- name: B :batchmany\n", "B", ":batchmany", true},
		{"-- name: X :one", "X", ":one", true}, // no newline: the whole text is the header
		{"-- name: X :bogus\n", "", "", false},
		{"-- name: X\n", "", "", false},
		{"-- name: 1X :one\n", "", "", false},
		{"-- name: X :one extra\n", "", "", false},
		{"SELECT 1 -- name: X :one", "", "", false},
		{"--name: X :one\n", "", "", false},
	} {
		name, cmd, ok := knowledge.ParseSQLCHeader(tc.sql)
		assert.Equal(t, tc.ok, ok, tc.sql)
		assert.Equal(t, tc.name, name, tc.sql)
		assert.Equal(t, tc.cmd, cmd, tc.sql)
	}
}

// TestSQLC checks every generated query method of the fixtures: command,
// DB method and kind, handle, and the placeholder mapping.
func TestSQLC(t *testing.T) {
	pkgs, _ := generatedPkgs(t)
	type want struct {
		cmd      string
		db       string // the DB row's Func
		kind     knowledge.Kind
		affected bool
		dynamic  bool
		handle   int
		binds    []knowledge.SQLCBind
	}
	p := func(i int) knowledge.SQLCBind { return knowledge.SQLCBind{Param: i} }
	f := func(i int, field string) knowledge.SQLCBind { return knowledge.SQLCBind{Param: i, Field: field} }
	each := func(i int, field string) knowledge.SQLCBind {
		return knowledge.SQLCBind{Param: i, Field: field, Each: true}
	}
	const (
		pgxExec     = "(github.com/jackc/pgx/v5.Tx).Exec"
		pgxQueryRow = "(github.com/jackc/pgx/v5.Tx).QueryRow"
		pgxQuery    = "(github.com/jackc/pgx/v5.Tx).Query"
		pgxQueue    = "(github.com/jackc/pgx/v5.Batch).Queue"
		sqlExec     = "(database/sql.Tx).ExecContext"
		sqlQueryRow = "(database/sql.Tx).QueryRowContext"
		sqlQuery    = "(database/sql.Tx).QueryContext"
	)
	exec, query, queue := knowledge.Exec, knowledge.Query, knowledge.Queue
	// The queries of query.sql, in the pgx/v5 and database/sql flavours.
	common := func(execDB, queryRowDB, queryDB string, handle int) map[string]want {
		a := 1 // the first parameter after ctx (and db)
		if handle >= 0 {
			a = 2
		}
		return map[string]want{
			"GetAccountByEmail":      {":one", queryRowDB, query, false, false, handle, []knowledge.SQLCBind{p(a)}},
			"GetAccountForUpdate":    {":one", queryRowDB, query, false, false, handle, []knowledge.SQLCBind{p(a)}},
			"CreateAccount":          {":one", queryRowDB, query, false, false, handle, []knowledge.SQLCBind{p(a)}},
			"UpsertAccount":          {":one", queryRowDB, query, false, false, handle, []knowledge.SQLCBind{f(a, "Email"), f(a, "Balance")}},
			"InsertAccountIfAbsent":  {":execrows", execDB, exec, true, false, handle, []knowledge.SQLCBind{p(a)}},
			"SetBalance":             {":exec", execDB, exec, false, false, handle, []knowledge.SQLCBind{f(a, "ID"), f(a, "Balance")}},
			"AddBalance":             {":exec", execDB, exec, false, false, handle, []knowledge.SQLCBind{f(a, "Amount"), f(a, "ID")}},
			"UpdateBalanceVersioned": {":execrows", execDB, exec, true, false, handle, []knowledge.SQLCBind{f(a, "ID"), f(a, "Balance"), f(a, "Version")}},
			"IncrementCounter":       {":one", queryRowDB, query, false, false, handle, []knowledge.SQLCBind{p(a)}},
			"ListAccounts":           {":many", queryDB, query, false, false, handle, nil},
			"ListAccountsAbove":      {":many", queryDB, query, false, false, handle, []knowledge.SQLCBind{f(a, "Balance"), f(a, "Counter")}},
			"DeleteAccount":          {":execresult", execDB, exec, true, false, handle, []knowledge.SQLCBind{p(a)}},
		}
	}
	pgxWants := common(pgxExec, pgxQueryRow, pgxQuery, -1)
	pgxWants["AddBalances"] = want{":batchexec", pgxQueue, queue, false, false, -1, []knowledge.SQLCBind{each(1, "ID"), each(1, "Balance")}}
	pgxWants["GetAccountsBatch"] = want{":batchone", pgxQueue, queue, false, false, -1, []knowledge.SQLCBind{each(1, "")}}
	pgxWants["ListByEmailBatch"] = want{":batchmany", pgxQueue, queue, false, false, -1, []knowledge.SQLCBind{each(1, "")}}
	flavours := map[string]map[string]want{
		"pgxdb":   pgxWants,
		"sqldb":   common(sqlExec, sqlQueryRow, sqlQuery, -1),
		"dbargdb": common(pgxExec, pgxQueryRow, pgxQuery, 1),
		// emit_prepared_queries: through the exec/query/queryRow helpers,
		// whose default branch runs q.db's method.
		"prepdb": common(sqlExec, sqlQueryRow, sqlQuery, -1),
		"mysqldb": {
			"GetAccountForUpdate":    {":one", sqlQueryRow, query, false, false, -1, []knowledge.SQLCBind{p(1)}},
			"CreateAccount":          {":execlastid", sqlExec, exec, false, false, -1, []knowledge.SQLCBind{p(1)}},
			"UpsertAccount":          {":execresult", sqlExec, exec, true, false, -1, []knowledge.SQLCBind{f(1, "Email"), f(1, "Balance")}},
			"UpdateBalanceVersioned": {":execrows", sqlExec, exec, true, false, -1, []knowledge.SQLCBind{f(1, "Balance"), f(1, "ID"), f(1, "Version")}},
			"AddBalance":             {":exec", sqlExec, exec, false, false, -1, []knowledge.SQLCBind{f(1, "Amount"), f(1, "ID")}},
			// sqlc.slice: strings.Replace on the constant, binds appended.
			"ListAccountsByIDs": {":many", sqlQuery, query, false, true, -1, nil},
		},
	}
	for flavour, wants := range flavours {
		pkg := pkgs[fixturesModule+"sqlc/"+flavour]
		require.NotNil(t, pkg, flavour)
		queries := 0
		for _, fn := range genMethods(pkg) {
			q := knowledge.SQLC(fn)
			w, isQuery := wants[fn.Name()]
			if !isQuery || fn.Signature.Recv() == nil || fn.Signature.Recv().Type().String() != "*"+fixturesModule+"sqlc/"+flavour+".Queries" {
				assert.Nil(t, q, "%s.%s is no query method", flavour, fn)
				continue
			}
			queries++
			if !assert.NotNil(t, q, "%s %s", flavour, fn) {
				continue
			}
			assert.Equal(t, fn.Name(), q.Name, flavour)
			assert.Equal(t, w.cmd, q.Cmd, "%s %s", flavour, fn.Name())
			if assert.NotNil(t, q.DB, "%s %s", flavour, fn.Name()) {
				assert.Equal(t, w.db, q.DB.Func.String(), "%s %s", flavour, fn.Name())
			}
			assert.Equal(t, w.kind, q.Kind, "%s %s", flavour, fn.Name())
			assert.Equal(t, w.affected, q.Affected, "%s %s", flavour, fn.Name())
			assert.Equal(t, w.dynamic, q.Dynamic, "%s %s", flavour, fn.Name())
			assert.Equal(t, w.handle, q.Handle, "%s %s", flavour, fn.Name())
			assert.Equal(t, w.binds, q.Binds, "%s %s", flavour, fn.Name())
			assert.Contains(t, q.SQL, "-- name: "+fn.Name()+" "+w.cmd+"\n", flavour)
		}
		assert.Equal(t, len(wants), queries, "%s: query methods found", flavour)
	}
}

// genMethods returns the package's functions and the methods of its types.
func genMethods(pkg *ssa.Package) []*ssa.Function {
	var fns []*ssa.Function
	for _, m := range pkg.Members {
		switch m := m.(type) {
		case *ssa.Function:
			fns = append(fns, m)
		case *ssa.Type:
			mset := pkg.Prog.MethodSets.MethodSet(types.NewPointer(m.Type()))
			for i := 0; i < mset.Len(); i++ {
				if fn := pkg.Prog.MethodValue(mset.At(i)); fn != nil && fn.Pkg == pkg {
					fns = append(fns, fn)
				}
			}
		}
	}
	return fns
}

// TestSQLCString checks the String form the probe reports.
func TestSQLCString(t *testing.T) {
	pkgs, _ := generatedPkgs(t)
	for _, tc := range []struct{ pkg, name, want string }{
		{"pgxdb", "UpdateBalanceVersioned", "UpdateBalanceVersioned :execrows: exec affected $1=p1.ID $2=p1.Balance $3=p1.Version"},
		{"dbargdb", "SetBalance", "SetBalance :exec: exec db=p1 $1=p2.ID $2=p2.Balance"},
		{"mysqldb", "UpdateBalanceVersioned", "UpdateBalanceVersioned :execrows: exec affected ?1=p1.Balance ?2=p1.ID ?3=p1.Version"},
		{"mysqldb", "ListAccountsByIDs", "ListAccountsByIDs :many: query dynamic"},
		{"pgxdb", "AddBalances", "AddBalances :batchexec: queue $1=p1[].ID $2=p1[].Balance"},
	} {
		q := knowledge.SQLC(genMember(t, pkgs[fixturesModule+"sqlc/"+tc.pkg], "Queries", tc.name))
		if assert.NotNil(t, q, tc.name) {
			assert.Equal(t, tc.want, q.String())
		}
	}
}

// TestSQLCHandle checks New, WithTx and Prepare, and that nothing else is
// one.
func TestSQLCHandle(t *testing.T) {
	pkgs, _ := generatedPkgs(t)
	wants := map[string]map[string]int{ // flavour -> function -> handle parameter
		"pgxdb":   {"New": 0, "WithTx": 0},
		"sqldb":   {"New": 0, "WithTx": 0},
		"prepdb":  {"New": 0, "WithTx": 0, "Prepare": 1},
		"mysqldb": {"New": 0, "WithTx": 0},
		"dbargdb": {}, // New() binds nothing
	}
	for flavour, want := range wants {
		pkg := pkgs[fixturesModule+"sqlc/"+flavour]
		found := map[string]int{}
		for _, fn := range genMethods(pkg) {
			if c := knowledge.SQLCHandle(fn); c != nil {
				assert.Equal(t, knowledge.NewHandle, c.Kind, fn.String())
				assert.Equal(t, knowledge.ClientResult, c.Result, fn.String())
				i, ok := c.Param(knowledge.Handle)
				assert.True(t, ok, fn.String())
				found[fn.Name()] = i
			}
		}
		assert.Equal(t, want, found, flavour)
	}
}
