package ops

import (
	"golang.org/x/tools/go/ssa"
)

// SliceValues returns the values stored in a variadic slice built in
// place, or nil.
func SliceValues(v ssa.Value) []ssa.Value {
	slice, ok := v.(*ssa.Slice)
	if !ok {
		return nil
	}
	alloc, ok := slice.X.(*ssa.Alloc)
	if !ok {
		return nil
	}
	var out []ssa.Value
	for _, ref := range *alloc.Referrers() {
		addr, ok := ref.(*ssa.IndexAddr)
		if !ok {
			continue
		}
		for _, use := range *addr.Referrers() {
			if st, ok := use.(*ssa.Store); ok && st.Addr == addr {
				out = append(out, st.Val)
			}
		}
	}
	return out
}

// An entStep is one call of an ent-generated builder chain.
