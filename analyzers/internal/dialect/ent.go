package dialect

import (
	"fmt"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/knowledge"
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
	Ops:               entOpsLibrary,
	Tables:            entTables,
}

// entOps is how the calls of ent's generated client become operations:
// the client is code of the user's module, recognised by its shape
// (knowledge.EntCall), so the hooks take the callee.
var entOpsLibrary = &ops.Library{
	Name:      "ent",
	Pkg:       "entgo.io/ent",
	Claims:    func(obj *types.Func) bool { row, _ := knowledge.EntCall(obj); return row != nil },
	ClientOps: entClientOps,
	ClientRow: func(call ssa.CallInstruction, obj *types.Func) *ops.RowOp {
		row, info := knowledge.EntCall(obj)
		return entRow(call, row, info)
	},
	ClientRead: func(call *ssa.Call, obj *types.Func) *ops.ColumnRead {
		row, info := knowledge.EntCall(obj)
		return entRead(call, obj, row, info)
	},
	ClientWrites: func(call ssa.CallInstruction, obj *types.Func) []*ops.ColumnWrite {
		row, info := knowledge.EntCall(obj)
		return entWrites(call, row, info)
	},
	ClientUpdate: func(call ssa.CallInstruction, obj *types.Func) *ops.Update {
		row, info := knowledge.EntCall(obj)
		return entUpdate(call, row, info)
	},
	// A helper's model read or written (a store's finder returning the
	// entity, its update of the entity given): the entity's table, and
	// its fields' Field<F> columns.
	ModelColumns: func(_ *ssa.Function, t types.Type) (string, func(string) (string, bool)) {
		e := knowledge.EntModelEntity(t)
		if e == nil || e.Table == "" {
			return "", nil
		}
		return e.Table, e.Column
	},
}

// entClientOps gives a client call's transaction and lock operations.
func entClientOps(call ssa.CallInstruction, obj *types.Func) []*ops.Op {
	row, info := knowledge.EntCall(obj)
	site, _ := knowledge.Resolve(call.Common())
	return entOps(call, site, row, info)
}
