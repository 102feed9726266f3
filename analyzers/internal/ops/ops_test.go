package ops_test

import (
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"
	"golang.org/x/tools/go/ssa"

	_ "github.com/idemlint/idemlint/analyzers/internal/dialect" // the libraries' hooks
	"github.com/idemlint/idemlint/analyzers/internal/ops"
	"github.com/idemlint/idemlint/analyzers/internal/testutil"
)

// TestFacts checks the summaries FactsAnalyzer exports: locks on a
// handle parameter, network I/O, user-written transaction helpers over
// database/sql and GORM, a generic helper summarised once, and
// repositories returning a model they read or writing one whole.
func TestFacts(t *testing.T) {
	analysistest.Run(t, testutil.Fixtures(t), ops.FactsAnalyzer,
		"./lockacrosscall/store", "./lockacrosscall/payments", "./lockacrosscall/gormtx",
		"./checkinsert/users", "./checkinsert/gormrepo", "./lostupdate/repo", "./ops/genrepo",
		"./lockacrosscall/gin/middleware", "./lockacrosscall/gin/services")
}

// probe reports, for every UPDATE of the package, what Result.Protection
// says protects it, and for every network operation whether a lock of
// the same function reaches it before that lock's transaction ends.
var probe = &analysis.Analyzer{
	Name:     "opsprobe",
	Doc:      "reports ops.Result's protection and reachability answers, for tests",
	Requires: []*analysis.Analyzer{ops.Analyzer},
	Run: func(pass *analysis.Pass) (any, error) {
		res := pass.ResultOf[ops.Analyzer].(*ops.Result)
		for _, fn := range res.Funcs {
			for _, u := range res.Updates(fn) {
				p := res.Protection(fn, u.Handle, u.Instr, func(op *ops.Op) bool { return op.Instr != u.Instr })
				pass.Reportf(u.Pos(), "update %s: %s", u.Table, p)
			}
			fnOps := res.Ops(fn)
			for _, net := range fnOps {
				if net.Kind != ops.Network {
					continue
				}
				held := false
				for _, lock := range fnOps {
					if lock.Kind != ops.Lock {
						continue
					}
					ends := func(instr ssa.Instruction) bool {
						for _, end := range fnOps {
							if end.Kind == ops.End && !end.Deferred && end.Handle == lock.Handle && end.Instr == instr {
								return true
							}
						}
						return false
					}
					if ops.Reaches(lock.Instr, net.Instr, ends) {
						held = true
					}
				}
				if held {
					pass.Reportf(net.Pos(), "network: after a lock, before its end")
				} else {
					pass.Reportf(net.Pos(), "network: no lock held")
				}
			}
		}
		return nil, nil
	},
}

// TestResult checks Result's protection and reachability queries, each
// protection beside a case where it is on another path, on another
// transaction or too late, and does not count.
func TestResult(t *testing.T) {
	analysistest.Run(t, testutil.Fixtures(t), probe, "./ops/protect")
}
