package ops

import (
	"go/token"
	"go/types"
	"net/textproto"
	"sort"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/knowledge"
	"github.com/idemlint/idemlint/analyzers/internal/ssaval"
)

// This file finds the idempotency keys set on requests (headers, stripe
// params, helpers that set one on a request they are given), and what a
// key value is made from: fresh values, parameters, or stable inputs.

// A keyEvent is something a function does that may set the idempotency
// key of a request: a header set, a stripe key set, a helper that sets one,
// or a use of the request we cannot see into.
type keyEvent struct {
	owners  []ssa.Value // request (or client) roots it applies to
	src     keySrc      // the key's value, when set
	unknown bool        // may set a key, or may not
}

// keyEvents returns the key events of fn.
func (e *extractor) keyEvents(fn *ssa.Function) []keyEvent {
	rx := e.req()
	if ev, ok := rx.events[fn]; ok {
		return ev
	}
	rx.events[fn] = nil
	var out []keyEvent
	add := func(owners []ssa.Value, value ssa.Value, unknown bool, pos token.Pos) {
		if len(owners) == 0 {
			return
		}
		ev := keyEvent{owners: owners, unknown: unknown}
		if !unknown {
			ev.src = keyValue(e, value)
			ev.src.pos = pos
		}
		out = append(out, ev)
	}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			switch x := instr.(type) {
			case *ssa.MapUpdate:
				owners := e.headerOwners(x.Map)
				if name, ok := ssaval.ConstString(x.Key); ok {
					if rx.headers[textproto.CanonicalMIMEHeaderKey(name)] {
						add(owners, x.Value, false, x.Pos())
					} else {
						idEvent(&out, owners, e, x.Value, x.Pos())
					}
				} else if len(owners) > 0 {
					add(owners, nil, true, x.Pos())
				}
			case *ssa.Store:
				fa, ok := x.Addr.(*ssa.FieldAddr)
				if !ok {
					continue
				}
				if f := ssaval.FieldOf(fa); f != nil {
					ptr, _ := fa.X.Type().Underlying().(*types.Pointer)
					if knowledge.IdemKeyField(knowledge.TypeOf(ptr.Elem())) == f.Name() {
						add([]ssa.Value{e.requestRoot(fa.X)}, x.Val, false, x.Pos())
					}
				}
			case ssa.CallInstruction:
				if _, isGo := x.(*ssa.Go); isGo {
					continue
				}
				out = append(out, e.callKeyEvents(fn, x)...)
			}
		}
	}
	rx.events[fn] = out
	return out
}

// callKeyEvents returns the key events of a call.
func (e *extractor) callKeyEvents(fn *ssa.Function, call ssa.CallInstruction) []keyEvent {
	rx := e.req()
	common := call.Common()
	var out []keyEvent
	event := func(owners []ssa.Value, value ssa.Value, unknown bool) {
		if len(owners) == 0 {
			return
		}
		ev := keyEvent{owners: owners, unknown: unknown}
		if !unknown {
			ev.src = keyValue(e, value)
			ev.src.pos = call.Pos()
		}
		out = append(out, ev)
	}
	site, resolved := knowledge.Resolve(common)
	if resolved && site.Row != nil {
		switch site.Row.Kind {
		case knowledge.SetHeader:
			var owners []ssa.Value
			if recv := site.Receiver(); recv != nil && isHeader(recv.Type()) {
				owners = e.headerOwners(recv)
			} else if recv := site.Receiver(); recv != nil {
				owners = []ssa.Value{e.requestRoot(recv)}
			}
			if name := site.RoleArg(knowledge.HeaderName); name != nil {
				if n, ok := ssaval.ConstString(name); !ok {
					event(owners, nil, true)
				} else if rx.headers[textproto.CanonicalMIMEHeaderKey(n)] {
					event(owners, site.RoleArg(knowledge.HeaderValue), false)
				} else {
					idEvent(&out, owners, e, site.RoleArg(knowledge.HeaderValue), call.Pos())
				}
			} else if m := site.RoleArg(knowledge.Values); m != nil {
				value, found, known := mapEntry(m, rx.headers)
				switch {
				case !known:
					event(owners, nil, true)
				case found:
					event(owners, value, false)
				}
			}
		case knowledge.SetIdemKey:
			if recv := site.Receiver(); recv != nil {
				event([]ssa.Value{e.requestRoot(recv)}, site.RoleArg(knowledge.Key), false)
			}
		}
		return out
	}
	// A helper that sets a key on a request it is given.
	if callee := common.StaticCallee(); callee != nil {
		if callee.Origin() != nil {
			callee = callee.Origin()
		}
		if sum := e.summary(callee); sum != nil {
			args := common.Args
			for _, k := range sum.Keys {
				if k.Req < 0 || k.Req >= len(args) {
					continue
				}
				owners := []ssa.Value{e.requestRoot(args[k.Req])}
				switch k.Key {
				case KeyParam:
					if k.Param >= 0 && k.Param < len(args) && k.IfFresh {
						idEvent(&out, owners, e, args[k.Param], call.Pos())
					} else if k.Param >= 0 && k.Param < len(args) {
						event(owners, args[k.Param], false)
					} else {
						event(owners, nil, true)
					}
				case KeyFresh:
					name := ""
					if obj, ok := callee.Object().(*types.Func); ok {
						name = funcName(obj)
					}
					out = append(out, keyEvent{owners: owners, src: keySrc{fresh: []freshAt{{instr: call, name: freshName(k.Fresh, name)}}, pos: call.Pos()}})
				default:
					out = append(out, keyEvent{owners: owners, src: keySrc{pos: call.Pos()}})
				}
			}
		}
		if len(callee.Blocks) > 0 || e.covered(ssaval.PkgPath(callee)) || (callee.Object() != nil && e.imported != nil) {
			// A body we summarised, a library call (no library sets an
			// idempotency key on a request it is given), or a function of
			// another package whose fact says what it does.
			return out
		}
	}
	if resolved && e.covered(site.Func.Pkg) {
		return out
	}
	// A function value or an interface method we cannot see: a request
	// passed to it may get a key there.
	for _, a := range callOperands(common) {
		if isRequestish(a.Type()) {
			if isHeader(a.Type()) {
				event(e.headerOwners(a), nil, true)
			} else {
				event([]ssa.Value{e.requestRoot(a)}, nil, true)
			}
		}
	}
	return out
}

// callArgs returns the arguments of a call, the receiver of an invoke
// included.
func callOperands(common *ssa.CallCommon) []ssa.Value {
	if common.IsInvoke() {
		return append([]ssa.Value{common.Value}, common.Args...)
	}
	return common.Args
}

// isRequestish reports whether a value of type t may carry an idempotency
// key: a request of net/http, retryablehttp or resty, a header map, or
// stripe-go params.
func isRequestish(t types.Type) bool {
	if isHeader(t) || isStripeParams(t) {
		return true
	}
	ptr, ok := types.Unalias(t).(*types.Pointer)
	return ok && (knowledge.HasRole(ptr.Elem(), knowledge.HTTPRequest) || knowledge.HasRole(ptr.Elem(), knowledge.ClientRequest))
}

func isHeader(t types.Type) bool {
	_, isPtr := types.Unalias(t).(*types.Pointer)
	return !isPtr && knowledge.HasRole(t, knowledge.HeaderMap)
}

// headerOwners returns the roots of the requests whose header map h is:
// req.Header, or a map stored in a request's Header field.
func (e *extractor) headerOwners(h ssa.Value) []ssa.Value {
	h = ssaval.Unwrap(h)
	if load, ok := h.(*ssa.UnOp); ok && load.Op == token.MUL {
		if fa, ok := load.X.(*ssa.FieldAddr); ok && selects(fa, knowledge.HTTPRequest, "Header") {
			return []ssa.Value{e.requestRoot(fa.X)}
		}
	}
	var out []ssa.Value
	if refs := h.Referrers(); refs != nil {
		for _, ref := range *refs {
			if st, ok := ref.(*ssa.Store); ok && st.Val == h {
				if fa, ok := st.Addr.(*ssa.FieldAddr); ok && selects(fa, knowledge.HTTPRequest, "Header") {
					out = append(out, e.requestRoot(fa.X))
				}
			}
		}
	}
	return out
}

// mapEntry looks in a map literal made in this function for an entry
// whose constant key is one of headers: its value and whether found.
// known is false when the map is not such a literal or has a key that is
// not constant.
func mapEntry(m ssa.Value, headers map[string]bool) (value ssa.Value, found, known bool) {
	return literalEntry(m, func(k string) bool { return headers[textproto.CanonicalMIMEHeaderKey(k)] })
}

// literalEntry looks in a map literal made in this function for the last
// entry whose constant key matches: its value and whether found. known is
// false when the map is not such a literal or has a key that is not
// constant.
func literalEntry(m ssa.Value, match func(key string) bool) (value ssa.Value, found, known bool) {
	mk, ok := ssaval.Unwrap(m).(*ssa.MakeMap)
	if !ok {
		return nil, false, false
	}
	for _, ref := range *mk.Referrers() {
		up, ok := ref.(*ssa.MapUpdate)
		if !ok || up.Map != mk {
			continue
		}
		name, ok := ssaval.ConstString(up.Key)
		if !ok {
			return nil, false, false
		}
		if match(name) {
			value, found = up.Value, true
		}
	}
	return value, found, true
}

// keyOf returns what is known of the key of the request with the given
// roots (and, for resty, the client roots), sent in fn: the key events on
// them in fn, the functions enclosing it, and the functions the roots
// are made in.
func (e *extractor) keyOf(fn *ssa.Function, roots, clients []ssa.Value) (k keyInfo) {
	owned := map[ssa.Value]bool{}
	opaque := false // made where we cannot see: a key set there is unknown
	for _, r := range roots {
		owned[r] = true
		switch x := r.(type) {
		case *ssa.Alloc:
		case *ssa.Call:
			// A request a library makes, or one a function of the
			// user's returns, which may have set a key.
			if site, ok := knowledge.Resolve(x.Common()); (!ok || !e.covered(site.Func.Pkg)) && e.builds(x.Common().StaticCallee()) == nil {
				opaque = true
			}
			if src, ok := bodyKey(e, x); ok {
				k.sets = append(k.sets, src)
			}
		case *ssa.Parameter:
			k.caller = true
		default:
			opaque = true // a request from a field, a map, a phi of several...
		}
	}
	defer func() {
		if opaque && len(k.sets) == 0 {
			k.unknown = true
		}
	}()
	for _, c := range clients {
		owned[c] = true
	}
	scope := map[*ssa.Function]bool{}
	var addScope func(f *ssa.Function, depth int)
	addScope = func(f *ssa.Function, depth int) {
		if f == nil || scope[f] {
			return
		}
		scope[f] = true
		if depth < 3 {
			for _, anon := range f.AnonFuncs {
				addScope(anon, depth+1)
			}
		}
	}
	for f := fn; f != nil; f = f.Parent() {
		addScope(f, 0)
	}
	for v := range owned {
		if instr, ok := v.(ssa.Instruction); ok {
			addScope(instr.Parent(), 0)
		} else if p, ok := v.(*ssa.Parameter); ok {
			addScope(p.Parent(), 0)
		}
	}
	funcs := make([]*ssa.Function, 0, len(scope))
	for f := range scope {
		funcs = append(funcs, f)
	}
	sort.Slice(funcs, func(i, j int) bool {
		if funcs[i].Pos() != funcs[j].Pos() {
			return funcs[i].Pos() < funcs[j].Pos()
		}
		return funcs[i].String() < funcs[j].String()
	})
	for _, f := range funcs {
		for _, ev := range e.keyEvents(f) {
			hit := false
			for _, o := range ev.owners {
				if owned[o] {
					hit = true
				}
			}
			if !hit {
				continue
			}
			if ev.unknown {
				k.unknown = true
			} else {
				k.sets = append(k.sets, ev.src)
			}
		}
	}
	return k
}

// keyValue returns what a key value is made from: the fresh values and
// the parameters it is computed from, following def-use chains backwards
// (through closures' captured variables to the enclosing function, and
// through the locals and struct fields it is stored in), within a budget.
func keyValue(e *extractor, v ssa.Value) keySrc {
	var src keySrc
	seen := map[ssa.Value]bool{}
	budget := 256
	var walk func(v ssa.Value)
	walk = func(v ssa.Value) {
		if v == nil || seen[v] || budget <= 0 {
			return
		}
		seen[v] = true
		budget--
		switch x := v.(type) {
		case *ssa.Const, *ssa.Global, *ssa.Function, *ssa.Builtin, *ssa.MakeClosure:
			return
		case *ssa.Parameter:
			src.params = append(src.params, x)
			return
		case *ssa.FreeVar:
			walk(binding(x))
			return
		case *ssa.Phi:
			src.phis = append(src.phis, x)
		case *ssa.Call:
			if f, ok := freshCall(e, x); ok {
				src.fresh = append(src.fresh, f)
				return
			}
			for _, a := range callOperands(x.Common()) {
				walk(a)
			}
			return
		case *ssa.Alloc:
			walkStored(x, -1, walk, &src, e)
			return
		case *ssa.MakeSlice:
			walkStored(x, -1, walk, &src, e)
			return
		case *ssa.UnOp:
			if x.Op == token.MUL {
				if fa, ok := x.X.(*ssa.FieldAddr); ok {
					if base, ok := fa.X.(*ssa.Alloc); ok {
						walkStored(base, fa.Field, walk, &src, e)
						return
					}
				}
			}
		case *ssa.Field:
			if load, ok := x.X.(*ssa.UnOp); ok && load.Op == token.MUL {
				if base, ok := load.X.(*ssa.Alloc); ok {
					walkStored(base, x.Field, walk, &src, e)
					return
				}
			}
		}
		if instr, ok := v.(ssa.Instruction); ok {
			for _, op := range instr.Operands(nil) {
				if op != nil && *op != nil {
					walk(*op)
				}
			}
		}
	}
	walk(v)
	return src
}

// walkStored walks the values stored in a local (field, when field >= 0,
// else any part of it), and records a fresh-value call that fills it
// (crypto/rand.Read).
func walkStored(base ssa.Value, field int, walk func(ssa.Value), src *keySrc, e *extractor) {
	refs := base.Referrers()
	if refs == nil {
		return
	}
	for _, ref := range *refs {
		switch r := ref.(type) {
		case *ssa.Store:
			if r.Addr == base && field < 0 {
				walk(r.Val)
			}
		case *ssa.FieldAddr:
			if field >= 0 && r.Field != field {
				continue
			}
			for _, use := range *r.Referrers() {
				if st, ok := use.(*ssa.Store); ok && st.Addr == r {
					walk(st.Val)
				}
			}
		case *ssa.IndexAddr:
			for _, use := range *r.Referrers() {
				if st, ok := use.(*ssa.Store); ok && st.Addr == r {
					walk(st.Val)
				}
			}
		case *ssa.Slice:
			walkFilled(r, src, e)
		case ssa.CallInstruction:
			walkFilled(base, src, e)
		}
	}
}

// walkFilled records the fresh-value calls that fill v (rand.Read(v)).
func walkFilled(v ssa.Value, src *keySrc, e *extractor) {
	refs := v.Referrers()
	if refs == nil {
		return
	}
	for _, ref := range *refs {
		call, ok := ref.(ssa.CallInstruction)
		if !ok {
			continue
		}
		site, ok := knowledge.Resolve(call.Common())
		if !ok || site.Row == nil || site.Row.Kind != knowledge.Fresh {
			continue
		}
		if dest := site.RoleArg(knowledge.Dest); dest == v {
			src.fresh = append(src.fresh, freshAt{instr: call, name: CalleeName(site)})
		}
	}
}

// freshCall reports whether a call returns a fresh value: a Fresh row of
// the tables, or a function whose summary says its result is one.
func freshCall(e *extractor, call *ssa.Call) (freshAt, bool) {
	site, ok := knowledge.Resolve(call.Common())
	if ok && site.Row != nil {
		if site.Row.Kind == knowledge.Fresh && site.Row.Result == knowledge.ValueResult {
			return freshAt{instr: call, name: CalleeName(site)}, true
		}
		return freshAt{}, false
	}
	callee := call.Common().StaticCallee()
	if callee == nil {
		return freshAt{}, false
	}
	if callee.Origin() != nil {
		callee = callee.Origin()
	}
	if s := e.summary(callee); s != nil && s.FreshResult {
		name := callee.Name()
		if obj, ok := callee.Object().(*types.Func); ok {
			name = funcName(obj)
		}
		return freshAt{instr: call, name: name}, true
	}
	return freshAt{}, false
}
