package ops

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/knowledge"
	"github.com/idemlint/idemlint/analyzers/internal/ssaval"
)

// MaxTrace bounds the walks through SSA values, so that no input makes
// the analysis slow.
const MaxTrace = 64

// Root returns the value a database handle comes from, looking through
// conversions, builder chains (GORM's db.Where(...).Clauses(...) is the
// same handle as db), the result of a generated constructor bound to the
// handle it is given (Library.Binds), a local variable stored once, and
// phis whose edges agree. The root is what identifies a transaction: a
// Begin call, a transaction callback's parameter, a parameter of the
// function.
func Root(v ssa.Value) ssa.Value {
	budget := MaxTrace
	return root(v, map[ssa.Value]bool{}, &budget)
}

// root is Root with the values already visited and a budget of steps
// shared by the whole walk, phis included, so that cycles of phis and
// long chains end.
func root(v ssa.Value, seen map[ssa.Value]bool, budget *int) ssa.Value {
	for ; *budget > 0 && v != nil && !seen[v]; *budget-- {
		seen[v] = true
		switch x := v.(type) {
		case *ssa.ChangeType:
			v = x.X
		case *ssa.MakeInterface:
			v = x.X
		case *ssa.ChangeInterface:
			v = x.X // a pgx.Tx passed as an interface of generated code
		case *ssa.TypeAssert:
			v = x.X
		case *ssa.Extract:
			v = x.Tuple
		case *ssa.UnOp:
			stored := storedOnce(x)
			if stored == nil {
				// An ent entity client is a field of the Client or the
				// Tx it was taken from (tx.Account).
				if fa, ok := x.X.(*ssa.FieldAddr); ok && x.Op == token.MUL && entHandle(fa.X.Type()) {
					v = fa.X
					continue
				}
				// A method a handle promotes from the handle it embeds
				// (sqlx's Tx.ExecContext is *sql.Tx's): the same
				// transaction or pool as the outer handle.
				if fa, ok := x.X.(*ssa.FieldAddr); ok && x.Op == token.MUL && embeddedHandle(fa) {
					v = fa.X
					continue
				}
				return v
			}
			v = stored
		case *ssa.FreeVar:
			bound := binding(x)
			if bound == nil {
				return v
			}
			v = bound
		case *ssa.Phi:
			r := phiRoot(x, seen, budget)
			if r == nil {
				return v
			}
			return r
		case *ssa.Call:
			next := chainReceiver(x)
			if next == nil {
				return v
			}
			v = next
		default:
			return v
		}
	}
	return v
}

// chainReceiver returns the handle a call's result continues: the receiver
// of a builder step, or the handle a generated constructor binds. Nil when
// the result is a new value (a transaction from Begin, say).
func chainReceiver(call *ssa.Call) ssa.Value {
	common := call.Common()
	site, ok := knowledge.Resolve(common)
	if ok && site.Row != nil {
		switch {
		case site.Row.Kind == knowledge.Begin || site.Row.Kind == knowledge.Savepoint:
			return nil
		case site.Row.Result == knowledge.ChainResult:
			if recv := site.Receiver(); recv != nil {
				return recv
			}
			if h := site.RoleArg(knowledge.Handle); h != nil { // gorm.G[T](db)
				return h
			}
		case site.Row.Kind == knowledge.NewHandle:
			if h := site.RoleArg(knowledge.Handle); h != nil {
				return h
			}
		}
		return nil
	}
	// An ent builder step (Query, Where, ForUpdate, UpdateOneID, SetX)
	// works on its receiver's handle.
	if fn := common.StaticCallee(); fn != nil && len(common.Args) > 0 && fn.Signature.Recv() != nil {
		if obj, ok := fn.Object().(*types.Func); ok {
			if row, info := knowledge.EntCall(obj); row != nil && info != nil && info.Entity != nil {
				switch row.Kind {
				case knowledge.Chain, knowledge.SetStep, knowledge.AddStep, knowledge.LockStep, knowledge.ConflictStep:
					return common.Args[0]
				}
				if info.Builder == knowledge.EntEntityClient {
					return common.Args[0] // Query(), UpdateOneID(id), Create()...
				}
			}
		}
	}
	// A generated constructor (New(db), q.WithTx(tx)) binds its result
	// to a handle.
	if fn := common.StaticCallee(); fn != nil {
		if i := boundArg(fn); i >= 0 && i < len(common.Args) {
			return common.Args[i]
		}
	}
	return nil
}

// storedOnce returns the value stored in the variable that load reads,
// when the variable (a local, or one a closure captured) is stored exactly
// once and its address goes nowhere else; else nil.
func storedOnce(load *ssa.UnOp) ssa.Value {
	addr := load.X
	if fv, ok := addr.(*ssa.FreeVar); ok {
		addr = binding(fv)
	}
	alloc, ok := addr.(*ssa.Alloc)
	if !ok {
		return nil
	}
	var stored ssa.Value
	for _, ref := range *alloc.Referrers() {
		switch r := ref.(type) {
		case *ssa.Store:
			if r.Addr != alloc || stored != nil {
				return nil
			}
			stored = r.Val
		case *ssa.UnOp, *ssa.DebugRef, *ssa.MakeClosure:
		default:
			return nil
		}
	}
	return stored
}

// binding returns the value a closure's free variable is bound to in the
// function that makes the closure, when exactly one MakeClosure makes it.
func binding(fv *ssa.FreeVar) ssa.Value {
	fn := fv.Parent()
	index := -1
	for i, v := range fn.FreeVars {
		if v == fv {
			index = i
		}
	}
	parent := fn.Parent()
	if index < 0 || parent == nil {
		return nil
	}
	var bound ssa.Value
	for _, b := range parent.Blocks {
		for _, instr := range b.Instrs {
			mc, ok := instr.(*ssa.MakeClosure)
			if !ok || mc.Fn != fn {
				continue
			}
			if bound != nil {
				return nil
			}
			bound = mc.Bindings[index]
		}
	}
	return bound
}

func phiRoot(phi *ssa.Phi, seen map[ssa.Value]bool, budget *int) ssa.Value {
	var found ssa.Value
	for _, e := range phi.Edges {
		if c, ok := e.(*ssa.Const); ok && c.IsNil() {
			continue // the error path's nil
		}
		if seen[e] {
			continue // a loop back to a phi on the way
		}
		r := root(e, seen, budget)
		if *budget <= 0 || (found != nil && r != found) {
			return nil
		}
		found = r
	}
	return found
}

// IsTx reports whether a root is a transaction: a Begin call, or a value
// of a transaction type (a *sql.Tx parameter, a pgx.Tx callback
// parameter). A value whose type may or may not be a transaction
// (*gorm.DB) is a transaction only when it comes from Begin; the caller's
// summary decides for a parameter.
func IsTx(root ssa.Value) bool {
	if root == nil {
		return false
	}
	if call, ok := root.(*ssa.Call); ok {
		if site, ok := knowledge.Resolve(call.Common()); ok && site.Row != nil {
			if site.Row.Kind == knowledge.Begin || site.Row.Kind == knowledge.Savepoint {
				return true
			}
		}
	}
	if t, ok := root.Type().(*types.Tuple); ok {
		// A helper that begins a transaction and returns it (a logging
		// wrapper's Beginx returning its own Tx type).
		if _, isCall := root.(*ssa.Call); isCall {
			for i := 0; i < t.Len(); i++ {
				if isTxType(t.At(i).Type(), 0) {
					return true
				}
			}
		}
		return false
	}
	return isTxType(root.Type(), 0)
}

// isTxType reports whether t is a transaction type of the tables, or a
// struct that embeds one (a wrapper: type TxLogger struct{ *sqlx.Tx }).
func isTxType(t types.Type, depth int) bool {
	if HandleRole(t) == knowledge.TxHandle {
		return true
	}
	if depth > 2 {
		return false
	}
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	if _, ok := types.Unalias(t).(*types.Named); !ok {
		return false
	}
	st, ok := t.Underlying().(*types.Struct)
	if !ok {
		return false
	}
	for i := 0; i < st.NumFields(); i++ {
		if f := st.Field(i); f.Embedded() && isTxType(f.Type(), depth+1) {
			return true
		}
	}
	return false
}

// handleRole returns the role of a handle type from the tables, or the
// generated ent client's.
func HandleRole(t types.Type) knowledge.TypeRole {
	if row := knowledge.TypeOf(t); row != nil {
		return row.Role
	}
	return knowledge.EntType(t)
}

// paramIndex returns the index of p among fn's parameters (receiver
// first, as SSA counts them), or -1.
func paramIndex(fn *ssa.Function, p ssa.Value) int {
	for i, q := range fn.Params {
		if q == p {
			return i
		}
	}
	return -1
}

// embeddedHandle reports whether fa is the address of a handle embedded
// in a handle of the tables (*sql.Tx in *sqlx.Tx, *sql.DB in *sqlx.DB).
func embeddedHandle(fa *ssa.FieldAddr) bool {
	f := ssaval.FieldOf(fa)
	if f == nil || !f.Embedded() {
		return false
	}
	switch HandleRole(fa.X.Type()) {
	case knowledge.TxHandle, knowledge.DBHandle, knowledge.EitherHandle:
	default:
		return false
	}
	return HandleRole(f.Type()) != knowledge.NoTypeRole
}

// entHandle reports whether t is an ent-generated Client or Tx (the
// holders of the entity clients).
func entHandle(t types.Type) bool {
	switch knowledge.EntType(t) {
	case knowledge.TxHandle, knowledge.DBHandle:
		return true
	}
	return false
}
