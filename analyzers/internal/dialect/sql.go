package dialect

import (
	"fmt"

	"github.com/idemlint/idemlint/analyzers/internal/ops"
)

// sqlDialect is plain SQL through database/sql, sqlx and pgx.
var sqlDialect = &Dialect{
	Lib: "sql",
	ClaimInsert: func(cols string) string {
		return fmt.Sprintf("insert with ON CONFLICT (%s) DO NOTHING and read the row when nothing was inserted, or catch the unique violation and re-read", cols)
	},
	LockRead: "read the row with SELECT ... FOR UPDATE in the transaction that writes it",
	AtomicUpdate: func(_ *ops.ColumnWrite, col, expr string) string {
		return fmt.Sprintf("update it in SQL (%s)", sqlAtomic(col, expr))
	},
	VersionPredicate: func(_ *ops.Update, col, _ string) string {
		return fmt.Sprintf("add AND %s = ? to the WHERE, set %s = %s + 1 and treat zero affected rows as a conflict", col, col, col)
	},
	CheckCount:        "check RowsAffected() of its result and treat 0 as a conflict",
	UnobservableCount: func(*ops.Update) (string, string) { return "", "" },
}
