package ops

import (
	"go/token"
	"go/types"
	"net/textproto"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/config"
	"github.com/idemlint/idemlint/analyzers/internal/knowledge"
	"github.com/idemlint/idemlint/analyzers/internal/ssaval"
)

// This file finds the outbound requests a function sends, with what a
// retry of them depends on: the HTTP method, the URL where a constant
// says, the request value, and the idempotency key set on it (where, and
// what the key is made from). retry.go decides which requests are retried.

// requestExt is the state of the request and retry analysis of one
// package: its type information (for range loops), the configured
// idempotency headers and retry functions, the package's functions (for
// the values stored in struct fields) and the per-function caches.
type requestExt struct {
	info       *types.Info
	headers    map[string]bool // canonical header keys
	retryFuncs map[string]bool // by types.Func.FullName
	// idempotentFuncs are the functions configured as making only
	// requests a repeat does not change (idempotent-funcs), by
	// types.Func.FullName.
	idempotentFuncs map[string]bool
	funcs           []*ssa.Function

	fields    map[*types.Var][]ssa.Value // values stored in each struct field, built on first use
	sends     map[*ssa.Function][]*send
	events    map[*ssa.Function][]keyEvent
	loops     map[*ssa.Function]*loopInfo
	wrappers  map[*ssa.Function]*construct
	wrapperOK map[*ssa.Function]bool
	builds    map[*ssa.Function]*RequestBuild
	// retryingClients caches returnsRetryingClient.
	retryingClients map[*ssa.Function]string
}

func newRequestExt(info *types.Info, cfg *config.Config, funcs []*ssa.Function) *requestExt {
	rx := &requestExt{
		info:            info,
		headers:         map[string]bool{},
		retryFuncs:      map[string]bool{},
		idempotentFuncs: map[string]bool{},
		funcs:           funcs,
		sends:           map[*ssa.Function][]*send{},
		events:          map[*ssa.Function][]keyEvent{},
		loops:           map[*ssa.Function]*loopInfo{},
		wrappers:        map[*ssa.Function]*construct{},
		wrapperOK:       map[*ssa.Function]bool{},
		builds:          map[*ssa.Function]*RequestBuild{},
		retryingClients: map[*ssa.Function]string{},
	}
	headers := config.DefaultIdempotencyHeaders
	if cfg != nil {
		headers = append(append([]string(nil), headers...), cfg.IdempotencyHeaders...)
		for _, f := range cfg.RetryFuncs {
			rx.retryFuncs[f] = true
		}
		for _, f := range cfg.IdempotentFuncs {
			rx.idempotentFuncs[f] = true
		}
	}
	for _, h := range headers {
		rx.headers[textproto.CanonicalMIMEHeaderKey(h)] = true
	}
	return rx
}

// idempotent reports whether fn, or the function it is declared in, is
// one the configuration says makes only requests a repeat does not
// change.
func (rx *requestExt) idempotent(fn *ssa.Function) bool {
	if len(rx.idempotentFuncs) == 0 {
		return false
	}
	for fn.Parent() != nil {
		fn = fn.Parent()
	}
	if fn.Origin() != nil {
		fn = fn.Origin()
	}
	obj, ok := fn.Object().(*types.Func)
	return ok && rx.idempotentFuncs[obj.FullName()]
}

// req returns the request analysis state, made with the defaults when the
// fact analyzer did not set it up.
func (e *extractor) req() *requestExt {
	if e.rx == nil {
		e.rx = newRequestExt(nil, nil, nil)
	}
	return e.rx
}

// A KeySource says where the idempotency key of a request comes from.
type KeySource uint8

const (
	// KeyNone: the request carries no idempotency key.
	KeyNone KeySource = iota
	// KeyFresh: the key is made from a fresh value (uuid, rand, time.Now)
	// on every call of the function.
	KeyFresh
	// KeyParam: the key is the value of a parameter (or made from it).
	KeyParam
	// KeyCaller: the request is a parameter, and so is its key the
	// caller's.
	KeyCaller
	// KeyStable: the key is the same on every call (a constant, or made
	// from values that do not change).
	KeyStable
)

func (k KeySource) String() string {
	switch k {
	case KeyNone:
		return "none"
	case KeyFresh:
		return "fresh"
	case KeyParam:
		return "param"
	case KeyCaller:
		return "caller"
	case KeyStable:
		return "stable"
	}
	return "?"
}

// A Send is, in a Summary, a non-idempotent request a function sends (a
// POST or PATCH, a stripe-go create, confirm or capture), or one whose
// method its caller names, that the function does not itself report as
// retried without a stable key. Parameter indexes count SSA's parameters,
// receiver first; -1 is none.
type Send struct {
	// Method is the HTTP method, "" when MethodParam or the request in
	// ReqParam names it.
	Method      string
	MethodParam int
	// URL is the request's URL where constants say ("" unknown), with
	// "..." for the parts they do not; URLParam the parameter it comes
	// from.
	URL      string
	URLParam int
	// Via names the library call that sends it: "http.(*Client).Do".
	Via string
	// ReqParam is the parameter holding the request sent, whose method
	// and key the caller sets.
	ReqParam int
	// Key is where its idempotency key comes from: KeyNone, KeyFresh
	// (KeyFresh names the function that makes it), KeyParam (KeyParam is
	// the parameter) or KeyCaller.
	Key      KeySource
	KeyParam int
	KeyFresh string
	// KeyIfFresh marks a KeyParam set on a header not named as a key: the
	// parameter is the key only when the caller passes a fresh id.
	KeyIfFresh bool
	// Retry, when not "", names the retry inside the function that sends
	// it again after a failure, whose hazard only the caller can decide
	// (the method is the caller's).
	Retry string
	// Stripe is whether stripe-go sends it: without a key of its own, it
	// makes a new one on every call.
	Stripe bool
	// Created says what shows that it creates something on the server
	// ("it expects 201 Created"), "" when nothing does.
	Created string
}

// A ParamKey says that a function sets an idempotency key on the request
// in parameter Req, made as Key says (KeyFresh, KeyParam with Param, or
// KeyStable).
type ParamKey struct {
	Req   int
	Key   KeySource
	Param int
	Fresh string
	// IfFresh: as Send.KeyIfFresh.
	IfFresh bool
}

// A send is one request a function sends: a library call, or the call of
// a helper whose summary says it sends one.
type send struct {
	call        ssa.CallInstruction
	method      string // "" unknown
	methodParam *ssa.Parameter
	url         string
	urlParam    *ssa.Parameter
	via         string // the library call that sends it
	helper      string // the helper it is sent in, "" for the library call itself
	stripe      bool
	nonIdem     bool // POST or PATCH; a stripe-go create, confirm or capture
	site        knowledge.Site
	library     bool
	reqParam    *ssa.Parameter // the request is this parameter
	key         keyInfo
	inner       string // the helper retries it itself (Send.Retry)
	created     string // what shows it creates something (createdBy), "" nothing
}

// desc names the request for messages: "POST .../v1/payouts via
// http.(*Client).Do", or through a helper "payments.(*Client).Pay (POST
// .../v1/payouts via http.(*Client).Do)".
func (s *send) desc() string {
	what := s.method
	if s.url != "" {
		what += " " + s.url
	} else {
		what += " request"
	}
	what += " via " + s.via
	if s.helper != "" {
		return s.helper + " (" + what + ")"
	}
	return what
}

// keyInfo is what is known of the idempotency key of a request.
type keyInfo struct {
	sets    []keySrc // the values set as its key
	unknown bool     // something not visible may set one
	caller  bool     // the request is a parameter: the caller may have set one
}

// keySrc is what a key value is made from.
type keySrc struct {
	fresh  []freshAt
	params []*ssa.Parameter
	phis   []*ssa.Phi // the phis on the way (a loop may carry a value through one)
	pos    token.Pos  // where it is set
	// ifFresh marks a header the configuration does not name as a key:
	// it is the request's key only when its value is a fresh id
	// (idheader.go).
	ifFresh bool
}

// freshAt is a fresh value: the call that makes it, in whichever
// function, and how messages name it.
type freshAt struct {
	instr ssa.Instruction
	name  string
}

// isNonIdempotent reports whether a request with this method may create
// something twice.
func isNonIdempotent(method string) bool { return method == "POST" || method == "PATCH" }

// stripeMutates reports whether a stripe-go call creates, confirms or
// captures: what an app retry without a key repeats.
func stripeMutates(f knowledge.Func) bool {
	switch f.Name {
	case "Create", "New", "Confirm", "Capture":
		return true
	}
	return false
}

// stripeVerb names what a stripe-go call that stripeMutates does.
func stripeVerb(name string) string {
	if name == "New" {
		return "create"
	}
	return strings.ToLower(name)
}

// sendsIn returns the requests fn sends, in instruction order.
func (e *extractor) sendsIn(fn *ssa.Function) []*send {
	rx := e.req()
	if s, ok := rx.sends[fn]; ok {
		return s
	}
	rx.sends[fn] = nil // recursion; and none in a function configured idempotent
	if rx.idempotent(fn) {
		return nil
	}
	var out []*send
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(ssa.CallInstruction)
			if !ok {
				continue
			}
			if _, isGo := instr.(*ssa.Go); isGo {
				continue
			}
			out = append(out, e.sendsOf(fn, call)...)
		}
	}
	rx.sends[fn] = out
	return out
}

// sendsOf returns the requests one call sends.
func (e *extractor) sendsOf(fn *ssa.Function, call ssa.CallInstruction) []*send {
	common := call.Common()
	site, resolved := knowledge.Resolve(common)
	if resolved && site.Row != nil {
		if site.Row.Kind != knowledge.Request {
			return nil
		}
		if s := e.librarySend(fn, call, site); s != nil {
			return []*send{s}
		}
		return nil
	}
	callee := common.StaticCallee()
	if callee == nil {
		return nil
	}
	if callee.Origin() != nil {
		callee = callee.Origin()
	}
	if e.req().idempotent(callee) {
		return nil
	}
	sum := e.summary(callee)
	if sum == nil || len(sum.Sends) == 0 {
		return nil
	}
	name := ""
	if obj, ok := callee.Object().(*types.Func); ok {
		name = funcName(obj)
	} else {
		name = FuncName(callee)
	}
	var out []*send
	for i := range sum.Sends {
		if s := e.helperSend(fn, call, name, &sum.Sends[i]); s != nil {
			out = append(out, s)
		}
	}
	return out
}

// librarySend describes a request call the tables know, or returns nil
// when its method is unknown and no parameter of fn may name it.
func (e *extractor) librarySend(fn *ssa.Function, call ssa.CallInstruction, site knowledge.Site) *send {
	row := site.Row
	s := &send{call: call, site: site, library: true, via: CalleeName(site), stripe: row.Lib == "stripe"}
	// The request object, when the call sends one.
	var reqv ssa.Value
	switch {
	case site.RoleArg(knowledge.Req) != nil:
		reqv = site.RoleArg(knowledge.Req)
	case s.stripe:
		if n := len(site.Call.Args); n > 0 {
			if last := site.Call.Args[n-1]; isStripeParams(last.Type()) {
				reqv = last
			}
		}
	case row.SendsReceiver:
		reqv = site.Receiver()
	}
	var roots []ssa.Value
	if reqv != nil {
		if c, ok := ssaval.Unwrap(reqv).(*ssa.Const); !ok || !c.IsNil() {
			roots = e.sendRoots(reqv)
		}
	}
	// The method.
	s.method = row.Method
	if s.method == "" {
		s.method, s.methodParam = constOrParam(fn, site.RoleArg(knowledge.HTTPMethod))
		s.method = strings.ToUpper(s.method)
	}
	if s.method == "" && s.methodParam == nil {
		for _, r := range roots {
			if m, p := e.requestMethodOf(fn, r); m != "" || p != nil {
				s.method, s.methodParam = strings.ToUpper(m), p
				break
			}
		}
	}
	// The URL.
	urlv := site.RoleArg(knowledge.URL)
	if urlv == nil {
		for _, r := range roots {
			if u := e.requestURLOf(r); u != nil {
				urlv = u
				break
			}
		}
	}
	if urlv != nil {
		s.url = urlText(urlv)
		s.urlParam = urlParam(fn, urlv)
	}
	for _, r := range roots {
		if p, ok := r.(*ssa.Parameter); ok {
			s.reqParam = p
		}
	}
	if s.method == "" && s.methodParam == nil && s.reqParam == nil {
		return nil
	}
	s.nonIdem = isNonIdempotent(s.method) && (!s.stripe || stripeMutates(row.Func)) && !e.asksEventStream(fn, roots)
	if s.stripe && !stripeMutates(row.Func) {
		return nil
	}
	if reqv != nil {
		s.key = e.keyOf(fn, roots, clientRootsOf(e, site))
	}
	s.created = e.createdBy(call)
	if s.stripe && s.created == "" {
		s.created = "it is a stripe-go " + stripeVerb(row.Func.Name)
	}
	return s
}

// helperSend instantiates a Send of a helper's summary at a call of it.
func (e *extractor) helperSend(fn *ssa.Function, call ssa.CallInstruction, name string, hs *Send) *send {
	args := call.Common().Args
	arg := func(i int) ssa.Value {
		if i >= 0 && i < len(args) {
			return args[i]
		}
		return nil
	}
	s := &send{call: call, via: hs.Via, helper: name, stripe: hs.Stripe, method: hs.Method, url: hs.URL, inner: hs.Retry, created: hs.Created}
	if s.created == "" {
		s.created = e.createdBy(call)
	}
	var roots []ssa.Value
	if hs.ReqParam >= 0 {
		if a := arg(hs.ReqParam); a != nil {
			roots = e.sendRoots(a)
			for _, r := range roots {
				if p, ok := r.(*ssa.Parameter); ok {
					s.reqParam = p
				}
			}
		}
	}
	if s.method == "" && hs.MethodParam >= 0 {
		m, p := constOrParam(fn, arg(hs.MethodParam))
		s.method, s.methodParam = strings.ToUpper(m), p
	}
	if s.method == "" && s.methodParam == nil {
		for _, r := range roots {
			if m, p := e.requestMethodOf(fn, r); m != "" || p != nil {
				s.method, s.methodParam = strings.ToUpper(m), p
				break
			}
		}
	}
	if s.url == "" && hs.URLParam >= 0 {
		if a := arg(hs.URLParam); a != nil {
			s.url = urlText(a)
			s.urlParam = urlParam(fn, a)
		}
	}
	if s.url == "" {
		for _, r := range roots {
			if u := e.requestURLOf(r); u != nil {
				s.url = urlText(u)
				break
			}
		}
	}
	if s.method == "" && s.methodParam == nil && s.reqParam == nil {
		return nil
	}
	s.nonIdem = isNonIdempotent(s.method)
	switch hs.Key {
	case KeyNone:
	case KeyFresh:
		s.key.sets = []keySrc{{fresh: []freshAt{{instr: call, name: freshName(hs.KeyFresh, name)}}, pos: call.Pos()}}
	case KeyParam:
		if a := arg(hs.KeyParam); a != nil {
			if k, isConst := ssaval.ConstString(a); isConst && k == "" {
				break // an empty key is none (a helper sets it only if given)
			}
			src := keyValue(e, a)
			src.pos = call.Pos()
			if hs.KeyIfFresh {
				if !isID(e, a, 0) || !idValue(src) {
					break // not an id: no key
				}
				src.ifFresh = true
			}
			s.key.sets = []keySrc{src}
		} else {
			s.key.unknown = true
		}
	case KeyCaller:
		if roots == nil {
			s.key.unknown = true
		} else {
			s.key = e.keyOf(fn, roots, nil)
		}
	default:
		s.key.unknown = true
	}
	return s
}

func freshName(fresh, helper string) string {
	if fresh == "" {
		return helper
	}
	return fresh + " in " + helper
}

// isStripeParams reports whether t is a pointer to stripe-go's params:
// a struct embedding stripe.Params, or stripe.Params itself.
func isStripeParams(t types.Type) bool {
	ptr, ok := types.Unalias(t).(*types.Pointer)
	if !ok {
		return false
	}
	if knowledge.IdemKeyField(knowledge.TypeOf(ptr)) != "" {
		return true
	}
	st, ok := ptr.Elem().Underlying().(*types.Struct)
	if !ok {
		return false
	}
	for i := 0; i < st.NumFields(); i++ {
		f := st.Field(i)
		if f.Embedded() && knowledge.IdemKeyField(knowledge.TypeOf(f.Type())) != "" {
			return true
		}
	}
	return false
}

// isField reports whether fa selects field name of the struct pkg.typ.
func selects(fa *ssa.FieldAddr, role knowledge.TypeRole, name string) bool {
	f := ssaval.FieldOf(fa)
	if f == nil || f.Name() != name {
		return false
	}
	ptr, _ := fa.X.Type().Underlying().(*types.Pointer)
	_, isNamed := types.Unalias(ptr.Elem()).(*types.Named)
	return isNamed && knowledge.HasRole(ptr.Elem(), role)
}

// requestRoot returns the value a request (or client) comes from: Root,
// then through builder steps of a library (resty's SetHeader, SetBody;
// http.Request's WithContext), and from an embedded field to the struct
// that embeds it (retryablehttp.Request embeds *http.Request, every stripe
// params struct stripe.Params).
func (e *extractor) requestRoot(v ssa.Value) ssa.Value {
	for i := 0; i < MaxTrace && v != nil; i++ {
		v = Root(v)
		switch x := v.(type) {
		case *ssa.UnOp:
			if fa, ok := x.X.(*ssa.FieldAddr); ok && x.Op == token.MUL && selectsEmbedded(fa) {
				v = fa.X
				continue
			}
		case *ssa.FieldAddr:
			if selectsEmbedded(x) {
				v = x.X
				continue
			}
		case *ssa.Call:
			if next := e.builderReceiver(x); next != nil {
				v = next
				continue
			}
		}
		return v
	}
	return v
}

// builderReceiver returns the receiver of a library method that returns
// it, extended (resty's SetHeader, SetRetryCount, SetBody; failsafe's
// WithContext; http.Request's WithContext and Clone): a method of a
// package the tables cover whose result has the receiver's type, and
// which does not make a new request or client.
func (e *extractor) builderReceiver(call *ssa.Call) ssa.Value {
	site, ok := knowledge.Resolve(call.Common())
	if !ok || !e.covered(site.Func.Pkg) {
		return nil
	}
	recv := site.Receiver()
	if recv == nil || !types.Identical(recv.Type(), call.Type()) {
		return nil
	}
	if site.Row != nil {
		switch site.Row.Kind {
		case knowledge.NewRequest, knowledge.NewHandle, knowledge.RetryClient:
			return nil
		}
	}
	return recv
}

func selectsEmbedded(fa *ssa.FieldAddr) bool {
	f := ssaval.FieldOf(fa)
	return f != nil && f.Embedded()
}

// sendRoots returns the roots of the request a send sends: its own, and
// those of the request it wraps (retryablehttp.FromRequest,
// failsafehttp.NewRequest).
func (e *extractor) sendRoots(v ssa.Value) []ssa.Value {
	var out []ssa.Value
	for i := 0; i < 4 && v != nil; i++ {
		r := e.requestRoot(v)
		out = append(out, r)
		v = nil
		if call, ok := r.(*ssa.Call); ok {
			if site, ok := knowledge.Resolve(call.Common()); ok && site.Row != nil && site.Row.Kind == knowledge.NewRequest {
				v = site.RoleArg(knowledge.Req)
			}
		}
	}
	return out
}

// clientRootsOf returns the roots of the client a request that sends
// itself was made by (client.R(), resty's), whose client-wide headers it
// carries.
func clientRootsOf(e *extractor, site knowledge.Site) []ssa.Value {
	if !site.Row.SendsReceiver {
		return nil
	}
	r, ok := e.requestRoot(site.Receiver()).(*ssa.Call)
	if !ok {
		return nil
	}
	rs, ok := knowledge.Resolve(r.Common())
	if !ok || rs.Row == nil || rs.Row.Kind != knowledge.NewRequest || rs.Receiver() == nil {
		return nil
	}
	return e.clientRoots(rs.Receiver(), 0)
}

// clientRoots returns the roots of a client value, looking through the
// struct fields it is stored in: every value the package stores in that
// field.
func (e *extractor) clientRoots(v ssa.Value, depth int) []ssa.Value {
	r := e.requestRoot(v)
	if load, ok := r.(*ssa.UnOp); ok && load.Op == token.MUL && depth < 3 {
		if fa, ok := load.X.(*ssa.FieldAddr); ok {
			if f := ssaval.FieldOf(fa); f != nil {
				var out []ssa.Value
				for _, st := range e.FieldStores(f) {
					out = append(out, e.clientRoots(st, depth+1)...)
				}
				if len(out) > 0 {
					return out
				}
			}
		}
	}
	return []ssa.Value{r}
}

// fieldStores returns the values the package stores in field f.
func (e *extractor) FieldStores(f *types.Var) []ssa.Value {
	rx := e.req()
	if rx.fields == nil {
		rx.fields = map[*types.Var][]ssa.Value{}
		for _, fn := range rx.funcs {
			for _, b := range fn.Blocks {
				for _, instr := range b.Instrs {
					st, ok := instr.(*ssa.Store)
					if !ok {
						continue
					}
					if fa, ok := st.Addr.(*ssa.FieldAddr); ok {
						if fv := ssaval.FieldOf(fa); fv != nil {
							rx.fields[fv] = append(rx.fields[fv], st.Val)
						}
					}
				}
			}
		}
	}
	return rx.fields[f]
}
