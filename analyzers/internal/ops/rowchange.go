package ops

import (
	"fmt"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/ssaval"
)

// What changed a field of a read row between the read and its
// write-back. A value computed from the field, or a store into it, is a
// change the function makes; a value written back as it was read is one
// only when something the function hands the row to may have changed it.
// The commonest such thing is a callback its caller chose: a repository's
// UpdateTask(ctx, id, modify func(*Task) error) reads the row, passes it
// to modify and writes every column back, so the change is modify's,
// which the function cannot see and the message must name.

// A ChangeKind says how a written value differs from the field read.
type ChangeKind uint8

const (
	// Unchanged: the value written is the field as the read left it,
	// and nothing in between was given the row.
	Unchanged ChangeKind = iota
	// Computed: the value written is computed from the field.
	Computed
	// Stored: the function stores into the field between the read and
	// the write.
	Stored
	// Passed: the row's address is given to a call between the read and
	// the write, which may change it.
	Passed
	// ByCallback: the row's address is given to a call of a function
	// value (a func parameter, field or variable) between the read and
	// the write: the change is made by code the caller chose.
	ByCallback
)

// A FieldChange is what changed the field, with the callback for
// ByCallback.
type FieldChange struct {
	Kind ChangeKind
	// Call is the call of the function value, for ByCallback.
	Call *ssa.Call
	// Desc names the function value for messages: "the callback in
	// parameter 3 (modify func(t *task.Task) error)".
	Desc string
}

// ChangeOf says how the value v, written at instruction at, differs
// from the field that load reads, which the read at instruction read
// filled at readAddr (the read's own field address: the same as load.X,
// or the record field a conversion copied into it).
func ChangeOf(v ssa.Value, load *ssa.UnOp, readAddr ssa.Value, read, at ssa.Instruction) FieldChange {
	fn := at.Parent()
	if fn == nil || load == nil {
		return FieldChange{Kind: Computed}
	}
	// The field's address, the fields of the values it was converted
	// from (a callback's result, a record), and the read's own.
	addrs := append([]ssa.Value{load.X}, ConvertedChain(load.X)...)
	if readAddr != nil {
		addrs = append(addrs, readAddr)
	}
	rows := rowAddrs(addrs)
	between := func(x ssa.Instruction) bool {
		return x != read && x != at && Reaches(read, x, nil) && Reaches(x, at, nil)
	}
	readCall, _ := read.(*ssa.Call)
	var passed bool
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(*ssa.Call)
			if !ok || !givenRow(call.Common().Args, rows) || !between(call) {
				continue
			}
			if readCall != nil && scanCallOn(call, readCall) != nil {
				continue // the read's own Scan fills the row
			}
			if callsFuncValue(call.Common()) {
				return FieldChange{Kind: ByCallback, Call: call, Desc: funcValueDesc(fn, call.Common().Value)}
			}
			passed = true
		}
	}
	if u := ssaval.Unwrap(v); u != load && u != load.X {
		return FieldChange{Kind: Computed}
	}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			st, ok := instr.(*ssa.Store)
			if !ok {
				continue
			}
			for _, a := range addrs {
				if SameAddr(st.Addr, a) && between(st) {
					return FieldChange{Kind: Stored}
				}
			}
		}
	}
	if passed {
		return FieldChange{Kind: Passed}
	}
	return FieldChange{Kind: Unchanged}
}

// callsFuncValue reports whether c calls a function value: code the function
// cannot see (not a method of an interface, which the layer resolves,
// nor a closure made in the function, whose body it sees).
func callsFuncValue(c *ssa.CallCommon) bool {
	if c.IsInvoke() || c.StaticCallee() != nil {
		return false
	}
	_, closure := c.Value.(*ssa.MakeClosure)
	return !closure
}

// GivenToCallback reports whether some path of fn to at first calls a
// function value given addr (Save(&m) after modify(&m)): then every field
// of the struct at addr may have changed, not only those fn stores.
func GivenToCallback(fn *ssa.Function, addr ssa.Value, at ssa.Instruction) bool {
	rows := rowAddrs([]ssa.Value{addr})
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if call, ok := instr.(*ssa.Call); ok && call != at && callsFuncValue(call.Common()) &&
				givenRow(call.Common().Args, rows) && Reaches(call, at, nil) {
				return true
			}
		}
	}
	return false
}

// FieldLoad stands for the value of field i of the struct at addr that a
// write of the whole struct sends when no store in the function gives it
// (a callback may have changed it): a load of the field, in no block.
func FieldLoad(addr ssa.Value, i int) *ssa.UnOp {
	return &ssa.UnOp{Op: token.MUL, X: &ssa.FieldAddr{X: addr, Field: i}}
}

// rowAddrs returns the addresses a call may change the fields at addrs
// through: each address and the structs it is a field of.
func rowAddrs(addrs []ssa.Value) []ssa.Value {
	var out []ssa.Value
	for _, a := range addrs {
		for range 4 {
			out = append(out, a)
			fa, ok := ssaval.Unwrap(a).(*ssa.FieldAddr)
			if !ok {
				break
			}
			a = fa.X
		}
	}
	return out
}

// givenRow reports whether one of args is one of rows.
func givenRow(args []ssa.Value, rows []ssa.Value) bool {
	for _, arg := range args {
		arg = ssaval.Unwrap(arg)
		for _, r := range rows {
			if arg == ssaval.Unwrap(r) || SameAddr(arg, r) {
				return true
			}
		}
	}
	return false
}

// funcValueDesc names the function value f called in fn: its parameter
// (by position in the declaration, receiver apart), the field it was
// loaded from, or the variable.
func funcValueDesc(fn *ssa.Function, f ssa.Value) string {
	typ := types.TypeString(f.Type(), Qualifier(fn))
	switch x := f.(type) {
	case *ssa.Parameter:
		i := paramIndex(fn, x)
		if fn.Signature.Recv() != nil {
			i--
		}
		return fmt.Sprintf("the callback in parameter %d (%s %s)", i+1, x.Name(), typ)
	case *ssa.UnOp:
		if f := ssaval.FieldOf(x.X); f != nil {
			return fmt.Sprintf("the function in field %s (%s)", f.Name(), typ)
		}
	case *ssa.FreeVar:
		return fmt.Sprintf("the callback %s (%s)", x.Name(), typ)
	}
	return fmt.Sprintf("a function value (%s)", typ)
}

// Qualifier writes types for messages about fn: its own package's
// unqualified, others' by package name (*sqlx.DB, task.Task).
func Qualifier(fn *ssa.Function) types.Qualifier {
	own := ssaval.Pkg(fn)
	return func(p *types.Package) string {
		if p == own {
			return ""
		}
		return p.Name()
	}
}
