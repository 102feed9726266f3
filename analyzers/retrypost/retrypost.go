package retrypost

import (
	_ "embed"
	"go/token"

	"golang.org/x/tools/go/analysis"

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
	res, _ := pass.ResultOf[ops.Analyzer].(*ops.Result)
	defer res.Release(pass) // its SSA can go once every analyzer using it is done
	if report.IllTyped(pass) {
		return nil, nil
	}
	r := report.New(pass)
	if res != nil {
		for _, fn := range res.Funcs {
			end := token.NoPos
			if syntax := fn.Syntax(); syntax != nil {
				end = syntax.End()
			}
			r.Func(ops.FuncName(fn), fn.Pos(), end, func() {
				for _, f := range res.RetryFindings(fn) {
					r.Report(report.Finding{
						Pos:     f.Pos,
						Rule:    f.Rule,
						Message: message(f),
						Related: []analysis.RelatedInformation{{Pos: f.RetryPos, Message: "the retry: " + f.Retry}},
					})
				}
			})
		}
	}
	r.Finish()
	return nil, nil
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
