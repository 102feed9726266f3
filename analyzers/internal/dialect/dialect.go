// Package dialect holds, for each database library idemlint supports, what
// the analyzers say in that library's own API: the fix for each hazard,
// the rule of a library plugin that adds predicates by itself, and the
// mechanical rewrites offered as suggested fixes. The analyzers ask the
// dialect of an operation's library (For(op.Lib)) and hold no switch on
// libraries themselves, so adding a library is its knowledge rows, its
// dialect and its fixtures.
//
// A dialect also carries how its library's calls become operations
// (Dialect.Ops), which it registers with the ops layer when the program
// starts: every analyzer imports this package, directly or for that
// registration alone. A dialect is registered in one list (all, below); a
// library the list does not name speaks plain SQL.
package dialect

import (
	"fmt"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/ops"
	"github.com/idemlint/idemlint/analyzers/internal/schema"
)

// A Dialect is one library's wording. Every field is set, InPlace and ClaimFirst aside;
// plain SQL's (sqlDialect) is the model the others follow.
type Dialect struct {
	// Lib is the library family ops records on the operations of the
	// library's calls (RowOp.Lib, Update.Lib, ColumnWrite.Lib).
	Lib string

	// ClaimInsert is checkinsert's fix for an insert raced by its lookup:
	// how to insert so that the unique key on cols ("user_id, title")
	// decides, and what to do when it does.
	ClaimInsert func(cols string) string

	// ClaimFirst is checkinsert's fix for an effect made between the
	// lookup and the insert: how to claim the row of table by cols first,
	// so that only the caller whose claim won performs the effect. nil
	// for the SQL libraries, whose claim is an insert that does nothing
	// on conflict (Claim).
	ClaimFirst func(table, cols string) string

	// LockRead is lostupdate's other fix: how to read the row under a
	// lock in the transaction that writes it.
	LockRead string
	// PartialWrite is lostupdate's fix for a whole-row write of a stale
	// copy: how to write only the columns the function changed; "" when
	// the library has no whole-row write.
	PartialWrite string
	// AtomicUpdate is lostupdate's fix when the value written is one
	// operation on the old one: expr is its SQL form ("balance - ?").
	AtomicUpdate func(w *ops.ColumnWrite, col, expr string) string
	// InPlace is lostupdate's fix when the value written is computed
	// from the old one in more than one operation: where to compute it
	// instead. nil for the SQL libraries, whose UPDATE is the place
	// (ComputeInPlace).
	InPlace func(col string) string
	// AtomicFix rewrites such a write into the atomic form, when the
	// library has one that can be written mechanically; nil otherwise.
	AtomicFix func(pass *analysis.Pass, w *ops.ColumnWrite, col string, load *ssa.UnOp) []analysis.SuggestedFix

	// VersionPredicate is noversion's fix for an UPDATE of a versioned row
	// without the version in its WHERE: col is the version column, field
	// its Go field (when a model has one).
	VersionPredicate func(u *ops.Update, col, field string) string
	// CheckCount is noversion's fix for a version compared but an
	// affected-row count never looked at.
	CheckCount string
	// UnobservableCount says, for an update declared so that it cannot
	// report its count (sqlc :exec), what is wrong and the fix; "" when
	// the library has no such declaration.
	UnobservableCount func(u *ops.Update) (what, fix string)
	// PluginBypass says, for an update of a model whose version field
	// (column col) a plugin of the library compares by itself (GORM's
	// optimisticlock), which plugin it is ("" when the statement is not
	// one the plugin versions), why this update escapes it and the fix
	// (why is "" when it does not). nil when the library has no such
	// plugin.
	PluginBypass func(u *ops.Update, col, field string) (plugin, why, fix string)

	// Ops is how the library's calls become operations, registered with
	// the ops layer; nil while the library's hooks still live in ops, or
	// when its knowledge rows alone describe it.
	Ops *ops.Library

	// Models is the library's naming of its models (struct tags, table
	// names), registered with the schema layer; nil when its models are
	// not named in Go (generated code, SQL text). GORM's is the default
	// reader, which names the structs no other library claims.
	Models *schema.ModelReader
	// Tables reads the tables the library's generated code declares in
	// Go (ent's migrate package), registered with the schema layer; nil
	// for the others.
	Tables *schema.TableReader

	// LookupOrInsert is checkinsert's message for the library's own
	// lookup-or-insert call (GORM FirstOrCreate), on table (" on users"
	// or ""); nil when it has none.
	LookupOrInsert func(table string) string
}

// all lists the dialects; For falls back to plain SQL.
var all = []*Dialect{sqlDialect, sqlcDialect, gormDialect, gormV1Dialect, bunDialect, gopgDialect, entDialect, squirrelDialect, gorpDialect, xormDialect, goquDialect, mongoDialect, redisDialect}

// The ops layer dispatches each library call to the Library of its
// package, and the schema layer asks the model readers what a struct
// type maps to and the table readers what generated code declares; the
// dialects are where those come from.
func init() {
	for _, d := range all {
		if d.Ops != nil {
			ops.RegisterLibrary(d.Ops)
		}
		if d.Models != nil {
			schema.RegisterModels(d.Models)
		}
		if d.Tables != nil {
			schema.RegisterTables(d.Tables)
		}
	}
}

// For returns the dialect of a library family.
func For(lib string) *Dialect {
	for _, d := range all {
		if d.Lib == lib {
			return d
		}
	}
	return sqlDialect
}

// Claim says how to claim the row of table by cols before an effect
// (ClaimFirst), in SQL's words for the libraries without their own.
func (d *Dialect) Claim(table, cols string) string {
	if d.ClaimFirst != nil {
		return d.ClaimFirst(table, cols)
	}
	return fmt.Sprintf("claim the %s row first with an insert that does nothing on conflict on (%s), and perform the call only when the insert claimed the row", table, cols)
}

// ComputeInPlace says how to compute col from its current value in the
// write itself (InPlace), in SQL's words for the libraries without one.
func (d *Dialect) ComputeInPlace(col string) string {
	if d.InPlace != nil {
		return d.InPlace(col)
	}
	return fmt.Sprintf("compute %s from its current value in the UPDATE itself", col)
}

// sqlAtomic is the atomic form in plain SQL, with the first placeholder
// written $1.
func sqlAtomic(col, expr string) string {
	return fmt.Sprintf("SET %s = %s", col, strings.Replace(expr, "?", "$1", 1))
}

// namingFixed makes the Read of a library whose naming of its models the
// program does not set at run time (schema.ModelReader.Naming): the
// settings are ignored.
func namingFixed(read func(*types.TypeName, schema.TableNameLookup) *schema.Model) func(*types.TypeName, schema.TableNameLookup, []string) *schema.Model {
	return func(obj *types.TypeName, tableNames schema.TableNameLookup, _ []string) *schema.Model {
		return read(obj, tableNames)
	}
}

// columnsFixed makes the ModelColumns of a library whose naming the
// program does not set at run time: the asking function is ignored.
func columnsFixed(columns func(types.Type) (string, func(string) (string, bool))) func(*ssa.Function, types.Type) (string, func(string) (string, bool)) {
	return func(_ *ssa.Function, t types.Type) (string, func(string) (string, bool)) { return columns(t) }
}
