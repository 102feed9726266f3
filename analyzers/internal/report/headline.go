package report

import (
	"fmt"
	"unicode/utf8"

	"golang.org/x/tools/go/analysis"
)

// MaxHeadline is the longest a finding's headline (its Message) may be,
// in characters. go vet's and staticcheck's messages are mostly under
// 100; ours name two functions, which a qualified method name makes
// long, so the bound is looser than the ~120 the headlines aim at. It is
// checked in tests, on every fixture's findings; in real code long names
// can make a headline longer, and it is reported whole (a headline is
// what a baseline fingerprints, so it is never cut).
const MaxHeadline = 150

// checkFinding enforces the conventions of a Finding: the message voice
// of its headline and its detail, the headline's length, and a detail
// wherever there is evidence (the drivers find the detail as the first
// related information, see Detail).
func checkFinding(f Finding) error {
	if err := CheckVoice(f.Message); err != nil {
		return err
	}
	// A hazard's headline is bounded; a directive's or a configuration's
	// diagnosis, which has no detail, is its one sentence.
	if n := utf8.RuneCountInString(f.Message); n > MaxHeadline && f.Detail != "" {
		return fmt.Errorf("headline of %d characters (at most %d; move the rest to Detail): %q", n, MaxHeadline, f.Message)
	}
	if f.Detail != "" {
		if err := CheckVoice(f.Detail); err != nil {
			return fmt.Errorf("detail: %v", err)
		}
	} else if len(f.Related) > 0 {
		return fmt.Errorf("a finding with related information has no Detail: %q", f.Message)
	}
	return nil
}

// Detail splits a diagnostic an analyzer reported through Report into its
// detail (the whole account of the finding: evidence, consequence, fix)
// and the related information that is evidence (the lookup, the read,
// the lock, the retry, in the order the analyzer gives them). ok is false
// for a diagnostic without a detail (a directive or configuration error,
// an internal error). Report puts the detail first, at the diagnostic's
// own range, and never puts evidence first without a detail.
func Detail(d analysis.Diagnostic) (detail string, evidence []analysis.RelatedInformation, ok bool) {
	if len(d.Related) == 0 || d.Related[0].Pos != d.Pos || d.Related[0].End != d.End {
		return "", d.Related, false
	}
	return d.Related[0].Message, d.Related[1:], true
}

// Whole returns the text of a diagnostic with its detail: the headline,
// a line break, the detail. Analyzer tests match their `// want`
// patterns against it (testutil.Whole), so that a fixture pins the fix
// a finding gives as well as its headline.
func Whole(d analysis.Diagnostic) string {
	if detail, _, ok := Detail(d); ok {
		return d.Message + "\n" + detail
	}
	return d.Message
}
