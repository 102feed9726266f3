package main

import (
	"cmp"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/token"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/idemlint/idemlint/analyzers"
)

// A finding is one diagnostic of a root action, counted once however many
// package variants (the package, its test variant) reported it.
type finding struct {
	key      findingKey
	analyzer *analysis.Analyzer
	pkg      *packages.Package // the first variant that reported it
	diag     analysis.Diagnostic
	posn     token.Position
	function string // the outermost enclosing FuncDecl: Name, (T).Name or (*T).Name; "" at package level
}

// findingKey identifies a finding across the package variants that report
// it: a test variant parses the same file again, so token.Pos differs and
// the position is compared as file, line and column.
type findingKey struct {
	analyzer, category string
	file               string
	line, column       int
	message            string
}

// rule is the name shown after the message and used as the SARIF rule id:
// the category, which report.Reporter writes as "analyzer/sub-rule", or
// the analyzer's name when the category is empty.
func (f *finding) rule() string {
	name, c := f.analyzer.Name, f.diag.Category
	switch {
	case c == "":
		return name
	case c == name || strings.HasPrefix(c, name+"/"):
		return c
	}
	return name + "/" + c
}

// results is what the driver prints: the findings, deduplicated and sorted
// by file and position, and the analyses that failed.
type results struct {
	findings []*finding
	errors   []string
}

// collect gathers the diagnostics of the graph's root actions and the
// errors of all its actions.
func collect(graph *checker.Graph) results {
	var res results
	m := merger{}
	seenErr := map[string]bool{}
	for act := range graph.All() {
		if act.Err != nil {
			// As multichecker prints them; a failure shared by the package
			// and its test variant is printed once.
			msg := fmt.Sprintf("%s: %v", act.Analyzer.Name, act.Err)
			if !seenErr[msg] {
				seenErr[msg] = true
				res.errors = append(res.errors, msg)
			}
			continue
		}
		if !act.IsRoot {
			continue
		}
		for _, d := range act.Diagnostics {
			posn := act.Package.Fset.Position(d.Pos)
			f := &finding{
				key:      keyOf(act.Analyzer, act.Package.Fset, d),
				analyzer: act.Analyzer,
				pkg:      act.Package,
				diag:     d,
				posn:     posn,
				function: enclosingFunction(act.Package, d.Pos),
			}
			if m.add(f) {
				res.findings = append(res.findings, f)
			}
		}
	}
	slices.SortFunc(res.findings, func(a, b *finding) int {
		return cmp.Or(
			cmp.Compare(a.posn.Filename, b.posn.Filename),
			cmp.Compare(a.posn.Line, b.posn.Line),
			cmp.Compare(a.posn.Column, b.posn.Column),
			cmp.Compare(a.rule(), b.rule()),
			cmp.Compare(a.diag.Message, b.diag.Message),
		)
	})
	return res
}

// A merger counts each finding once across the packages that report it.
type merger struct {
	seen map[findingKey]bool
	// at holds, per position and rule without the message, the finding
	// printed there, so that two packages reporting one bug in different
	// words print it once: a package and its test variant, or a wiring
	// package that completes another's interfaces (its findings are at
	// the other package's positions) and that package's test variant,
	// whose tests bind the interfaces too.
	at map[findingKey]*finding
}

// add reports whether f is new. A finding of another package at the
// position and rule of one already added is the same bug: it is not new,
// and its words replace the first's when the first came from a test
// variant and it does not (the test variant sees the tests' bindings too
// and may name other evidence).
func (m *merger) add(f *finding) bool {
	if m.seen == nil {
		m.seen, m.at = map[findingKey]bool{}, map[findingKey]*finding{}
	}
	if m.seen[f.key] {
		return false
	}
	m.seen[f.key] = true
	where := f.key
	where.message = ""
	if prev := m.at[where]; prev != nil && prev.pkg.ID != f.pkg.ID {
		if isTestVariant(prev.pkg) && !isTestVariant(f.pkg) {
			*prev = *f
		}
		return false
	}
	m.at[where] = f
	return true
}

// isTestVariant reports whether pkg is a package compiled with its tests
// ("p [p.test]"), as go list names them.
func isTestVariant(pkg *packages.Package) bool { return strings.Contains(pkg.ID, " [") }

func keyOf(a *analysis.Analyzer, fset *token.FileSet, d analysis.Diagnostic) findingKey {
	posn := fset.Position(d.Pos)
	return findingKey{a.Name, d.Category, posn.Filename, posn.Line, posn.Column, d.Message}
}

// enclosingFunction names the outermost function declaration of pkg's
// syntax that contains pos, with its receiver as go/types prints a method
// set's members ((*T).Name), "" for a position outside every function.
func enclosingFunction(pkg *packages.Package, pos token.Pos) string {
	for _, f := range pkg.Syntax {
		if pos < f.FileStart || pos > f.FileEnd {
			continue
		}
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || pos < fn.Pos() || pos > fn.End() {
				continue
			}
			return funcDeclName(fn)
		}
	}
	return ""
}

func funcDeclName(fn *ast.FuncDecl) string {
	if fn.Recv == nil || len(fn.Recv.List) == 0 {
		return fn.Name.Name
	}
	recv := fn.Recv.List[0].Type
	star := ""
	if s, ok := recv.(*ast.StarExpr); ok {
		star, recv = "*", s.X
	}
	switch r := recv.(type) {
	case *ast.IndexExpr:
		recv = r.X
	case *ast.IndexListExpr:
		recv = r.X
	}
	name := "?"
	if id, ok := recv.(*ast.Ident); ok {
		name = id.Name
	}
	return fmt.Sprintf("(%s%s).%s", star, name, fn.Name.Name)
}

// relativePath returns file relative to dir when it lies inside dir, as go
// vet and staticcheck print paths; otherwise file unchanged.
func relativePath(dir, file string) string {
	if dir == "" || !filepath.IsAbs(file) {
		return file
	}
	rel, err := filepath.Rel(dir, file)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return file
	}
	return rel
}

// positionString prints posn as file:line:col with the file relative to
// dir.
func positionString(dir string, posn token.Position) string {
	if !posn.IsValid() {
		return "-"
	}
	posn.Filename = relativePath(dir, posn.Filename)
	return posn.String()
}

// printText prints each finding as `file:line:col: message (rule)`, then
// its related information indented by a tab after the position, as
// multichecker prints it, so that tools splitting on ": \t" still work.
// With contextLines >= 0 the finding's lines follow, with that many lines
// around them; with explain, the timeline of the finding's interleaving
// (analyzers.Interleaving) follows its related lines.
func printText(w io.Writer, findings []*finding, contextLines int, explain bool) {
	wd, _ := os.Getwd()
	for _, f := range findings {
		fset := f.pkg.Fset
		fmt.Fprintf(w, "%s: %s (%s)\n", positionString(wd, f.posn), f.diag.Message, f.rule())
		if contextLines >= 0 {
			printContext(w, f.posn, fset.Position(f.diag.End), contextLines)
		}
		for _, r := range f.diag.Related {
			posn := fset.Position(r.Pos)
			fmt.Fprintf(w, "%s: \t%s\n", positionString(wd, posn), r.Message)
		}
		if explain {
			if t, ok := analyzers.Interleaving(f.diag); ok {
				printTimeline(w, wd, fset, t)
			}
		}
	}
}

func printContext(w io.Writer, posn, end token.Position, contextLines int) {
	if !end.IsValid() {
		end = posn
	}
	data, err := os.ReadFile(posn.Filename)
	if err != nil {
		return
	}
	lines := strings.Split(string(data), "\n")
	for i := posn.Line - contextLines; i <= end.Line+contextLines; i++ {
		if 1 <= i && i <= len(lines) {
			fmt.Fprintf(w, "%d\t%s\n", i, lines[i-1])
		}
	}
}

// printJSON prints the findings in multichecker's -json shape: an object
// keyed by package ID, then by analyzer, holding the diagnostics, or
// {"error": "..."} for an analysis that failed. The shape is kept so that
// tools written for go vet -json read it; a finding the package and its
// test variant both report is listed under both IDs, as multichecker does,
// unless the baseline or -fix took it out.
func printJSON(w io.Writer, graph *checker.Graph, reported []*finding) error {
	keep := map[findingKey]bool{}
	for _, f := range reported {
		keep[f.key] = true
	}
	tree := map[string]map[string]any{}
	add := func(id, name string, v any) {
		if tree[id] == nil {
			tree[id] = map[string]any{}
		}
		tree[id][name] = v
	}
	for act := range graph.All() {
		if act.Err != nil {
			add(act.Package.ID, act.Analyzer.Name, jsonError{act.Err.Error()})
			continue
		}
		if !act.IsRoot {
			continue
		}
		var diags []jsonDiagnostic
		for _, d := range act.Diagnostics {
			if keep[keyOf(act.Analyzer, act.Package.Fset, d)] {
				diags = append(diags, toJSON(act.Package.Fset, d))
			}
		}
		if len(diags) > 0 {
			add(act.Package.ID, act.Analyzer.Name, diags)
		}
	}
	data, err := json.MarshalIndent(tree, "", "\t")
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "%s\n", data)
	return err
}

// The JSON types are multichecker's (x/tools' analysisflags), field for
// field.
type (
	jsonError struct {
		Err string `json:"error"`
	}
	jsonDiagnostic struct {
		Category       string        `json:"category,omitempty"`
		Posn           string        `json:"posn"`
		Message        string        `json:"message"`
		SuggestedFixes []jsonFix     `json:"suggested_fixes,omitempty"`
		Related        []jsonRelated `json:"related,omitempty"`
	}
	jsonFix struct {
		Message string     `json:"message"`
		Edits   []jsonEdit `json:"edits"`
	}
	jsonEdit struct {
		Filename string `json:"filename"`
		Start    int    `json:"start"`
		End      int    `json:"end"`
		New      string `json:"new"`
	}
	jsonRelated struct {
		Posn    string `json:"posn"`
		Message string `json:"message"`
	}
)

func toJSON(fset *token.FileSet, d analysis.Diagnostic) jsonDiagnostic {
	out := jsonDiagnostic{Category: d.Category, Posn: fset.Position(d.Pos).String(), Message: d.Message}
	for _, fix := range d.SuggestedFixes {
		var edits []jsonEdit
		for _, e := range fix.TextEdits {
			edits = append(edits, jsonEdit{
				Filename: fset.Position(e.Pos).Filename,
				Start:    fset.Position(e.Pos).Offset,
				End:      fset.Position(e.End).Offset,
				New:      string(e.NewText),
			})
		}
		out.SuggestedFixes = append(out.SuggestedFixes, jsonFix{fix.Message, edits})
	}
	for _, r := range d.Related {
		out.Related = append(out.Related, jsonRelated{fset.Position(r.Pos).String(), r.Message})
	}
	return out
}
