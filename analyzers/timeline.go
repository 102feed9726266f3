package analyzers

import (
	"golang.org/x/tools/go/analysis"

	"github.com/idemlint/idemlint/analyzers/internal/report"
)

// The report layer's account of a finding, for the drivers outside this
// module's internal packages (cmd/idemlint's -explain and SARIF).

type (
	// A Timeline is the interleaving that makes a finding a bug (see
	// report.Timeline).
	Timeline = report.Timeline
	// A Step is one thing one of a Timeline's actors does.
	Step = report.Step
)

// Interleaving returns the timeline of a finding of an idemlint analyzer:
// two callers (an attempt and its retry, a lock's holder and a waiting
// writer) step by step at the finding's positions, and the outcome. ok is
// false for a category without one (a directive or configuration error).
func Interleaving(d analysis.Diagnostic) (Timeline, bool) { return report.Interleaving(d) }

// Detail returns the whole account of a finding (evidence, consequence,
// fix), which the analyzers report as the first related information at
// the finding's own range, and the related information after it, which
// is the evidence; ok is false for a diagnostic without a detail, whose
// related information is all evidence.
func Detail(d analysis.Diagnostic) (detail string, evidence []analysis.RelatedInformation, ok bool) {
	return report.Detail(d)
}

// HasTimeline reports whether findings of category get a timeline.
func HasTimeline(category string) bool { return report.HasTimeline(category) }
