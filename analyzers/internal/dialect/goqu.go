package dialect

import (
	"fmt"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/ops"
	"github.com/idemlint/idemlint/analyzers/internal/ssaval"
)

// goquPkg is doug-martin/goqu v9, a query builder: its datasets' ToSQL
// give database/sql the SQL text and the binds, and a dataset made from a
// *goqu.Database or *goqu.TxDatabase runs its SQL itself (ScanStruct,
// Count, Executor().Exec()); the ops layer reads both like constant SQL
// (ops.Library.BuildSQL, Runner), and the operations carry the goqu
// family, so that fixes are written with the builder.
const (
	goquPkg     = "github.com/doug-martin/goqu/v9"
	goquExpPkg  = "github.com/doug-martin/goqu/v9/exp"
	goquExecPkg = "github.com/doug-martin/goqu/v9/exec"
)

var goquDialect = &Dialect{
	Lib: "goqu",
	// goqu.DoNothing() names no target (ON CONFLICT DO NOTHING: any unique
	// key decides, sqlgen insert_sql_generator.go onConflictSQL); the
	// result of Executor().Exec() is database/sql's.
	ClaimInsert: func(cols string) string {
		return fmt.Sprintf("add OnConflict(goqu.DoNothing()) to the insert so that the unique key on (%s) decides, and read the row when RowsAffected() is 0, or catch the unique violation and re-read", cols)
	},
	LockRead: "read the row with ForUpdate(exp.Wait) in the transaction that writes it (a dataset of the *goqu.TxDatabase of db.WithTx or db.Begin, or the *sql.Tx its SQL runs on)",
	AtomicUpdate: func(_ *ops.ColumnWrite, col, expr string) string {
		return fmt.Sprintf("update it in SQL with Set(goqu.Record{%q: goqu.L(%q, delta)})", col, expr)
	},
	VersionPredicate: func(_ *ops.Update, col, _ string) string {
		return fmt.Sprintf("add Where(goqu.C(%q).Eq(v)) and %q: goqu.L(%q) to the Set record, and treat zero affected rows as a conflict", col, col, col+" + 1")
	},
	CheckCount:        "check RowsAffected() of the sql.Result the UPDATE returns (from Executor().Exec(), or the Exec its ToSQL was given) and treat 0 as a conflict",
	UnobservableCount: func(*ops.Update) (string, string) { return "", "" },
	Ops:               &ops.Library{Name: "goqu", Pkg: goquPkg, BuildSQL: goquSQL, Runner: goquRunner},
}

// goquSQL reads the statement a goqu dataset chain builds: from result 0
// of its ToSQL call (binds, when given, must be result 1 of the same
// call), or from the dataset or executor itself when it runs its own SQL.
// goqu interpolates the values into the text unless the chain says
// Prepared(true) (ToSQL's args are then empty); the statement is written
// with a placeholder for each value all the same, bound to the value the
// chain was given, which is in the SQL either way. A step it does not
// know (a join, a sub-select, a predicate other than an Eq-like
// comparison of a constant column, an Ex of constant keys or a literal)
// makes the statement unknown.
func goquSQL(sqlArg, binds ssa.Value) (string, []ssa.Value, bool) {
	var builder ssa.Value
	if ex, ok := sqlArg.(*ssa.Extract); ok && ex.Index == 0 {
		toSQL, ok := ex.Tuple.(*ssa.Call)
		if !ok || gqName(toSQL) != "ToSQL" {
			return "", nil, false
		}
		if bx, ok := binds.(*ssa.Extract); binds != nil && (!ok || bx.Tuple != ssa.Value(toSQL) || bx.Index != 1) {
			return "", nil, false
		}
		builder = toSQL.Common().Args[0]
	} else if binds == nil && isGoquRunner(sqlArg.Type()) {
		builder = sqlArg
	} else {
		return "", nil, false
	}
	steps, ok := gqChain(builder)
	if !ok {
		return "", nil, false
	}
	st := &sqStatement{}
	for i := len(steps) - 1; i >= 0; i-- {
		if !gqApply(st, steps[i]) {
			return "", nil, false
		}
	}
	// goqu writes RETURNING last, whatever the order of the steps
	// (sqlgen insert_sql_generator.go).
	slices.SortStableFunc(st.suffix, func(a, b sqFragment) int {
		return gqReturning(a) - gqReturning(b)
	})
	if st.kind == "SELECT" && st.columns == nil {
		// No Select step: SelectDataset.ScanStruct(s) selects the
		// columns of the struct it scans into (select_dataset.go
		// ScanStructContext: sd.Select(i)); anything else selects *.
		st.columns = []string{"*"}
		if cols, ok := gqScannedColumns(builder); ok {
			st.columns = cols
		}
	}
	return st.write()
}

// gqReturning is 1 for a RETURNING suffix, 0 for the others.
func gqReturning(f sqFragment) int {
	if strings.HasPrefix(f.text, "RETURNING ") {
		return 1
	}
	return 0
}

// gqChain returns the steps of a dataset chain, from the value back to
// the call that starts it; an Executor() step is passed through.
func gqChain(v ssa.Value) ([]*ssa.Call, bool) {
	var steps []*ssa.Call
	for i := 0; ; i++ {
		c, ok := ssaval.Unwrap(v).(*ssa.Call)
		if !ok || i == ops.MaxTrace || gqName(c) == "" {
			return nil, false
		}
		steps = append(steps, c)
		if gqStart(c) {
			return steps, true
		}
		if c.Common().StaticCallee().Signature.Recv() == nil {
			return nil, false // a package function that starts nothing
		}
		v = c.Common().Args[0]
	}
}

// isGoquRunner reports whether t is a dataset or the executor of one,
// the receivers of goqu's finishers.
func isGoquRunner(t types.Type) bool {
	t = types.Unalias(t)
	if p, ok := t.(*types.Pointer); ok {
		t = types.Unalias(p.Elem())
	}
	named, ok := t.(*types.Named)
	if !ok || named.Obj().Pkg() == nil {
		return false
	}
	switch named.Obj().Pkg().Path() + "." + named.Obj().Name() {
	case goquPkg + ".SelectDataset", goquPkg + ".InsertDataset", goquPkg + ".UpdateDataset", goquPkg + ".DeleteDataset",
		goquExecPkg + ".QueryExecutor":
		return true
	}
	return false
}

// goquRunner returns the *goqu.Database or *goqu.TxDatabase a dataset
// chain started from (db.From, tx.Update...), whose query factory runs
// its SQL, or nil.
func goquRunner(builder ssa.Value) ssa.Value {
	steps, ok := gqChain(builder)
	if !ok {
		return nil
	}
	start := steps[len(steps)-1]
	recv := start.Common().StaticCallee().Signature.Recv()
	if recv == nil {
		return nil
	}
	switch gqTypeName(recv.Type()) {
	case "Database", "TxDatabase":
		return unwrapIface(start.Common().Args[0])
	}
	return nil
}

// gqName returns the name of the goqu function or method call calls, or
// "".
func gqName(call *ssa.Call) string {
	callee := call.Common().StaticCallee()
	if callee == nil {
		return ""
	}
	obj, ok := callee.Object().(*types.Func)
	if !ok || obj.Pkg() == nil {
		return ""
	}
	switch obj.Pkg().Path() {
	case goquPkg, goquExecPkg:
		return obj.Name()
	}
	return ""
}

// gqTypeName names the goqu type t is or points to, or "".
func gqTypeName(t types.Type) string {
	t = types.Unalias(t)
	if p, ok := t.(*types.Pointer); ok {
		t = types.Unalias(p.Elem())
	}
	named, ok := t.(*types.Named)
	if !ok || named.Obj().Pkg() == nil || named.Obj().Pkg().Path() != goquPkg {
		return ""
	}
	return named.Obj().Name()
}

// gqStart reports whether call starts a statement: goqu.From, Select,
// Insert, Update or Delete, or the same methods of a DialectWrapper
// (goqu.Dialect("postgres")), a Database or a TxDatabase.
func gqStart(call *ssa.Call) bool {
	switch gqName(call) {
	case "From", "Select", "Insert", "Update", "Delete":
	default:
		return false
	}
	recv := call.Common().StaticCallee().Signature.Recv()
	if recv == nil {
		return true
	}
	switch gqTypeName(recv.Type()) {
	case "DialectWrapper", "Database", "TxDatabase":
		return true
	}
	return false
}

// gqScannedColumns returns the columns SelectDataset.ScanStruct(s) selects
// for the struct the dataset's finishers scan into, when they agree.
func gqScannedColumns(ds ssa.Value) ([]string, bool) {
	var cols []string
	found := false
	for _, ref := range *ds.Referrers() {
		c, ok := ref.(*ssa.Call)
		if !ok || len(c.Common().Args) == 0 || c.Common().Args[0] != ds {
			continue
		}
		dest := -1
		switch gqName(c) {
		case "ScanStruct", "ScanStructs":
			dest = 1
		case "ScanStructContext", "ScanStructsContext":
			dest = 2
		}
		if dest < 0 || gqTypeName(c.Common().Args[0].Type()) != "SelectDataset" {
			continue
		}
		st := gqStructOf(c.Common().Args[dest])
		if st == nil {
			return nil, false
		}
		fields, ok := gqFields(st, "")
		if !ok {
			return nil, false
		}
		var these []string
		for _, f := range fields {
			these = append(these, f.column)
		}
		if found && fmt.Sprint(these) != fmt.Sprint(cols) {
			return nil, false
		}
		cols, found = these, true
	}
	return cols, found
}
