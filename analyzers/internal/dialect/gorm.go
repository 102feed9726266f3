package dialect

import (
	"fmt"
	"go/ast"
	"go/format"
	"go/token"
	"go/types"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/knowledge"
	"github.com/idemlint/idemlint/analyzers/internal/ops"
	"github.com/idemlint/idemlint/analyzers/internal/ssaval"
)

// gormDialect is GORM v2 (gorm.io/gorm), its chained and generics APIs,
// and its optimisticlock plugin.
var gormDialect = &Dialect{
	Lib: "gorm",
	ClaimInsert: func(string) string {
		return "create with Clauses(clause.OnConflict{DoNothing: true}) and read the row when RowsAffected is 0, or catch gorm.ErrDuplicatedKey and re-read"
	},
	LockRead:     "read the row with clause.Locking{Strength: \"UPDATE\"} in the transaction that writes it",
	PartialWrite: "write only the changed columns (Model(&m).Updates(map[string]any{...}), or Select(\"col\", ...) before Save)",
	AtomicUpdate: func(w *ops.ColumnWrite, col, expr string) string {
		if w.Model != nil && w.ModelAddr == nil {
			// The generics API: gorm.G[T](db).Where(...).Update(ctx, ...).
			return fmt.Sprintf("update it in SQL with Update(ctx, %q, gorm.Expr(%q, delta))", col, expr)
		}
		return fmt.Sprintf("update it in SQL with UpdateColumn(%q, gorm.Expr(%q, delta))", col, expr)
	},
	AtomicFix: gormV2.atomicFix,
	VersionPredicate: func(_ *ops.Update, col, field string) string {
		return fmt.Sprintf("add Where(%q, m.%s), bump it with gorm.Expr(%q) and treat RowsAffected == 0 as a conflict", col+" = ?", field, col+" + 1")
	},
	CheckCount:        "check RowsAffected of the *gorm.DB it returns and treat 0 as a conflict",
	UnobservableCount: func(*ops.Update) (string, string) { return "", "" },
	PluginBypass:      gormPluginBypass,
	Ops:               gormV2.library(),
	Models:            gormModels,
	LookupOrInsert: func(table string) string {
		return fmt.Sprintf("gorm FirstOrCreate%s looks the row up and inserts it in two statements: two concurrent callers both find nothing and both insert, "+
			"and with a unique key the second gets an error instead of the row; catch gorm.ErrDuplicatedKey (TranslateError) and read the row again, "+
			"or create with Clauses(clause.OnConflict{DoNothing: true}) and then read it", table)
	},
}

// gormRowOp classifies a finder or an insert (gormRow), or FirstOrCreate,
// which looks up and inserts in one call.
func gormRowOp(site knowledge.Site) *ops.RowOp {
	if site.Row.Kind != knowledge.FirstOrCreate {
		return gormRow(site)
	}
	var h ssa.Value
	if recv := site.Receiver(); recv != nil {
		h = ops.Root(recv)
	}
	op := &ops.RowOp{Kind: ops.LookupOrInsert, Lib: gormOf(site.Row.Func.Pkg).lib, Handle: h, NilResult: -1, FromLibrary: true, Desc: ops.CalleeName(site)}
	firstOrCreateKeys(op, site)
	return op
}

// gormReadOf makes the read of a finder of the chained API, of Raw(...)
// .Scan, or of the generics API.
func gormReadOf(call *ssa.Call, site knowledge.Site) *ops.ColumnRead {
	if rd := gormRead(call, site); rd != nil {
		return rd
	}
	if rd := gormRawRead(call, site); rd != nil {
		return rd
	}
	return gormGenericRead(call, site)
}

// gormWritesOf makes the writes of Save, Update(s) and UpdateColumn(s),
// and of the generics API's Update and Updates.
func gormWritesOf(fn *ssa.Function, call *ssa.Call, site knowledge.Site) []*ops.ColumnWrite {
	out := gormWrites(fn, call, site)
	if w := gormGenericWrite(call, site); w != nil {
		out = append(out, w)
	}
	return append(out, gormGenericUpdates(call, site)...)
}

// gormExecCount follows the *gorm.DB that db.Exec(sql) returns.
func gormExecCount(call ssa.CallInstruction, site knowledge.Site) (ops.CountUse, bool) {
	if site.Row.Func.Recv != "DB" {
		return 0, false
	}
	return gormCount(call), true
}

// gormWholeModel returns the model Save, or Updates(&m), writes whole:
// not when a Select or Omit step chooses the columns, nor under a Where
// step (a version predicate, or a compare-and-set on the old value).
func gormWholeModel(site knowledge.Site) (ssa.Value, bool) {
	row := site.Row
	switch {
	case gormOf(row.Func.Pkg) == nil || row.Func.Recv != "DB":
		return nil, false
	case !gormSteps(site.Receiver(), func(step knowledge.Site) bool {
		switch step.Row.Func.Name {
		case "Select", "Omit", "Where":
			return false
		}
		return true
	}):
		return nil, false
	case row.Func.Name == "Save":
		return ssaval.Unwrap(site.RoleArg(knowledge.Model)), true
	case row.Func.Name == "Updates" && isModelPtr(site.RoleArg(knowledge.Values)):
		return ssaval.Unwrap(site.RoleArg(knowledge.Values)), true
	}
	return nil, false
}

// gormPluginBypass says why an update of a model with an
// optimisticlock.Version field escapes the plugin, which adds the version
// predicate by itself except under Unscoped and when the model's version
// is zero; Save writes the whole model, version included, and is the
// plugin's own path.
func gormPluginBypass(u *ops.Update, col, field string) (plugin, why, fix string) {
	if u.Method == "Save" {
		return "", "", ""
	}
	plugin = "the optimisticlock plugin"
	switch {
	case u.Unscoped:
		why = "Unscoped() turns the plugin off for this statement"
	case u.ZeroModel && !u.ModelSets(field):
		why = fmt.Sprintf("Model is given a fresh %s whose %s is zero, and the plugin adds no version predicate for a zero version", u.ModelName(), field)
	default:
		return plugin, "", ""
	}
	return plugin, why, fmt.Sprintf("load the row first (First(&m)) and update that model, or add Where(%q, m.%s) and treat RowsAffected == 0 as a conflict", col+" = ?", field)
}

// atomicFix offers, for GORM Update("c", m.F+d) or UpdateColumn, where
// m.F is exactly the old value of c, the atomic form gorm.Expr("c + ?", d).
func (api *gormAPI) atomicFix(pass *analysis.Pass, w *ops.ColumnWrite, col string, load *ssa.UnOp) []analysis.SuggestedFix {
	if w.Delta == nil || w.Column == "" {
		return nil
	}
	bin, ok := w.Value.(*ssa.BinOp)
	if !ok || bin.X != ssa.Value(load) {
		return nil
	}
	var file *ast.File
	for _, f := range pass.Files {
		if f.FileStart <= w.Instr.Pos() && w.Instr.Pos() < f.FileEnd {
			file = f
		}
	}
	if file == nil {
		return nil
	}
	gormName := ""
	for _, imp := range file.Imports {
		if imp.Path.Value == strconv.Quote(api.pkg) {
			gormName = "gorm"
			if imp.Name != nil {
				gormName = imp.Name.Name
			}
		}
	}
	if gormName == "" || gormName == "_" || gormName == "." {
		return nil
	}
	var call *ast.CallExpr
	ast.Inspect(file, func(n ast.Node) bool {
		if c, ok := n.(*ast.CallExpr); ok && c.Lparen == w.Instr.Pos() {
			call = c
		}
		return call == nil
	})
	if call == nil || len(call.Args) != 2 {
		return nil
	}
	expr, ok := ast.Unparen(call.Args[1]).(*ast.BinaryExpr)
	if !ok || (expr.Op != token.ADD && expr.Op != token.SUB) {
		return nil
	}
	var delta strings.Builder
	if err := format.Node(&delta, pass.Fset, expr.Y); err != nil {
		return nil
	}
	text := fmt.Sprintf("%s.Expr(%q, %s)", gormName, col+" "+expr.Op.String()+" ?", delta.String())
	return []analysis.SuggestedFix{{
		Message:   "update " + col + " atomically with " + gormName + ".Expr",
		TextEdits: []analysis.TextEdit{{Pos: call.Args[1].Pos(), End: call.Args[1].End(), NewText: []byte(text)}},
	}}
}

// gormStamped reports whether GORM sets the column of field itself on
// every update: a field named UpdatedAt (GORM's convention) is set to the
// current time by Save and Updates.
func gormStamped(_ types.Type, field string) bool {
	if i := strings.LastIndex(field, "."); i >= 0 {
		field = field[i+1:]
	}
	return field == "UpdatedAt"
}
