package report

import (
	"go/ast"
	"go/token"
	"strings"

	"github.com/idemlint/idemlint/analyzers/config"
)

// directivePrefix starts an ignore directive. Like //go: and //nolint
// directives it has no space after the slashes.
const directivePrefix = "//idemlint:"

// The directive verbs.
const (
	verbIgnore     = "ignore"
	verbFileIgnore = "file-ignore"
)

// A Directive is one //idemlint:ignore or //idemlint:file-ignore comment:
//
//	//idemlint:ignore NAME[,NAME] reason
//	//idemlint:file-ignore NAME[,NAME] reason
//
// where NAME is an analyzer ("checkinsert") or one of its sub-rules
// ("checkinsert/race"). What it covers is its Scope: an ignore trailing
// code covers its own line and the line below it; one on a line of its
// own covers the statement or declaration that starts on the next line,
// all of its lines (the innermost such, as golangci-lint's //nolint does),
// or just the next line when none starts there; a file-ignore covers its
// file.
type Directive struct {
	Pos, End token.Pos
	Line     int    // line of the directive
	File     string // file name, as the token.File has it
	Verb     string // "ignore" or "file-ignore"
	Names    []string
	Reason   string
	// Malformed says what is wrong with a directive that cannot be
	// honoured ("" when it is well formed). Malformed directives suppress
	// nothing.
	Malformed string

	Scope Scope
	// FromLine and ToLine are the lines covered (Scope other than
	// ScopeFile).
	FromLine, ToLine int
	// Subject names what a line directive covers, for the message that
	// says it covers nothing: "the statement below", "the declaration of
	// Save below".
	Subject string
	// coverPos and coverEnd are the source range covered, to tell
	// whether it overlaps a function whose findings this pass does not
	// all know.
	coverPos, coverEnd token.Pos

	used []bool // per name: it suppressed a finding
}

// A Scope is what a directive covers.
type Scope int

const (
	// ScopeTrailing: an ignore after code on its line covers that line
	// and the next.
	ScopeTrailing Scope = iota
	// ScopeNextLine: an ignore on a line of its own above a line where no
	// statement or declaration starts covers that line.
	ScopeNextLine
	// ScopeStatement: an ignore on a line of its own covers the innermost
	// statement starting on the next line, all its lines.
	ScopeStatement
	// ScopeDeclaration: likewise for a declaration (func, var, const,
	// type, or one spec of a group).
	ScopeDeclaration
	// ScopeFile: a file-ignore covers its file.
	ScopeFile
)

// Directives returns the //idemlint: directives in the comments of files,
// well formed or not, in file order, each with what it covers.
func Directives(fset *token.FileSet, files []*ast.File) []*Directive {
	var out []*Directive
	for _, f := range files {
		var inFile []*Directive
		for _, group := range f.Comments {
			for _, c := range group.List {
				if d := parseDirective(fset, c); d != nil {
					inFile = append(inFile, d)
				}
			}
		}
		if len(inFile) > 0 {
			scope(fset, f, inFile)
		}
		out = append(out, inFile...)
	}
	return out
}

// parseDirective returns the directive in c, or nil if c is an ordinary
// comment. A comment that looks like a misspelt directive ("// idemlint:ignore")
// is returned as malformed, so that ignoredirective can point at it.
//
// The Malformed texts are diagnoses: each says that the directive
// suppresses nothing and why.
func parseDirective(fset *token.FileSet, c *ast.Comment) *Directive {
	text := c.Text
	spaced := false
	switch {
	case strings.HasPrefix(text, directivePrefix):
	case strings.HasPrefix(strings.Join(strings.Fields(text), ""), directivePrefix) && strings.HasPrefix(text, "//"):
		// "// idemlint:ignore x": Go directives have no space after //.
		spaced = true
		text = directivePrefix + strings.TrimPrefix(strings.TrimSpace(strings.TrimPrefix(text, "//")), "idemlint:")
	default:
		return nil
	}
	posn := fset.Position(c.Pos())
	d := &Directive{Pos: c.Pos(), End: c.End(), Line: posn.Line, File: posn.Filename}

	verb, rest, _ := strings.Cut(strings.TrimPrefix(text, directivePrefix), " ")
	d.Verb = verb
	const nothing = "this directive suppresses nothing: "
	switch {
	case spaced:
		if verb != verbIgnore && verb != verbFileIgnore {
			verb = verbIgnore
		}
		d.Malformed = "this comment suppresses nothing: with a space after // it is not a directive; write //idemlint:" + verb
		return d
	case verb != verbIgnore && verb != verbFileIgnore:
		d.Malformed = nothing + "idemlint has no //idemlint:" + verb + " (its directives are //idemlint:ignore and //idemlint:file-ignore NAME[,NAME] reason)"
		return d
	}
	if verb == verbFileIgnore {
		d.Scope = ScopeFile
		d.Subject = "in this file"
	}
	rest = strings.TrimSpace(rest)
	list, reason, _ := strings.Cut(rest, " ")
	d.Reason = strings.TrimSpace(reason)
	if list != "" {
		d.Names = strings.Split(list, ",")
	}
	d.used = make([]bool, len(d.Names))
	switch {
	case len(d.Names) == 0:
		d.Malformed = nothing + "it names no analyzer (write //idemlint:" + verb + " NAME[,NAME] reason)"
	case d.Reason == "":
		d.Malformed = nothing + "it gives no reason after " + list + ", and the next reader needs one to trust it"
	default:
		for _, name := range d.Names {
			if name == "" {
				d.Malformed = nothing + "its list has an empty name (a stray comma, or a space inside the list)"
				break
			}
			if err := config.CheckRuleName(name); err != nil {
				d.Malformed = nothing + err.Error()
				break
			}
		}
	}
	return d
}

// analyzerOf returns the analyzer part of a directive name ("checkinsert"
// for "checkinsert/race").
func analyzerOf(name string) string {
	a, _, _ := strings.Cut(name, "/")
	return a
}

// covers reports whether name in a directive covers a finding of category
// ("checkinsert" covers "checkinsert/race"; "checkinsert/race" covers only
// itself).
func covers(name, category string) bool {
	return name == category || name == analyzerOf(category)
}

// coversLine reports whether d covers the line of a finding in d's file.
func (d *Directive) coversLine(line int) bool {
	return d.Scope == ScopeFile || d.FromLine <= line && line <= d.ToLine
}

func (r *Reporter) allDirectives() []*Directive {
	if !r.parsed {
		r.parsed = true
		var files []*ast.File
		for _, f := range r.pass.Files {
			if !r.generated[r.pass.Fset.File(f.Pos())] {
				files = append(files, f)
			}
		}
		r.directives = Directives(r.pass.Fset, files)
	}
	return r.directives
}

// suppressed reports whether a well-formed directive covering pos names
// category, and marks the names that did.
func (r *Reporter) suppressed(pos token.Pos, category string) bool {
	directives := r.allDirectives()
	if len(directives) == 0 {
		return false
	}
	posn := r.pass.Fset.Position(pos)
	hit := false
	for _, d := range directives {
		if d.Malformed != "" || d.File != posn.Filename || !d.coversLine(posn.Line) {
			continue
		}
		for i, name := range d.Names {
			if covers(name, category) {
				d.used[i] = true
				hit = true
			}
		}
	}
	return hit
}

// unusedMessage says that name in d suppressed nothing, and where it
// looked.
func (d *Directive) unusedMessage(name string) string {
	what := "this directive"
	if len(d.Names) > 1 {
		what = name + " in this directive"
	}
	return what + " suppresses nothing: no " + name + " finding " + d.Subject
}
