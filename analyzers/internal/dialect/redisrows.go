package dialect

import (
	"go/constant"
	"go/token"
	"go/types"
	"strconv"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/knowledge"
	"github.com/idemlint/idemlint/analyzers/internal/ops"
	"github.com/idemlint/idemlint/analyzers/internal/ssaval"
)

const (
	goRedisV9 = "github.com/redis/go-redis/v9"
	goRedisV8 = "github.com/go-redis/redis/v8"
)

// A redisKeyRow is a key as a row: Table is its pattern, the constant
// parts with * for each variable one ("user:*:cart"), and Keys the
// variable parts, one column per position ("key" for one, "key1",
// "key2"... for more). Two keys built the same way from the same values
// are the same row (ops.SameKey of each part).
type redisKeyRow struct {
	table string
	keys  []ops.KeyValue
	// parts are the key's parts in order, constants and variables.
	parts []ssa.Value
}

// redisKey reads a key argument: a constant, a concatenation ("user:" +
// id), a fmt.Sprintf with a constant format ("user:%s", id), or a value
// it cannot look into (a parameter, a helper's result), which is one
// variable part. A key with no variable part is a constant key: one row
// for every caller.
func redisKey(v ssa.Value) redisKeyRow {
	var parts []ssa.Value
	var flatten func(v ssa.Value, depth int)
	flatten = func(v ssa.Value, depth int) {
		v = ssaval.Unwrap(v)
		if b, ok := v.(*ssa.BinOp); ok && b.Op == token.ADD && depth < 16 {
			flatten(b.X, depth+1)
			flatten(b.Y, depth+1)
			return
		}
		if sp := sprintfParts(v); sp != nil {
			for _, p := range sp {
				flatten(p, depth+1)
			}
			return
		}
		if body, args := keyHelper(v); body != nil && depth < 8 {
			// The helper's key with the caller's arguments for its
			// parameters.
			for _, p := range redisKey(body).parts {
				if param, ok := p.(*ssa.Parameter); ok && param.Parent() == body.Parent() {
					p = args[paramIndex(param)]
				}
				flatten(p, depth+1)
			}
			return
		}
		parts = append(parts, v)
	}
	flatten(v, 0)
	var table strings.Builder
	var vars []ssa.Value
	for _, p := range parts {
		if s, ok := ssaval.ConstString(p); ok {
			table.WriteString(s)
			continue
		}
		table.WriteByte('*')
		vars = append(vars, p)
	}
	k := redisKeyRow{table: table.String(), parts: parts}
	for i, v := range vars {
		col := "key"
		if len(vars) > 1 {
			col += strconv.Itoa(i + 1)
		}
		k.keys = append(k.keys, ops.KeyValue{Column: col, Value: v})
	}
	return k
}

// keyHelper returns, for a call of a function of the user's with one
// return of a string built from its parameters and constants (func
// cartKey(id string) string { return "cart:" + id }), that returned value
// and the call's arguments; nil otherwise.
func keyHelper(v ssa.Value) (ssa.Value, []ssa.Value) {
	call, ok := v.(*ssa.Call)
	if !ok {
		return nil, nil
	}
	callee := call.Common().StaticCallee()
	if callee == nil || len(callee.Blocks) == 0 || callee.Signature.Results().Len() != 1 || len(callee.FreeVars) > 0 {
		return nil, nil
	}
	var ret ssa.Value
	for _, b := range callee.Blocks {
		if r, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return); ok {
			if ret != nil {
				return nil, nil
			}
			ret = r.Results[0]
		}
	}
	if ret == nil {
		return nil, nil
	}
	for _, p := range redisKey(ret).parts {
		switch x := p.(type) {
		case *ssa.Const:
		case *ssa.Parameter:
			if x.Parent() != callee {
				return nil, nil
			}
		default:
			return nil, nil
		}
	}
	return ret, call.Common().Args
}

// paramIndex is the index of a parameter among its function's.
func paramIndex(p *ssa.Parameter) int {
	for i, q := range p.Parent().Params {
		if q == p {
			return i
		}
	}
	return -1
}

// sprintfParts splits fmt.Sprintf(format, args...) with a constant
// format into its constant text and its arguments, one per verb; nil
// for any other value, or a format it cannot follow (%*d, %[2]s).
func sprintfParts(v ssa.Value) []ssa.Value {
	call, ok := v.(*ssa.Call)
	if !ok {
		return nil
	}
	callee := call.Common().StaticCallee()
	if callee == nil || ssaval.PkgPath(callee) != "fmt" || callee.Name() != "Sprintf" || len(call.Common().Args) != 2 {
		return nil
	}
	format, ok := ssaval.ConstString(call.Common().Args[0])
	if !ok {
		return nil
	}
	args := ops.SliceValues(call.Common().Args[1])
	var parts []ssa.Value
	lit := func(s string) {
		if s != "" {
			parts = append(parts, ssa.NewConst(constant.MakeString(s), types.Typ[types.String]))
		}
	}
	var text strings.Builder
	for i := 0; i < len(format); i++ {
		if format[i] != '%' {
			text.WriteByte(format[i])
			continue
		}
		j := i + 1
		for j < len(format) && strings.IndexByte("+-# 0123456789.", format[j]) >= 0 {
			j++
		}
		if j >= len(format) || format[j] == '*' || format[j] == '[' {
			return nil
		}
		if format[j] == '%' {
			text.WriteByte('%')
			i = j
			continue
		}
		if len(args) == 0 {
			return nil
		}
		lit(text.String())
		text.Reset()
		parts = append(parts, args[0])
		args = args[1:]
		i = j
	}
	lit(text.String())
	return parts
}

// redisRow classifies GET as the lookup of its key, found nothing when
// its error is redis.Nil, and SET as an insert of its key when what it
// stores claims the key for the caller: a constant ("1", "processing"),
// or a value the caller passed in (a parameter, a field of one). A SET
// of a value the function computed or fetched after the GET missed is a
// cache fill (cache-aside): two callers filling the same key store the
// same thing, and nothing is lost. A constant key is one row for every
// caller (a startup flag), no lookup or insert of a request's own key.
func redisRow(site knowledge.Site) *ops.RowOp {
	recv := site.Receiver()
	key := site.RoleArg(knowledge.Key)
	if recv == nil || key == nil {
		return nil
	}
	k := redisKey(key)
	if len(k.keys) == 0 {
		return nil
	}
	op := &ops.RowOp{Lib: "redis", FromLibrary: true, NilResult: -1, Table: k.table, Keys: k.keys, Handle: ops.Root(recv)}
	switch site.Row.Kind {
	case knowledge.Find:
		op.Kind, op.Desc = ops.Lookup, "the GET of "+k.table
	case knowledge.Save:
		if !claimsKey(site.RoleArg(knowledge.Value), 0) {
			return nil
		}
		op.Kind, op.Desc = ops.Insert, "the SET of "+k.table
	default:
		return nil
	}
	return op
}

// claimsKey reports whether a value SET stores is one that claims the
// key: a constant, a parameter or a field of one, or a conversion of
// such a value (strconv.Itoa(userID), fmt.Sprint(orderID)).
func claimsKey(v ssa.Value, depth int) bool {
	if v == nil || depth > 4 {
		return false
	}
	switch x := ssaval.Unwrap(v).(type) {
	case *ssa.Const, *ssa.Parameter, *ssa.FreeVar:
		return true
	case *ssa.Field:
		return claimsKey(x.X, depth+1)
	case *ssa.UnOp:
		if fa, ok := x.X.(*ssa.FieldAddr); ok && x.Op == token.MUL {
			return claimsKey(fa.X, depth+1)
		}
		return x.Op == token.MUL && claimsKey(x.X, depth+1)
	case *ssa.Convert:
		return claimsKey(x.X, depth+1)
	case *ssa.Call:
		callee := x.Common().StaticCallee()
		if callee == nil {
			return false
		}
		switch pkg := ssaval.PkgPath(callee); {
		case pkg == "strconv" && strings.HasPrefix(callee.Name(), "Format") || pkg == "strconv" && callee.Name() == "Itoa",
			pkg == "fmt" && (callee.Name() == "Sprint" || callee.Name() == "Sprintf"):
		default:
			return false
		}
		args := x.Common().Args
		if ssaval.PkgPath(callee) == "fmt" {
			args = ops.SliceValues(args[len(args)-1])
		}
		for _, a := range args {
			if _, isConst := ssaval.Unwrap(a).(*ssa.Const); isConst {
				continue
			}
			if !claimsKey(a, depth+1) {
				return false
			}
		}
		return len(args) > 0
	}
	return false
}

// redisRead makes the read of GET: the key's value, in what each of the
// returned *StringCmd's readers gives (Result, Int64, Val...; Scan's
// destination). A GET on the Tx of a Watch callback is no read a write
// can lose: the EXEC of its TxPipelined fails when the key changed.
func redisRead(call *ssa.Call, site knowledge.Site) *ops.ColumnRead {
	if site.Row.Kind != knowledge.Find || onWatchTx(site.Receiver()) {
		return nil
	}
	recv, key := site.Receiver(), site.RoleArg(knowledge.Key)
	if recv == nil || key == nil {
		return nil
	}
	k := redisKey(key)
	rd := &ops.ColumnRead{Instr: call, Table: k.table, Keys: k.keys, Handle: ops.Root(recv), Lib: "redis", Desc: "the GET of " + k.table}
	for _, ref := range *call.Referrers() {
		c, ok := ref.(*ssa.Call)
		if !ok {
			continue
		}
		s, ok := knowledge.Resolve(c.Common())
		if !ok || s.Row == nil || s.Row.Kind != knowledge.Scan || s.Receiver() != ssa.Value(call) {
			continue
		}
		addr := ssa.Value(c) // the value it returns is its own address
		if d := s.RoleArg(knowledge.Dest); d != nil {
			addr = ssaval.Unwrap(d)
		}
		rd.Cols = append(rd.Cols, ops.ReadCol{Column: "value", Addr: addr})
	}
	if len(rd.Cols) == 0 {
		return nil
	}
	return rd
}

// redisWrites makes the write of SET: the key's whole value.
func redisWrites(_ *ssa.Function, call *ssa.Call, site knowledge.Site) []*ops.ColumnWrite {
	if site.Row.Kind != knowledge.Save {
		return nil
	}
	recv, key, val := site.Receiver(), site.RoleArg(knowledge.Key), site.RoleArg(knowledge.Value)
	if recv == nil || key == nil || val == nil {
		return nil
	}
	k := redisKey(key)
	return []*ops.ColumnWrite{{Instr: call, Table: k.table, Keys: k.keys, Column: "value", Value: ssaval.Unwrap(val),
		Handle: ops.Root(recv), Lib: "redis", Keyed: true, Desc: "the SET of " + k.table}}
}

// onWatchTx reports whether a command's receiver is a *redis.Tx (the
// cmdable it embeds, for a promoted call).
func onWatchTx(recv ssa.Value) bool {
	if recv == nil {
		return false
	}
	v := recv
	if load, ok := v.(*ssa.UnOp); ok && load.Op == token.MUL {
		if fa, ok := load.X.(*ssa.FieldAddr); ok {
			v = fa.X
		}
	}
	t := v.Type()
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	named, ok := types.Unalias(t).(*types.Named)
	return ok && named.Obj().Pkg() != nil && (named.Obj().Pkg().Path() == goRedisV9 || named.Obj().Pkg().Path() == goRedisV8) && named.Obj().Name() == "Tx"
}
