package report

import (
	"go/ast"
	"go/token"
	"strings"
)

// directivePrefix starts an ignore directive. Like //go: and //nolint
// directives it has no space after the slashes.
const directivePrefix = "//idemlint:"

// A Directive is one //idemlint:ignore comment:
//
//	//idemlint:ignore NAME[,NAME] reason
//
// where NAME is an analyzer ("checkinsert") or one of its sub-rules
// ("checkinsert/race"). It covers findings on its own line and on the line
// below it, so it can trail the reported line or stand above it.
type Directive struct {
	Pos, End token.Pos
	Line     int    // line of the directive
	File     string // file name, as the token.File has it
	Names    []string
	Reason   string
	// Malformed says what is wrong with a directive that cannot be
	// honoured ("" when it is well formed). Malformed directives suppress
	// nothing.
	Malformed string

	used []bool // per name: it suppressed a finding
}

// Directives returns the //idemlint: directives in the comments of files,
// well formed or not, in file order.
func Directives(fset *token.FileSet, files []*ast.File) []*Directive {
	var out []*Directive
	for _, f := range files {
		for _, group := range f.Comments {
			for _, c := range group.List {
				if d := parseDirective(fset, c); d != nil {
					out = append(out, d)
				}
			}
		}
	}
	return out
}

// parseDirective returns the directive in c, or nil if c is an ordinary
// comment. A comment that looks like a misspelt directive ("// idemlint:ignore")
// is returned as malformed, so that ignoredirective can point at it.
func parseDirective(fset *token.FileSet, c *ast.Comment) *Directive {
	text := c.Text
	var malformed string
	switch {
	case strings.HasPrefix(text, directivePrefix):
	case strings.HasPrefix(strings.Join(strings.Fields(text), ""), directivePrefix) && strings.HasPrefix(text, "//"):
		// "// idemlint:ignore x": Go directives have no space after //.
		malformed = "a directive has no space after //: write //idemlint:ignore"
		text = directivePrefix + strings.TrimPrefix(strings.TrimSpace(strings.TrimPrefix(text, "//")), "idemlint:")
	default:
		return nil
	}
	posn := fset.Position(c.Pos())
	d := &Directive{Pos: c.Pos(), End: c.End(), Line: posn.Line, File: posn.Filename, Malformed: malformed}

	verb, rest, _ := strings.Cut(strings.TrimPrefix(text, directivePrefix), " ")
	if verb != "ignore" {
		if d.Malformed == "" {
			d.Malformed = "unknown directive //idemlint:" + verb + ": the only one is //idemlint:ignore NAME[,NAME] reason"
		}
		return d
	}
	rest = strings.TrimSpace(rest)
	list, reason, _ := strings.Cut(rest, " ")
	d.Reason = strings.TrimSpace(reason)
	if list != "" {
		d.Names = strings.Split(list, ",")
	}
	d.used = make([]bool, len(d.Names))
	if d.Malformed != "" {
		return d
	}
	switch {
	case len(d.Names) == 0:
		d.Malformed = "//idemlint:ignore names no analyzer: write //idemlint:ignore NAME[,NAME] reason"
	case d.Reason == "":
		d.Malformed = "//idemlint:ignore needs a reason after the names, so the next reader knows why the finding is wrong"
	default:
		for _, name := range d.Names {
			if name == "" {
				d.Malformed = "//idemlint:ignore has an empty name in its list: separate names with a comma and no spaces"
				break
			}
			if !KnownName(analyzerOf(name)) {
				d.Malformed = "//idemlint:ignore names " + name + ", which is not an idemlint analyzer"
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

// suppressed reports whether a well-formed directive on the line of pos or
// the line above covers category, and marks the names that did.
func (r *Reporter) suppressed(pos token.Pos, category string) bool {
	directives := r.allDirectives()
	if len(directives) == 0 {
		return false
	}
	posn := r.pass.Fset.Position(pos)
	hit := false
	for _, d := range directives {
		if d.Malformed != "" || d.File != posn.Filename || (d.Line != posn.Line && d.Line != posn.Line-1) {
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
