package dialect

import (
	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/knowledge"
	"github.com/idemlint/idemlint/analyzers/internal/ops"
)

// entOps classifies a call of a method of an ent-generated client.
func entOps(call ssa.CallInstruction, site knowledge.Site, row *knowledge.Call, info *knowledge.EntInfo) []*ops.Op {
	handle := func() ssa.Value {
		if recv := site.Receiver(); recv != nil {
			return ops.Root(recv)
		}
		return nil
	}
	table := ""
	if info != nil && info.Entity != nil {
		table = info.Entity.Table
	}
	switch row.Kind {
	case knowledge.Begin:
		if v := call.Value(); v != nil {
			return []*ops.Op{{Kind: ops.Begin, Handle: v, Row: row, Desc: "the ent transaction"}}
		}
	case knowledge.Commit, knowledge.Rollback:
		return []*ops.Op{{Kind: ops.End, Handle: handle(), Row: row, Desc: "ent " + row.Func.Name}}
	case knowledge.Find:
		if lock, chainTable := entChainLock(site.Receiver()); lock != "" {
			if table == "" {
				table = chainTable // a promoted finisher of the shared selector
			}
			return []*ops.Op{{Kind: ops.Lock, Handle: handle(), Row: row, Desc: "ent " + lock + " read of " + table}}
		}
	case knowledge.Update, knowledge.Delete:
		return []*ops.Op{{Kind: ops.Lock, Handle: handle(), Row: row, Desc: "the row locks of the ent " + row.Kind.String() + " of " + table}}
	}
	return nil
}

// entChainLock returns the lock ("FOR UPDATE") a LockStep of an ent
// builder chain adds, walking back from a finisher's receiver, and the
// table of the chain's entity; "" if none.
func entChainLock(v ssa.Value) (lock, table string) {
	steps, _ := entChain(v)
	for _, st := range steps {
		if table == "" && st.info.Entity != nil {
			table = st.info.Entity.Table
		}
		if lock == "" && st.row.Kind == knowledge.LockStep {
			lock = st.info.Lock
		}
	}
	return lock, table
}
