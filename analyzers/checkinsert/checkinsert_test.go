package checkinsert_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/idemlint/idemlint/analyzers/checkinsert"
	"github.com/idemlint/idemlint/analyzers/internal/testutil"
)

var fixtures = []string{
	"./checkinsert/signup",        // handlers and services over a database/sql repository in another package
	"./checkinsert/inline",        // database/sql, sqlx and pgx in one function; transactions and locks
	"./checkinsert/rewards",       // pgx with a payout between lookup and insert
	"./checkinsert/gormtags",      // GORM FirstOrCreate
	"./checkinsert/sqlcuse",       // sqlc's generated pgx queries in another package
	"./checkinsert/gormsvc",       // GORM First, Take, Count and Create, through a repository in another package
	"./checkinsert/entsvc",        // ent's generated client (Exist, Only, Count; Create, OnConflictColumns)
	"./checkinsert/bunsvc",        // bun Scan, Exists and Count; NewInsert with On
	"./checkinsert/gormgen",       // GORM generics: gorm.G[T](db) First and Create
	"./checkinsert/ddlkeys",       // unique keys from a configured DDL file, in the message
	"./checkinsert/categories",    // a create helper taking a request struct; unique violations recognised by the driver's message
	"./checkinsert/sqsvc",         // squirrel-built SQL (sq.Eq, written conditions, Suffix ON CONFLICT) run by database/sql
	"./checkinsert/exprkeys",      // a lookup narrowed by a term not understood (lower(title) = lower($2)): reported without naming its known columns as the key
	"./checkinsert/indexkeys",     // a batch element loaded twice (codes[i], codes[0]) is one key; two elements are not
	"./checkinsert/seeding",       // startup seeding keyed by program constants (silent) beside the same calls keyed by a caller's values
	"./checkinsert/claimfallback", // the claim-with-fallback pattern: a fast path, then an insert whose violation (from QueryRow ... RETURNING ... Scan, database/sql, GORM) a helper tests
	"./checkinsert/validators",    // validators returning an error when the row exists (GORM, database/sql), the insert in the caller
	"./checkinsert/gormtables",    // GORM chains naming their table: Table("t") and Table(m.TableName()), Count without Model, the model inserted as given
	"./checkinsert/gormv1svc",     // GORM v1 (jinzhu/gorm): First, RecordNotFound, Count; Set("gorm:insert_option")
	"./checkinsert/gorpsvc",       // gorp SelectOne, SelectInt and Get, then Insert of the caller's struct; Exec ON CONFLICT
	"./checkinsert/xormsvc",       // xorm Get, Exist, Count and GetOrError, then Insert, inline and through repositories (xormrepo); engine.Transaction with ForUpdate
	"./checkinsert/xormgonic",     // xorm under the GonicMapper its engine package (xormdb) sets: TaskID is task_id; Update whose count is 0, then Insert
	"./checkinsert/xormmixed",     // xorm with two mappers set (GonicMapper and SnakeMapper): columns they name differently unknown, silent
	"./checkinsert/gopgsvc",       // go-pg Select, Exists and Count, inline and through a repository in another package; Insert with OnConflict; SelectOrInsert; QueryOne and Exec SQL text
	"./checkinsert/goqusvc",       // goqu ScanStruct found, Count and database/sql ErrNoRows, then Rows of the caller's struct; OnConflict DoNothing, DoUpdate
	"./checkinsert/globalsvc",     // package-level handles (GORM, database/sql) with the caller's struct, a validator, an exists-helper returning true, nil / false, nil
	"./checkinsert/dtocopy",       // the model filled from the request by a helper of a DTO package (c.Generate(&data)); a copy that may not run, another request, a transformed key
	"./checkinsert/entlogin",      // ent behind a repository (entrepo): EqualFold as a key, the error through a mapping closure held in a package variable, a create with an optional step on a branch and a struct parameter, two calls down; ContainsFold, an error swallowed, the constraint error caught
	"./dialectdb/cache",           // a database package's own Querier, one sqlc wrapper per dialect: the cache completes its own calls with each (wiring's dialectdb program)
	"./checkinsert/sqlxnamed",     // sqlx NamedExec binding the caller's struct (a pointer, a value, an embedded struct) or a map by name, inline and through a store; ON CONFLICT, a key changed in between, another struct, a batch silent
	"./checkinsert/orlookup",      // one lookup of two unique columns (username = $1 OR email = $2; a GORM fragment), then the insert of either; ON CONFLICT, two ORs, NOT, other values silent
	"./checkinsert/gormadmin",     // admin-panel GORM: the check in a DAL method (its query, built by a helper returning the chain of a model whose TableName is computed, run by a helper of another package that counts it), the model filled by a form's FillTo, the insert in a closure run by the service's transaction helper (the tx in the context) or GORM's Transaction; Save of a new model; Where(...).Or(...); ON CONFLICT, a re-read on ErrDuplicatedKey, a changed name, Save of a read row or a set ID silent
	"./checkinsert/gormv1save",    // GORM v1 admin console: a name looked up by a models helper, then the decoded request saved by a helper's Save (an insert of a model with no primary key); Save with the ID set or of a row read silent
	"./checkinsert/rejoin",        // the found-nothing test made after the branch rejoined: a flag the not-found branch set, a sql.NullString the failed Scan left invalid (a storage write picking INSERT or UPDATE), a GORM model's primary key left zero by Find; ON CONFLICT, a flag or field of something else silent
	"./checkinsert/suppressed",    // directives over multi-line GORM chains and declarations, beside the same code without them
	"./checkinsert/errelse",       // "found nothing" as the other side of err == nil: QueryRow Scan, sqlx Get, pgx, xorm GetOrError, ent Only, a helper passing the error on; silent for a count, sqlx Select, xorm Get, ent Count, a helper returning nil, nil
	"./checkinsert/redisv8",       // go-redis v8 through redis.UniversalClient: GET missed, then SET of the caller's value; SetNX silent
	"./checkinsert/redissvc",      // go-redis: GET missed (redis.Nil by ==, errors.Is, !=), then SET of a value the caller gave, or a payout before the SET of the event; SetNX, another key, a constant key, a cache-aside fill silent
	"./checkinsert/mongosvc",      // MongoDB v1: FindOne (Decode, Err), CountDocuments, then InsertOne of a struct, the caller's struct through a repository, a bson.M; IsDuplicateKeyError, another key, another collection, seeding silent
	"./checkinsert/ownerrors/...", // "found nothing" tested with the errors.Is of the service's own errors package (another package, given no SSA of its own); its negation silent
	"./checkinsert/mongorepo/...", // MongoDB stores embedding a base repository whose collection is named in another package: each store type is one collection; the same fields in another store silent
	"./checkinsert/mongov2/...",   // MongoDB v2 behind a store in another package: a bson.D filter with $eq, a narrowed count, an insert of the caller's value struct; an UpdateOne silent
}

func Test(t *testing.T) {
	analysistest.Run(t, testutil.Fixtures(t), testutil.Whole(checkinsert.Analyzer), fixtures...)
}

// TestEnt010 runs the analyzer over a client generated by ent v0.10.1
// (testdata/fixtures-ent010, a module of its own: the fixtures module
// pins a current ent): Only then Create, inline and through a store (edge predicates, a wrapped NotFoundError); OnConflictColumns, IsConstraintError and another key silent.
func TestEnt010(t *testing.T) {
	analysistest.Run(t, testutil.Module(t, "fixtures-ent010"), testutil.Whole(checkinsert.Analyzer), "./checkinsert")
}

// TestRelated checks what // want cannot: each race points at its lookup,
// each effect-before-claim at its lookup and its insert.
func TestRelated(t *testing.T) {
	results := analysistest.Run(t, testutil.Fixtures(t), testutil.Whole(checkinsert.Analyzer), fixtures...)
	counts := map[string]int{}
	for _, res := range results {
		for _, d := range res.Diagnostics {
			d.Related = testutil.Evidence(t, d)
			counts[d.Category]++
			pos := res.Pass.Fset.Position(d.Pos)
			switch d.Category {
			case "checkinsert/race":
				require.Len(t, d.Related, 1, d.Message)
				lookup := res.Pass.Fset.Position(d.Related[0].Pos)
				assert.Equal(t, pos.Filename, lookup.Filename)
				assert.Less(t, lookup.Line, pos.Line, "the lookup comes before the insert: %s", d.Message)
				assert.Contains(t, strings.ToLower(d.Related[0].Message), "the lookup")
			case "checkinsert/effect-before-claim":
				require.Len(t, d.Related, 2, d.Message)
				lookup := res.Pass.Fset.Position(d.Related[0].Pos)
				insert := res.Pass.Fset.Position(d.Related[1].Pos)
				assert.Less(t, lookup.Line, pos.Line, d.Message)
				assert.Less(t, pos.Line, insert.Line, d.Message)
				assert.Contains(t, strings.ToLower(d.Related[0].Message), "the lookup")
				assert.Contains(t, strings.ToLower(d.Related[1].Message), "the insert")
			case "checkinsert/firstorcreate":
				assert.Empty(t, d.Related, d.Message)
			case "checkinsert/unused-ignore": // the stale directive of ./checkinsert/suppressed
				assert.Empty(t, d.Related, d.Message)
			default:
				t.Errorf("unexpected category %s: %s", d.Category, d.Message)
			}
		}
	}
	assert.Equal(t, map[string]int{"checkinsert/race": 148, "checkinsert/effect-before-claim": 6, "checkinsert/firstorcreate": 5, "checkinsert/unused-ignore": 1}, counts)
}
