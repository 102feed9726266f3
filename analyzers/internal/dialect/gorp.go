package dialect

import (
	"fmt"

	"github.com/idemlint/idemlint/analyzers/internal/ops"
)

// gorpDialect is go-gorp/gorp v3: SQL text run by SelectOne, SelectInt,
// Exec... (the ops core reads it as database/sql's, and plain SQL's
// wording fits it), and the struct calls Insert, Update and Get, whose
// SQL gorp builds from the table registered for the type. Its Insert has
// no conflict clause, and its Update writes every column by key, with
// the version compared and the count checked only when the table was
// registered with SetVersionCol.
var gorpDialect = &Dialect{
	Lib: "gorp",
	ClaimInsert: func(cols string) string {
		return fmt.Sprintf("gorp's Insert has no conflict clause: insert with Exec(\"INSERT ... ON CONFLICT (%s) DO NOTHING\", ...) and read the row when RowsAffected() is 0, or catch the unique violation Insert returns and re-read", cols)
	},
	LockRead:     "read the row with SelectOne(&row, \"SELECT ... FOR UPDATE\", ...) in the gorp Transaction (DbMap.Begin) that writes it",
	PartialWrite: "write only the changed columns (an UPDATE ... SET of them with Exec)",
	AtomicUpdate: func(w *ops.ColumnWrite, col, expr string) string {
		table := w.Table
		if table == "" {
			table = "..." // a helper's write: its registration is not in sight
		}
		return fmt.Sprintf("update it in SQL with Exec(\"UPDATE %s %s WHERE ...\", delta, ...) instead of writing the row back with Update", table, sqlAtomic(col, expr))
	},
	VersionPredicate: func(_ *ops.Update, col, field string) string {
		if field == "" {
			field = col // SetVersionCol takes the field or the column name
		}
		return fmt.Sprintf("register the version with AddTableWithName(...).SetVersionCol(%q), so that Update adds AND %s = ?, bumps it and returns a gorp.OptimisticLockError when the row changed", field, col)
	},
	CheckCount:        "read the row (Get, SelectOne) before Update so that gorp compares a non-zero version and returns a gorp.OptimisticLockError on a conflict, or treat a count of 0 from Update as a conflict",
	UnobservableCount: func(*ops.Update) (string, string) { return "", "" },
	Ops: &ops.Library{
		Name:         "gorp",
		Pkg:          gorpPkg,
		Row:          gorpRow,
		Read:         gorpRead,
		Writes:       gorpWrites,
		Update:       gorpUpdate,
		WholeModel:   gorpWholeModel,
		ModelColumns: columnsFixed(gorpModelColumns),
	},
}
