package dialect

import (
	"fmt"

	"github.com/idemlint/idemlint/analyzers/internal/ops"
)

// gormV1Dialect is GORM v1 (github.com/jinzhu/gorm). Its calls go through
// GORM's hooks (gormapi.go says where v1 differs); its wording is its
// own: it has no clause package, so ON CONFLICT and FOR UPDATE are
// settings, and no ErrDuplicatedKey, so a unique violation is the
// driver's error; it has no optimisticlock plugin.
var gormV1Dialect = &Dialect{
	Lib: gormV1.lib,
	ClaimInsert: func(cols string) string {
		return fmt.Sprintf("create with Set(\"gorm:insert_option\", \"ON CONFLICT (%s) DO NOTHING\") and read the row when RowsAffected is 0, or catch the driver's unique violation and re-read", cols)
	},
	LockRead:     "read the row with Set(\"gorm:query_option\", \"FOR UPDATE\") in the transaction that writes it",
	PartialWrite: "write only the changed columns (Model(&m).Updates(map[string]interface{}{...}), or Select(\"col\", ...) before Save)",
	AtomicUpdate: func(_ *ops.ColumnWrite, col, expr string) string {
		return fmt.Sprintf("update it in SQL with UpdateColumn(%q, gorm.Expr(%q, delta))", col, expr)
	},
	AtomicFix: gormV1.atomicFix,
	VersionPredicate: func(_ *ops.Update, col, field string) string {
		return fmt.Sprintf("add Where(%q, m.%s), bump it with gorm.Expr(%q) and treat RowsAffected == 0 as a conflict", col+" = ?", field, col+" + 1")
	},
	CheckCount:        "check RowsAffected of the *gorm.DB it returns and treat 0 as a conflict",
	UnobservableCount: func(*ops.Update) (string, string) { return "", "" },
	Ops:               gormV1.library(),
	LookupOrInsert: func(table string) string {
		return fmt.Sprintf("gorm FirstOrCreate%s looks the row up and inserts it in two statements: two concurrent callers both find nothing and both insert, "+
			"and with a unique key the second gets an error instead of the row; catch the driver's unique violation and read the row again, "+
			"or create with Set(\"gorm:insert_option\", \"ON CONFLICT DO NOTHING\") and then read it", table)
	},
}
