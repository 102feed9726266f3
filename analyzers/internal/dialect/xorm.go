package dialect

import (
	"fmt"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/knowledge"
	"github.com/idemlint/idemlint/analyzers/internal/ops"
	"github.com/idemlint/idemlint/analyzers/internal/ssaval"
)

// xormDialect is xorm.io/xorm's Engine and Session. xorm has no ON
// CONFLICT API (its inserts are plain INSERTs), so conflicts are raw SQL
// through Exec; its version check is Update's own (a struct bean with a
// `xorm:"version"` field), summarised as the WHERE and SET it adds.
var xormDialect = &Dialect{
	Models: xormModels,
	Lib:    "xorm",
	ClaimInsert: func(cols string) string {
		return fmt.Sprintf("insert with Exec(\"INSERT ... ON CONFLICT (%s) DO NOTHING\", ...) and read the row when RowsAffected() is 0, or catch the driver's unique violation from Insert and re-read", cols)
	},
	LockRead:     "read the row with ForUpdate() on the session that writes it, between Begin and Commit or in engine.Transaction",
	PartialWrite: "write only the changed columns (Cols(\"col\", ...) before Update)",
	AtomicUpdate: func(_ *ops.ColumnWrite, col, expr string) string {
		switch expr {
		case col + " + ?":
			return fmt.Sprintf("update it in SQL with Incr(%q, delta) on the Update instead of the value computed in Go", col)
		case col + " - ?":
			return fmt.Sprintf("update it in SQL with Decr(%q, delta) on the Update instead of the value computed in Go", col)
		}
		return fmt.Sprintf("update it in SQL with SetExpr(%q, %q) on the Update instead of the value computed in Go", col, expr)
	},
	VersionPredicate: func(u *ops.Update, col, _ string) string {
		switch u.Method {
		case xormUpdateMap:
			return fmt.Sprintf("xorm checks the version only for a struct bean: update the bean loaded with its version (xorm adds WHERE %s = ? and bumps it) and treat 0 affected rows as a conflict", col)
		case xormUpdateNoCheck:
			return fmt.Sprintf("drop NoVersionCheck() so that xorm adds WHERE %s = ? and bumps it, and treat 0 affected rows as a conflict", col)
		}
		return fmt.Sprintf("add AND %s = ? to the WHERE, set %s = %s + 1 and treat RowsAffected() == 0 as a conflict", col, col, col)
	},
	CheckCount:        "check the affected-row count it returns (Update's int64, Exec's RowsAffected()) and treat 0 as a conflict",
	UnobservableCount: func(*ops.Update) (string, string) { return "", "" },
	Ops: &ops.Library{
		Name:         "xorm",
		Pkg:          xormPkg,
		Row:          xormRow,
		Read:         xormRead,
		Writes:       xormWrites,
		Update:       xormUpdate,
		WholeModel:   xormWholeModel,
		ModelColumns: xormModelColumns,
		BuildSQL:     xormSQL,
	},
}

// xormSQL reads the SQL of Exec(sqlOrArgs...) and the Query forms: the
// first value passed is the text, the rest its binds
// (statement.ConvertSQLOrArgs). sqlArg is the []any slice built in
// place; binds is never passed, the rows having no Binds parameter.
func xormSQL(sqlArg, binds ssa.Value) (string, []ssa.Value, bool) {
	slice, ok := sqlArg.(*ssa.Slice)
	if !ok || binds != nil {
		return "", nil, false
	}
	sl, ok := slice.Type().Underlying().(*types.Slice)
	if !ok || !types.IsInterface(sl.Elem()) {
		return "", nil, false
	}
	// The slice's elements, read as a variadic argument of a call
	// passing it alone.
	vals, ok := (knowledge.Site{Call: &ssa.CallCommon{Args: []ssa.Value{slice}}}).Variadic(0)
	if !ok || len(vals) == 0 {
		return "", nil, false
	}
	text, ok := ssaval.ConstString(vals[0])
	if !ok {
		return "", nil, false
	}
	return text, vals[1:], true
}
