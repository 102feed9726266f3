package ops

import (
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// EntityResult returns the entity a finder call returns (ent's Get, Only
// or First, GORM generics' First): result 0 of the tuple, or the value of
// an X variant.
func EntityResult(call *ssa.Call) ssa.Value {
	if _, ok := call.Type().(*types.Tuple); !ok {
		return call
	}
	for _, ref := range *call.Referrers() {
		if ex, ok := ref.(*ssa.Extract); ok && ex.Index == 0 {
			return ex
		}
	}
	return nil
}
