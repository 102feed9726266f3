package analyzers_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"golang.org/x/tools/go/analysis"

	"github.com/idemlint/idemlint/analyzers"
	"github.com/idemlint/idemlint/analyzers/internal/ops"
)

// TestOpsConsumers checks that ops.Consumers names exactly the registry's
// analyzers that use ops.Analyzer's result: a Result drops its SSA once
// all of them have released it, so one missing from the list could find
// its Result released while it still runs.
func TestOpsConsumers(t *testing.T) {
	var uses func(a *analysis.Analyzer) bool
	uses = func(a *analysis.Analyzer) bool {
		for _, req := range a.Requires {
			if req == ops.Analyzer || uses(req) {
				return true
			}
		}
		return false
	}
	var got []string
	for _, a := range analyzers.All() {
		if uses(a) {
			got = append(got, a.Name)
		}
	}
	assert.ElementsMatch(t, ops.Consumers, got)
}
