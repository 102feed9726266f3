package retrypost

import (
	_ "embed"
	"go/token"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	// The libraries' hooks, registered with ops (dialect.Dialect.Ops).
	_ "github.com/idemlint/idemlint/analyzers/internal/dialect"
	"github.com/idemlint/idemlint/analyzers/internal/ops"
	"github.com/idemlint/idemlint/analyzers/internal/report"
)

//go:embed doc.go
var doc string

// Analyzer reports non-idempotent requests retried without an
// idempotency key fixed before the first attempt.
var Analyzer = &analysis.Analyzer{
	Name:     "retrypost",
	Doc:      report.Doc(doc, "retrypost"),
	URL:      report.URL("retrypost"),
	Requires: []*analysis.Analyzer{ops.Analyzer},
	Run:      report.Guard(run),
	// The package's own type errors are the driver's to report; with
	// RunDespiteErrors its importers still get this package's facts.
	RunDespiteErrors: true,
}

// fix is the advice every finding ends with.
const fix = "derive the key once from the business operation and send it on every attempt, or do not retry"

// unknownEffect is the opt-in sub-rule for a request retried without a
// key that nothing shows to create (config.OptInRules): the report layer
// drops its findings unless the enable setting names it, and then a
// directive naming it is not reported unused either.
const unknownEffect = "unknown-effect"

func run(pass *analysis.Pass) (any, error) {
	return ops.Analyze(pass, func(r *report.Reporter, res *ops.Result) func(*ssa.Function) {
		return func(fn *ssa.Function) {
			seen := map[token.Pos]bool{}
			for _, s := range res.RetriedSends(fn) {
				rule, retry := decide(s)
				if rule == "" || seen[s.Pos] {
					continue
				}
				seen[s.Pos] = true
				r.Report(report.Finding{
					Pos:     s.Pos,
					Rule:    rule,
					Message: headline(s, rule, retry),
					Detail:  message(s, rule, retry),
					Related: []analysis.RelatedInformation{{Pos: retry.Pos, Message: "the retry: " + retry.By}},
				})
			}
		}
	})
}

// decide returns the sub-rule a retried request breaks and the retry
// that breaks it (the first that does, in the order ops lists them), or
// "" when none does: a request performed once however often it is sent
// (not POST or PATCH, a stripe-go read) is safe to retry; one without a
// key breaks nokey when the code shows it creates something (ops'
// Created), and unknown-effect otherwise, since a POST may only read and
// only the server knows; one whose key is made on every attempt breaks
// freshkey, whatever it does, since the key says the repeat matters; a
// key fixed before the first attempt makes the retry safe, and one that
// cannot be seen suppresses.
func decide(s ops.RetriedSend) (string, ops.Retrial) {
	if !s.NonIdempotent {
		return "", ops.Retrial{}
	}
	for _, r := range s.Retries {
		switch r.Key {
		case ops.AttemptKeyNone:
			if s.Created == "" {
				return unknownEffect, r
			}
			return "nokey", r
		case ops.AttemptKeyEach:
			return "freshkey", r
		}
	}
	return "", ops.Retrial{}
}

// headline says what is retried and how its key fails; the retry is in
// the related information.
func headline(s ops.RetriedSend, rule string, r ops.Retrial) string {
	if rule == "freshkey" {
		return s.Request + " is retried with a new idempotency key on every attempt"
	}
	return s.Request + " is retried without an idempotency key"
}

func message(s ops.RetriedSend, rule string, r ops.Retrial) string {
	if rule == "freshkey" {
		return s.Request + " is retried by " + r.By + " with an idempotency key made by " + r.Fresh +
			" on every attempt: the server sees each retry as a new operation and performs it again; " + fix
	}
	what := "without an idempotency key"
	if s.Stripe {
		what = "without an idempotency key of its own (stripe-go makes a new one on every call)"
	}
	if rule == unknownEffect {
		return s.Request + " is retried by " + r.By + " " + what +
			": nothing here shows whether a repeat does harm (no 201 Created expected, no Location read), but if the server creates or changes something for it, an attempt whose response was lost is performed again; " + fix
	}
	return s.Request + " is retried by " + r.By + " " + what + ", and " + s.Created +
		": an attempt whose response was lost has already been performed, and the retry performs it again; " + fix
}
