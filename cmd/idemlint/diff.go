package main

import (
	"fmt"
	"io"
	"strings"
)

// diffContext is the number of unchanged lines around each hunk, diff -u's.
const diffContext = 3

// maxDiffCells bounds the line-by-line table of the changed middle of a
// file; past it the middle is shown as one replaced block, which is still a
// correct patch.
const maxDiffCells = 4 << 20

// writeUnifiedDiff writes the unified diff turning old into updated, for
// -fix -diff. Fixes change a few lines of a file: the common head and tail
// are cut first, and the middle is compared line by line (longest common
// subsequence).
func writeUnifiedDiff(w io.Writer, name string, old, updated []byte) {
	a, b := splitLines(string(old)), splitLines(string(updated))
	ops := diffLines(a, b)
	if len(ops) == 0 {
		return
	}
	fmt.Fprintf(w, "--- %s (old)\n+++ %s (fixed)\n", name, name)
	// Group the operations into hunks with diffContext lines around each
	// change.
	for i := 0; i < len(ops); {
		if ops[i].kind == ' ' {
			i++
			continue
		}
		start := max(0, i-diffContext)
		end := i
		for j := i; j < len(ops); j++ {
			if ops[j].kind != ' ' {
				end = j
			} else if j-end > 2*diffContext {
				break
			}
		}
		end = min(len(ops), end+diffContext+1)
		hunk := ops[start:end]
		var oldStart, newStart, oldLen, newLen int
		oldStart, newStart = hunk[0].a+1, hunk[0].b+1
		for _, o := range hunk {
			if o.kind != '+' {
				oldLen++
			}
			if o.kind != '-' {
				newLen++
			}
		}
		if oldLen == 0 {
			oldStart--
		}
		if newLen == 0 {
			newStart--
		}
		fmt.Fprintf(w, "@@ -%d,%d +%d,%d @@\n", oldStart, oldLen, newStart, newLen)
		for _, o := range hunk {
			text := o.text
			fmt.Fprintf(w, "%c%s", o.kind, text)
			if !strings.HasSuffix(text, "\n") {
				fmt.Fprint(w, "\n\\ No newline at end of file\n")
			}
		}
		i = end
	}
}

// A lineOp is one line of a diff: ' ' kept, '-' removed, '+' added; a and
// b are the line's index in the old and new text (for '+', a is where it
// is inserted; for '-', b likewise).
type lineOp struct {
	kind byte
	a, b int
	text string
}

func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	lines := strings.SplitAfter(s, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// diffLines returns the edit script from a to b, or nil when they are
// equal.
func diffLines(a, b []string) []lineOp {
	head := 0
	for head < len(a) && head < len(b) && a[head] == b[head] {
		head++
	}
	tail := 0
	for tail < len(a)-head && tail < len(b)-head && a[len(a)-1-tail] == b[len(b)-1-tail] {
		tail++
	}
	if head == len(a) && head == len(b) {
		return nil
	}
	var ops []lineOp
	for i := range head {
		ops = append(ops, lineOp{' ', i, i, a[i]})
	}
	ma, mb := a[head:len(a)-tail], b[head:len(b)-tail]
	ops = append(ops, middleOps(ma, mb, head)...)
	for i := range tail {
		ia, ib := len(a)-tail+i, len(b)-tail+i
		ops = append(ops, lineOp{' ', ia, ib, a[ia]})
	}
	return ops
}

// middleOps compares the changed middles of two texts, both starting at
// line offset.
func middleOps(a, b []string, offset int) []lineOp {
	var ops []lineOp
	if len(a)*len(b) > maxDiffCells {
		for i, l := range a {
			ops = append(ops, lineOp{'-', offset + i, offset, l})
		}
		for j, l := range b {
			ops = append(ops, lineOp{'+', offset + len(a), offset + j, l})
		}
		return ops
	}
	// lcs[i][j] is the length of the longest common subsequence of a[i:]
	// and b[j:].
	lcs := make([][]int32, len(a)+1)
	for i := range lcs {
		lcs[i] = make([]int32, len(b)+1)
	}
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case i < len(a) && j < len(b) && a[i] == b[j]:
			ops = append(ops, lineOp{' ', offset + i, offset + j, a[i]})
			i++
			j++
		case i < len(a) && (j == len(b) || lcs[i+1][j] >= lcs[i][j+1]):
			ops = append(ops, lineOp{'-', offset + i, offset + j, a[i]})
			i++
		default:
			ops = append(ops, lineOp{'+', offset + i, offset + j, b[j]})
			j++
		}
	}
	return ops
}
