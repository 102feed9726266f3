package dialect

import (
	"fmt"
	"strings"

	"github.com/idemlint/idemlint/analyzers/internal/ops"
)

// entDialect is ent's generated client.
var entDialect = &Dialect{
	Lib: "ent",
	ClaimInsert: func(string) string {
		return "create with OnConflictColumns(...).DoNothing(), or catch ent.IsConstraintError and re-read"
	},
	LockRead: "read the row with ForUpdate() in the transaction that writes it",
	AtomicUpdate: func(*ops.ColumnWrite, string, string) string {
		return "update it with the AddX(delta) setter of the column"
	},
	VersionPredicate: func(u *ops.Update, col, _ string) string {
		field := strings.ToUpper(col[:1]) + col[1:]
		return fmt.Sprintf("add Where(%s.%s(v)) and Add%s(1), and treat ent.IsNotFound (or a zero count) as a conflict", u.EntPkg, field, field)
	},
	CheckCount:        "use the count it returns and treat 0 as a conflict",
	UnobservableCount: func(*ops.Update) (string, string) { return "", "" },
}
