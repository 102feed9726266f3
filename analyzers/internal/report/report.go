// Package report is the one way idemlint analyzers report findings.
//
// It owns what every finding has in common: the message voice (lowercase, no
// trailing period), the sub-rule ID carried in Diagnostic.Category
// ("checkinsert/race"), the documentation URL, the //idemlint:ignore
// directives, the rule that nothing is reported in generated files, and the
// panic guard that turns a crash in our own code into one internal-error
// diagnostic instead of a dead editor or CI job.
package report

import (
	"fmt"
	"go/ast"
	"go/token"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"golang.org/x/tools/go/analysis"
)

// URLBase is where each analyzer's documentation lives; Analyzer.URL is
// URLBase + name.
const URLBase = "https://pkg.go.dev/github.com/idemlint/idemlint/analyzers/"

// URL returns the documentation URL of the named analyzer.
func URL(name string) string { return URLBase + name }

// Names are the analyzer names users may write in ignore directives and
// configurations. They are fixed by the project's design, whether or not the
// analyzer has landed yet, so that a directive written today stays valid.
var Names = []string{
	"checkinsert",
	"lostupdate",
	"noversion",
	"lockacrosscall",
	"retrypost",
	"checkupdate",
	"ttllock",
	"nolease",
	"upsertall",
	"nodedup",
	"lockorder",
	"stuckclaim",
	"ignoredirective",
}

// KnownName reports whether name is one of Names.
func KnownName(name string) bool {
	for _, n := range Names {
		if n == name {
			return true
		}
	}
	return false
}

// A Finding is one hazard, as an analyzer describes it.
type Finding struct {
	Pos, End token.Pos
	// Rule is the sub-rule within the analyzer ("race" for
	// checkinsert/race); the diagnostic's Category is "analyzer/rule".
	Rule string
	// Message says what two concurrent callers (or a retry) do and what to
	// do instead, naming the evidence by function. Lowercase, no trailing
	// period.
	Message string
	Related []analysis.RelatedInformation
	Fixes   []analysis.SuggestedFix
}

// Reporter reports the findings of one analyzer on one package. Create it
// with New at the start of Run and call Finish at the end.
type Reporter struct {
	pass       *analysis.Pass
	directives []*Directive // parsed lazily by allDirectives
	parsed     bool
	generated  map[*token.File]bool

	// pending buffers the findings of the function being analysed inside
	// Func, so that a panic drops them all.
	pending   []analysis.Diagnostic
	inFunc    bool
	abandoned []span // functions abandoned after a panic
}

// A span is the source range of a function.
type span struct{ pos, end token.Pos }

// New returns a Reporter for pass.
func New(pass *analysis.Pass) *Reporter {
	r := &Reporter{pass: pass, generated: make(map[*token.File]bool)}
	for _, f := range pass.Files {
		if ast.IsGenerated(f) {
			r.generated[pass.Fset.File(f.Pos())] = true
		}
	}
	return r
}

// Report reports f unless it lies in a generated file or an
// //idemlint:ignore directive naming this analyzer covers it.
func (r *Reporter) Report(f Finding) {
	name := r.pass.Analyzer.Name
	if err := CheckVoice(f.Message); err != nil {
		if testing.Testing() {
			panic(fmt.Sprintf("%s: %v", name, err))
		}
		f.Message = fixVoice(f.Message)
	}
	if r.generated[r.pass.Fset.File(f.Pos)] {
		return
	}
	category := name
	if f.Rule != "" {
		category = name + "/" + f.Rule
	}
	if r.suppressed(f.Pos, category) {
		return
	}
	d := analysis.Diagnostic{
		Pos:            f.Pos,
		End:            f.End,
		Category:       category,
		Message:        f.Message,
		Related:        f.Related,
		SuggestedFixes: f.Fixes,
	}
	if r.inFunc {
		r.pending = append(r.pending, d)
		return
	}
	r.pass.Report(d)
}

// Func runs analyse, which examines the function named fn spanning pos to
// end. Findings reported during analyse are delivered only if it returns
// normally; if it panics, they are dropped, one internal-error diagnostic
// naming fn is reported at pos, and the analysis goes on with the next
// function.
func (r *Reporter) Func(fn string, pos, end token.Pos, analyse func()) {
	if r.inFunc { // nested: the outer Func owns the buffer and the guard
		analyse()
		return
	}
	r.inFunc = true
	defer func() {
		r.inFunc = false
		pending := r.pending
		r.pending = nil
		if p := recover(); p != nil {
			r.abandoned = append(r.abandoned, span{pos, end})
			reportInternal(r.pass, pos, fn, p)
			return
		}
		for _, d := range pending {
			r.pass.Report(d)
		}
	}()
	analyse()
}

// Finish reports the ignore directives naming this analyzer that suppressed
// nothing, except inside functions abandoned after a panic, whose findings
// are unknown.
func (r *Reporter) Finish() {
	name := r.pass.Analyzer.Name
	for _, d := range r.allDirectives() {
		if d.Malformed != "" || r.inAbandoned(d.Pos) {
			continue
		}
		for i, target := range d.Names {
			if analyzerOf(target) != name || d.used[i] {
				continue
			}
			r.pass.Report(analysis.Diagnostic{
				Pos:      d.Pos,
				End:      d.End,
				Category: name + "/unused-ignore",
				Message:  fmt.Sprintf("this //idemlint:ignore names %s but %s reports nothing here: remove %s from it", target, name, target),
			})
		}
	}
}

func (r *Reporter) inAbandoned(pos token.Pos) bool {
	for _, s := range r.abandoned {
		if s.pos <= pos && pos < s.end {
			return true
		}
	}
	return false
}

// CheckVoice enforces the message convention: lowercase first letter (unless
// the message starts with an identifier such as "GORM" or "SQL") and no
// trailing period.
func CheckVoice(msg string) error {
	if msg == "" {
		return fmt.Errorf("empty message")
	}
	if strings.HasSuffix(msg, ".") {
		return fmt.Errorf("message ends with a period: %q", msg)
	}
	first, _ := utf8.DecodeRuneInString(msg)
	if unicode.IsUpper(first) && !startsWithAcronym(msg) {
		return fmt.Errorf("message starts with a capital letter: %q", msg)
	}
	return nil
}

func fixVoice(msg string) string {
	msg = strings.TrimSuffix(msg, ".")
	if first, size := utf8.DecodeRuneInString(msg); unicode.IsUpper(first) && !startsWithAcronym(msg) {
		msg = string(unicode.ToLower(first)) + msg[size:]
	}
	if msg == "" {
		msg = "(no message)"
	}
	return msg
}

// startsWithAcronym reports whether msg starts with a word of two or more
// capitals ("SQL", "GORM", "UPDATE"), which keeps its case.
func startsWithAcronym(msg string) bool {
	word, _, _ := strings.Cut(msg, " ")
	if utf8.RuneCountInString(word) < 2 {
		return false
	}
	for _, r := range word {
		if unicode.IsLower(r) {
			return false
		}
	}
	return true
}
