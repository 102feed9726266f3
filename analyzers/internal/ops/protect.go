package ops

import "golang.org/x/tools/go/ssa"

// A Protection is what makes the database work at an instruction safe
// from a concurrent writer of the same rows.
type Protection uint8

const (
	// Unprotected: nothing is known to protect it.
	Unprotected Protection = iota
	// SerializableTx: it runs in a SERIALIZABLE transaction (its options,
	// or the callback of a helper that opens one).
	SerializableTx
	// RowLocked: on every path to it, the transaction it runs on took a
	// row lock first (SELECT ... FOR UPDATE, an UPDATE or DELETE of the
	// rows).
	RowLocked
)

func (p Protection) String() string {
	switch p {
	case SerializableTx:
		return "serializable"
	case RowLocked:
		return "row-lock"
	}
	return "unprotected"
}

// Protection returns what protects the work at instruction at, run in fn
// on the handle whose root is h, from concurrent writers. A lock counts
// only when it is taken on the same transaction on every path from fn's
// entry to at (a lock on another branch protects nothing here), and only
// when counts accepts it (nil accepts every lock): callers exclude the
// write itself, a lookup's own FOR UPDATE on a row that may not exist, or
// the locks of other tables.
func (r *Result) Protection(fn *ssa.Function, h ssa.Value, at ssa.Instruction, counts func(*Op) bool) Protection {
	if h == nil || at == nil || !r.InTx(h) {
		return Unprotected
	}
	if Serializable(h) || r.SerializableCallback(h) {
		return SerializableTx
	}
	locks := map[ssa.Instruction]bool{}
	for _, op := range r.Ops(fn) {
		if op.Kind == Lock && op.Handle == h && (counts == nil || counts(op)) {
			locks[op.Instr] = true
		}
	}
	if len(locks) == 0 {
		return Unprotected
	}
	if locks[at] || !reachedUnlocked(fn, at, locks) {
		return RowLocked
	}
	return Unprotected
}

// reachedUnlocked reports whether some path from fn's entry runs at
// without first running one of the locks.
func reachedUnlocked(fn *ssa.Function, at ssa.Instruction, locks map[ssa.Instruction]bool) bool {
	if len(fn.Blocks) == 0 || at.Block() == nil || at.Parent() != fn {
		return true
	}
	return reachFrom(fn.Blocks[:1], at, func(instr ssa.Instruction) bool { return locks[instr] })
}
