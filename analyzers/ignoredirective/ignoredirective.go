package ignoredirective

import (
	_ "embed"

	"golang.org/x/tools/go/analysis"

	"github.com/idemlint/idemlint/analyzers/internal/report"
)

//go:embed doc.go
var doc string

// Analyzer reports malformed //idemlint:ignore directives.
var Analyzer = &analysis.Analyzer{
	Name: "ignoredirective",
	Doc:  report.Doc(doc, "ignoredirective"),
	URL:  report.URL("ignoredirective"),
	Run:  report.Guard(run),
	// The package's own type errors are the driver's to report.
	RunDespiteErrors: true,
}

func run(pass *analysis.Pass) (any, error) {
	if report.IllTyped(pass) {
		return nil, nil
	}
	r := report.New(pass)
	for _, d := range report.Directives(pass.Fset, pass.Files) {
		if d.Malformed != "" {
			r.Report(report.Finding{Pos: d.Pos, End: d.End, Rule: "malformed", Message: d.Malformed})
		}
	}
	r.Finish()
	return nil, nil
}
