package dialect

import (
	"fmt"

	"github.com/idemlint/idemlint/analyzers/internal/ops"
)

// bunDialect is uptrace/bun's query builders.
var bunDialect = &Dialect{
	Lib:    "bun",
	Models: bunModels,
	ClaimInsert: func(cols string) string {
		return fmt.Sprintf("insert with On(\"CONFLICT (%s) DO NOTHING\") and read the row when nothing was inserted, or catch the unique violation and re-read", cols)
	},
	LockRead:     "read the row with .For(\"UPDATE\") in the transaction that writes it",
	PartialWrite: "write only the changed columns (.Column(\"col\", ...) on the NewUpdate)",
	AtomicUpdate: func(_ *ops.ColumnWrite, col, expr string) string {
		return fmt.Sprintf("update it in SQL with .Set(%q, delta)", col+" = "+expr)
	},
	VersionPredicate: func(_ *ops.Update, col, _ string) string {
		return fmt.Sprintf("add Where(%q, m.Version), Set(%q) and treat RowsAffected() == 0 as a conflict", col+" = ?", col+" = "+col+" + 1")
	},
	CheckCount:        "check RowsAffected() of its result and treat 0 as a conflict",
	UnobservableCount: func(*ops.Update) (string, string) { return "", "" },
	Ops: &ops.Library{
		Name:         "bun",
		Pkg:          bunPkg,
		Row:          bunRow,
		Read:         bunRead,
		Writes:       bunWrites,
		Update:       bunUpdate,
		WholeModel:   bunWholeModel,
		ModelColumns: columnsFixed(bunModelColumn),
	},
}
