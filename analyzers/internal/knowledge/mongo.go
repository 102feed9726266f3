package knowledge

const (
	mongoV1    = "go.mongodb.org/mongo-driver/mongo"
	mongoV2    = "go.mongodb.org/mongo-driver/v2/mongo"
	mongoV1Mod = "go.mongodb.org/mongo-driver"
	mongoV2Mod = "go.mongodb.org/mongo-driver/v2"
)

// mongo is the MongoDB Go driver, v1 (go.mongodb.org/mongo-driver/mongo)
// and v2 (.../v2/mongo), whose Collection methods have the same names and
// parameter positions in both. A collection stands for a table and a
// filter document for a WHERE; the dialect reads them (collection names,
// bson.M and bson.D filters, the inserted document's fields by their bson
// names). FindOne returns a *SingleResult whose Decode and Err return
// ErrNoDocuments when nothing matched, as a row's Scan returns
// sql.ErrNoRows; CountDocuments' count is 0 then. Nothing here is a network
// call: the database is not another service.
var mongo = library{
	name: "mongo",
	pkgs: []string{mongoV1Mod, mongoV2Mod},
	types: func() []Type {
		var ts []Type
		for _, pkg := range []string{mongoV1, mongoV2} {
			ts = append(ts,
				Type{Pkg: pkg, Name: "Client", Role: DBHandle},
				Type{Pkg: pkg, Name: "Database", Role: DBHandle},
				Type{Pkg: pkg, Name: "Collection", Role: DBHandle},
			)
		}
		return ts
	}(),
	sentinels: []Sentinel{
		{Pkg: mongoV1, Name: "ErrNoDocuments", Meaning: NotFound},
		{Pkg: mongoV2, Name: "ErrNoDocuments", Meaning: NotFound},
	},
	calls: append(append(mongoCalls(mongoV1), mongoCalls(mongoV2)...), append(mongoWriteCalls(mongoV1), mongoWriteCalls(mongoV2)...)...),
}

func mongoCalls(pkg string) []Call {
	c := func(name string) Func { return method(pkg, "Collection", name) }
	return []Call{
		// FindOne(ctx, filter, opts...) *SingleResult: the first document
		// matching filter, read by the result's Decode (or only tested by
		// its Err), which returns ErrNoDocuments when none matched
		// (single_result.go).
		{Func: c("FindOne"), Kind: Find, Params: []Param{p(1, Cond)}, Result: RowResult},
		{Func: method(pkg, "SingleResult", "Decode"), Kind: Scan, Params: []Param{p(0, Dest)}},
		{Func: method(pkg, "SingleResult", "Err"), Kind: Scan},
		// CountDocuments(ctx, filter, opts...) (int64, error): 0 when no
		// document matched.
		{Func: c("CountDocuments"), Kind: Find, Params: []Param{p(1, Cond)}, Result: ScalarResult},
		// InsertOne(ctx, document, opts...): a struct (by its bson field
		// names), a pointer to one, bson.M or bson.D. It fails with a
		// duplicate-key error (code 11000) only where a unique index
		// covers the key; without one both documents are stored.
		{Func: c("InsertOne"), Kind: Insert, Params: []Param{p(1, Model)}},
		// Session.WithTransaction(ctx, fn, opts...) runs fn in a
		// transaction and runs it again, whole, while it or the commit
		// fails with a TransientTransactionError or
		// UnknownTransactionCommitResult label, for up to 120 seconds
		// (session.go): a request fn sends is retried. v1's Session is an
		// interface, v2's a struct.
		{Func: method(pkg, "Session", "WithTransaction"), Kind: Retry, Params: []Param{p(1, Callback)}},
		// IsDuplicateKeyError(err) tells the insert's error of a unique
		// index (codes 11000, 11001, 12582; errors.go).
		{Func: fn(pkg, "IsDuplicateKeyError"), Kind: ErrorCheck, Params: []Param{p(0, ErrArg)}, Meaning: UniqueViolation},
	}
}

// mongoWriteCalls are the collection's updates: UpdateOne, UpdateMany and
// FindOneAndUpdate(ctx, filter, update) apply the update document's
// operators ($set of values computed in Go, $inc of a delta) to what the
// filter matches; ReplaceOne(ctx, filter, replacement) writes the
// replacement document whole.
func mongoWriteCalls(pkg string) []Call {
	c := func(name string) Func { return method(pkg, "Collection", name) }
	return []Call{
		{Func: c("UpdateOne"), Kind: Update, Params: []Param{p(1, Cond), p(2, Values)}},
		{Func: c("UpdateMany"), Kind: Update, Params: []Param{p(1, Cond), p(2, Values)}},
		{Func: c("FindOneAndUpdate"), Kind: Update, Params: []Param{p(1, Cond), p(2, Values)}},
		{Func: c("ReplaceOne"), Kind: Update, Params: []Param{p(1, Cond), p(2, Model)}},
	}
}
