package ops_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	_ "github.com/idemlint/idemlint/analyzers/internal/dialect" // the libraries' hooks
	"github.com/idemlint/idemlint/analyzers/internal/ops"
	"github.com/idemlint/idemlint/analyzers/internal/testutil"
)

// TestRequestFacts checks the request parts of the summaries: the
// non-idempotent requests a helper sends and where their key comes from,
// the func parameters a retry helper retries (and the loops that are
// not retries), the keys set on a request parameter, fresh results.
func TestRequestFacts(t *testing.T) {
	analysistest.Run(t, testutil.Fixtures(t), ops.FactsAnalyzer,
		"./retrypost/provider", "./retrypost/retry", "./retrypost/resilient")
}
