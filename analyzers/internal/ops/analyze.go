package ops

import (
	"go/token"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/report"
)

// Analyze is the frame every analyzer built on the ops layer runs in. It
// takes the package's Result and hands it, with the package's reporter,
// to setup, which prepares what the analyzer needs once per package and
// returns the check of one function (nil to check none); each analysed
// function is checked inside the reporter's scope for it, so that its
// findings and ignore directives attach to it. Then the reporter is
// finished and the package's SSA released once every analyzer using it
// is done. A package that does not type-check reports nothing: its errors
// are the driver's to report.
func Analyze(pass *analysis.Pass, setup func(r *report.Reporter, res *Result) (check func(fn *ssa.Function))) (any, error) {
	res, _ := pass.ResultOf[Analyzer].(*Result)
	defer res.Release(pass)
	if report.IllTyped(pass) {
		return nil, nil
	}
	r := report.New(pass)
	if res != nil {
		if check := setup(r, res); check != nil {
			for _, fn := range res.Funcs {
				end := token.NoPos
				if syntax := fn.Syntax(); syntax != nil {
					end = syntax.End()
				}
				r.Func(FuncName(fn), fn.Pos(), end, func() { check(fn) })
			}
		}
	}
	r.Finish()
	return nil, nil
}
