package knowledge

const gormV1Pkg = "github.com/jinzhu/gorm"

// gormV1 is GORM v1 (github.com/jinzhu/gorm, last release v1.9.16),
// still in many services and tutorials. Its chained API has v2's shape:
// every call is a method of *gorm.DB returning a *gorm.DB whose Error and
// RowsAffected fields carry the outcome, so the rows mirror gorm.go's
// classic ones. Where it differs (main.go, callback_query.go of v1.9.16):
//
//   - Update and UpdateColumn take (attrs ...interface{}): Update("c", v)
//     passes the column and its value in one variadic slice, so their
//     Column parameter is where that slice starts.
//   - Find into a struct raises ErrRecordNotFound like First (only a slice
//     destination never does), and (*DB).RecordNotFound() reports it.
//   - Set("gorm:query_option", "FOR UPDATE") appends its value to the
//     SELECT (queryCallback): a real row lock, unlike in v2. Set
//     ("gorm:insert_option", "ON CONFLICT ...") appends to the INSERT
//     (createCallback), which the dialect reads.
//   - There is no clause package: no OnConflict, no Locking, no
//     ErrDuplicatedKey; the driver's error is in Error.
var gormV1 = library{
	name: "gormv1",
	pkgs: []string{gormV1Pkg},
	types: []Type{
		{Pkg: gormV1Pkg, Name: "DB", Role: EitherHandle},
		// What gorm.Expr returns: atomic as Update's value.
		{Pkg: gormV1Pkg, Name: "SqlExpr", Role: ExprValue},
	},
	sentinels: []Sentinel{
		{Pkg: gormV1Pkg, Name: "ErrRecordNotFound", Meaning: NotFound},
	},
	calls: gormV1Calls(),
}

func gormV1Calls() []Call {
	m := func(name string) Func { return method(gormV1Pkg, "DB", name) }
	return []Call{
		// Finders; Conds from index 1 are inline conditions, as in v2.
		{Func: m("First"), Kind: Find, Params: []Param{p(0, Dest), p(1, Cond)}, Result: ExecResult, ErrNoRow: true},
		{Func: m("Take"), Kind: Find, Params: []Param{p(0, Dest), p(1, Cond)}, Result: ExecResult, ErrNoRow: true},
		{Func: m("Last"), Kind: Find, Params: []Param{p(0, Dest), p(1, Cond)}, Result: ExecResult, ErrNoRow: true},
		{Func: m("Find"), Kind: Find, Params: []Param{p(0, Dest), p(1, Cond)}, Result: ExecResult},
		{Func: m("Count"), Kind: Find, Params: []Param{p(0, Dest)}, Result: ExecResult},
		{Func: m("Scan"), Kind: Find, Params: []Param{p(0, Dest)}, Result: ExecResult},
		{Func: m("Pluck"), Kind: Find, Params: []Param{p(0, Column), p(1, Dest)}, Result: ExecResult},
		{Func: m("Row"), Kind: Find, Result: RowResult},
		{Func: m("Rows"), Kind: Find, Result: RowsResult},
		{Func: m("FirstOrInit"), Kind: Find, Params: []Param{p(0, Dest), p(1, Cond)}, Result: ExecResult},
		// RecordNotFound reports whether the finder that returned the *DB
		// raised ErrRecordNotFound; IsRecordNotFoundError whether err is
		// (or, for a gorm.Errors, holds) it.
		{Func: m("RecordNotFound"), Kind: ErrorCheck, Meaning: NotFound},
		{Func: fn(gormV1Pkg, "IsRecordNotFoundError"), Kind: ErrorCheck, Params: []Param{p(0, ErrArg)}, Meaning: NotFound},

		// Writes. Save updates every column when the primary key is set and,
		// when that touched no row, falls back to FirstOrCreate; with a zero
		// key it inserts.
		{Func: m("Create"), Kind: Insert, Params: []Param{p(0, Model)}, Result: ExecResult},
		{Func: m("Save"), Kind: Save, Params: []Param{p(0, Model)}, Result: ExecResult},
		// FirstOrCreate is First, then Create when that found nothing: two
		// statements, no lock, no ON CONFLICT.
		{Func: m("FirstOrCreate"), Kind: FirstOrCreate, Params: []Param{p(0, Dest), p(1, Cond)}, Result: ExecResult},
		{Func: m("Update"), Kind: Update, Params: []Param{p(0, Column)}, Result: ExecResult},
		{Func: m("Updates"), Kind: Update, Params: []Param{p(0, Values)}, Result: ExecResult},
		{Func: m("UpdateColumn"), Kind: Update, Params: []Param{p(0, Column)}, Result: ExecResult},
		{Func: m("UpdateColumns"), Kind: Update, Params: []Param{p(0, Values)}, Result: ExecResult},
		{Func: m("Delete"), Kind: Delete, Params: []Param{p(0, Model), p(1, Cond)}, Result: ExecResult},

		// Raw SQL.
		{Func: m("Exec"), Kind: Exec, Params: []Param{p(0, SQL), p(1, Binds)}, Result: ExecResult},
		{Func: m("Raw"), Kind: Raw, Params: []Param{p(0, SQL), p(1, Binds)}, Result: ChainResult},
		{Func: fn(gormV1Pkg, "Expr"), Kind: Expr, Params: []Param{p(0, SQL), p(1, Binds)}},

		// Chain steps.
		{Func: m("Where"), Kind: Chain, Params: []Param{p(0, Cond), p(1, Binds)}, Result: ChainResult},
		{Func: m("Not"), Kind: Chain, Params: []Param{p(0, Cond), p(1, Binds)}, Result: ChainResult},
		{Func: m("Or"), Kind: Chain, Params: []Param{p(0, Cond), p(1, Binds)}, Result: ChainResult},
		{Func: m("Model"), Kind: Chain, Params: []Param{p(0, Model)}, Result: ChainResult},
		{Func: m("Table"), Kind: Chain, Params: []Param{p(0, SQL)}, Result: ChainResult},
		{Func: m("Select"), Kind: Chain, Params: []Param{p(0, Column), p(1, Binds)}, Result: ChainResult},
		{Func: m("Omit"), Kind: Chain, Params: []Param{p(0, Column)}, Result: ChainResult},
		{Func: m("Unscoped"), Kind: Chain, Result: ChainResult},
		{Func: m("Debug"), Kind: Chain, Result: ChainResult},
		{Func: m("New"), Kind: Chain, Result: ChainResult},
		{Func: m("LogMode"), Kind: Chain, Result: ChainResult},
		{Func: m("Limit"), Kind: Chain, Result: ChainResult},
		{Func: m("Offset"), Kind: Chain, Result: ChainResult},
		{Func: m("Order"), Kind: Chain, Result: ChainResult},
		{Func: m("Group"), Kind: Chain, Result: ChainResult},
		{Func: m("Having"), Kind: Chain, Params: []Param{p(0, Cond), p(1, Binds)}, Result: ChainResult},
		{Func: m("Joins"), Kind: Chain, Params: []Param{p(0, SQL), p(1, Binds)}, Result: ChainResult},
		{Func: m("Preload"), Kind: Chain, Result: ChainResult},
		{Func: m("Scopes"), Kind: Chain, Result: ChainResult},
		{Func: m("Attrs"), Kind: Chain, Params: []Param{p(0, Values)}, Result: ChainResult},
		{Func: m("Assign"), Kind: Chain, Params: []Param{p(0, Values)}, Result: ChainResult},
		// Set(name, value): with "gorm:query_option" its value ends the
		// SELECT, so Set("gorm:query_option", "FOR UPDATE") locks the rows
		// read; any other setting is only a step.
		{Func: m("Set"), Kind: LockStep, Params: []Param{p(0, Key), p(1, SQL)}, Result: ChainResult, Setting: "gorm:query_option"},

		// Transactions. Transaction runs fc in one (or, on a *DB already in
		// a transaction, directly), committing when it returns nil.
		{Func: m("Transaction"), Kind: TxFunc, Params: []Param{p(0, Callback)}, CallbackTx: 0},
		{Func: m("Begin"), Kind: Begin, Result: TxResult},
		{Func: m("BeginTx"), Kind: Begin, Params: []Param{p(1, TxOptions)}, Result: TxResult},
		{Func: m("Commit"), Kind: Commit},
		{Func: m("Rollback"), Kind: Rollback},
		{Func: m("RollbackUnlessCommitted"), Kind: Rollback},
	}
}
