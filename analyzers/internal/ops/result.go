package ops

import (
	"go/types"
	"reflect"
	"sync"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/knowledge"
	"github.com/idemlint/idemlint/analyzers/internal/origin"
	"github.com/idemlint/idemlint/analyzers/internal/report"
)

// Analyzer gives each hazard analyzer the operations of the functions of
// the package under analysis. Its result is a *Result; it exports no
// facts.
var Analyzer = &analysis.Analyzer{
	Name:       "idemlintops",
	Doc:        "the database and network operations of each function, with CFG queries",
	Run:        report.Guard(runResult),
	Requires:   []*analysis.Analyzer{FactsAnalyzer, origin.Analyzer},
	ResultType: reflect.TypeFor[*Result](),
	// On a package that does not compile, FactsAnalyzer built nothing.
	RunDespiteErrors: true,
}

// Result holds the operations of every source function of a package.
type Result struct {
	// Funcs are the package's source functions, anonymous ones included,
	// in source order.
	Funcs []*ssa.Function
	// txParams are the parameters that receive a transaction: those of
	// callbacks run by a transaction helper (GORM Transaction, pgx
	// BeginFunc, a user-written WithTx).
	txParams map[ssa.Value]bool
	// begun are the handles a Begin without a result made transactions
	// of (its receiver's root: an xorm session after Begin).
	begun map[ssa.Value]bool
	e     *extractor

	// facts is the FactsAnalyzer result r took its SSA from; mu guards
	// released, the Consumers that are done with r (release.go).
	facts    *Facts
	mu       sync.Mutex
	released map[string]bool

	// completions are the consumers the package completes, and
	// openSpans its functions with open calls (wiring.go).
	completions []*completed
	openSpans   []span

	// writers are the column writers of the package and its imports
	// (wholerow.go); a completed consumer's are the binding package's,
	// which imports it.
	writers []ColumnWriter

	// versioning is the package's versioned rule (versioning.go).
	versioningOnce sync.Once
	versioning     *Versioning
}

// Ops returns the operations of fn.
func (r *Result) Ops(fn *ssa.Function) []*Op {
	r.e.lazy.Lock()
	defer r.e.lazy.Unlock()
	return r.e.Ops(fn)
}

// InTx reports whether the handle root is a transaction: a Begin, a
// value of a transaction type, the transaction parameter of a callback
// run in a transaction, or a handle a Begin was called on (without
// following whether each use comes after it).
func (r *Result) InTx(root ssa.Value) bool {
	if IsTx(root) || r.txParams[root] || r.begun[root] || r.e.ctxTx(root) {
		return true
	}
	// q := queries.WithTx(tx), a generated constructor of another
	// package binding the result to a handle (Summary.BindsHandle).
	if h := r.e.boundHandle(root); h != nil {
		return IsTx(h) || r.txParams[h]
	}
	return false
}

// boundHandle returns, for a root that is a call of a function of
// another package whose result runs on a handle it was given
// (Summary.BindsHandle), the root of that handle; nil otherwise.
func (e *extractor) boundHandle(root ssa.Value) ssa.Value {
	if e == nil {
		return nil
	}
	call, ok := root.(*ssa.Call)
	if !ok {
		return nil
	}
	callee := call.Common().StaticCallee()
	if callee == nil || len(callee.Blocks) > 0 {
		return nil // in this package Root has seen through it already
	}
	s := e.summary(callee)
	if s == nil || s.BindsHandle == 0 || s.BindsHandle > len(call.Common().Args) {
		return nil
	}
	return Root(call.Common().Args[s.BindsHandle-1])
}

// TxCallback reports whether fn runs as the callback of a transaction
// helper, so that its transaction ends when it returns.
func (r *Result) TxCallback(fn *ssa.Function) bool {
	for _, p := range fn.Params {
		if r.txParams[p] {
			return true
		}
	}
	return false
}

// runResult reuses the SSA and the operations FactsAnalyzer computed for
// the package, rather than requiring buildssa: go vet's unitchecker runs
// every analyzer that requires a fact analyzer on every dependency too
// (std included, for facts only), and buildssa there would cost the whole
// program's SSA on every run. A package FactsAnalyzer found nothing to do
// in has no operations.
func runResult(pass *analysis.Pass) (any, error) {
	r := &Result{txParams: map[ssa.Value]bool{}, begun: map[ssa.Value]bool{}, e: newExtractor(nil, nil, pass.ResultOf[origin.Analyzer].(*origin.Packages))}
	facts, _ := pass.ResultOf[FactsAnalyzer].(*Facts)
	if facts == nil {
		return r, nil
	}
	r.openSpans = facts.openSpans
	if facts.Funcs == nil {
		return r, nil
	}
	r = newResult(facts.Funcs, facts.e)
	r.facts, r.openSpans, r.writers = facts, facts.openSpans, facts.writers
	for _, c := range facts.completions {
		done := &completed{Completion: c, plain: newResult(c.Funcs, c.plain)}
		done.plain.writers = facts.writers
		for _, x := range c.bound {
			b := newResult(c.Funcs, x)
			b.writers = facts.writers
			done.bound = append(done.bound, b)
		}
		r.completions = append(r.completions, done)
	}
	return r, nil
}

// newResult holds the operations e extracts from funcs.
func newResult(funcs []*ssa.Function, e *extractor) *Result {
	r := &Result{Funcs: funcs, e: e, txParams: map[ssa.Value]bool{}, begun: map[ssa.Value]bool{}}
	for _, fn := range r.Funcs {
		for _, op := range r.e.Ops(fn) {
			if op.Kind == TxRun && op.Callback != nil && op.CallbackTx >= 0 && op.CallbackTx < len(op.Callback.Params) {
				r.txParams[op.Callback.Params[op.CallbackTx]] = true
			}
			if op.Kind == Begin && op.Row != nil && op.Row.Result != knowledge.TxResult {
				r.begun[op.Handle] = true
			}
		}
	}
	return r
}

// A completed consumer: its operations as its own pass sees them, and
// with the bindings of the package under analysis.
type completed struct {
	*Completion
	plain *Result
	bound []*Result
}

// FuncName names fn for messages: its own name, or for a closure the
// named function it is declared in.
func FuncName(fn *ssa.Function) string {
	for fn.Parent() != nil {
		fn = fn.Parent()
	}
	if obj, ok := fn.Object().(*types.Func); ok {
		return funcName(obj)
	}
	return fn.Name()
}
