package ops

import (
	"go/token"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/knowledge"
	"github.com/idemlint/idemlint/analyzers/internal/ssaval"
)

// maxDerive bounds the values DerivedFrom visits.
const maxDerive = 96

// DerivedFrom follows v's def-use chain backwards through arithmetic,
// conversions, phis, calls on it (their arguments, builtins such as
// append included), struct fields and loads of locals (through the
// stores into them), and returns the first load whose address match
// accepts, or nil. An SQL expression value (gorm.Expr), a fresh value
// (time.Now) and the result of a database call end a path: what they
// return is not the Go value computed. A field of a struct a function of
// the package converted from a read row is followed to the row's field
// (ConvertedChain).
func DerivedFrom(v ssa.Value, match func(addr ssa.Value) bool) *ssa.UnOp {
	return derivedFrom(v, match, 0).Load
}

// A Derivation is the load DerivedFrom found and the values between it
// and the value derived, for the codec round trips on the way
// (CodecChange).
type Derivation struct {
	Load *ssa.UnOp
	// Path runs from the value derived back to the load's address.
	Path []ssa.Value
	// Decoded is the index in Path of each value that a Decode filled
	// (the Dest), its encoding the next value of Path.
	Decoded map[int]*ssa.Call
}

// DerivationOf is DerivedFrom with the path it took.
func DerivationOf(v ssa.Value, match func(addr ssa.Value) bool) Derivation {
	return derivedFrom(v, match, 0)
}

func derivedFrom(v ssa.Value, match func(addr ssa.Value) bool, depth int) Derivation {
	seen := map[ssa.Value]bool{}
	// parent is the value each one was reached from; decodes the Decode
	// call by which an encoding was reached from the value it filled.
	parent := map[ssa.Value]ssa.Value{}
	decodes := map[ssa.Value]*ssa.Call{}
	start := v
	found := func(load *ssa.UnOp, at ssa.Value) Derivation {
		d := Derivation{Load: load, Decoded: map[int]*ssa.Call{}}
		for x := at; x != nil; x = parent[x] {
			d.Path = append(d.Path, x)
			if x == start {
				break
			}
		}
		for i, j := 0, len(d.Path)-1; i < j; i, j = i+1, j-1 {
			d.Path[i], d.Path[j] = d.Path[j], d.Path[i]
		}
		for i, x := range d.Path {
			if call := decodes[x]; call != nil && i > 0 {
				d.Decoded[i-1] = call
			}
		}
		return d
	}
	work := []ssa.Value{v}
	push := func(from ssa.Value, vs ...ssa.Value) {
		for _, x := range vs {
			if x != nil && !seen[x] {
				if _, ok := parent[x]; !ok && x != start {
					parent[x] = from
				}
				work = append(work, x)
			}
		}
	}
	for len(work) > 0 && len(seen) < maxDerive {
		v := work[len(work)-1]
		work = work[:len(work)-1]
		if v == nil || seen[v] {
			continue
		}
		seen[v] = true
		switch x := v.(type) {
		case *ssa.UnOp:
			if x.Op == token.MUL {
				if val := lastStore(x); val != nil {
					// The load reads what the code stored just
					// before it, not what a read wrote earlier
					// (if s == "" { s = newCode(); write(s) }).
					push(v, val)
					continue
				}
				if match(x.X) || matchConverted(x.X, match, depth) {
					return found(x, x)
				}
				push(v, storedInto(x.X)...)
				push(v, decodedInto(x.X, decodes, x)...)
				if fa, ok := x.X.(*ssa.FieldAddr); ok {
					// A field of a struct the read filled whole (a
					// sql.NullString's String).
					push(v, fa.X)
				}
				continue
			}
			push(v, x.X)
		case *ssa.BinOp:
			push(v, x.X, x.Y)
		case *ssa.Convert:
			push(v, x.X)
		case *ssa.ChangeType:
			push(v, x.X)
		case *ssa.MakeInterface:
			push(v, x.X)
		case *ssa.ChangeInterface:
			push(v, x.X)
		case *ssa.Field:
			// A field of a struct value (a row a generics finder
			// returned): its own "address".
			if match(x) || matchConverted(x, match, depth) {
				return found(&ssa.UnOp{Op: token.MUL, X: x}, x)
			}
			push(v, x.X)
		case *ssa.Slice:
			push(v, x.X)
		case *ssa.Extract:
			push(v, x.Tuple)
		case *ssa.Phi:
			push(v, x.Edges...)
		case *ssa.Lookup:
			// An entry of a map: the values stored into it.
			push(v, x.X)
			push(v, mapValues(x.X)...)
		case *ssa.Next:
			push(v, x.Iter)
		case *ssa.Range:
			push(v, x.X)
			push(v, mapValues(x.X)...)
		case *ssa.Index:
			push(v, x.X)
		case *ssa.Call:
			// A value a library read returns (a Redis GET's Result,
			// Int64, Val) is its own address, as a Field is.
			if match(x) {
				return found(&ssa.UnOp{Op: token.MUL, X: x}, x)
			}
			site, ok := knowledge.Resolve(x.Common())
			if ok && site.Row != nil &&
				(site.Row.Kind == knowledge.Expr || site.Row.Kind == knowledge.Fresh || site.Row.Kind.IsDatabase()) {
				continue
			}
			if ok && site.Row != nil && site.Row.Kind == knowledge.Encode {
				// The encoding of its Value, not of its options.
				push(v, site.RoleArg(knowledge.Value))
				continue
			}
			push(v, x.Common().Args...)
			if x.Common().IsInvoke() {
				push(v, x.Common().Value)
			}
		case *ssa.FieldAddr, *ssa.IndexAddr, *ssa.Alloc:
			// An address passed on (append's slice, a pointer
			// receiver): its loads are the value.
			if match(v) {
				return found(&ssa.UnOp{Op: token.MUL, X: v}, v)
			}
			push(v, storedInto(v)...)
			push(v, decodedInto(v, decodes, nil)...)
		}
	}
	return Derivation{}
}

// matchConverted reports whether match accepts an argument field that
// the field address (or field) addr was converted from.
func matchConverted(addr ssa.Value, match func(addr ssa.Value) bool, depth int) bool {
	for _, src := range convertedFrom(addr, depth) {
		// A conversion of a conversion (a callback's result of the
		// row a record was converted to) is followed to its row.
		if match(src) || matchConverted(src, match, depth+1) {
			return true
		}
	}
	return false
}

// storedInto returns the values stored into the local address addr (an
// Alloc, or a field of one), which a load of it may read.
func storedInto(addr ssa.Value) []ssa.Value {
	switch addr.(type) {
	case *ssa.Alloc, *ssa.FieldAddr:
	default:
		return nil
	}
	refs := addr.Referrers()
	if refs == nil {
		return nil
	}
	var out []ssa.Value
	for _, ref := range *refs {
		if st, ok := ref.(*ssa.Store); ok && st.Addr == addr {
			out = append(out, st.Val)
		}
	}
	return out
}

// SameAddr reports whether a and b are the same address: one local, or
// the same field path from one.
func SameAddr(a, b ssa.Value) bool {
	a, b = ssaval.Unwrap(a), ssaval.Unwrap(b)
	if a == b {
		return true
	}
	fa, ok1 := a.(*ssa.FieldAddr)
	fb, ok2 := b.(*ssa.FieldAddr)
	if ok1 && ok2 {
		return fa.Field == fb.Field && SameAddr(fa.X, fb.X)
	}
	// A field of a struct value (a row a query method returned).
	va, ok1 := a.(*ssa.Field)
	vb, ok2 := b.(*ssa.Field)
	if ok1 && ok2 {
		return va.Field == vb.Field && SameAddr(va.X, vb.X)
	}
	return false
}

// maxStoreScan bounds the instructions lastStore looks back over.
const maxStoreScan = 64

// lastStore returns the value that load certainly reads: the value of a
// store to the same local address found by walking back from the load
// through its block and single predecessors, with no call in between
// (which may write it). Nil when there is none.
func lastStore(load *ssa.UnOp) ssa.Value {
	addr := load.X
	switch addr.(type) {
	case *ssa.Alloc, *ssa.FieldAddr:
	default:
		return nil
	}
	b := load.Block()
	if b == nil {
		return nil
	}
	i := indexOf(b, load)
	for steps := 0; b != nil && steps < maxStoreScan; {
		for i--; i >= 0 && steps < maxStoreScan; i-- {
			steps++
			switch x := b.Instrs[i].(type) {
			case *ssa.Store:
				if SameAddr(x.Addr, addr) {
					return x.Val
				}
			case ssa.CallInstruction:
				// Any call may write the local through a
				// pointer it was given earlier (Scan(&v)).
				return nil
			}
		}
		if len(b.Preds) != 1 {
			return nil
		}
		b = b.Preds[0]
		i = len(b.Instrs)
	}
	return nil
}
