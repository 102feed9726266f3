package main

import (
	"fmt"
	"go/token"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/idemlint/idemlint/analyzers"
)

// -explain: the interleaving of each finding (analyzers.Interleaving), drawn
// under it as a table in the text output and in SARIF's message.markdown.

// timelineRow is one step as printed: where it runs, and what the actor
// does there and what it sees, in that actor's column.
type timelineRow struct {
	where      string
	actor      int
	does, sees string
}

func timelineRows(wd string, fset *token.FileSet, t analyzers.Timeline) []timelineRow {
	var rows []timelineRow
	for _, s := range t.Steps {
		rows = append(rows, timelineRow{lineString(wd, fset, s.Pos), s.Actor, s.Does, s.Sees})
	}
	return rows
}

// cell is the row's text in one line, for a Markdown table.
func (r timelineRow) cell() string {
	if r.sees == "" {
		return r.does
	}
	return r.does + " → " + r.sees
}

// lineString is file:line of pos, the file relative to wd; "-" for a
// step the finding names no position for. The column is left out: the
// related lines above give it, and a table line must not look like a
// finding to tools that parse file:line:col.
func lineString(wd string, fset *token.FileSet, pos token.Pos) string {
	if !pos.IsValid() {
		return "-"
	}
	posn := fset.Position(pos)
	return relativePath(wd, posn.Filename) + ":" + strconv.Itoa(posn.Line)
}

// printTimeline prints t as an aligned table in the form engineers draw
// races in: a column per actor, what each step sees on the line under it
// ("→ no row"), each line indented by a tab as the related information
// is; then the outcome and a blank line that sets the finding apart from
// the next.
func printTimeline(w io.Writer, wd string, fset *token.FileSet, t analyzers.Timeline) {
	rows := timelineRows(wd, fset, t)
	whereWidth, aWidth := 0, utf8.RuneCountInString(t.Actors[0])
	for _, r := range rows {
		whereWidth = max(whereWidth, utf8.RuneCountInString(r.where))
		if r.actor == 0 {
			aWidth = max(aWidth, utf8.RuneCountInString(r.does), utf8.RuneCountInString(seesLine(r.sees)))
		}
	}
	const gap = "   "
	line := func(where string, cells [2]string) {
		text := pad(where, whereWidth) + gap + cells[0]
		if cells[1] != "" {
			text = pad(text, whereWidth+len(gap)+aWidth) + gap + cells[1]
		}
		fmt.Fprintf(w, "\t%s\n", strings.TrimRight(text, " "))
	}
	rule := func(s string) string { return strings.Repeat("─", utf8.RuneCountInString(s)) }
	fmt.Fprintf(w, "\t%s:\n", t.Title)
	line("", t.Actors)
	line("", [2]string{rule(t.Actors[0]), rule(t.Actors[1])})
	for _, r := range rows {
		var cells [2]string
		cells[r.actor] = r.does
		line(r.where, cells)
		if r.sees != "" {
			cells[r.actor] = seesLine(r.sees)
			line("", cells)
		}
	}
	fmt.Fprintf(w, "\toutcome: %s\n\n", t.Outcome)
}

// seesLine is what a step sees, as printed under it.
func seesLine(sees string) string {
	if sees == "" {
		return ""
	}
	return "  → " + sees
}

// pad pads s with spaces to width characters.
func pad(s string, width int) string {
	if n := utf8.RuneCountInString(s); n < width {
		return s + strings.Repeat(" ", width-n)
	}
	return s
}

// findingMarkdown is the SARIF message.markdown of f: its headline, its
// detail, and its timeline as a table when its category has one.
func findingMarkdown(wd string, f *finding) string {
	var b strings.Builder
	b.WriteString(markdownEscape(f.diag.Message))
	if detail, _, ok := analyzers.Detail(f.diag); ok {
		b.WriteString("\n\n" + markdownEscape(detail))
	}
	if t, ok := analyzers.Interleaving(f.diag); ok {
		b.WriteString("\n\n" + timelineMarkdown(wd, f.pkg.Fset, t))
	}
	return b.String()
}

// timelineMarkdown draws t as a GitHub-flavoured Markdown table under its
// title, the outcome after it.
func timelineMarkdown(wd string, fset *token.FileSet, t analyzers.Timeline) string {
	var b strings.Builder
	fmt.Fprintf(&b, "*%s:*\n\n", markdownEscape(t.Title))
	fmt.Fprintf(&b, "| where | %s | %s |\n|---|---|---|\n", markdownEscape(t.Actors[0]), markdownEscape(t.Actors[1]))
	for _, r := range timelineRows(wd, fset, t) {
		where := markdownEscape(r.where)
		if r.where != "-" {
			where = "`" + strings.ReplaceAll(r.where, "`", "") + "`"
		}
		var cells [2]string
		cells[r.actor] = markdownEscape(r.cell())
		fmt.Fprintf(&b, "| %s | %s | %s |\n", where, cells[0], cells[1])
	}
	fmt.Fprintf(&b, "\n**Outcome:** %s", markdownEscape(t.Outcome))
	return b.String()
}

// markdownEscaper escapes the characters that Markdown would read as
// markup in our messages: a method's (*T) would start emphasis, a pipe
// would end a table cell.
var markdownEscaper = strings.NewReplacer(
	`\`, `\\`, "`", "\\`", `*`, `\*`, `_`, `\_`, `[`, `\[`, `]`, `\]`,
	`<`, `\<`, `>`, `\>`, `|`, `\|`, `#`, `\#`,
)

func markdownEscape(s string) string { return markdownEscaper.Replace(s) }
