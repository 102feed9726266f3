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
		checkFuncs(r, res, setup)
		for _, sp := range res.openSpans {
			// A package binding its interfaces may find more here.
			r.Unknown(sp.pos, sp.end)
		}
		for _, c := range res.completions {
			checkCompleted(pass, setup, c)
		}
	}
	r.Finish()
	return nil, nil
}

// checkFuncs checks each function of res with the check setup returns.
func checkFuncs(r *report.Reporter, res *Result, setup func(r *report.Reporter, res *Result) (check func(fn *ssa.Function))) {
	check := setup(r, res)
	if check == nil {
		return
	}
	for _, fn := range res.Funcs {
		r.Func(FuncName(fn), fn.Pos(), funcEnd(fn), func() { check(fn) })
	}
}

func funcEnd(fn *ssa.Function) token.Pos {
	if syntax := fn.Syntax(); syntax != nil {
		return syntax.End()
	}
	return token.NoPos
}

// checkCompleted reports, at a consumer's lines, the findings the
// bindings of the package under analysis add to those the consumer's own
// pass reports: the consumer's functions are checked with and without
// them, and only the difference is reported here.
func checkCompleted(pass *analysis.Pass, setup func(r *report.Reporter, res *Result) (check func(fn *ssa.Function)), c *completed) {
	type key struct {
		pos      token.Pos
		category string
		message  string
	}
	findings := func(res *Result) []analysis.Diagnostic {
		// The consumer's own files: its generated files and its ignore
		// directives apply to what is reported in them.
		consumer := *pass
		consumer.Pkg, consumer.Files, consumer.TypesInfo = c.src.pkg, c.src.files, c.src.info
		var got []analysis.Diagnostic
		consumer.Report = func(d analysis.Diagnostic) { got = append(got, d) }
		checkFuncs(report.New(&consumer), res, setup)
		return got
	}
	seen := map[key]bool{}
	for _, d := range findings(c.plain) {
		seen[key{d.Pos, d.Category, d.Message}] = true
	}
	// With several implementations of an interface, each variant binds
	// another: a finding is reported only where every variant has it
	// (at the same position, by the same rule), with the first's words.
	type site struct {
		pos      token.Pos
		category string
	}
	var first []analysis.Diagnostic
	count := map[site]int{}
	for i, res := range c.bound {
		here := map[site]bool{}
		for _, d := range findings(res) {
			if seen[key{d.Pos, d.Category, d.Message}] {
				continue
			}
			s := site{d.Pos, d.Category}
			if !here[s] {
				here[s] = true
				count[s]++
			}
			if i == 0 {
				first = append(first, d)
			}
		}
	}
	for _, d := range first {
		if count[site{d.Pos, d.Category}] == len(c.bound) {
			pass.Report(d)
		}
	}
}
