package ops

import (
	"golang.org/x/tools/go/analysis"
)

// Consumers names the analyzers that require Analyzer. Each calls
// Result.Release when its run is over; once all of them have, the Result
// drops its SSA. A test in the registry checks that this list is exactly
// the analyzers of analyzers.All() requiring Analyzer: one missing from it
// could find the Result released while it still runs.
var Consumers = []string{"checkinsert", "lostupdate", "noversion", "lockacrosscall", "retrypost"}

// Release says that pass's analyzer is done with r: it reads nothing of r
// afterwards. When every analyzer named in Consumers has released r, r
// and the FactsAnalyzer result it came from drop their references to the
// package's SSA and operations, which then become garbage even though the
// driver keeps the results themselves (x/tools' checker keeps every
// action's result, and every pass, until the analysis ends: without this,
// the SSA of every package with operations is live at once;
// docs/performance.md).
//
// The summaries the package exported do not need the SSA: they are
// facts, copied into importers' passes. A driver that runs only some of
// the consumers (a single analyzer enabled, analysistest, a wrapper that
// renames them) never reaches the count, and r keeps its SSA, as before.
// Release is safe to call concurrently, and on a nil Result.
func (r *Result) Release(pass *analysis.Pass) {
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.released == nil {
		r.released = map[string]bool{}
	}
	r.released[pass.Analyzer.Name] = true
	for _, name := range Consumers {
		if !r.released[name] {
			return
		}
	}
	forgetCopies(r.Funcs)
	for _, c := range r.completions {
		forgetCopies(c.Funcs)
	}
	r.Funcs, r.txParams, r.e, r.completions = nil, nil, nil, nil
	if r.facts != nil {
		r.facts.Funcs, r.facts.e, r.facts.completions = nil, nil, nil
	}
}
