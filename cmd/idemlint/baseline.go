package main

import (
	"bytes"
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"slices"
)

// baselineVersion is the version of the baseline file format. A file of
// another version is rejected, not guessed at.
const baselineVersion = 1

// A baselineFile is the JSON a baseline is stored as: the findings
// accepted when it was written, sorted, one entry per finding (two
// identical findings in one function are two entries).
type baselineFile struct {
	Tool     string          `json:"tool"`
	Version  int             `json:"version"`
	Findings []baselineEntry `json:"findings"`
}

// A baselineEntry is a finding's fingerprint: what it is and where in the
// program, but no file or line, so that edits elsewhere in the file, and
// moving the function, leave the entry matching.
type baselineEntry struct {
	Analyzer string `json:"analyzer"`
	Category string `json:"category"`
	Package  string `json:"package"`
	Function string `json:"function"` // "" at package level
	Message  string `json:"message"`
}

// entryOf returns the fingerprint of f.
func entryOf(f *finding) baselineEntry {
	return baselineEntry{
		Analyzer: f.analyzer.Name,
		Category: f.diag.Category,
		Package:  f.pkg.PkgPath,
		Function: f.function,
		Message:  f.diag.Message,
	}
}

// fingerprint is the entry as one string for SARIF's partialFingerprints:
// the same fields, so a finding matches its baseline entry and its code
// scanning alert alike.
func (e baselineEntry) fingerprint() string {
	h := sha256.New()
	for _, s := range []string{e.Analyzer, e.Category, e.Package, e.Function, e.Message} {
		io.WriteString(h, s)
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))
}

func compareEntries(a, b baselineEntry) int {
	return cmp.Or(
		cmp.Compare(a.Package, b.Package),
		cmp.Compare(a.Function, b.Function),
		cmp.Compare(a.Analyzer, b.Analyzer),
		cmp.Compare(a.Category, b.Category),
		cmp.Compare(a.Message, b.Message),
	)
}

// A baseline is a baseline file read for matching.
type baseline struct {
	entries []baselineEntry
}

// readBaseline reads and checks a baseline file; every problem is one
// error naming the file.
func readBaseline(name string) (*baseline, error) {
	data, err := os.ReadFile(name)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("baseline %s: no such file (write it with -baseline=%s -write-baseline)", name, name)
	}
	if err != nil {
		return nil, fmt.Errorf("baseline %s: %v", name, err)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var file baselineFile
	if err := dec.Decode(&file); err != nil {
		return nil, fmt.Errorf("baseline %s: not an idemlint baseline: %v", name, jsonErrorPosition(data, err))
	}
	if dec.More() {
		return nil, fmt.Errorf("baseline %s: not an idemlint baseline: text after the JSON object", name)
	}
	switch {
	case file.Tool != "idemlint":
		return nil, fmt.Errorf("baseline %s: not an idemlint baseline (tool %q)", name, file.Tool)
	case file.Version != baselineVersion:
		return nil, fmt.Errorf("baseline %s: version %d, but this idemlint reads version %d; rewrite it with -write-baseline", name, file.Version, baselineVersion)
	}
	for i, e := range file.Findings {
		if e.Analyzer == "" || e.Package == "" || e.Message == "" {
			return nil, fmt.Errorf("baseline %s: finding %d lacks its analyzer, package or message", name, i+1)
		}
	}
	return &baseline{entries: file.Findings}, nil
}

// jsonErrorPosition adds the line of a JSON syntax or type error.
func jsonErrorPosition(data []byte, err error) error {
	var offset int64 = -1
	var syntax *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syntax):
		offset = syntax.Offset
	case errors.As(err, &typ):
		offset = typ.Offset
	}
	if offset < 0 || offset > int64(len(data)) {
		return err
	}
	line := 1 + bytes.Count(data[:offset], []byte("\n"))
	return fmt.Errorf("line %d: %v", line, err)
}

// writeBaseline records findings in the file name.
func writeBaseline(name string, findings []*finding) (int, error) {
	file := baselineFile{Tool: "idemlint", Version: baselineVersion, Findings: []baselineEntry{}}
	for _, f := range findings {
		file.Findings = append(file.Findings, entryOf(f))
	}
	slices.SortFunc(file.Findings, compareEntries)
	data, err := json.MarshalIndent(file, "", "  ")
	if err != nil {
		return 0, err
	}
	if err := os.WriteFile(name, append(data, '\n'), 0o644); err != nil {
		return 0, fmt.Errorf("baseline %s: %v", name, err)
	}
	return len(file.Findings), nil
}

// filter returns the findings no entry of the baseline matches, and the
// entries of the analysed packages that matched no finding: fixed since,
// or changed so that their fingerprint moved. Each entry matches one
// finding. Entries of packages not analysed in this run are neither used
// nor stale.
func (b *baseline) filter(findings []*finding, analysed map[string]bool) (fresh []*finding, stale []baselineEntry) {
	unused := map[baselineEntry]int{}
	for _, e := range b.entries {
		unused[e]++
	}
	for _, f := range findings {
		e := entryOf(f)
		if unused[e] > 0 {
			unused[e]--
			continue
		}
		fresh = append(fresh, f)
	}
	for _, e := range b.entries {
		if unused[e] > 0 && analysed[e.Package] {
			unused[e]--
			stale = append(stale, e)
		}
	}
	slices.SortFunc(stale, compareEntries)
	return fresh, stale
}

// printStale lists the baseline entries that matched nothing, so that the
// baseline shrinks as the findings are fixed.
func printStale(w io.Writer, name string, stale []baselineEntry) {
	if len(stale) == 0 {
		return
	}
	fmt.Fprintf(w, "idemlint: baseline %s: %d entries match no finding any more; rewrite the file with -write-baseline to drop them:\n", name, len(stale))
	for _, e := range stale {
		where := e.Package
		if e.Function != "" {
			where += " " + e.Function
		}
		fmt.Fprintf(w, "\t%s in %s: %s\n", e.Category, where, e.Message)
	}
}
