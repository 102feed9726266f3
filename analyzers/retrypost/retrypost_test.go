package retrypost_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/idemlint/idemlint/analyzers/config"
	"github.com/idemlint/idemlint/analyzers/internal/testutil"
	"github.com/idemlint/idemlint/analyzers/retrypost"
)

var packages = []string{
	"./retrypost/payments", "./retrypost/worker", "./retrypost/webhook",
	"./retrypost/libs", "./retrypost/checkout", "./retrypost/configured",
	"./retrypost/alerting", "./retrypost/transport",
}

// withUnknownEffect turns on the opt-in retrypost/unknown-effect, which
// most fixtures, about how requests are retried, are reported by.
func withUnknownEffect(t *testing.T) {
	require.NoError(t, config.SetDriver(config.Settings{Enable: []string{"retrypost/unknown-effect"}}))
	t.Cleanup(func() { require.NoError(t, config.SetDriver(config.Settings{})) })
}

func Test(t *testing.T) {
	withUnknownEffect(t)
	analysistest.Run(t, testutil.Fixtures(t), testutil.Whole(retrypost.Analyzer), packages...)
}

// TestDefault runs the default rules alone: a request retried without a
// key is reported only where the code shows that it creates something.
func TestDefault(t *testing.T) {
	analysistest.Run(t, testutil.Fixtures(t), testutil.Whole(retrypost.Analyzer), "./retrypost/creates", "./retrypost/mongotx")
}

// TestRelated checks what // want cannot: each finding points at what
// retries the request, in the same file, at or before the finding.
func TestRelated(t *testing.T) {
	withUnknownEffect(t)
	results := analysistest.Run(t, testutil.Fixtures(t), testutil.Whole(retrypost.Analyzer), packages...)
	found := map[string]int{}
	for _, res := range results {
		for _, d := range res.Diagnostics {
			d.Related = testutil.Evidence(t, d)
			found[d.Category]++
			require.Len(t, d.Related, 1, d.Message)
			retry := res.Pass.Fset.Position(d.Related[0].Pos)
			at := res.Pass.Fset.Position(d.Pos)
			assert.Equal(t, at.Filename, retry.Filename, d.Message)
			assert.LessOrEqual(t, retry.Line, at.Line, "the retry comes before or at the request: %s", d.Message)
			assert.True(t, strings.HasPrefix(d.Related[0].Message, "the retry: "), d.Related[0].Message)
			assert.Contains(t, d.Message, strings.TrimPrefix(d.Related[0].Message, "the retry: "), "the message names the retry")
			assert.True(t, strings.HasSuffix(d.Message, "derive the key once from the business operation and send it on every attempt, or do not retry"), d.Message)
		}
	}
	assert.Equal(t, map[string]int{"retrypost/nokey": 2, "retrypost/unknown-effect": 32, "retrypost/freshkey": 12}, found)
}
