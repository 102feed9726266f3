package ops

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/knowledge"
	"github.com/idemlint/idemlint/analyzers/internal/sqltext"
)

// A Kind is what an operation does.
type Kind uint8

const (
	// Lock takes a lock that lasts until its transaction ends: a row lock
	// (FOR UPDATE and friends, GORM clause.Locking, bun For, ent
	// ForUpdate), a table lock, a transaction-scoped advisory lock, or the
	// row locks of an UPDATE, DELETE or updating upsert.
	Lock Kind = iota + 1
	// Network sends a request to, or opens a connection to, another
	// service. Database calls are never Network.
	Network
	// Begin starts a transaction; Handle is the transaction.
	Begin
	// End commits or rolls back the transaction Handle.
	End
	// TxRun runs Callback inside a transaction whose handle is the
	// callback's parameter CallbackTx (GORM Transaction, pgx.BeginFunc, a
	// user-written WithTx).
	TxRun
	// LockedCall is a call of a helper that locks the handle Handle and
	// then, before the end of its transaction, makes a network call
	// itself: Desc names the call, LockDesc the lock.
	LockedCall
)

func (k Kind) String() string {
	switch k {
	case Lock:
		return "lock"
	case Network:
		return "network"
	case Begin:
		return "begin"
	case End:
		return "end"
	case TxRun:
		return "tx-run"
	case LockedCall:
		return "locked-call"
	}
	return "?"
}

// An Op is one operation of a function, at the instruction that performs
// it: the library call, or the call of a helper whose summary says it does
// this.
type Op struct {
	Kind  Kind
	Instr ssa.CallInstruction
	// Handle is the root of the database handle the operation runs on
	// (see Root): a Begin call, a transaction callback's parameter, a
	// parameter of the function. Nil when not known or not a database
	// operation.
	Handle ssa.Value
	// Deferred is whether the call is deferred (runs at return).
	Deferred bool
	// Callback is, for TxRun, the function run in the transaction when it
	// is visible (a closure or a named function), and CallbackTx the
	// parameter of it that receives the transaction.
	Callback   *ssa.Function
	CallbackTx int
	// CallbackArg is, for TxRun, the value passed as the callback: a
	// func parameter of a helper (WithTx(ctx, fn) passing fn on to
	// pgx.BeginFunc) makes the helper a transaction runner too.
	CallbackArg ssa.Value
	// Desc names the operation for messages: "SELECT ... FOR UPDATE on
	// orders", "POST via (*net/http.Client).Do".
	Desc string
	// Via is the helper whose summary gave the operation ("" when the
	// operation is the library call itself), as "store.lockOrder".
	Via string
	// LockDesc names the lock of a LockedCall.
	LockDesc string
	// SQL is the statement, when the operation runs known SQL.
	SQL *sqltext.Statement
	// readLock marks a Lock a read takes without SQL of its own (a
	// finder's locking clause, a helper's SELECT ... FOR UPDATE).
	readLock bool
	// Row is the knowledge row of the library call, when there is one.
	Row *knowledge.Call
	// dials is, for a helper's network operation, its summary's
	// NetworkDials.
	dials bool
	// harmless marks a network operation that changes nothing when
	// performed: a GET, HEAD or OPTIONS request, a dial, or a helper
	// whose network operations are all such (Summary.NetworkHarmless).
	harmless bool
}

// Harmless reports whether a network operation changes nothing at the
// other end (a GET, a dial): performing it twice is no duplicate effect.
func (op *Op) Harmless() bool { return op.Kind == Network && op.harmless }

// Pos returns the position of the operation's call.
func (op *Op) Pos() token.Pos { return op.Instr.Pos() }

// Evidence returns how a message names the operation: its description,
// and the helper it happens in.
func (op *Op) Evidence() string {
	if op.Via == "" {
		return op.Desc
	}
	return op.Desc + " in " + op.Via
}

// funcName names fn for messages the way Go code refers to it:
// "store.lockOrder", "store.(*Orders).Lock".
func funcName(fn *types.Func) string {
	if fn == nil {
		return ""
	}
	pkg := ""
	if fn.Pkg() != nil {
		pkg = fn.Pkg().Name() + "."
	}
	sig := fn.Type().(*types.Signature)
	if sig.Recv() == nil {
		return pkg + fn.Name()
	}
	recv := sig.Recv().Type()
	star := ""
	if p, ok := recv.(*types.Pointer); ok {
		star, recv = "*", p.Elem()
	}
	name := recv.String()
	if n, ok := types.Unalias(recv).(*types.Named); ok {
		name = n.Obj().Name()
	}
	return pkg + "(" + star + name + ")." + fn.Name()
}

// ReadLock reports whether a Lock is one a read takes (SELECT ... FOR
// UPDATE or FOR SHARE, a finder's locking clause), which writes nothing:
// unlike an UPDATE's row locks, it bumps no version.
func (o *Op) ReadLock() bool {
	return o.Kind == Lock && (o.readLock || (o.SQL != nil && o.SQL.Kind == sqltext.KindSelect))
}
