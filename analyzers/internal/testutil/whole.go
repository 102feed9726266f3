package testutil

import (
	"testing"

	"golang.org/x/tools/go/analysis"

	"github.com/idemlint/idemlint/analyzers/internal/report"
)

// Whole returns a copy of a whose diagnostics carry their detail in the
// message, after the headline and a line break (report.Whole), for
// analysistest: a fixture's `// want` pattern then matches the fix and the
// evidence a finding gives, not only its headline, while the drivers show
// the headline alone with the detail in the related information. The copy
// has a's name, requirements and facts, so everything else about the run
// is a's.
func Whole(a *analysis.Analyzer) *analysis.Analyzer {
	c := *a
	c.Run = func(pass *analysis.Pass) (any, error) {
		p := *pass
		p.Report = func(d analysis.Diagnostic) {
			d.Message = report.Whole(d)
			pass.Report(d)
		}
		return a.Run(&p)
	}
	return &c
}

// Evidence returns the related information of d after its detail,
// failing t when d has evidence but no detail: what a TestRelated checks.
func Evidence(t testing.TB, d analysis.Diagnostic) []analysis.RelatedInformation {
	t.Helper()
	_, evidence, ok := report.Detail(d)
	if !ok && len(d.Related) > 0 {
		t.Fatalf("finding without a detail: %s", d.Message)
	}
	return evidence
}
