package ops

import (
	"fmt"
	"go/token"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/knowledge"
	"github.com/idemlint/idemlint/analyzers/internal/ssaval"
)

// A Summary is what a function does, as its callers see it: the object
// fact FactsAnalyzer exports for functions that do something. Parameter
// indexes count SSA's parameters (the receiver first), which is also how
// a static call's arguments are laid out.
type Summary struct {
	// Locks are the locks the function takes on the handle in a
	// parameter, which outlast the call when that handle is a
	// transaction.
	Locks []ParamLock
	// Ends are the parameters holding a transaction the function commits
	// or rolls back (a commit helper).
	Ends []int
	// Network names the network I/O the function performs, "" if none:
	// its first request, or its first dial when it makes no request.
	Network string
	// NetworkDials is set when Network only opens a connection (a
	// pool's dial): a request found later is preferred as evidence.
	NetworkDials bool
	// NetworkHarmless is set when every network operation of the
	// function changes nothing at the other end (Op.Harmless).
	NetworkHarmless bool
	// TxRuns are the func parameters the function calls inside a
	// transaction (a user-written WithTx).
	TxRuns []TxCallback
	// LockedCalls are the network calls the function makes after
	// locking the handle in a parameter and before that handle's
	// transaction ends: in a caller that passes a transaction, the call
	// holds the lock.
	LockedCalls []ParamLockedCall
	// Sends, Retries, Keys and FreshResult are the requests and retries
	// (retryfacts.go): the non-idempotent requests it sends with where
	// their key comes from, the func parameters it runs again while they
	// fail, the idempotency keys it sets on a request it is given, and
	// whether its result is a fresh value.
	Sends       []Send
	Retries     []int
	Keys        []ParamKey
	FreshResult bool
	// Status is the result that carries the status code of a response
	// the function received (retrystatus.go).
	Status StatusResult
	// Lookups, Inserts and UniqueChecks are the rows it reads by key and
	// inserts, keyed by parameters, and the error parameters it tests for
	// a unique violation (rows.go).
	Lookups      []LookupFact
	Inserts      []InsertFact
	UniqueChecks []int
	// ModelReads and ModelWrites are the models it returns after reading
	// them and the model parameters it writes whole (writefacts.go).
	ModelReads  []ModelReadFact
	ModelWrites []ModelWriteFact
	// Builds is, for a function returning a request it made without a
	// key, the request's method and URL (reqbuild.go).
	Builds *RequestBuild
	// RetryingClient describes, for a function returning an *http.Client
	// that sends requests again after a failure, that client (retry.go).
	RetryingClient string
	// Generated is, for a function a library generated, what the
	// library says of it (Library.Generated), for its hooks at the
	// function's calls in other packages.
	Generated GeneratedFact
	// BindsHandle is, for a generated function whose result runs on a
	// handle it is given (Library.Binds), the argument (receiver
	// counted, plus one; 0 when none) holding that handle: InTx follows
	// it in other packages, where Root cannot see the body.
	BindsHandle int
	// WrapsErr is, for a constructor of an error that unwraps to an
	// error it is given (return &Error{Code: c, Wrap: err}, with
	// (*Error).Unwrap returning Wrap), that parameter (receiver counted,
	// plus one; 0 when none): errors.Is and errors.As see through it
	// (errwrap.go).
	WrapsErr int
	// ErrorsIs is set for a function that is errors.Is under another
	// name: func(err, target error) bool returning errors.Is(err, target)
	// (erris.go).
	ErrorsIs bool
	// Copies are the fields it copies from one parameter into another on
	// every call (copies.go).
	Copies []FieldCopy
	// LockedResults are the transactions the function returns after
	// taking a row lock on them (it begins the transaction, locks rows
	// FOR UPDATE and hands the transaction to its caller, who commits):
	// in the caller the lock is held from the call on.
	LockedResults []ResultLock
	// TxMiddleware are the keys of the request context under which the
	// function stores a transaction it began before running the
	// handlers after it (gin's c.Set(key, tx); c.Next()), and CtxLoad,
	// for a function returning the value stored under a key of the
	// request context it is given, that key (reqctx.go).
	TxMiddleware []string
	CtxLoad      *CtxLoadFact
}

// A ResultLock is a lock a function takes on the transaction it returns
// as result Result.
type ResultLock struct {
	Result int
	Desc   string
}

// A ParamLockedCall is a network call (Call) made after a lock (Lock) on the
// handle in parameter Param.
type ParamLockedCall struct {
	Param      int
	Lock, Call string
	// Guard is the bool parameter (-1: none) the call is made under,
	// and Want the value it needs: a caller passing the other constant
	// never makes the call.
	Guard int
	Want  bool
}

// A ParamLock is a lock a function takes on the handle in Param, or,
// with Field, on the handle in that field of the struct Param points to
// (a service struct holding the request's transaction).
type ParamLock struct {
	Param int
	Field string
	Desc  string
	// ReadOnly marks a lock a read takes (SELECT ... FOR UPDATE, a
	// finder's locking clause), which writes nothing.
	ReadOnly bool
}

// A TxCallback says that a function calls its func parameter Callback
// inside a transaction, passing the transaction as argument CallbackTx.
type TxCallback struct {
	Callback   int
	CallbackTx int
}

func (*Summary) AFact() {}

func (s *Summary) String() string {
	var parts []string
	for _, l := range s.Locks {
		if l.Field != "" {
			parts = append(parts, fmt.Sprintf("lock(p%d.%s: %s)", l.Param, l.Field, l.Desc))
			continue
		}
		parts = append(parts, fmt.Sprintf("lock(p%d: %s)", l.Param, l.Desc))
	}
	for _, p := range s.Ends {
		parts = append(parts, fmt.Sprintf("end(p%d)", p))
	}
	if s.Network != "" {
		parts = append(parts, "network("+s.Network+")")
	}
	for _, r := range s.TxRuns {
		parts = append(parts, fmt.Sprintf("txrun(p%d tx=%d)", r.Callback, r.CallbackTx))
	}
	for _, l := range s.LockedResults {
		parts = append(parts, fmt.Sprintf("lock(r%d: %s)", l.Result, l.Desc))
	}
	for _, c := range s.LockedCalls {
		parts = append(parts, fmt.Sprintf("lockedcall(p%d: %s then %s)", c.Param, c.Lock, c.Call))
	}
	parts = append(parts, s.ctxParts()...)
	parts = append(parts, s.requestParts()...)
	parts = append(parts, s.rowParts()...)
	parts = append(parts, s.writeParts()...)
	for _, c := range s.Copies {
		parts = append(parts, fmt.Sprintf("copy(p%d.%s <- p%d.%s)", c.To, c.ToField, c.From, c.FromField))
	}
	if s.WrapsErr > 0 {
		parts = append(parts, fmt.Sprintf("wraps(p%d)", s.WrapsErr-1))
	}
	if s.ErrorsIs {
		parts = append(parts, "errors.Is")
	}
	if s.Builds != nil {
		parts = append(parts, s.Builds.String())
	}
	if s.Generated != nil {
		parts = append(parts, s.Generated.String())
	}
	if s.RetryingClient != "" {
		parts = append(parts, "retrying-client("+s.RetryingClient+")")
	}
	return strings.Join(parts, " ")
}

func (s *Summary) empty() bool {
	return s == nil || (len(s.Locks) == 0 && len(s.Ends) == 0 && s.Network == "" && len(s.TxRuns) == 0 && len(s.LockedCalls) == 0 &&
		len(s.Sends) == 0 && len(s.Retries) == 0 && len(s.Keys) == 0 && !s.FreshResult && s.Status.Index == 0 &&
		len(s.Lookups) == 0 && len(s.Inserts) == 0 && len(s.UniqueChecks) == 0 &&
		len(s.ModelReads) == 0 && len(s.ModelWrites) == 0 &&
		s.Builds == nil && s.RetryingClient == "" && s.Generated == nil && s.BindsHandle == 0 && s.WrapsErr == 0 && !s.ErrorsIs && len(s.LockedResults) == 0 && len(s.Copies) == 0 &&
		len(s.TxMiddleware) == 0 && s.CtxLoad == nil)
}

// handleField returns, for a handle loaded from a field of a struct a
// parameter points to (s.DB), that parameter and the field's name.
func handleField(h ssa.Value) (*ssa.Parameter, string) {
	load, ok := h.(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return nil, ""
	}
	fa, ok := load.X.(*ssa.FieldAddr)
	if !ok {
		return nil, ""
	}
	p, ok := fa.X.(*ssa.Parameter)
	f := ssaval.FieldOf(fa)
	if !ok || f == nil {
		return nil, ""
	}
	return p, f.Name()
}

// returnedRoot returns the result that some return of fn gives a value
// rooted at h in, or -1.
func returnedRoot(fn *ssa.Function, h ssa.Value) int {
	if h == nil {
		return -1
	}
	for i := 0; i < fn.Signature.Results().Len(); i++ {
		for _, v := range returnedValues(fn, i) {
			if Root(v) == h {
				return i
			}
		}
	}
	return -1
}

// returnedValues returns the values fn's returns give as result i. With a
// defer, each return statement stores its results in the result's local
// and the one Return loads it: the values stored there are returned.
func returnedValues(fn *ssa.Function, i int) []ssa.Value {
	var out []ssa.Value
	for _, ret := range ssaval.Returns(fn) {
		if i >= len(ret.Results) {
			continue
		}
		r := ret.Results[i]
		if load, ok := r.(*ssa.UnOp); ok && load.Op == token.MUL {
			if slot, ok := load.X.(*ssa.Alloc); ok {
				for _, ref := range *slot.Referrers() {
					if st, ok := ref.(*ssa.Store); ok && st.Addr == slot {
						out = append(out, st.Val)
					}
				}
				continue
			}
		}
		out = append(out, r)
	}
	return out
}

// summarise computes fn's summary from its operations.
func summarise(fn *ssa.Function, ops []*Op) *Summary {
	s := &Summary{}
	seenLock, seenField := map[int]bool{}, map[string]bool{}
	for _, op := range ops {
		switch op.Kind {
		case Lock:
			p, ok := op.Handle.(*ssa.Parameter)
			if fp, field := handleField(op.Handle); !ok && fp != nil {
				// The handle a service struct it is called on holds
				// (ss.DB.Delete(...) in a method of ss): the caller's
				// struct says which handle that is.
				if i := paramIndex(fn, fp); i >= 0 && !seenField[fmt.Sprint(i, field)] {
					seenField[fmt.Sprint(i, field)] = true
					s.Locks = append(s.Locks, ParamLock{Param: i, Field: field, Desc: op.Evidence(), ReadOnly: op.ReadLock()})
				}
				continue
			}
			if !ok {
				// Its own transaction: ends before the caller sees
				// it, unless fn returns it.
				if r := returnedRoot(fn, op.Handle); r >= 0 && !slices.ContainsFunc(s.LockedResults, func(l ResultLock) bool { return l.Result == r }) {
					s.LockedResults = append(s.LockedResults, ResultLock{Result: r, Desc: op.Evidence()})
				}
				continue
			}
			i := paramIndex(fn, p)
			if i >= 0 && !seenLock[i] {
				seenLock[i] = true
				s.Locks = append(s.Locks, ParamLock{Param: i, Desc: op.Evidence(), ReadOnly: op.ReadLock()})
			}
		case End:
			// Only an end on every path ends the caller's transaction;
			// a helper that ends it on some paths is not summarised as
			// one, so that no finding is lost after it.
			p, ok := op.Handle.(*ssa.Parameter)
			if ok && !op.Deferred && endsOnEveryPath(fn, op) {
				if i := paramIndex(fn, p); i >= 0 && !slices.Contains(s.Ends, i) {
					s.Ends = append(s.Ends, i)
				}
			}
		case Network:
			// Name a request over the connection it may be made on: the
			// RPC, not the pool's dial on a cache miss.
			if s.Network == "" {
				s.NetworkHarmless = true
			}
			s.NetworkHarmless = s.NetworkHarmless && op.Harmless()
			if s.Network == "" || (s.NetworkDials && !op.Dials()) {
				s.Network, s.NetworkDials = op.Evidence(), op.Dials()
			}
		}
	}
	s.TxRuns = txRuns(fn, ops)
	s.LockedCalls = lockedCalls(fn, ops)
	if s.empty() {
		return nil
	}
	return s
}

// txRuns finds the calls of a func parameter of fn that pass it a
// transaction: fn is a user-written WithTx. The call may sit in a closure
// fn hands to a transaction helper (db.Transaction(func(tx) error {
// return run(tx) })), whose transaction parameter ops say is one.
func txRuns(fn *ssa.Function, ops []*Op) []TxCallback {
	txParams := map[ssa.Value]bool{}
	for _, op := range ops {
		if op.Kind == TxRun && op.Callback != nil && op.CallbackTx < len(op.Callback.Params) {
			txParams[op.Callback.Params[op.CallbackTx]] = true
		}
	}
	var runs []TxCallback
	seen := map[TxCallback]bool{}
	// A func parameter handed on to a transaction runner (a library's,
	// or a helper's by its summary) runs in that transaction.
	for _, op := range ops {
		if op.Kind != TxRun || op.CallbackArg == nil {
			continue
		}
		if cb := callbackParam(fn, op.CallbackArg); cb >= 0 {
			run := TxCallback{Callback: cb, CallbackTx: op.CallbackTx}
			if !seen[run] {
				seen[run] = true
				runs = append(runs, run)
			}
		}
	}
	var scan func(f *ssa.Function, depth int)
	scan = func(f *ssa.Function, depth int) {
		for _, b := range f.Blocks {
			for _, instr := range b.Instrs {
				call, ok := instr.(*ssa.Call)
				if !ok || call.Common().IsInvoke() {
					continue
				}
				cb := callbackParam(fn, call.Common().Value)
				if cb < 0 {
					continue
				}
				for j, a := range call.Common().Args {
					if r := Root(a); IsTx(r) || txParams[r] || carriesTx(a, txParams) {
						run := TxCallback{Callback: cb, CallbackTx: j}
						if !seen[run] {
							seen[run] = true
							runs = append(runs, run)
						}
						break
					}
				}
			}
		}
		if depth < 3 {
			for _, anon := range f.AnonFuncs {
				scan(anon, depth+1)
			}
		}
	}
	scan(fn, 0)
	return runs
}

// carriesTx reports whether v is a context made by storing a transaction
// in another (context.WithValue(ctx, key, tx)): a callback given it runs
// in that transaction, and finds it there.
func carriesTx(v ssa.Value, txParams map[ssa.Value]bool) bool {
	call, ok := ssaval.Unwrap(v).(*ssa.Call)
	if !ok {
		return false
	}
	site, ok := knowledge.Resolve(call.Common())
	if ok && site.Row != nil {
		if site.Row.Kind != knowledge.CtxValue {
			return false
		}
		r := Root(site.RoleArg(knowledge.Value))
		return IsTx(r) || txParams[r]
	}
	// A helper of the package storing its argument in the context it
	// returns (func NewTrans(ctx, db) context.Context).
	if i := storesParamInCtx(call.Common().StaticCallee()); i >= 0 && i < len(call.Common().Args) {
		r := Root(call.Common().Args[i])
		return IsTx(r) || txParams[r]
	}
	return false
}

// storesParamInCtx returns the index of the parameter fn stores in the
// context it returns with context.WithValue on its one return, or -1.
func storesParamInCtx(fn *ssa.Function) int {
	if fn == nil || len(fn.Blocks) == 0 || fn.Signature.Results().Len() != 1 {
		return -1
	}
	found := -1
	for _, b := range fn.Blocks {
		r, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
		if !ok {
			continue
		}
		c, ok := ssaval.Unwrap(r.Results[0]).(*ssa.Call)
		if !ok {
			return -1
		}
		site, ok := knowledge.Resolve(c.Common())
		if !ok || site.Row == nil || site.Row.Kind != knowledge.CtxValue {
			return -1
		}
		p, ok := ssaval.Unwrap(site.RoleArg(knowledge.Value)).(*ssa.Parameter)
		if !ok || (found >= 0 && paramIndex(fn, p) != found) {
			return -1
		}
		found = paramIndex(fn, p)
	}
	return found
}

// callbackParam returns the index of the parameter of fn that v is (a
// func parameter called directly, or captured by a closure of fn), or -1.
func callbackParam(fn *ssa.Function, v ssa.Value) int {
	for i := 0; i < 8 && v != nil; i++ {
		switch x := v.(type) {
		case *ssa.FreeVar:
			v = binding(x)
			continue
		case *ssa.UnOp:
			v = storedOnce(x)
			continue
		}
		break
	}
	if p, ok := v.(*ssa.Parameter); ok && p.Parent() == fn {
		return paramIndex(fn, p)
	}
	return -1
}

// endsOnEveryPath reports whether every path from fn's entry to a return
// passes op's call: the call's block dominates every returning block.
func endsOnEveryPath(fn *ssa.Function, op *Op) bool {
	b := op.Instr.Block()
	if b == nil {
		return false
	}
	for _, rb := range fn.Blocks {
		if len(rb.Instrs) == 0 {
			continue
		}
		if _, ok := rb.Instrs[len(rb.Instrs)-1].(*ssa.Return); ok && !b.Dominates(rb) {
			return false
		}
	}
	return true
}

// lockedCalls finds the network calls fn makes after a lock on the handle
// in one of its parameters, on some path that does not end that handle's
// transaction first, and the calls of helpers that do so on a handle fn
// was given.
func lockedCalls(fn *ssa.Function, ops []*Op) []ParamLockedCall {
	var out []ParamLockedCall
	seen := map[int]bool{}
	add := func(h ssa.Value, lock, call string, guard int, want bool) {
		p, ok := h.(*ssa.Parameter)
		if !ok {
			return
		}
		i := paramIndex(fn, p)
		if i < 0 || seen[i] {
			return
		}
		seen[i] = true
		out = append(out, ParamLockedCall{Param: i, Lock: lock, Call: call, Guard: guard, Want: want})
	}
	for _, op := range ops {
		if op.Kind == LockedCall && !op.Deferred {
			add(op.Handle, op.LockDesc, op.Evidence(), -1, false)
		}
	}
	for _, lock := range ops {
		if lock.Kind != Lock || lock.Deferred {
			continue
		}
		if _, ok := lock.Handle.(*ssa.Parameter); !ok {
			continue
		}
		ended := func(instr ssa.Instruction) bool {
			for _, op := range ops {
				if op.Kind == End && op.Instr == instr && op.Handle == lock.Handle {
					return true
				}
			}
			return false
		}
		// The first call under the lock; its description names a
		// request rather than the dial it may be made over.
		var first *Op
		desc := ""
		for _, call := range ops {
			if call.Kind != Network || call.Deferred || call.Instr == lock.Instr || !Reaches(lock.Instr, call.Instr, ended) {
				continue
			}
			if first == nil {
				first, desc = call, call.Evidence()
			}
			if !call.Dials() {
				desc = call.Evidence()
				break
			}
		}
		if first != nil {
			g, want := boolGuard(fn, first.Instr)
			add(lock.Handle, lock.Evidence(), desc, g, want)
		}
	}
	return out
}

// boolGuard returns the bool parameter of fn that instr runs only under
// (if p { ... } or if !p { ... } dominating instr), and the value it
// needs; -1 if none.
func boolGuard(fn *ssa.Function, instr ssa.Instruction) (int, bool) {
	b := instr.Block()
	for d := b; d != nil; d = d.Idom() {
		idom := d.Idom()
		if idom == nil || len(idom.Instrs) == 0 {
			break
		}
		ifi, ok := idom.Instrs[len(idom.Instrs)-1].(*ssa.If)
		if !ok || len(d.Preds) != 1 {
			continue
		}
		cond, want := ifi.Cond, true
		if u, ok := cond.(*ssa.UnOp); ok && u.Op == token.NOT {
			cond, want = u.X, false
		}
		p, ok := cond.(*ssa.Parameter)
		if !ok {
			continue
		}
		i := paramIndex(fn, p)
		if i < 0 {
			continue
		}
		if d == idom.Succs[0] {
			return i, want
		}
		return i, !want
	}
	return -1, false
}

// Dials reports whether a network operation opens a connection rather
// than sending a request over one.
func (op *Op) Dials() bool {
	if op.Row != nil {
		return op.Row.Kind == knowledge.Dial
	}
	return op.dials
}
