package dialect

import (
	"fmt"

	"github.com/idemlint/idemlint/analyzers/internal/ops"
)

// mongoDialect is the MongoDB Go driver, v1 and v2 (one Library: v2's
// import path is under v1's module path). A collection is a table, a
// filter document a WHERE, a document's field a column (its bson name).
// MongoDB has no row lock a read can take and no conflict clause on an
// insert: what makes a key unique is a unique index, and the loser of a
// race gets a duplicate-key error (mongo.IsDuplicateKeyError); without
// the index both documents are stored. The fixes are worded in the
// driver's API.
var mongoDialect = &Dialect{
	Lib: "mongo",
	ClaimInsert: func(cols string) string {
		return fmt.Sprintf("create a unique index on (%s) (Indexes().CreateOne with options.Index().SetUnique(true)) and treat mongo.IsDuplicateKeyError from InsertOne as the document existing, instead of looking it up first", cols)
	},
	ClaimFirst: func(table, cols string) string {
		return fmt.Sprintf("insert the %s document first, with a unique index on (%s) (options.Index().SetUnique(true)), and perform the call only when InsertOne succeeded: mongo.IsDuplicateKeyError means another caller claimed it", table, cols)
	},
	LockRead:     "make the write conditional on what was read (the value read in UpdateOne's filter, MatchedCount checked, or one FindOneAndUpdate): a MongoDB read takes no lock",
	PartialWrite: "$set only the changed fields with UpdateOne",
	AtomicUpdate: func(_ *ops.ColumnWrite, col, expr string) string {
		return fmt.Sprintf("update it in the database with UpdateOne and {\"$inc\": {%q: delta}} instead of $set of a value computed from a read copy", col)
	},
	InPlace: func(col string) string {
		return fmt.Sprintf("compute %s from its current value in the update itself ($inc, $mul, $min/$max, or an update pipeline)", col)
	},
	VersionPredicate: func(_ *ops.Update, col, _ string) string {
		return fmt.Sprintf("put the version read in the filter and $inc it in the update ({%q: v} and {\"$inc\": {%q: 1}})", col, col)
	},
	CheckCount:        "treat an UpdateResult whose MatchedCount is 0 as a conflict",
	UnobservableCount: func(*ops.Update) (string, string) { return "", "" },
	Ops: &ops.Library{
		Name:   "mongo",
		Pkg:    mongoModule,
		Row:    mongoRow,
		Read:   mongoRead,
		Writes: mongoWrites,
		Update: mongoUpdate,
	},
	Models: mongoModels,
}
