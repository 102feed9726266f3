package noversion_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/idemlint/idemlint/analyzers/internal/report"
	"github.com/idemlint/idemlint/analyzers/internal/testutil"
	"github.com/idemlint/idemlint/analyzers/noversion"
)

var fixtures = []string{
	"./noversion/docstore",   // database/sql and pgx repository; a versioned table from DDL, an unversioned one
	"./noversion/docsvc",     // a service passing a transaction down, and its handler; a FOR UPDATE on the sqlx pool, beside one on its transaction
	"./noversion/wikis",      // GORM Update, Updates, UpdateColumn and Save; Where with and without the version
	"./noversion/ledger",     // sqlc's generated pgx queries in another package
	"./noversion/profiles",   // GORM models versioned only by a Version field some update compares
	"./noversion/jobs",       // a table no schema describes, versioned by an update that compares its version
	"./noversion/bundocs",    // bun NewUpdate with Set and Where fragments
	"./noversion/accounts",   // ent's generated client: UpdateOneID and Update with and without the version predicate
	"./noversion/gormv1docs", // GORM v1 (jinzhu/gorm): Update and Updates with and without the version
	"./noversion/rotations",  // a version column the code sets to a constant: a layout version, not versioned
	"./noversion/gorpdocs",   // gorp Update of a table registered with SetVersionCol, and raw Exec beside it
	"./noversion/xormdocs",   // xorm Update of a bean with a version tag: the count dropped, a map bean, NoVersionCheck, raw Exec
	"./noversion/gopgdocs",   // go-pg Update with Set, Value and Where; raw ExecOne and Exec; versioned by the package's own compare-and-bump
	"./noversion/goqudocs",   // goqu Update with Set(goqu.Record) and Where, run by its executor or database/sql
	"./noversion/mongodocs",  // MongoDB UpdateOne and FindOneAndUpdate of a collection the package versions (filter on version, $inc): by id alone, the MatchedCount dropped; another collection silent
}

func Test(t *testing.T) {
	analysistest.Run(t, testutil.Fixtures(t), testutil.Whole(noversion.Analyzer), fixtures...)
}

// TestDiscoveredMigrations: testdata/migrations names no schema; wallets
// is versioned only by its discovered migration (db/migrations), and the
// same updates of payouts (no version column; the copies adding one are
// under testdata/ and .scratch/) and ledger_entries (whose version
// migration 10 drops after migration 2 made it) stay silent.
func TestDiscoveredMigrations(t *testing.T) {
	analysistest.Run(t, testutil.Module(t, "migrations"), testutil.Whole(noversion.Analyzer), "./internal/...")
}

// TestMessages checks what // want does not: the count of each rule, the
// message voice, and that each message says why the table is versioned
// (predicate) or names its version column (unchecked).
func TestMessages(t *testing.T) {
	results := analysistest.Run(t, testutil.Fixtures(t), testutil.Whole(noversion.Analyzer), fixtures...)
	counts := map[string]int{}
	for _, res := range results {
		for _, d := range res.Diagnostics {
			counts[d.Category]++
			d.Related = testutil.Evidence(t, d)
			assert.NoError(t, report.CheckVoice(d.Message))
			assert.Empty(t, d.Related, d.Message)
			switch d.Category {
			case "noversion/predicate":
				assert.Contains(t, d.Message, " is versioned (", d.Message)
				assert.Contains(t, d.Message, "version", d.Message)
			case "noversion/unchecked":
				assert.Regexp(t, `compares \w+\.version but`, d.Message)
			default:
				t.Errorf("unexpected category %s: %s", d.Category, d.Message)
			}
		}
	}
	assert.Equal(t, map[string]int{"noversion/predicate": 29, "noversion/unchecked": 15}, counts)
}
