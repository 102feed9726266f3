package ignoredirective_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/idemlint/idemlint/analyzers/ignoredirective"
	"github.com/idemlint/idemlint/analyzers/internal/testutil"
)

func Test(t *testing.T) {
	analysistest.Run(t, testutil.Fixtures(t), ignoredirective.Analyzer, "./ignoredirective")
}
