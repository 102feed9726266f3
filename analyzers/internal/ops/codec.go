package ops

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/knowledge"
	"github.com/idemlint/idemlint/analyzers/internal/ssaval"
)

// A value read from a column may reach the write through an encoding
// round trip: the bytes of a JSON column decoded into a map or struct,
// the map changed in place, and the map encoded again for the UPDATE.
// DerivedFrom follows the encoding back to what was decoded (Encode's
// Value) and the decoded value back to the bytes (a Decode's Encoded
// argument, or its receiver's reader) through the knowledge tables' codec
// rows. The round trip itself changes nothing: whether the value written
// differs from the one read is said by what the code did to the decoded
// value in between (CodecChange).

// decodedInto returns the encodings a Decode call fills the address addr
// from (json.Unmarshal(b, &m): b), recording each call in decodes. With
// at, the load of addr being followed, a Decode whose value a later store
// of the whole variable replaces on every path to at (conf = Config{...}
// from the request after the Unmarshal) is not what at reads.
func decodedInto(addr ssa.Value, decodes map[ssa.Value]*ssa.Call, at ssa.Instruction) []ssa.Value {
	var out []ssa.Value
	for _, call := range decodesOf(addr) {
		if at != nil && replacedAfter(addr, call, at) {
			continue
		}
		site, _ := knowledge.Resolve(call.Common())
		src := site.RoleArg(knowledge.Encoded)
		if _, ok := site.Row.Param(knowledge.Encoded); !ok {
			src = site.Receiver()
		}
		if src != nil {
			if _, dup := decodes[src]; !dup {
				decodes[src] = call
			}
			out = append(out, src)
		}
	}
	return out
}

// decodesOf returns the Decode calls whose Dest is addr.
func decodesOf(addr ssa.Value) []*ssa.Call {
	refs := addr.Referrers()
	if refs == nil {
		return nil
	}
	var out []*ssa.Call
	visit := func(ref ssa.Instruction) {
		call, ok := ref.(*ssa.Call)
		if !ok {
			return
		}
		site, ok := knowledge.Resolve(call.Common())
		if !ok || site.Row == nil || site.Row.Kind != knowledge.Decode {
			return
		}
		if dest := site.RoleArg(knowledge.Dest); dest != nil && ssaval.Unwrap(dest) == addr {
			out = append(out, call)
		}
	}
	for _, ref := range *refs {
		if mi, ok := ref.(*ssa.MakeInterface); ok && mi.Referrers() != nil {
			for _, r := range *mi.Referrers() {
				visit(r)
			}
			continue
		}
		visit(ref)
	}
	return out
}

// mapValues returns the values stored into the map m (m[k] = v), on m
// itself or on another load of the local it was loaded from or stored
// into.
func mapValues(m ssa.Value) []ssa.Value {
	var out []ssa.Value
	for _, same := range sameMaps(m) {
		if refs := same.Referrers(); refs != nil {
			for _, ref := range *refs {
				if up, ok := ref.(*ssa.MapUpdate); ok && up.Map == same {
					out = append(out, up.Value)
				}
			}
		}
	}
	return out
}

// sameMaps returns m and the other values that are the same map: loads
// of the local m was loaded from or stored into.
func sameMaps(m ssa.Value) []ssa.Value {
	out := []ssa.Value{m}
	var addrs []ssa.Value
	if load, ok := m.(*ssa.UnOp); ok && load.Op == token.MUL {
		if _, isAlloc := load.X.(*ssa.Alloc); isAlloc {
			addrs = append(addrs, load.X)
		}
	}
	if refs := m.Referrers(); refs != nil {
		for _, ref := range *refs {
			if st, ok := ref.(*ssa.Store); ok && st.Val == m {
				if _, isAlloc := st.Addr.(*ssa.Alloc); isAlloc {
					addrs = append(addrs, st.Addr)
				}
			}
		}
	}
	for _, addr := range addrs {
		for _, ref := range *addr.Referrers() {
			if load, ok := ref.(*ssa.UnOp); ok && load.Op == token.MUL && load != m {
				out = append(out, load)
			}
		}
	}
	return out
}

// maxChangeDepth bounds the helpers CodecChange looks into.
const maxChangeDepth = 3

// CodecChange says how the value written differs from the column read
// when the derivation d went through a Decode of it: a decoded value
// (the map or struct filled, an entry or a copy of it on the way to the
// Encode) changed in place between the read at read and the write at at
// (an entry set or deleted, a field or element stored, a helper of the
// package given it that does so), or a value computed on the way, is
// Computed; otherwise, the round trip alone, Unchanged. ok is false when
// d crossed no Decode: ChangeOf says.
func CodecChange(d Derivation, read, at ssa.Instruction) (change FieldChange, ok bool) {
	dest := -1
	for i := range d.Decoded {
		if i > dest {
			dest = i
		}
	}
	if dest < 0 {
		return FieldChange{}, false
	}
	// The decoded values: from the Decode's Dest down to the value the
	// nearest Encode encodes.
	from := 0
	for i := dest; i >= 0; i-- {
		if call, isCall := d.Path[i].(*ssa.Call); isCall {
			if site, ok := knowledge.Resolve(call.Common()); ok && site.Row != nil && site.Row.Kind == knowledge.Encode {
				from = i + 1
				break
			}
		}
	}
	for _, v := range d.Path {
		if _, isBin := v.(*ssa.BinOp); isBin {
			return FieldChange{Kind: Computed}, true
		}
	}
	decoded := map[ssa.Value]bool{}
	for _, v := range d.Path[from : dest+1] {
		for _, same := range sameMaps(v) {
			decoded[same] = true
		}
		if load, ok := v.(*ssa.UnOp); ok && load.Op == token.MUL {
			decoded[load.X] = true
			v = load.X
		}
		if alloc, ok := v.(*ssa.Alloc); ok {
			decoded[alloc] = true
			for _, ref := range *alloc.Referrers() {
				if load, ok := ref.(*ssa.UnOp); ok && load.Op == token.MUL {
					decoded[load] = true
				}
			}
		}
	}
	fn := at.Parent()
	if fn == nil {
		return FieldChange{Kind: Computed}, true
	}
	in := func(v ssa.Value) bool { return decoded[ssaval.Unwrap(v)] }
	between := func(x ssa.Instruction) bool {
		return x != read && x != at && Reaches(read, x, nil) && Reaches(x, at, nil)
	}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if changesDecoded(instr, in, 0) && between(instr) {
				return FieldChange{Kind: Computed}, true
			}
		}
	}
	return FieldChange{Kind: Unchanged}, true
}

// changesDecoded reports whether instr changes in place a value in
// reports true of: sets or deletes an entry of it, stores into a field
// or element of it, or gives it to a function of the package that does.
// Storing a decoded value into another (an entry of a map of decoded
// documents) moves it, it does not change it.
func changesDecoded(instr ssa.Instruction, in func(ssa.Value) bool, depth int) bool {
	switch x := instr.(type) {
	case *ssa.MapUpdate:
		return in(x.Map) && !in(x.Value)
	case *ssa.Store:
		return in(addrRoot(x.Addr)) && x.Addr != addrRoot(x.Addr) && !in(x.Val)
	case *ssa.Call:
		c := x.Common()
		if b, ok := c.Value.(*ssa.Builtin); ok {
			return b.Name() == "delete" && in(c.Args[0])
		}
		callee := c.StaticCallee()
		if callee == nil || len(callee.Blocks) == 0 || depth >= maxChangeDepth {
			return false
		}
		for i, arg := range c.Args {
			if i < len(callee.Params) && in(arg) && paramChanged(callee.Params[i], depth+1) {
				return true
			}
		}
	}
	return false
}

// paramChanged reports whether the function changes in place what its
// parameter p refers to (a map, a pointer's struct, a slice's elements).
func paramChanged(p *ssa.Parameter, depth int) bool {
	same := map[ssa.Value]bool{p: true}
	// A parameter a closure captures lives in a local.
	for _, ref := range *p.Referrers() {
		if st, ok := ref.(*ssa.Store); ok && st.Val == p {
			if alloc, ok := st.Addr.(*ssa.Alloc); ok {
				for _, r := range *alloc.Referrers() {
					if load, ok := r.(*ssa.UnOp); ok && load.Op == token.MUL {
						same[load] = true
					}
				}
			}
		}
	}
	in := func(v ssa.Value) bool { return same[ssaval.Unwrap(v)] }
	for _, b := range p.Parent().Blocks {
		for _, instr := range b.Instrs {
			if changesDecoded(instr, in, depth) {
				return true
			}
		}
	}
	return false
}

// addrRoot strips field and element addressing from addr: the struct,
// slice or pointer whose part addr is.
func addrRoot(addr ssa.Value) ssa.Value {
	for range MaxTrace {
		switch x := addr.(type) {
		case *ssa.FieldAddr:
			addr = x.X
		case *ssa.IndexAddr:
			addr = x.X
		default:
			return addr
		}
	}
	return addr
}

// replacedAfter reports whether a store of the whole variable at addr
// runs after call and before at on every path (dominated by the one,
// dominating the other).
func replacedAfter(addr ssa.Value, call *ssa.Call, at ssa.Instruction) bool {
	refs := addr.Referrers()
	if refs == nil {
		return false
	}
	between := func(st *ssa.Store) bool { return dominates(call, st) && dominates(st, at) }
	fields := map[int]bool{}
	for _, ref := range *refs {
		switch x := ref.(type) {
		case *ssa.Store:
			if x.Addr == addr && between(x) {
				return true
			}
		case *ssa.FieldAddr:
			// A literal assigned in place stores each field.
			for _, use := range *x.Referrers() {
				if st, ok := use.(*ssa.Store); ok && st.Addr == x && between(st) {
					fields[x.Field] = true
				}
			}
		}
	}
	ptr, ok := addr.Type().Underlying().(*types.Pointer)
	if !ok {
		return false
	}
	st, ok := ptr.Elem().Underlying().(*types.Struct)
	return ok && st.NumFields() > 0 && len(fields) == st.NumFields()
}
