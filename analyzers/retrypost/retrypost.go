package retrypost

import (
	_ "embed"

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

func run(pass *analysis.Pass) (any, error) {
	return ops.Analyze(pass, func(r *report.Reporter, res *ops.Result) func(*ssa.Function) {
		return func(fn *ssa.Function) {
			for _, f := range res.RetryFindings(fn) {
				r.Report(report.Finding{
					Pos:     f.Pos,
					Rule:    f.Rule,
					Message: message(f),
					Related: []analysis.RelatedInformation{{Pos: f.RetryPos, Message: "the retry: " + f.Retry}},
				})
			}
		}
	})
}

func message(f ops.RetryFinding) string {
	switch f.Rule {
	case "freshkey":
		return f.Request + " is retried by " + f.Retry + " with an idempotency key made by " + f.Fresh +
			" on every attempt: the server sees each retry as a new operation and performs it again; " + fix
	}
	what := "without an idempotency key"
	if f.Stripe {
		what = "without an idempotency key of its own (stripe-go makes a new one on every call)"
	}
	return f.Request + " is retried by " + f.Retry + " " + what +
		": an attempt whose response was lost has already been performed, and the retry performs it again; " + fix
}
