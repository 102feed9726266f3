package ignoredirective

import (
	_ "embed"
	"fmt"

	"golang.org/x/tools/go/analysis"

	"github.com/idemlint/idemlint/analyzers/config"
	"github.com/idemlint/idemlint/analyzers/internal/report"
)

//go:embed doc.go
var doc string

// Analyzer reports malformed //idemlint:ignore and //idemlint:file-ignore
// directives, and a configuration that cannot be read.
var Analyzer = &analysis.Analyzer{
	Name:     "ignoredirective",
	Doc:      report.Doc(doc, "ignoredirective"),
	URL:      report.URL("ignoredirective"),
	Requires: []*analysis.Analyzer{config.Analyzer},
	Run:      report.Guard(run),
	// The package's own type errors are the driver's to report.
	RunDespiteErrors: true,
}

func run(pass *analysis.Pass) (any, error) {
	if report.IllTyped(pass) {
		return nil, nil
	}
	r := report.New(pass)
	// The drivers stop on a bad configuration before analysing; an
	// editor cannot, so the problem is said where the user is, once per
	// package, by the analyzer that is always on.
	if cfg, _ := pass.ResultOf[config.Analyzer].(*config.Config); cfg != nil && cfg.Err != nil && len(pass.Files) > 0 {
		r.Report(report.Finding{Pos: pass.Files[0].Package, End: pass.Files[0].Name.End(), Rule: "config",
			Message: fmt.Sprintf("bad idemlint configuration, so idemlint analyses nothing in this package: %v; correct the setting there", cfg.Err)})
	}
	for _, d := range report.Directives(pass.Fset, pass.Files) {
		if d.Malformed != "" {
			r.Report(report.Finding{Pos: d.Pos, End: d.End, Rule: "malformed", Message: d.Malformed})
		}
	}
	r.Finish()
	return nil, nil
}
