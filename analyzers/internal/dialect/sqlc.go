package dialect

import (
	"fmt"
	"strings"

	"github.com/idemlint/idemlint/analyzers/internal/ops"
)

// sqlcDialect is sqlc's generated queries: a fix is a change to the query
// file. How their calls become operations is sqlcLibrary (sqlcops.go).
var sqlcDialect = &Dialect{
	Lib: sqlcLib,
	ClaimInsert: func(cols string) string {
		return fmt.Sprintf("add ON CONFLICT (%s) DO NOTHING to the query and read the row when it returns none, or catch the unique violation and re-read", cols)
	},
	LockRead: "read the row with a query ending FOR UPDATE, through Queries.WithTx(tx), in the transaction that writes it",
	AtomicUpdate: func(_ *ops.ColumnWrite, col, expr string) string {
		return fmt.Sprintf("update it in SQL with a query of its own (SET %s = %s)", col, strings.Replace(expr, "?", "$1", 1))
	},
	VersionPredicate: func(_ *ops.Update, col, _ string) string {
		return fmt.Sprintf("add AND %s = $n to the query, set %s = %s + 1, declare it :execrows and treat 0 rows as a conflict", col, col, col)
	},
	CheckCount: "use the count it returns and treat 0 as a conflict",
	UnobservableCount: func(u *ops.Update) (string, string) {
		if u.Count != ops.CountUnobservable {
			return "", ""
		}
		return "the query is declared " + u.Declared + ", which cannot report how many rows it changed",
			"declare it :execrows and treat 0 rows as a conflict"
	},
	Ops: sqlcLibrary,
}
