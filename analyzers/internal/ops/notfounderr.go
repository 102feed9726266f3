package ops

import (
	"golang.org/x/tools/go/ssa"
)

// Found nothing, said by a non-nil error: a lookup whose error is not nil
// whenever it found nothing (RowOp.ErrWhenNotFound), across a helper that
// passes that error on.

// errWhenNotFound reports whether fn's error result is not nil on every
// path where its lookup op found nothing: from op, following only the
// non-nil side of tests of op's error and the found-nothing side of
// found-nothing tests, every return reached returns op's error (as it
// is, or wrapped with %w), a package-level error variable, or an error
// made there (errors.New, fmt.Errorf, a value converted to error). A
// helper that answers "not found" with (nil, nil), or with a nil error
// and a bool, fails it.
func errWhenNotFound(fn *ssa.Function, op *RowOp) bool {
	results := fn.Signature.Results()
	if op.Instr == nil || results.Len() == 0 || !isErrorType(results.At(results.Len()-1).Type()) {
		return false
	}
	errIdx := results.Len() - 1
	start := op.Instr.Block()
	if start == nil || start.Parent() != fn {
		return false
	}
	seen := map[*ssa.BasicBlock]bool{start: true}
	queue := []*ssa.BasicBlock{start}
	returns := 0
	for len(queue) > 0 {
		b := queue[0]
		queue = queue[1:]
		if len(b.Instrs) == 0 {
			continue
		}
		succs := b.Succs
		switch last := b.Instrs[len(b.Instrs)-1].(type) {
		case *ssa.Return:
			if !errorNotNil(last.Results[errIdx], op) {
				return false
			}
			returns++
			continue
		case *ssa.If:
			if nilSucc, ok := errNilTest(op, last.Cond); ok {
				succs = []*ssa.BasicBlock{b.Succs[1-nilSucc]}
			} else if s, ok := notFoundTest(op, last.Cond, 0); ok {
				succs = []*ssa.BasicBlock{b.Succs[s]}
			}
		}
		for _, s := range succs {
			if !seen[s] { // back at start: the lookup runs again
				seen[s] = true
				queue = append(queue, s)
			}
		}
	}
	return returns > 0
}

// errorNotNil reports whether the error v, returned on a path where op
// failed, is not nil there: op's own error, a package-level error
// variable, or one made where it is returned.
func errorNotNil(v ssa.Value, op *RowOp) bool {
	if _, ok := v.(*ssa.MakeInterface); ok {
		return true // a concrete value converted to error: never a nil interface
	}
	return madeError(v) || errFrom(v, op)
}
