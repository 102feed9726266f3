package ops

import (
	"fmt"
	"go/constant"
	"go/types"
	"strings"
	"sync"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/knowledge"
	"github.com/idemlint/idemlint/analyzers/internal/origin"
	"github.com/idemlint/idemlint/analyzers/internal/sqltext"
	"github.com/idemlint/idemlint/analyzers/internal/ssaval"
)

// An extractor turns SSA functions into operations. The same code serves
// the fact analyzer (which builds SSA itself) and the result analyzer.
type extractor struct {
	// summaryOf returns the summary of a callee in another package (an
	// imported fact), or nil.
	imported func(*types.Func) *Summary
	// networkFuncs are the configured extra network functions, by
	// types.Func.FullName.
	networkFuncs map[string]bool

	summaries map[*ssa.Function]*Summary // same-package callees, memoised
	ops       map[*ssa.Function][]*Op
	// impls maps the methods of this package's interfaces that have one
	// implementation in the package to it (soleImpls).
	impls map[*types.Func]*ssa.Function
	// bound are the interface methods the program binds to one
	// implementation, by methodKey (wiring.go), and boundCalls the calls
	// resolved through them.
	bound      map[string]*boundMethod
	boundCalls map[ssa.CallInstruction]bool
	// alts are the interface methods with several implementations (at
	// most maxAlternatives), for completions (wiring.go).
	alts map[string][]*boundMethod
	// chained are, for methods of a consumer this package completed,
	// their summaries with the bindings, alike in every variant
	// (wiring.go): what a consumer of that consumer's own interface runs.
	chained map[*types.Func]*Summary
	rx      *requestExt // requests and retries (request.go, retry.go)
	rowx    *rowExt     // lookups and inserts (rows.go)
	// origin says which packages are the standard library's.
	origin *origin.Packages
	// gen holds, for the functions of the package asked about, the
	// library that generated each, if any (generatedHere); genMu guards
	// it.
	genMu sync.Mutex
	gen   map[*ssa.Function]generatedFunc
	// ctx is what the package knows of transactions carried in the
	// request context (reqctx.go), nil when nothing is.
	ctx *reqCtx
	// lazy serialises what the Result's methods compute on demand
	// (rows, reads, writes, updates, retried sends, memoised summaries):
	// the analyzers consuming one Result run at once.
	lazy sync.Mutex
}

func newExtractor(imported func(*types.Func) *Summary, networkFuncs []string, orig *origin.Packages) *extractor {
	e := &extractor{
		origin:       orig,
		imported:     imported,
		networkFuncs: map[string]bool{},
		summaries:    map[*ssa.Function]*Summary{},
		ops:          map[*ssa.Function][]*Op{},
		boundCalls:   map[ssa.CallInstruction]bool{},
		gen:          map[*ssa.Function]generatedFunc{},
	}
	for _, f := range networkFuncs {
		e.networkFuncs[f] = true
	}
	return e
}

// covered reports whether the behaviour of the package with this import
// path is known without its bodies: the standard library, or a library in
// the knowledge tables.
func (e *extractor) covered(path string) bool {
	return knowledge.Covered(path) || e.origin.Std(path)
}

// std reports whether the package with this import path is the standard
// library's.
func (e *extractor) std(path string) bool { return e.origin.Std(path) }

// Ops returns the operations of fn, in block and instruction order.
func (e *extractor) Ops(fn *ssa.Function) []*Op {
	if ops, ok := e.ops[fn]; ok {
		return ops
	}
	e.ops[fn] = nil // a recursive call sees no operations
	var ops []*Op
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(ssa.CallInstruction)
			if !ok {
				continue
			}
			if _, isGo := instr.(*ssa.Go); isGo {
				// A goroutine does not hold the caller's transaction
				// open, and its I/O is not the caller's.
				continue
			}
			_, deferred := instr.(*ssa.Defer)
			for _, op := range e.classify(fn, call) {
				op.Instr = call
				op.Deferred = deferred
				ops = append(ops, op)
			}
		}
	}
	e.ops[fn] = ops
	return ops
}

// classify returns the operations one call performs.
func (e *extractor) classify(caller *ssa.Function, call ssa.CallInstruction) []*Op {
	common := call.Common()
	site, resolved := knowledge.Resolve(common)
	if resolved && site.Row != nil {
		return e.library(caller, call, site)
	}
	callee := common.StaticCallee()
	if callee == nil {
		if common.IsInvoke() {
			return e.invoke(call)
		}
		return nil
	}
	if obj, ok := callee.Object().(*types.Func); ok {
		if e.networkFuncs[obj.FullName()] || (callee.Origin() != nil && e.networkFuncs[callee.Origin().Object().(*types.Func).FullName()]) {
			return []*Op{{Kind: Network, Desc: "the call of " + funcName(obj)}}
		}
		if l := claimant(obj); l != nil {
			if l.ClientOps == nil {
				return nil
			}
			return l.ClientOps(call, obj)
		}
	}
	if l, f := e.generatedHere(callee); f != nil {
		if l.GeneratedOps == nil {
			return nil
		}
		return l.GeneratedOps(call, callee, f)
	}
	return e.helper(call, callee)
}

// library classifies a call of a library function the tables know.
func (e *extractor) library(caller *ssa.Function, call ssa.CallInstruction, site knowledge.Site) []*Op {
	row := site.Row
	handle := func() ssa.Value {
		if h := site.RoleArg(knowledge.Handle); h != nil {
			return Root(h)
		}
		if recv := site.Receiver(); recv != nil {
			return Root(recv)
		}
		return nil
	}
	if row.Kind.LocksRows() {
		return []*Op{{Kind: Lock, Handle: handle(), Row: row, Desc: "the rows written by " + CalleeName(site)}}
	}
	switch row.Kind {
	case knowledge.Begin:
		if row.Result != knowledge.TxResult {
			// The receiver becomes the transaction; the call returns
			// only an error.
			if h := handle(); h != nil {
				return []*Op{{Kind: Begin, Handle: h, Row: row, Desc: "the transaction begun by " + CalleeName(site)}}
			}
			return nil
		}
		if v := call.Value(); v != nil {
			return []*Op{{Kind: Begin, Handle: v, Row: row, Desc: "the transaction begun by " + CalleeName(site)}}
		}
	case knowledge.Commit, knowledge.Rollback:
		return []*Op{{Kind: End, Handle: handle(), Row: row, Desc: CalleeName(site)}}
	case knowledge.TxFunc:
		cbArg := site.RoleArg(knowledge.Callback)
		cb, _ := callbackFunc(cbArg)
		return []*Op{{Kind: TxRun, Handle: handle(), Callback: cb, CallbackTx: row.CallbackTx, CallbackArg: cbArg, Row: row, Desc: CalleeName(site)}}
	case knowledge.Query, knowledge.Exec:
		stmt, h := StatementOf(site)
		if stmt == nil {
			return nil
		}
		if desc, ok := StatementLock(stmt); ok {
			return []*Op{{Kind: Lock, Handle: h, SQL: stmt, Row: row, Desc: desc}}
		}
	case knowledge.Find:
		if desc, ok := chainLock(site); ok {
			return []*Op{{Kind: Lock, Handle: handle(), Row: row, Desc: desc, readLock: true}}
		}
	case knowledge.Request, knowledge.Dial:
		harmless := row.Kind == knowledge.Dial
		switch RequestMethod(site) {
		case "GET", "HEAD", "OPTIONS":
			harmless = true
		}
		return []*Op{{Kind: Network, Row: row, Desc: requestDesc(site), harmless: harmless}}
	case knowledge.Retry:
		// The retried callback's I/O happens during this call.
		if cb, ok := callbackFunc(site.RoleArg(knowledge.Callback)); ok {
			for _, op := range e.Ops(cb) {
				if op.Kind == Network {
					return []*Op{{Kind: Network, Row: row, Desc: op.Desc, Via: op.Via, harmless: op.harmless}}
				}
			}
		}
	}
	return nil
}

// StatementOf returns the SQL a Query or Exec call runs and the handle it
// runs on: a constant, or what a library's query builder made
// (Library.BuildSQL). A prepared statement's SQL and handle are those of
// the Prepare call its receiver comes from.
func StatementOf(site knowledge.Site) (*sqltext.Statement, ssa.Value) {
	if sqlArg := site.RoleArg(knowledge.SQL); sqlArg != nil {
		text, ok := ssaval.ConstString(sqlArg)
		if !ok {
			// The text only: the call may bind its own values.
			if text, _, ok = builtSQL(sqlArg, nil); !ok {
				return nil, nil
			}
		}
		var h ssa.Value
		if arg := site.RoleArg(knowledge.Handle); arg != nil {
			h = Root(arg)
		} else if recv := site.Receiver(); recv != nil {
			h = Root(recv)
		}
		return sqltext.Parse(text), h
	}
	recv := site.Receiver()
	if recv == nil {
		return nil, nil
	}
	if l := selfRunning(site); l != nil {
		text, _, ok := l.BuildSQL(recv, nil)
		if !ok {
			return nil, nil
		}
		var h ssa.Value
		if runner := l.Runner(recv); runner != nil {
			h = Root(runner)
		}
		return sqltext.Parse(text), h
	}
	prep, ok := Root(recv).(*ssa.Call)
	if !ok {
		return nil, nil
	}
	psite, ok := knowledge.Resolve(prep.Common())
	if !ok || psite.Row == nil || psite.Row.Kind != knowledge.Prepare {
		return nil, nil
	}
	return StatementOf(psite)
}

// Binder returns the value bound to each placeholder of the SQL a
// library call runs: one of its variadic binds, or of the query builder
// that made its SQL (Library.BuildSQL). ok is false when they cannot be
// known (a slice built at run time).
func Binder(site knowledge.Site) (bind func(sqltext.Placeholder) ssa.Value, ok bool) {
	var binds []ssa.Value
	var named ssa.Value // the struct or map binding :name placeholders
	if l := selfRunning(site); l != nil {
		if _, binds, ok = l.BuildSQL(site.Receiver(), nil); !ok {
			return nil, false
		}
	} else if i, has := site.Row.Param(knowledge.Binds); has {
		vals, ok := site.Variadic(i)
		if !ok {
			sqlArg := site.RoleArg(knowledge.SQL)
			if sqlArg == nil {
				return nil, false
			}
			if _, isConst := ssaval.ConstString(sqlArg); isConst {
				return nil, false
			}
			if _, vals, ok = builtSQL(sqlArg, site.Arg(i)); !ok {
				return nil, false
			}
		}
		binds = vals
	} else if i, has := site.Row.Param(knowledge.NamedBinds); has {
		named = site.Arg(i)
	} else if sqlArg := site.RoleArg(knowledge.SQL); sqlArg != nil {
		// A call whose SQL argument carries its binds too (xorm's
		// Exec(sqlOrArgs...)): the values the library's BuildSQL read
		// with the text.
		if _, isConst := ssaval.ConstString(sqlArg); !isConst {
			if _, vals, ok := builtSQL(sqlArg, nil); ok {
				binds = vals
			}
		}
	}
	return func(p sqltext.Placeholder) ssa.Value {
		if p.Named() && named != nil {
			return namedBind(named, p.Name)
		}
		if p.Named() || p.Position < 1 || p.Position > len(binds) {
			return nil
		}
		return binds[p.Position-1]
	}, true
}

// StatementLock says whether running stmt takes a lock that lasts until
// the end of its transaction, and names it.
func StatementLock(stmt *sqltext.Statement) (string, bool) {
	table := stmt.Table.Name
	on := ""
	if table != "" {
		on = " on " + table
	}
	switch {
	case len(stmt.RowLocks) > 0:
		return "SELECT ... " + strings.ToUpper(stmt.RowLocks[0].Strength.String()) + on, true
	case len(stmt.TableLocks) > 0:
		return "LOCK TABLE " + stmt.TableLocks[0].Table.Name, true
	}
	for _, a := range stmt.AdvisoryLocks {
		if a.TransactionScoped && !a.Release {
			return a.Func + "()", true
		}
	}
	switch stmt.Kind {
	case sqltext.KindUpdate:
		return "UPDATE" + on, true
	case sqltext.KindDelete:
		return "DELETE" + on, true
	case sqltext.KindUpsert:
		if stmt.UpdatesOnConflict() {
			return "upsert" + on, true
		}
	}
	return "", false
}

// chainLock finds a locking step in a builder chain that ends in a
// finder: GORM Clauses(clause.Locking{...}) or gorm.G[T](db,
// clause.Locking{...}), bun's For.
func chainLock(site knowledge.Site) (string, bool) {
	v := site.Receiver()
	for i := 0; i < MaxTrace && v != nil; i++ {
		call, ok := ssaval.Unwrap(v).(*ssa.Call)
		if !ok {
			return "", false
		}
		step, ok := knowledge.Resolve(call.Common())
		if !ok || step.Row == nil {
			return "", false
		}
		switch step.Row.Kind {
		case knowledge.Raw:
			// GORM Raw("SELECT ... FOR UPDATE").Scan(&v): the SQL is a
			// step, the finder runs it.
			if text, ok := ssaval.ConstString(step.RoleArg(knowledge.SQL)); ok {
				if desc, ok := StatementLock(sqltext.Parse(text)); ok {
					return fmt.Sprintf("%s (%s, then %s)", desc, CalleeName(step), CalleeName(site)), true
				}
			}
			return "", false
		case knowledge.LockStep:
			lock := "a row lock"
			text, isConst := ssaval.ConstString(step.RoleArg(knowledge.SQL))
			rl, parsed := sqltext.ParseRowLock(text)
			if s := step.Row.Setting; s != "" {
				// A setting step locks only when it names that setting
				// and its value is a locking clause.
				if key, _ := ssaval.ConstString(step.RoleArg(knowledge.Key)); key != s || !isConst || !parsed {
					break
				}
			}
			if isConst && parsed {
				lock = "SELECT ... " + strings.ToUpper(rl.Strength.String())
			}
			return fmt.Sprintf("%s (%s, then %s)", lock, CalleeName(step), CalleeName(site)), true
		case knowledge.Chain:
			if i, ok := step.Row.Param(knowledge.Clauses); ok {
				if clauses, ok := step.Variadic(i); ok {
					for _, c := range clauses {
						if c != nil && HandleRole(c.Type()) == knowledge.LockingClause {
							return "the clause.Locking read of " + CalleeName(site), true
						}
					}
				}
			}
		}
		if step.Row.Result != knowledge.ChainResult {
			return "", false
		}
		v = step.Receiver()
		if v == nil {
			v = step.RoleArg(knowledge.Handle)
		}
	}
	return "", false
}

// requestDesc names an outbound request: "POST request via
// http.(*Client).Do".
func requestDesc(site knowledge.Site) string {
	method := RequestMethod(site)
	switch {
	case method != "":
		return method + " request via " + CalleeName(site)
	case site.Row.Kind == knowledge.Dial:
		return "connection via " + CalleeName(site)
	}
	return "the call of " + CalleeName(site)
}

// RequestMethod returns the HTTP method a request call sends, when a
// constant says: the call's own (http.Post), its method argument (resty
// Execute), or that of the NewRequest the request it sends comes from.
// "" when unknown.
func RequestMethod(site knowledge.Site) string {
	if site.Row.Method != "" {
		return site.Row.Method
	}
	if m, ok := ssaval.ConstString(site.RoleArg(knowledge.HTTPMethod)); ok {
		return strings.ToUpper(m)
	}
	req := site.RoleArg(knowledge.Req)
	if req == nil {
		return ""
	}
	build, ok := Root(req).(*ssa.Call)
	if !ok {
		return ""
	}
	bsite, ok := knowledge.Resolve(build.Common())
	if !ok || bsite.Row == nil || bsite.Row.Kind != knowledge.NewRequest {
		return ""
	}
	if m, ok := ssaval.ConstString(bsite.RoleArg(knowledge.HTTPMethod)); ok {
		return strings.ToUpper(m)
	}
	return ""
}

// calleeName names the function a call site calls the way Go code
// refers to it: "http.(*Client).Do", "pgx.(Tx).Exec".
func CalleeName(site knowledge.Site) string {
	if site.Call.IsInvoke() {
		return funcName(site.Call.Method)
	}
	if callee := site.Call.StaticCallee(); callee != nil {
		if obj, ok := callee.Object().(*types.Func); ok {
			return funcName(obj)
		}
	}
	return site.Func.String()
}

// callbackFunc returns the function a func-valued argument denotes: a
// closure or a named function.
func callbackFunc(v ssa.Value) (*ssa.Function, bool) {
	switch x := ssaval.Unwrap(v).(type) {
	case *ssa.MakeClosure:
		fn, ok := x.Fn.(*ssa.Function)
		return fn, ok
	case *ssa.Function:
		return x, true
	}
	return nil, false
}

// helper applies the summary of a called function, from this package or
// an imported fact, to the call's arguments.
func (e *extractor) helper(call ssa.CallInstruction, callee *ssa.Function) []*Op {
	fn := callee
	if fn.Origin() != nil {
		fn = fn.Origin()
	}
	s := e.summary(fn)
	if s == nil {
		return nil
	}
	name := ""
	if obj, ok := fn.Object().(*types.Func); ok {
		name = funcName(obj)
	}
	ops := applySummary(s, name, call.Common().Args)
	if c, ok := call.(*ssa.Call); ok {
		for _, l := range s.LockedResults {
			if v := ResultValue(c, l.Result); v != nil {
				ops = append(ops, &Op{Kind: Lock, Handle: Root(v), Desc: l.Desc, Via: name})
			}
		}
	}
	return ops
}

// invoke applies, to a call of an interface method, the summary of the
// method's implementation when one is known (callSummary).
func (e *extractor) invoke(call ssa.CallInstruction) []*Op {
	cs := e.callSummary(call)
	if cs == nil {
		return nil
	}
	return applySummary(cs.s, cs.name, cs.args)
}

// applySummary turns a callee's summary into operations at a call whose
// arguments, receiver first, are args.
func applySummary(s *Summary, name string, args []ssa.Value) []*Op {
	arg := func(i int) ssa.Value {
		if i >= 0 && i < len(args) {
			return args[i]
		}
		return nil
	}
	var ops []*Op
	for _, l := range s.Locks {
		h := arg(l.Param)
		if h != nil && l.Field != "" {
			// The handle the caller's struct holds in that field: the
			// one value it stored there (&Server{DB: db}).
			h = FieldValue(Root(h), l.Field)
		}
		if h != nil {
			ops = append(ops, &Op{Kind: Lock, Handle: Root(h), Desc: l.Desc, Via: name, readLock: l.ReadOnly})
		}
	}
	for _, p := range s.Ends {
		if h := arg(p); h != nil {
			ops = append(ops, &Op{Kind: End, Handle: Root(h), Desc: "the commit or rollback", Via: name})
		}
	}
	if s.Network != "" {
		ops = append(ops, &Op{Kind: Network, Desc: s.Network, Via: name, dials: s.NetworkDials, harmless: s.NetworkHarmless})
	}
	for _, c := range s.LockedCalls {
		if g, ok := arg(c.Guard).(*ssa.Const); ok && c.Guard >= 0 && g.Value != nil && g.Value.Kind() == constant.Bool && constant.BoolVal(g.Value) != c.Want {
			continue // the caller's constant skips the call
		}
		if h := arg(c.Param); h != nil {
			ops = append(ops, &Op{Kind: LockedCall, Handle: Root(h), Desc: c.Call, LockDesc: c.Lock, Via: name})
		}
	}
	for _, r := range s.TxRuns {
		cbArg := arg(r.Callback)
		cb, _ := callbackFunc(cbArg)
		ops = append(ops, &Op{Kind: TxRun, Callback: cb, CallbackTx: r.CallbackTx, CallbackArg: cbArg, Desc: "the transaction of " + name, Via: name})
	}
	return ops
}

// summary returns fn's summary: computed here for a function with a body
// in the package under analysis, else the imported fact.
func (e *extractor) summary(fn *ssa.Function) *Summary {
	if len(fn.Blocks) == 0 {
		if obj, ok := fn.Object().(*types.Func); ok && e.imported != nil {
			return e.imported(obj)
		}
		return nil
	}
	if s, ok := e.summaries[fn]; ok {
		return s
	}
	e.summaries[fn] = nil // recursion: no effects
	s := summarise(fn, e.Ops(fn))
	s = e.requestSummary(fn, s)
	s = e.rowSummary(fn, s)
	s = e.writeSummary(fn, s)
	s = bindsSummary(fn, s)
	s = wrapSummary(fn, s)
	s = errorsIsSummary(fn, s)
	s = e.ctxSummary(fn, s)
	if l, f := e.generatedHere(fn); f != nil && l.Summarize != nil {
		s = l.Summarize(fn, f, s)
	}
	e.summaries[fn] = s
	return s
}

// bindsSummary adds to the summary of a function whose result runs on a
// handle it is given (Library.Binds) the argument holding it, which
// Result.InTx follows in other packages, where Root cannot see the body.
func bindsSummary(fn *ssa.Function, s *Summary) *Summary {
	i := boundArg(fn)
	if i < 0 {
		return s
	}
	if s == nil {
		s = &Summary{}
	}
	s.BindsHandle = i + 1
	return s
}
