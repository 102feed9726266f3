// Package noversion defines an Analyzer that reports updates of versioned
// rows that break optimistic concurrency.
//
// # Analyzer noversion
//
// noversion: report updates of versioned rows without the version predicate, version conflicts ignored, and optimisticlock plugin bypasses
//
// A record several people or processes edit carries a version column.
// Optimistic concurrency works only if every UPDATE of it says
// WHERE id = ? AND version = ?, bumps the version, and treats zero
// affected rows as a conflict. An update that skips the predicate
// silently overwrites a change another writer made after this one read
// the row; one that compares the version but ignores the affected-row
// count loses its own change without telling anyone; and one that
// neither compares nor bumps the version breaks the protocol for every
// other writer of the table.
//
// The analyzer reports three sub-rules, each at the call that runs the
// UPDATE:
//
//   - noversion/predicate: an UPDATE of a versioned row by key whose
//     WHERE does not compare the version column: SQL run by database/sql,
//     sqlx, pgx or GORM's Exec (UPDATE ... RETURNING too), a call of a sqlc-generated UPDATE method from
//     hand-written code, GORM Update, Updates, UpdateColumn(s) (including
//     Model(&T{}).Where("id = ?", id)) and Save of a model read in the
//     same function, bun NewUpdate ... Exec (Set and Where fragments,
//     WherePK), go-pg Update and UpdateNotZero (Set, Value and Where
//     fragments, WherePK), ent UpdateOneID, UpdateOne and Update ... Save
//     (Where predicates on fields), gorp Update(&row) of a table
//     registered in the package without SetVersionCol (and SQL text
//     through gorp's Exec), xorm Update of a map bean or after
//     NoVersionCheck(), and SQL run by xorm's Exec. xorm's Update of a
//     struct bean with a `xorm:"version"` field compares and bumps the
//     version by itself; goqu Update(...).Set(goqu.Record{...}).Where(...)
//     run by its executor or through ToSQL; MongoDB UpdateOne,
//     UpdateMany, FindOneAndUpdate and ReplaceOne whose filter pins the
//     document by field equalities without the version (a collection is
//     versioned when another update of the package puts the version in
//     its filter or $inc's it).
//   - noversion/unchecked: the version is compared, but the affected-row
//     count is discarded: the sql.Result or pgconn.CommandTag ignored, a
//     sqlc :execrows count ignored or the query declared :exec, GORM's
//     RowsAffected never read, bun's or go-pg's result or ent's bulk count
//     dropped, the count xorm's Update returns ignored, a MongoDB
//     UpdateResult whose MatchedCount and ModifiedCount are never read
//     (FindOneAndUpdate's ErrNoDocuments, from its result's Err or
//     Decode, is the count). go-pg's ExecOne
//     returns pg.ErrNoRows when nothing was updated: reading its error
//     checks the count.
//     ent UpdateOne(ID) reports a miss as a NotFoundError, which the
//     error path carries: it is never reported as unchecked. gorp's
//     Update of a table registered with SetVersionCol compares the
//     version and returns an OptimisticLockError on a miss, except for a
//     model whose version is zero (a fresh &T{} never read): only that
//     one is reported, when its count is ignored.
//   - noversion/bypass: with gorm.io/plugin/optimisticlock's Version
//     field, an update the plugin does not guard: Unscoped() in the
//     chain, or Model given a fresh &T{} whose version is zero (the
//     plugin adds the predicate only for a non-zero loaded version).
//
// A table is versioned when the schema layer says so: an
// optimisticlock.Version field of a GORM model, a column named as the
// version-column setting (default version) in a configured DDL file, the
// module's migrations (discovered when no schema is configured; the
// message names their directory), a sqlc schema or an ent schema, or a
// GORM field named as the
// version-field setting (default Version) when some update of the package
// compares or bumps it. A table no schema source describes is versioned
// when some update of the package compares or bumps its version column
// (a gorp Update of a table registered with SetVersionCol does).
// On a versioned row only noversion reports the write.
//
// An update without the predicate loses something only when it writes
// back values read earlier or overwrites what the versioned writers
// change. So a blind write is not reported: one whose function reads
// nothing of the table before it and that sets only named columns none
// of the package's version-comparing updates of the table assigns (an
// owner reference set from the request, where the edits that compare
// the version change the title and the body). When the package has no
// version-comparing update of the table, or one writing every column
// (Save), what the versioned writers change is not known apart, and the
// write is reported.
//
// # Example
//
// Reported (noversion/predicate), and its fix:
//
//	_, err := db.ExecContext(ctx, `UPDATE documents SET title = $2 WHERE id = $1`, id, title)
//
//	res, err := db.ExecContext(ctx, `UPDATE documents SET title = $2, version = version + 1 WHERE id = $1 AND version = $3`, id, title, version)
//	...
//	if n, _ := res.RowsAffected(); n == 0 {
//		return ErrConflict
//	}
//
// Reported (noversion/unchecked): the version is compared but the
// command tag is dropped, so a conflict looks like success.
//
//	_, err := tx.Exec(ctx, `UPDATE documents SET status = 'archived', version = version + 1 WHERE id = $1 AND version = $2`, id, version)
//
// Reported (noversion/bypass): Workspace has an optimisticlock.Version
// field, but the model is empty, so the plugin adds no predicate.
//
//	db.Model(&Workspace{}).Where("id = ?", id).Update("name", name)
//
// Silent: the model was loaded, so the plugin adds
// AND version = <loaded value>; RowsAffected is checked.
//
//	db.First(&ws, id)
//	res := db.Model(&ws).Update("plan", plan)
//	if res.RowsAffected == 0 { ... }
//
// # What silences it
//
//   - the WHERE compares the version column (a GORM struct condition
//     with the version field counts) and the count is read
//     (RowsAffected called or compared, the sqlc count used, GORM's
//     RowsAffected loaded) or passed on (returned, given to a function);
//   - the table is not versioned;
//   - the update bumps the version (version = version + 1) after the row
//     was locked in the same transaction (SELECT ... FOR UPDATE, a
//     locking helper) or in a SERIALIZABLE transaction: no one changes it
//     in between, and optimistic writers see the new version;
//   - the statement only applies atomic, self-referential changes
//     (view_count = view_count + 1) or constants;
//   - the row is created or deleted (INSERT, DELETE, GORM Create, Save of
//     a model not read in the function);
//   - the statement does not pin a row by a bound value, or part of its
//     WHERE or chain is not understood.
//
// The count of an UPDATE ... RETURNING (no row is the conflict) and of
// ent's UpdateOne(ID) (a NotFoundError) travels with the error, so those
// are never reported as unchecked.
//
// What is not analysed yet, and so never reported: GORM's generics API,
// Save of a model the function did not read (it may insert), Save with
// the optimisticlock plugin, bun models without a table tag, an update
// whose count is returned or handed to another function (it is taken as
// checked), an update done in a helper of another package (the helper
// itself is reported when its package is analysed), the version evidence
// of other packages' updates, and SQL that is not a constant. Unknown
// suppresses: when the WHERE, a builder step or the table is not
// understood, nothing is reported.
//
// # Suppressing
//
// When a write is meant to win over concurrent edits (an administrator's
// override, say), silence it on the reported line:
//
//	//idemlint:ignore noversion/predicate admin override wins by design
package noversion
