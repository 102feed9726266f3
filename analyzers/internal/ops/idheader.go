package ops

import (
	"go/token"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/ssaval"
)

// This file reads headers the configuration does not name as keys but
// whose value is an id made for the operation: a delivery id
// (X-Acme-Delivery: uuid.New()), an event id. A receiver deduplicates by
// such an id as by an Idempotency-Key, so what makes it decides a retry:
// made once before the first attempt, the retry is safe; made on every
// attempt, each retry is a new operation. A header whose value is
// anything else (a token, a content type) is not a key, whatever it
// carries.
//
// The header's value may be a parameter (a helper given the id): then
// the caller decides, and the fact says so (Send.KeyIfFresh,
// ParamKey.IfFresh).

// idValue reports whether a value made as src is an id: a fresh value,
// or a parameter's (pending: its caller's).
func idValue(src keySrc) bool {
	return len(src.fresh) > 0 || len(src.params) > 0
}

// isID reports whether v is a fresh value or a parameter itself, or one
// of them changed in form only: a conversion, its String(), a constant
// prefix (evt_ + uuid.NewString()). A value computed from fields or from
// several values (a token, "Bearer " + d.token) is not.
func isID(e *extractor, v ssa.Value, depth int) bool {
	if depth > 4 {
		return false
	}
	switch x := v.(type) {
	case *ssa.Parameter:
		return true
	case *ssa.FreeVar:
		return isID(e, binding(x), depth+1)
	case *ssa.ChangeType:
		return isID(e, x.X, depth+1)
	case *ssa.Convert:
		return isID(e, x.X, depth+1)
	case *ssa.MakeInterface:
		return isID(e, x.X, depth+1)
	case *ssa.Phi:
		for _, ed := range x.Edges {
			if !isID(e, ed, depth+1) {
				return false
			}
		}
		return len(x.Edges) > 0
	case *ssa.BinOp:
		if x.Op != token.ADD {
			return false
		}
		_, lc := x.X.(*ssa.Const)
		_, rc := x.Y.(*ssa.Const)
		return (lc && isID(e, x.Y, depth+1)) || (rc && isID(e, x.X, depth+1))
	case *ssa.Call:
		if _, ok := freshCall(e, x); ok {
			return true
		}
		// Its text: uuid.New().String(), strconv.FormatInt(n, 10),
		// fmt.Sprint(id); not a function of the program's (a signature
		// of the body is no id).
		common := x.Common()
		if common.IsInvoke() || len(common.Args) == 0 {
			return false
		}
		callee := common.StaticCallee()
		if callee == nil {
			return false
		}
		if sig := callee.Signature; sig.Recv() != nil && len(common.Args) == 1 && sig.Results().Len() == 1 {
			return isID(e, common.Args[0], depth+1) // a method of the id's type: id.String()
		}
		switch ssaval.PkgPath(callee) {
		case "strconv", "fmt", "strings":
		default:
			return false
		}
		ids := 0
		for _, a := range common.Args {
			if _, isConst := a.(*ssa.Const); isConst {
				continue
			}
			if s, ok := a.(*ssa.Slice); ok {
				for _, op := range SliceValues(s) {
					if !isID(e, op, depth+1) {
						return false
					}
					ids++
				}
				continue
			}
			if !isID(e, a, depth+1) {
				return false
			}
			ids++
		}
		return ids == 1
	}
	return false
}

// idEvent adds to out the key event of a header not named as a key, set
// on owners to v: when v is an id.
func idEvent(out *[]keyEvent, owners []ssa.Value, e *extractor, v ssa.Value, pos token.Pos) {
	if len(owners) == 0 || v == nil {
		return
	}
	if !isID(e, v, 0) {
		return
	}
	src := keyValue(e, v)
	if !idValue(src) {
		return
	}
	src.ifFresh, src.pos = true, pos
	*out = append(*out, keyEvent{owners: owners, src: src})
}

// keySets returns the key values of a request that count where it is
// sent: those of headers named as keys, and the id headers whose value
// is fresh. pending is set when only id headers set from parameters
// remain: they count if the caller passes a fresh id.
func keySets(sets []keySrc) (out []keySrc, pending bool) {
	var params []keySrc
	for _, s := range sets {
		switch {
		case !s.ifFresh || len(s.fresh) > 0:
			out = append(out, s)
		case len(s.params) > 0:
			params = append(params, s)
		}
	}
	if len(out) > 0 {
		return out, false
	}
	return params, len(params) > 0
}
