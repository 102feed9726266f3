package schema_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/idemlint/idemlint/analyzers/internal/testutil"
)

// TestFixtures runs the probe over the schema fixtures module: ent's
// generated migrate package (reached through the client's fact), GORM
// models and their importers (both read by their dialects' readers), sqlc v1 and v2 configurations found above
// the package, DDL files named by an .idemlint.yml, and the merge of all
// of them.
func TestFixtures(t *testing.T) {
	dir := testutil.Module(t, "fixtures/schema")
	analysistest.Run(t, dir, probe,
		"./entuser", "./entodd", "./notent/migrate", "./gormmodels", "./gormuser", "./sqlcv2/store", "./sqlcv1/db", "./ddl", "./merge")
}
