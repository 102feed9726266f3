package ops

import "golang.org/x/tools/go/ssa"

// Reaches reports whether some control-flow path runs instruction to after
// instruction from, within one function, without first running an
// instruction for which stop returns true. Paths are followed through the
// blocks of the CFG; a panic or return ends a path.
func Reaches(from, to ssa.Instruction, stop func(ssa.Instruction) bool) bool {
	if from.Block() == nil || to.Block() == nil || from.Parent() != to.Parent() {
		return false
	}
	// The rest of from's own block.
	start := from.Block()
	idx := indexOf(start, from)
	if found, blocked := scan(start.Instrs[idx+1:], to, stop); found {
		return true
	} else if blocked {
		return false
	}
	return reachFrom(start.Succs, to, stop)
}

// reachFrom reports whether some path starting at the top of one of the
// blocks runs to without first running an instruction stop accepts.
func reachFrom(blocks []*ssa.BasicBlock, to ssa.Instruction, stop func(ssa.Instruction) bool) bool {
	seen := map[*ssa.BasicBlock]bool{}
	queue := append([]*ssa.BasicBlock(nil), blocks...)
	for len(queue) > 0 {
		b := queue[0]
		queue = queue[1:]
		if seen[b] {
			continue
		}
		seen[b] = true
		found, blocked := scan(b.Instrs, to, stop)
		if found {
			return true
		}
		if !blocked {
			queue = append(queue, b.Succs...)
		}
	}
	return false
}

// scan looks through instrs in order for to, stopping at an instruction
// stop accepts.
func scan(instrs []ssa.Instruction, to ssa.Instruction, stop func(ssa.Instruction) bool) (found, blocked bool) {
	for _, instr := range instrs {
		if instr == to {
			return true, false
		}
		if stop != nil && stop(instr) {
			return false, true
		}
	}
	return false, false
}

func indexOf(b *ssa.BasicBlock, instr ssa.Instruction) int {
	for i, x := range b.Instrs {
		if x == instr {
			return i
		}
	}
	return -1
}
