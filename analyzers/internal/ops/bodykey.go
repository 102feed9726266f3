package ops

import (
	"go/types"
	"reflect"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/knowledge"
	"github.com/idemlint/idemlint/analyzers/internal/ssaval"
)

// This file finds idempotency keys carried in a request's JSON body (a
// PagerDuty dedup_key, an idempotency_key field), for the requests built
// with net/http's NewRequest from json.Marshal of a map or a struct.

// bodyKey returns the key a request made by call carries in its body,
// when its body is JSON marshalled from a map literal with a key field,
// or from a struct whose key field the code sets.
func bodyKey(e *extractor, call *ssa.Call) (keySrc, bool) {
	site, ok := knowledge.Resolve(call.Common())
	if !ok || site.Row == nil || site.Row.Kind != knowledge.NewRequest {
		return keySrc{}, false
	}
	v := marshalled(site.RoleArg(knowledge.Body))
	if v == nil {
		return keySrc{}, false
	}
	if mk, ok := v.(*ssa.MakeMap); ok {
		for _, ref := range *mk.Referrers() {
			up, ok := ref.(*ssa.MapUpdate)
			if !ok || up.Map != mk {
				continue
			}
			if name, ok := ssaval.ConstString(up.Key); ok && knowledge.BodyKeyFields[name] != "" {
				src := keyValue(e, up.Value)
				src.pos = up.Pos()
				return src, true
			}
		}
		return keySrc{}, false
	}
	// A struct: &T{...} or a T loaded from a local.
	alloc, ok := v.(*ssa.Alloc)
	if load, isLoad := v.(*ssa.UnOp); isLoad {
		alloc, ok = load.X.(*ssa.Alloc)
	}
	if !ok {
		return keySrc{}, false
	}
	st, ok := alloc.Type().(*types.Pointer).Elem().Underlying().(*types.Struct)
	if !ok {
		return keySrc{}, false
	}
	for i := 0; i < st.NumFields(); i++ {
		name, _, _ := strings.Cut(reflect.StructTag(st.Tag(i)).Get("json"), ",")
		if knowledge.BodyKeyFields[name] == "" {
			continue
		}
		if val := FieldValue(alloc, st.Field(i).Name()); val != nil {
			src := keyValue(e, val)
			if instr, ok := val.(ssa.Instruction); ok {
				src.pos = instr.Pos()
			}
			return src, true
		}
	}
	return keySrc{}, false
}

// marshalled returns the value a request body was JSON-encoded from:
// bytes.NewReader(b), bytes.NewBuffer(b) or strings.NewReader(string(b))
// of b from json.Marshal(v) (an Encode of the knowledge tables). Nil
// otherwise.
func marshalled(body ssa.Value) ssa.Value {
	v := ssaval.Unwrap(body)
	for i := 0; i < 4 && v != nil; i++ {
		switch x := v.(type) {
		case *ssa.Convert:
			v = ssaval.Unwrap(x.X)
			continue
		case *ssa.Extract:
			// The encoding of a value: an Encode row of the codec
			// table (json.Marshal).
			call, ok := x.Tuple.(*ssa.Call)
			if !ok || x.Index != 0 {
				return nil
			}
			site, ok := knowledge.Resolve(call.Common())
			if !ok || site.Row == nil || site.Row.Kind != knowledge.Encode || site.RoleArg(knowledge.Value) == nil {
				return nil
			}
			return ssaval.Unwrap(site.RoleArg(knowledge.Value))
		case *ssa.Call:
			if (isFunc(x, "bytes", "NewReader") || isFunc(x, "bytes", "NewBuffer") || isFunc(x, "strings", "NewReader")) && len(x.Call.Args) == 1 {
				v = ssaval.Unwrap(x.Call.Args[0])
				continue
			}
		}
		return nil
	}
	return nil
}

func isFunc(call *ssa.Call, pkg, name string) bool {
	f := call.Call.StaticCallee()
	return f != nil && ssaval.PkgPath(f) == pkg && f.Name() == name && f.Signature.Recv() == nil
}
