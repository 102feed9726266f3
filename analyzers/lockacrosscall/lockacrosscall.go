package lockacrosscall

import (
	_ "embed"
	"fmt"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	// The libraries' hooks, registered with ops (dialect.Dialect.Ops).
	_ "github.com/idemlint/idemlint/analyzers/internal/dialect"
	"github.com/idemlint/idemlint/analyzers/internal/ops"
	"github.com/idemlint/idemlint/analyzers/internal/report"
)

//go:embed doc.go
var doc string

// Analyzer reports network calls made while a transaction holds a lock.
var Analyzer = &analysis.Analyzer{
	Name:     "lockacrosscall",
	Doc:      report.Doc(doc, "lockacrosscall"),
	URL:      report.URL("lockacrosscall"),
	Requires: []*analysis.Analyzer{ops.Analyzer},
	Run:      report.Guard(run),
	// The package's own type errors are the driver's to report; with
	// RunDespiteErrors its importers still get this package's facts.
	RunDespiteErrors: true,
}

func run(pass *analysis.Pass) (any, error) {
	return ops.Analyze(pass, func(r *report.Reporter, res *ops.Result) func(*ssa.Function) {
		return func(fn *ssa.Function) { check(r, res, fn) }
	})
}

// check reports, in fn, each network call that some path reaches from a
// lock taken in a transaction without passing the end of that
// transaction.
func check(r *report.Reporter, res *ops.Result, fn *ssa.Function) {
	var locks, calls, ends []*ops.Op
	lockedCallAt := map[ssa.Instruction]bool{}
	for _, op := range res.Ops(fn) {
		if op.Deferred {
			continue // runs at return, after everything else
		}
		switch op.Kind {
		case ops.LockedCall:
			if op.Handle != nil && res.InTx(op.Handle) {
				lockedCallAt[op.Instr] = true
				r.Report(report.Finding{
					Pos:     op.Pos(),
					Rule:    "call",
					Message: fmt.Sprintf("%s takes a row lock on the transaction it is given, then waits on the network", op.Via),
					Detail: fmt.Sprintf("%s takes %s on the transaction it is given and then makes %s while the transaction holds it: every other writer of those rows waits on the remote service; "+
						"make the call before the lock or after Commit, or write an outbox row in the transaction and send it after the commit",
						op.Via, op.LockDesc, op.Desc),
					// The lock is taken inside the helper, at this call.
					Related: []analysis.RelatedInformation{{Pos: op.Pos(), Message: "the lock: " + op.LockDesc + " in " + op.Via}},
				})
			}
		case ops.Lock:
			if op.Handle != nil && res.InTx(op.Handle) {
				locks = append(locks, op)
			}
		case ops.Network:
			calls = append(calls, op)
		case ops.End:
			ends = append(ends, op)
		}
	}
	// One finding per lock: at the first call its transaction makes
	// while holding it (a dial and the request over it are one
	// interaction with the remote service: the request is named when
	// both are there).
	reported := map[ssa.Instruction]bool{}
	for _, lock := range locks {
		ended := func(instr ssa.Instruction) bool {
			for _, end := range ends {
				if end.Instr == instr && end.Handle == lock.Handle {
					return true
				}
			}
			return false
		}
		var held []*ops.Op
		for _, call := range calls {
			// A helper that both locks and calls (in that order or not)
			// holds its own lock across its call only when it runs
			// again: Reaches from an instruction to itself follows a
			// loop's back edge.
			if !lockedCallAt[call.Instr] && ops.Reaches(lock.Instr, call.Instr, ended) {
				held = append(held, call)
			}
		}
		call := firstCall(held)
		if call == nil || reported[call.Instr] {
			continue
		}
		reported[call.Instr] = true
		r.Report(report.Finding{
			Pos:     call.Pos(),
			Rule:    "call",
			Message: headline(call),
			Detail:  message(call, lock),
			Related: []analysis.RelatedInformation{{Pos: lock.Pos(), Message: "the lock: " + lock.Evidence()}},
		})
	}
}

// firstCall returns the call of held that no other one reaches first,
// preferring a request to the connection it may be made over.
func firstCall(held []*ops.Op) *ops.Op {
	var first []*ops.Op
	for _, c := range held {
		earliest := true
		for _, o := range held {
			if o != c && ops.Reaches(o.Instr, c.Instr, nil) && !ops.Reaches(c.Instr, o.Instr, nil) {
				earliest = false
				break
			}
		}
		if earliest {
			first = append(first, c)
		}
	}
	if len(first) == 0 && len(held) > 0 {
		first = held[:1]
	}
	for _, c := range first {
		if !c.Dials() {
			return c
		}
	}
	for _, c := range held {
		if !c.Dials() {
			return c
		}
	}
	if len(first) > 0 {
		return first[0]
	}
	return nil
}

// headline names the call by the helper it is in; the lock is in the
// related information.
func headline(call *ops.Op) string {
	what := call.Via
	if what == "" {
		what = call.Desc
	}
	return what + " waits on the network while the transaction holds a row lock"
}

func message(call, lock *ops.Op) string {
	what := call.Desc
	if call.Via != "" {
		what = fmt.Sprintf("%s (%s)", call.Via, call.Desc)
	}
	return fmt.Sprintf("%s runs while the transaction holds the lock of %s: every other writer of those rows waits on the remote service; "+
		"make the call before the lock or after Commit, or write an outbox row in the transaction and send it after the commit",
		what, lock.Evidence())
}
