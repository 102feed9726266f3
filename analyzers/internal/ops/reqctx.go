package ops

import (
	"fmt"
	"sort"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/knowledge"
	"github.com/idemlint/idemlint/analyzers/internal/ssaval"
)

// Transactions carried in the request context (knowledge CtxStore,
// CtxLoad, NextHandler, Route: gin's Context.Set, Get and MustGet,
// Next, and the route registrations). A middleware that begins a
// transaction, stores it under a key and runs the handlers after it
// (Next) before it commits makes every handler after it read that
// transaction back from the key: the handlers' writes run in it, and
// hold their row locks until the middleware commits, after the handler
// returns.
//
// The middleware and the handlers are usually in different packages
// (web/api imports middleware for its GetDatabase; or both only share
// the key's string). What each side knows travels as facts:
//
//   - the middleware's Summary says TxMiddleware: the keys it stores a
//     transaction under before Next;
//   - a reader's Summary says CtxLoad: its result is the value stored
//     under a key in the request context it is given
//     (middleware.GetDatabase(c));
//   - the CtxKeys package fact lists, per key, whether some function of
//     the package stores a transaction under it that way, and whether
//     some function stores anything else (NeedsDatabase storing the
//     pool under the same key).
//
// A handler's read of a key is in a transaction when the key carries
// only transactions in every package the handler's package sees, or,
// when the same key also carries something else, when a route of the
// handler's own package lists it after a middleware that stores a
// transaction there (g.PUT(path, auth, HasTransaction, createServer)).
// A handler registered elsewhere, or behind a group's Use, of a key
// that carries both is not known to run in one, and unknown suppresses.

// CtxKeys is the package fact of a package whose functions store values
// under constant keys of the request context.
type CtxKeys struct {
	Keys []CtxKey
}

// A CtxKey is what a package stores under one key.
type CtxKey struct {
	Key string
	// Tx names a middleware storing, under Key, a transaction it began
	// before running the handlers after it; "" when none does.
	Tx string
	// Other is set when some function stores anything else under Key
	// (the pool, a transaction it does not run the chain in).
	Other bool
}

func (*CtxKeys) AFact() {}

func (f *CtxKeys) String() string {
	s := "ctxkeys("
	for i, k := range f.Keys {
		if i > 0 {
			s += " "
		}
		s += fmt.Sprintf("%q", k.Key)
		if k.Tx != "" {
			s += " tx=" + k.Tx
		}
		if k.Other {
			s += " other"
		}
	}
	return s + ")"
}

// A CtxLoadFact says that a function returns as its result 0 the value
// stored under Key in the request context in parameter Param.
type CtxLoadFact struct {
	Param int
	Key   string
}

// reqCtx is what a package knows of the request-context keys: the keys
// of its own and its dependencies' CtxKeys facts, merged, and the
// handlers its routes list after a transaction middleware, per key.
type reqCtx struct {
	keys   map[string]*CtxKey
	behind map[*ssa.Function]map[string]bool
}

// requestContexts computes the package's reqCtx and exports its CtxKeys
// fact.
func (e *extractor) requestContexts(pass *analysis.Pass, funcs []*ssa.Function) {
	own := map[string]*CtxKey{}
	for _, fn := range funcs {
		for key, what := range ctxStores(e, fn) {
			k := own[key]
			if k == nil {
				k = &CtxKey{Key: key}
				own[key] = k
			}
			if what&storesTx != 0 && k.Tx == "" {
				k.Tx = FuncName(fn)
			}
			k.Other = k.Other || what&storesOther != 0
		}
	}
	rc := &reqCtx{keys: map[string]*CtxKey{}, behind: map[*ssa.Function]map[string]bool{}}
	merge := func(k CtxKey) {
		m := rc.keys[k.Key]
		if m == nil {
			m = &CtxKey{Key: k.Key}
			rc.keys[k.Key] = m
		}
		if m.Tx == "" {
			m.Tx = k.Tx
		}
		m.Other = m.Other || k.Other
	}
	for _, pf := range pass.AllPackageFacts() {
		if f, ok := pf.Fact.(*CtxKeys); ok && pf.Package != pass.Pkg {
			for _, k := range f.Keys {
				merge(k)
			}
		}
	}
	if len(own) > 0 {
		fact := &CtxKeys{}
		for _, k := range own {
			fact.Keys = append(fact.Keys, *k)
			merge(*k)
		}
		sort.Slice(fact.Keys, func(i, j int) bool { return fact.Keys[i].Key < fact.Keys[j].Key })
		pass.ExportPackageFact(fact)
	}
	if len(rc.keys) == 0 {
		return
	}
	for _, fn := range funcs {
		e.routes(fn, rc)
	}
	e.ctx = rc
}

// What a function stores under a key: a transaction it runs the
// handlers after it in, and anything else.
const (
	storesTx    = 1
	storesOther = 2
)

// ctxStores returns the constant keys fn stores a value under in a
// request context, each with storesTx when the value is a transaction fn
// began and runs the handlers after it in (a Next on the same context
// that the store reaches before the transaction ends), storesOther for
// any other value (both when fn does both: a fallback to the pool).
func ctxStores(e *extractor, fn *ssa.Function) map[string]int {
	var out map[string]int
	// The closures fn runs count as fn: a middleware that runs the
	// handlers inside its transaction callback
	// (db.Transaction(func(tx) error { c.Set("db", tx); c.Next() })), or
	// a factory returning the middleware.
	var scan func(f *ssa.Function, depth int)
	scan = func(f *ssa.Function, depth int) {
		for _, b := range f.Blocks {
			for _, instr := range b.Instrs {
				call, ok := instr.(*ssa.Call)
				if !ok {
					continue
				}
				site, ok := knowledge.Resolve(call.Common())
				if !ok || site.Row == nil || site.Row.Kind != knowledge.CtxStore {
					continue
				}
				key, ok := ssaval.ConstString(site.RoleArg(knowledge.Key))
				if !ok {
					continue
				}
				if out == nil {
					out = map[string]int{}
				}
				if runsChainIn(e, f, call, site) {
					out[key] |= storesTx
				} else {
					out[key] |= storesOther
				}
			}
		}
		if depth < 2 {
			for _, anon := range f.AnonFuncs {
				scan(anon, depth+1)
			}
		}
	}
	scan(fn, 0)
	return out
}

// callbackTx reports whether v is the transaction parameter of fn, a
// closure its parent hands to a transaction runner (GORM Transaction).
func callbackTx(e *extractor, fn *ssa.Function, v ssa.Value) bool {
	p, ok := v.(*ssa.Parameter)
	if !ok || fn.Parent() == nil {
		return false
	}
	for _, op := range e.Ops(fn.Parent()) {
		if op.Kind == TxRun && op.Callback == fn && op.CallbackTx >= 0 && op.CallbackTx < len(fn.Params) && fn.Params[op.CallbackTx] == p {
			return true
		}
	}
	return false
}

// runsChainIn reports whether the value a CtxStore call stores is a
// transaction fn began and has not ended on any path to the store, and
// fn then runs the handlers after it (Next on the same context) on some
// path from the store that does not end the transaction first.
func runsChainIn(e *extractor, fn *ssa.Function, store *ssa.Call, site knowledge.Site) bool {
	tx := Root(site.RoleArg(knowledge.Value))
	if !IsTx(tx) && !callbackTx(e, fn, tx) {
		return false
	}
	recv := site.Receiver()
	if recv == nil {
		return false
	}
	ctx := Root(recv)
	ended := func(instr ssa.Instruction) bool {
		for _, op := range e.Ops(fn) {
			if op.Kind == End && op.Instr == instr && op.Handle == tx {
				return true
			}
		}
		return false
	}
	// A transaction committed (or rolled back) before the store is no
	// longer the request's when the handlers run.
	for _, op := range e.Ops(fn) {
		if op.Kind == End && op.Handle == tx && !op.Deferred && Reaches(op.Instr, store, nil) {
			return false
		}
	}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(*ssa.Call)
			if !ok {
				continue
			}
			s, ok := knowledge.Resolve(call.Common())
			if !ok || s.Row == nil || s.Row.Kind != knowledge.NextHandler || s.Receiver() == nil || Root(s.Receiver()) != ctx {
				continue
			}
			if Reaches(store, call, ended) {
				return true
			}
		}
	}
	return false
}

// routes records, for each route fn registers, the handlers of this
// package listed after a middleware that stores a transaction under a
// key (Summary.TxMiddleware).
func (e *extractor) routes(fn *ssa.Function, rc *reqCtx) {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(ssa.CallInstruction)
			if !ok {
				continue
			}
			site, ok := knowledge.Resolve(call.Common())
			if !ok || site.Row == nil || site.Row.Kind != knowledge.Route {
				continue
			}
			i, ok := site.Row.Param(knowledge.Handlers)
			if !ok {
				continue
			}
			handlers, ok := site.Variadic(i)
			if !ok {
				continue
			}
			var active []string
			for _, h := range handlers {
				hf, ok := callbackFunc(h)
				if !ok {
					// A middleware factory's result
					// (Transactional(db)): the factory's summary
					// counts its closures.
					if c, isCall := ssaval.Unwrap(h).(*ssa.Call); isCall && c.Common().StaticCallee() != nil {
						if s := e.summary(c.Common().StaticCallee()); s != nil {
							active = append(active, s.TxMiddleware...)
						}
					}
					continue
				}
				if origin := hf.Origin(); origin != nil {
					hf = origin
				}
				for _, key := range active {
					if rc.behind[hf] == nil {
						rc.behind[hf] = map[string]bool{}
					}
					rc.behind[hf][key] = true
				}
				if s := e.summary(hf); s != nil {
					active = append(active, s.TxMiddleware...)
				}
			}
		}
	}
}

// ctxSummary adds to fn's summary the keys it stores a transaction under
// before running the handlers after it, and, for a reader of the request
// context, the key and parameter its result comes from.
func (e *extractor) ctxSummary(fn *ssa.Function, s *Summary) *Summary {
	var keys []string
	for key, what := range ctxStores(e, fn) {
		if what&storesTx != 0 {
			keys = append(keys, key)
		}
	}
	sort.Strings(keys)
	load := ctxLoader(fn)
	if len(keys) == 0 && load == nil {
		return s
	}
	if s == nil {
		s = &Summary{}
	}
	s.TxMiddleware, s.CtxLoad = keys, load
	return s
}

// ctxLoader returns, for a function whose result 0 is a database handle
// read from the request context in one of its parameters under a
// constant key on every return that is not nil, that parameter and key.
func ctxLoader(fn *ssa.Function) *CtxLoadFact {
	if fn.Signature.Results().Len() == 0 || HandleRole(fn.Signature.Results().At(0).Type()) == knowledge.NoTypeRole {
		return nil
	}
	var found *CtxLoadFact
	for _, v := range returnedValues(fn, 0) {
		if c, ok := v.(*ssa.Const); ok && c.IsNil() {
			continue
		}
		key, ctx, ok := ctxLoad(Root(v))
		if !ok {
			return nil
		}
		p, ok := ctx.(*ssa.Parameter)
		if !ok {
			return nil
		}
		l := &CtxLoadFact{Param: paramIndex(fn, p), Key: key}
		if l.Param < 0 || (found != nil && *found != *l) {
			return nil
		}
		found = l
	}
	return found
}

// ctxLoad returns, for a root that is a CtxLoad call with a constant key,
// the key and the root of the context it reads.
func ctxLoad(root ssa.Value) (string, ssa.Value, bool) {
	call, ok := root.(*ssa.Call)
	if !ok {
		return "", nil, false
	}
	site, ok := knowledge.Resolve(call.Common())
	if !ok || site.Row == nil || site.Row.Kind != knowledge.CtxLoad || site.Receiver() == nil {
		return "", nil, false
	}
	key, ok := ssaval.ConstString(site.RoleArg(knowledge.Key))
	if !ok {
		return "", nil, false
	}
	return key, Root(site.Receiver()), true
}

// ctxTx reports whether a handle's root is read from the request context
// under a key that carries the request's transaction where it is read:
// a CtxLoad call, or a call of a reader (Summary.CtxLoad).
func (e *extractor) ctxTx(root ssa.Value) bool {
	if e == nil || e.ctx == nil {
		return false
	}
	call, ok := root.(*ssa.Call)
	if !ok {
		return false
	}
	key, _, ok := ctxLoad(root)
	if !ok {
		callee := call.Common().StaticCallee()
		if callee == nil {
			return false
		}
		if callee.Origin() != nil {
			callee = callee.Origin()
		}
		s := e.summary(callee)
		if s == nil || s.CtxLoad == nil {
			return false
		}
		key = s.CtxLoad.Key
	}
	k := e.ctx.keys[key]
	if k == nil || k.Tx == "" {
		return false
	}
	if !k.Other {
		return true
	}
	for fn := call.Parent(); fn != nil; fn = fn.Parent() {
		if e.ctx.behind[fn][key] {
			return true
		}
	}
	return false
}

// ctxParts renders the request-context parts of a summary.
func (s *Summary) ctxParts() []string {
	var parts []string
	for _, k := range s.TxMiddleware {
		parts = append(parts, fmt.Sprintf("txmiddleware(%q)", k))
	}
	if s.CtxLoad != nil {
		parts = append(parts, fmt.Sprintf("ctxload(p%d %q)", s.CtxLoad.Param, s.CtxLoad.Key))
	}
	return parts
}
