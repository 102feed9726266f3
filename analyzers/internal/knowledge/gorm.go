package knowledge

const (
	gormPkg    = "gorm.io/gorm"
	gormClause = "gorm.io/gorm/clause"
)

// gorm is GORM v2 (gorm.io/gorm): the classic chains, all static calls on
// *gorm.DB, and the generics API (gorm ≥ 1.30), whose calls are invokes of
// generic interfaces, keyed by the interface that declares each method:
// gorm.G[T] returns Interface[T], which embeds CreateInterface[T], which
// embeds ExecInterface[T]; Where and the other chain steps return
// ChainInterface[T]; Set returns SetCreateOrUpdateInterface[T] (from
// CreateInterface) or SetUpdateOnlyInterface[T] (from ChainInterface).
// CreateInterface and ChainInterface each declare their own Where, Update,
// Delete... (neither embeds the other), so both have rows.
//
// A *gorm.DB is a transaction or not depending on where it came from
// (Begin, the Transaction callback's tx, or gorm.Open), hence EitherHandle.
// The finishers return the *gorm.DB whose Error and RowsAffected fields
// carry the outcome: their Result is ExecResult, meaning result 0 has
// RowsAffected, here a field rather than database/sql's method. Unless
// SkipDefaultTransaction is set, each single Create, Update or Delete runs
// in its own short transaction.
var gorm = library{
	name: "gorm",
	pkgs: []string{gormPkg, "gorm.io/driver/postgres", "gorm.io/driver/mysql"},
	types: []Type{
		{Pkg: gormPkg, Name: "DB", Role: EitherHandle},
		// clause.Locking{Strength: "UPDATE"} in Clauses(...) or G[T](db, ...):
		// SELECT ... FOR UPDATE.
		{Pkg: gormClause, Name: "Locking", Role: LockingClause},
		// clause.OnConflict in Clauses(...) before Create: ON CONFLICT DO
		// NOTHING / DO UPDATE SET (UpdateAll: every column).
		{Pkg: gormClause, Name: "OnConflict", Role: ConflictClause},
		// What gorm.Expr returns; a clause.Expr{SQL: "n + 1"} literal is the
		// same. Atomic as the value of Update, UpdateColumn, Updates' map.
		{Pkg: gormClause, Name: "Expr", Role: ExprValue},
	},
	sentinels: []Sentinel{
		// Raised by First, Take and Last (and the generics' First, Take,
		// Last); Find, Scan and FirstOrInit never raise it: their "not
		// found" is RowsAffected == 0.
		{Pkg: gormPkg, Name: "ErrRecordNotFound", Meaning: NotFound},
		// Only with gorm.Config{TranslateError: true} and a dialector that
		// translates (postgres: SQLSTATE 23505; mysql: 1062); otherwise the
		// driver's own error is in Error.
		{Pkg: gormPkg, Name: "ErrDuplicatedKey", Meaning: UniqueViolation},
	},
	calls: append(gormClassicCalls(), gormGenericsCalls()...),
}

// gormClassicCalls are the methods of *gorm.DB and gorm.Expr.
func gormClassicCalls() []Call {
	m := func(name string) Func { return method(gormPkg, "DB", name) }
	return []Call{
		// Finders. First, Take and Last raise ErrRecordNotFound; Find does
		// not (check RowsAffected or the slice). Conds from index 1 are
		// inline conditions: a primary key, a struct or map, or SQL and its
		// binds (First(&u, "email = ?", e)).
		{Func: m("First"), Kind: Find, Params: []Param{p(0, Dest), p(1, Cond)}, Result: ExecResult, ErrNoRow: true},
		{Func: m("Take"), Kind: Find, Params: []Param{p(0, Dest), p(1, Cond)}, Result: ExecResult, ErrNoRow: true},
		{Func: m("Last"), Kind: Find, Params: []Param{p(0, Dest), p(1, Cond)}, Result: ExecResult, ErrNoRow: true},
		{Func: m("Find"), Kind: Find, Params: []Param{p(0, Dest), p(1, Cond)}, Result: ExecResult},
		// FindInBatches(dest, batchSize, fc): reads in batches, calling fc
		// (not in a transaction) after each.
		{Func: m("FindInBatches"), Kind: Find, Params: []Param{p(0, Dest)}},
		{Func: m("Count"), Kind: Find, Params: []Param{p(0, Dest)}, Result: ExecResult},
		// Scan runs the chain's query (often a Raw) into dest, like Find.
		{Func: m("Scan"), Kind: Find, Params: []Param{p(0, Dest)}, Result: ExecResult},
		{Func: m("Pluck"), Kind: Find, Params: []Param{p(0, Column), p(1, Dest)}, Result: ExecResult},
		{Func: m("Row"), Kind: Find, Result: RowResult},
		{Func: m("Rows"), Kind: Find, Result: RowsResult},
		// FirstOrInit is a Find that fills dest from the conditions, Attrs
		// and Assign when nothing matched; it never writes.
		{Func: m("FirstOrInit"), Kind: Find, Params: []Param{p(0, Dest), p(1, Cond)}, Result: ExecResult},

		// Writes.
		{Func: m("Create"), Kind: Insert, Params: []Param{p(0, Model)}, Result: ExecResult},
		{Func: m("CreateInBatches"), Kind: Insert, Params: []Param{p(0, Model)}, Result: ExecResult},
		// Save: a slice is inserted with ON CONFLICT (pk) DO UPDATE SET every
		// column unless the chain has its own ON CONFLICT; a struct with a
		// zero primary key is inserted; otherwise every column is updated
		// (Select("*")), and when that touched no row and no Select was
		// given, it falls back to an upsert (OnConflict{UpdateAll: true}
		// Create): a blind write of the whole row either way.
		{Func: m("Save"), Kind: Save, Params: []Param{p(0, Model)}, Result: ExecResult},
		// FirstOrCreate is itself a lookup then an insert: Find(dest, conds)
		// with LIMIT 1, and Create(dest) when nothing matched, with no lock
		// and no ON CONFLICT; when found and Assign was used, an Updates of
		// the assigned values.
		{Func: m("FirstOrCreate"), Kind: FirstOrCreate, Params: []Param{p(0, Dest), p(1, Cond)}, Result: ExecResult},
		// Update and UpdateColumn write map{column: value}; Updates and
		// UpdateColumns a struct (non-zero fields) or map. The Column
		// variants skip hooks and UpdatedAt. Atomic only when the value is
		// a clause.Expr (gorm.Expr).
		{Func: m("Update"), Kind: Update, Params: []Param{p(0, Column), p(1, Value)}, Result: ExecResult},
		{Func: m("Updates"), Kind: Update, Params: []Param{p(0, Values)}, Result: ExecResult},
		{Func: m("UpdateColumn"), Kind: Update, Params: []Param{p(0, Column), p(1, Value)}, Result: ExecResult},
		{Func: m("UpdateColumns"), Kind: Update, Params: []Param{p(0, Values)}, Result: ExecResult},
		// Delete(value, conds...): a soft delete (UPDATE deleted_at) when the
		// model has a DeletedAt field and the chain is not Unscoped.
		{Func: m("Delete"), Kind: Delete, Params: []Param{p(0, Model), p(1, Cond)}, Result: ExecResult},

		// Raw SQL: Exec runs it; Raw builds a query that Scan, Row, Rows or
		// Find runs. Named binds (@name) when the SQL contains "@".
		{Func: m("Exec"), Kind: Exec, Params: []Param{p(0, SQL), p(1, Binds)}, Result: ExecResult},
		{Func: m("Raw"), Kind: Raw, Params: []Param{p(0, SQL), p(1, Binds)}, Result: ChainResult},
		{Func: fn(gormPkg, "Expr"), Kind: Expr, Params: []Param{p(0, SQL), p(1, Binds)}},

		// Chain steps: each returns the query extended.
		{Func: m("Where"), Kind: Chain, Params: []Param{p(0, Cond), p(1, Binds)}, Result: ChainResult},
		{Func: m("Not"), Kind: Chain, Params: []Param{p(0, Cond), p(1, Binds)}, Result: ChainResult},
		{Func: m("Or"), Kind: Chain, Params: []Param{p(0, Cond), p(1, Binds)}, Result: ChainResult},
		// Model names the table and, with a primary key set, adds WHERE pk.
		{Func: m("Model"), Kind: Chain, Params: []Param{p(0, Model)}, Result: ChainResult},
		{Func: m("Table"), Kind: Chain, Params: []Param{p(0, SQL), p(1, Binds)}, Result: ChainResult},
		// Select restricts the columns read, and the columns Save and
		// Updates write (Save with a Select does not fall back to an upsert).
		{Func: m("Select"), Kind: Chain, Params: []Param{p(0, Column), p(1, Binds)}, Result: ChainResult},
		{Func: m("Omit"), Kind: Chain, Params: []Param{p(0, Column)}, Result: ChainResult},
		{Func: m("Distinct"), Kind: Chain, Params: []Param{p(0, Column)}, Result: ChainResult},
		// Clauses(clause.Locking{...}) locks, Clauses(clause.OnConflict{...})
		// makes a Create an upsert or a no-op.
		{Func: m("Clauses"), Kind: Chain, Params: []Param{p(0, Clauses)}, Result: ChainResult},
		{Func: m("WithContext"), Kind: Chain, Result: ChainResult},
		{Func: m("Session"), Kind: Chain, Result: ChainResult},
		// Unscoped: no soft-delete filter, and Delete deletes for real.
		{Func: m("Unscoped"), Kind: Chain, Result: ChainResult},
		{Func: m("Debug"), Kind: Chain, Result: ChainResult},
		{Func: m("Limit"), Kind: Chain, Result: ChainResult},
		{Func: m("Offset"), Kind: Chain, Result: ChainResult},
		{Func: m("Order"), Kind: Chain, Result: ChainResult},
		{Func: m("Group"), Kind: Chain, Result: ChainResult},
		{Func: m("Having"), Kind: Chain, Params: []Param{p(0, Cond), p(1, Binds)}, Result: ChainResult},
		{Func: m("Joins"), Kind: Chain, Params: []Param{p(0, SQL), p(1, Binds)}, Result: ChainResult},
		{Func: m("InnerJoins"), Kind: Chain, Params: []Param{p(0, SQL), p(1, Binds)}, Result: ChainResult},
		{Func: m("Preload"), Kind: Chain, Result: ChainResult},
		{Func: m("Scopes"), Kind: Chain, Result: ChainResult},
		// Attrs: values FirstOrCreate/FirstOrInit use only when creating;
		// Assign: values they apply whether found or not (FirstOrCreate then
		// updates a found row).
		{Func: m("Attrs"), Kind: Chain, Params: []Param{p(0, Values)}, Result: ChainResult},
		{Func: m("Assign"), Kind: Chain, Params: []Param{p(0, Values)}, Result: ChainResult},
		// Set(key, value) stores a setting. GORM v1's row-lock idiom
		// Set("gorm:query_option", "FOR UPDATE") does nothing in gorm.io v2:
		// no lock is taken (Key 0 is the setting's name, Value 1 its value).
		{Func: m("Set"), Kind: Chain, Params: []Param{p(0, Key), p(1, Value)}, Result: ChainResult},

		// Transactions. Transaction commits when fc returns nil; called on a
		// *DB already in a transaction it runs fc in a savepoint
		// (SavePoint / RollbackTo).
		{Func: m("Transaction"), Kind: TxFunc, Params: []Param{p(0, Callback), p(1, TxOptions)}, CallbackTx: 0},
		{Func: m("Begin"), Kind: Begin, Params: []Param{p(0, TxOptions)}, Result: TxResult},
		{Func: m("Commit"), Kind: Commit},
		{Func: m("Rollback"), Kind: Rollback},
		{Func: m("SavePoint"), Kind: Savepoint},
		{Func: m("RollbackTo"), Kind: Savepoint},
	}
}

// gormGenericsCalls are the generics API: gorm.G[T] and the methods of the
// interfaces it returns. Their finishers take a context and return values
// (First returns (T, error)); the writes return (rowsAffected int, err).
func gormGenericsCalls() []Call {
	calls := []Call{
		// G[T](db, opts...): opts are clauses applied to every query, e.g.
		// clause.Locking{Strength: "UPDATE"} or clause.OnConflict{...}.
		{Func: fn(gormPkg, "G"), Kind: Chain, Params: []Param{p(0, Handle), p(1, Clauses)}, Result: ChainResult},
		{Func: method(gormPkg, "Interface", "Raw"), Kind: Raw, Params: []Param{p(0, SQL), p(1, Binds)}, Result: ChainResult},
		{Func: method(gormPkg, "Interface", "Exec"), Kind: Exec, Params: []Param{p(1, SQL), p(2, Binds)}},

		// ExecInterface[T]: the finders. First, Take and Last raise
		// ErrRecordNotFound (they call the classic First, Take, Last); Find
		// returns an empty slice.
		{Func: method(gormPkg, "ExecInterface", "First"), Kind: Find, ErrNoRow: true},
		{Func: method(gormPkg, "ExecInterface", "Take"), Kind: Find, ErrNoRow: true},
		{Func: method(gormPkg, "ExecInterface", "Last"), Kind: Find, ErrNoRow: true},
		{Func: method(gormPkg, "ExecInterface", "Find"), Kind: Find},
		{Func: method(gormPkg, "ExecInterface", "FindInBatches"), Kind: Find},
		{Func: method(gormPkg, "ExecInterface", "Scan"), Kind: Find, Params: []Param{p(1, Dest)}},
		{Func: method(gormPkg, "ExecInterface", "Row"), Kind: Find, Result: RowResult},
		{Func: method(gormPkg, "ExecInterface", "Rows"), Kind: Find, Result: RowsResult},

		// Create(ctx, &t), CreateInBatches(ctx, &ts, n): CreateInterface[T]
		// only (a chain with Where cannot create).
		{Func: method(gormPkg, "CreateInterface", "Create"), Kind: Insert, Params: []Param{p(1, Model)}},
		{Func: method(gormPkg, "CreateInterface", "CreateInBatches"), Kind: Insert, Params: []Param{p(1, Model)}},
		// Set(assignments...): clause.Assignment{Column, Value} values, atomic
		// when a Value is gorm.Expr; finished by Create or Update.
		{Func: method(gormPkg, "SetCreateOrUpdateInterface", "Create"), Kind: Insert},
		{Func: method(gormPkg, "SetCreateOrUpdateInterface", "Update"), Kind: Update},
		{Func: method(gormPkg, "SetUpdateOnlyInterface", "Update"), Kind: Update},
	}
	// CreateInterface[T] (what G returns) and ChainInterface[T] (what a
	// chain step returns) declare the same chain steps and writes.
	for _, iface := range []string{"CreateInterface", "ChainInterface"} {
		m := func(name string) Func { return method(gormPkg, iface, name) }
		calls = append(calls,
			Call{Func: m("Where"), Kind: Chain, Params: []Param{p(0, Cond), p(1, Binds)}, Result: ChainResult},
			Call{Func: m("Not"), Kind: Chain, Params: []Param{p(0, Cond), p(1, Binds)}, Result: ChainResult},
			Call{Func: m("Or"), Kind: Chain, Params: []Param{p(0, Cond), p(1, Binds)}, Result: ChainResult},
			Call{Func: m("Having"), Kind: Chain, Params: []Param{p(0, Cond), p(1, Binds)}, Result: ChainResult},
			Call{Func: m("Select"), Kind: Chain, Params: []Param{p(0, Column), p(1, Binds)}, Result: ChainResult},
			Call{Func: m("Omit"), Kind: Chain, Params: []Param{p(0, Column)}, Result: ChainResult},
			Call{Func: m("Distinct"), Kind: Chain, Params: []Param{p(0, Column)}, Result: ChainResult},
			Call{Func: m("Table"), Kind: Chain, Params: []Param{p(0, SQL), p(1, Binds)}, Result: ChainResult},
			Call{Func: m("Scopes"), Kind: Chain, Result: ChainResult},
			Call{Func: m("Limit"), Kind: Chain, Result: ChainResult},
			Call{Func: m("Offset"), Kind: Chain, Result: ChainResult},
			Call{Func: m("Joins"), Kind: Chain, Result: ChainResult},
			Call{Func: m("Preload"), Kind: Chain, Result: ChainResult},
			Call{Func: m("MapColumns"), Kind: Chain, Result: ChainResult},
			Call{Func: m("Group"), Kind: Chain, Result: ChainResult},
			Call{Func: m("Order"), Kind: Chain, Result: ChainResult},
			Call{Func: m("Set"), Kind: SetStep, Params: []Param{p(0, Values)}, Result: ChainResult},
			// Count(ctx, column) reads; the writes return (rowsAffected, err):
			// result 0 is the count itself.
			Call{Func: m("Count"), Kind: Find},
			Call{Func: m("Update"), Kind: Update, Params: []Param{p(1, Column), p(2, Value)}},
			Call{Func: m("Updates"), Kind: Update, Params: []Param{p(1, Values)}},
			Call{Func: m("Delete"), Kind: Delete},
		)
	}
	return calls
}
