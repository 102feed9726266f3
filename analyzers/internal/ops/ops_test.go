package ops_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/idemlint/idemlint/analyzers/internal/ops"
	"github.com/idemlint/idemlint/analyzers/internal/testutil"
)

// TestFacts checks the summaries FactsAnalyzer exports: locks on a
// handle parameter, network I/O, user-written transaction helpers over
// database/sql and GORM, a generic helper summarised once, and
// repositories returning a model they read or writing one whole.
func TestFacts(t *testing.T) {
	analysistest.Run(t, testutil.Fixtures(t), ops.FactsAnalyzer,
		"./lockacrosscall/store", "./lockacrosscall/payments", "./lockacrosscall/gormtx",
		"./checkinsert/users", "./checkinsert/gormrepo", "./lostupdate/repo")
}
