package main

import (
	"bytes"
	"cmp"
	"fmt"
	"go/format"
	"io"
	"maps"
	"os"
	"slices"

	"golang.org/x/tools/go/analysis"
)

// An edit is one text edit of a suggested fix, as byte offsets into the
// file as it was analysed.
type edit struct {
	start, end int
	text       []byte
}

// applyFixes applies the first suggested fix of each finding that has one,
// writing the files (or, with diff, printing a unified diff of them to
// out), and returns the findings it did not fix and how many it fixed.
//
// A fix is applied whole or not at all: one whose edits overlap an edit
// already taken (two findings rewriting the same expression), or that
// touches a file the user did not write (cmd/cgo's translation), is left,
// and its finding stays reported. A file that was gofmt-formatted is
// formatted again after the edits; a file whose edited text no longer
// parses is left as it was, with its findings.
func applyFixes(findings []*finding, diff bool, out io.Writer) (remaining []*finding, fixed int, errOut error) {
	type fileEdits struct {
		edits    []edit
		findings []*finding
	}
	byFile := map[string]*fileEdits{}
	taken := map[*finding]bool{}
	for _, f := range findings {
		if len(f.diag.SuggestedFixes) == 0 {
			continue
		}
		edits, ok := fixEdits(f, f.diag.SuggestedFixes[0])
		if !ok {
			continue
		}
		// The edits of one fix must all fit beside those already taken.
		fits := true
		for name, es := range edits {
			if fe := byFile[name]; fe != nil && overlapsAny(fe.edits, es) {
				fits = false
			}
		}
		if !fits {
			continue
		}
		taken[f] = true
		for name, es := range edits {
			fe := byFile[name]
			if fe == nil {
				fe = &fileEdits{}
				byFile[name] = fe
			}
			fe.edits = append(fe.edits, es...)
			fe.findings = append(fe.findings, f)
		}
	}
	failed := map[*finding]bool{}
	for _, name := range slices.Sorted(maps.Keys(byFile)) {
		fe := byFile[name]
		old, err := os.ReadFile(name)
		var updated []byte
		if err == nil {
			updated, err = applyEdits(old, fe.edits)
		}
		if err == nil {
			if diff {
				writeUnifiedDiff(out, relativePath(workingDir(), name), old, updated)
			} else {
				err = os.WriteFile(name, updated, 0o644)
			}
		}
		if err != nil {
			if errOut == nil {
				errOut = fmt.Errorf("%s: fixes not applied: %v", relativePath(workingDir(), name), err)
			}
			for _, f := range fe.findings {
				failed[f] = true
			}
		}
	}
	for _, f := range findings {
		if taken[f] && !failed[f] {
			fixed++
		} else {
			remaining = append(remaining, f)
		}
	}
	return remaining, fixed, errOut
}

// fixEdits returns the edits of fix by file, or false when an edit lies in
// a file that is not one of the package's Go files as written.
func fixEdits(f *finding, fix analysis.SuggestedFix) (map[string][]edit, bool) {
	out := map[string][]edit{}
	for _, te := range fix.TextEdits {
		file := f.pkg.Fset.File(te.Pos)
		if file == nil || !slices.Contains(f.pkg.GoFiles, file.Name()) || !slices.Contains(f.pkg.CompiledGoFiles, file.Name()) {
			return nil, false
		}
		end := te.End
		if !end.IsValid() {
			end = te.Pos
		}
		out[file.Name()] = append(out[file.Name()], edit{file.Offset(te.Pos), file.Offset(end), te.NewText})
	}
	return out, len(out) > 0
}

// overlapsAny reports whether an edit of next overlaps one of taken. An
// edit identical to one taken (the same fix reached twice) does not count:
// applyEdits writes it once.
func overlapsAny(taken, next []edit) bool {
	for _, n := range next {
		for _, t := range taken {
			if n.start == t.start && n.end == t.end && bytes.Equal(n.text, t.text) {
				continue
			}
			if n.start < t.end && t.start < n.end || n.start == t.start {
				return true
			}
		}
	}
	return false
}

// applyEdits applies non-overlapping edits to src.
func applyEdits(src []byte, edits []edit) ([]byte, error) {
	edits = slices.Clone(edits)
	slices.SortFunc(edits, func(a, b edit) int { return cmp.Or(cmp.Compare(a.start, b.start), cmp.Compare(a.end, b.end)) })
	edits = slices.CompactFunc(edits, func(a, b edit) bool {
		return a.start == b.start && a.end == b.end && bytes.Equal(a.text, b.text)
	})
	var out bytes.Buffer
	last := 0
	for _, e := range edits {
		if e.start < last || e.end > len(src) || e.start > e.end {
			return nil, fmt.Errorf("edit %d-%d out of range or overlapping", e.start, e.end)
		}
		out.Write(src[last:e.start])
		out.Write(e.text)
		last = e.end
	}
	out.Write(src[last:])
	updated := out.Bytes()
	if formatted, err := format.Source(src); err == nil && bytes.Equal(formatted, src) {
		formattedNew, err := format.Source(updated)
		if err != nil {
			return nil, fmt.Errorf("the fixed file does not parse: %v", err)
		}
		updated = formattedNew
	}
	return updated, nil
}

func workingDir() string {
	wd, _ := os.Getwd()
	return wd
}
