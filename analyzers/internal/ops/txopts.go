package ops

import (
	"go/constant"
	"go/token"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/knowledge"
	"github.com/idemlint/idemlint/analyzers/internal/ssaval"
)

// SerializableCallback reports whether root is the transaction parameter
// of a callback that a transaction helper of this package (GORM
// Transaction, bun RunInTx, pgx BeginTxFunc) runs in a transaction begun
// SERIALIZABLE.
func (r *Result) SerializableCallback(root ssa.Value) bool {
	p, ok := root.(*ssa.Parameter)
	if !ok || !r.txParams[p] {
		return false
	}
	fn := p.Parent()
	for _, f := range r.Funcs {
		for _, op := range r.Ops(f) {
			if op.Kind != TxRun || op.Callback != fn || op.CallbackTx < 0 || op.CallbackTx >= len(fn.Params) || fn.Params[op.CallbackTx] != p {
				continue
			}
			if op.Via == "" && serializableRun(op.Instr) {
				return true
			}
		}
	}
	return false
}

// serializableRun reports whether the transaction helper call passes
// options with the SERIALIZABLE isolation level.
func serializableRun(call ssa.CallInstruction) bool {
	site, ok := knowledge.Resolve(call.Common())
	if !ok || site.Row == nil {
		return false
	}
	i, ok := site.Row.Param(knowledge.TxOptions)
	if !ok {
		return false
	}
	vals := []ssa.Value{site.Arg(i)}
	if _, isSlice := site.Arg(i).(*ssa.Slice); isSlice {
		vals, _ = site.Variadic(i)
	}
	for _, v := range vals {
		if v != nil && serializableOptions(v) {
			return true
		}
	}
	return false
}

// serializableOptions reports whether v is a local sql.TxOptions or
// pgx.TxOptions (or a pointer to one) whose isolation is SERIALIZABLE.
func serializableOptions(v ssa.Value) bool {
	v = ssaval.Unwrap(v)
	if load, ok := v.(*ssa.UnOp); ok && load.Op == token.MUL {
		v = load.X
	}
	alloc, ok := v.(*ssa.Alloc)
	if !ok {
		return false
	}
	for _, ref := range *alloc.Referrers() {
		fa, ok := ref.(*ssa.FieldAddr)
		if !ok {
			continue
		}
		f := ssaval.FieldOf(fa)
		if f == nil || (f.Name() != "Isolation" && f.Name() != "IsoLevel") {
			continue
		}
		for _, use := range *fa.Referrers() {
			st, ok := use.(*ssa.Store)
			if !ok {
				continue
			}
			c, ok := ssaval.Unwrap(st.Val).(*ssa.Const)
			if !ok || c.Value == nil {
				continue
			}
			switch c.Value.Kind() {
			case constant.String:
				if constant.StringVal(c.Value) == "serializable" {
					return true
				}
			case constant.Int:
				if n, ok := constant.Int64Val(c.Value); ok && n == 6 && f.Name() == "Isolation" {
					return true
				}
			}
		}
	}
	return false
}

// Serializable reports whether the transaction root was begun with the
// SERIALIZABLE isolation level (sql.TxOptions{Isolation:
// sql.LevelSerializable}, pgx.TxOptions{IsoLevel: pgx.Serializable}).
func Serializable(root ssa.Value) bool {
	call, ok := root.(*ssa.Call)
	if !ok {
		return false
	}
	site, ok := knowledge.Resolve(call.Common())
	if !ok || site.Row == nil || site.Row.Kind != knowledge.Begin {
		return false
	}
	opts := site.RoleArg(knowledge.TxOptions)
	return opts != nil && serializableOptions(opts)
}
