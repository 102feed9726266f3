package main

import (
	"encoding/json"
	"fmt"
	"go/doc/comment"
	"go/token"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"unicode/utf16"

	"golang.org/x/tools/go/analysis"

	"github.com/idemlint/idemlint/analyzers"
)

// The SARIF 2.1.0 objects idemlint writes; field names are the
// specification's.
type (
	sarifLog struct {
		Schema  string     `json:"$schema"`
		Version string     `json:"version"`
		Runs    []sarifRun `json:"runs"`
	}
	sarifRun struct {
		Tool               sarifTool                   `json:"tool"`
		OriginalURIBaseIDs map[string]sarifArtifactLoc `json:"originalUriBaseIds,omitempty"`
		Results            []sarifResult               `json:"results"`
	}
	sarifTool struct {
		Driver sarifDriver `json:"driver"`
	}
	sarifDriver struct {
		Name           string      `json:"name"`
		InformationURI string      `json:"informationUri"`
		Version        string      `json:"version,omitempty"`
		Rules          []sarifRule `json:"rules"`
	}
	sarifRule struct {
		ID                   string       `json:"id"`
		ShortDescription     sarifMessage `json:"shortDescription"`
		FullDescription      sarifMessage `json:"fullDescription"`
		HelpURI              string       `json:"helpUri"`
		Help                 sarifMessage `json:"help"`
		DefaultConfiguration sarifConfig  `json:"defaultConfiguration"`
	}
	sarifConfig struct {
		Level string `json:"level"`
	}
	sarifMessage struct {
		Text     string `json:"text"`
		Markdown string `json:"markdown,omitempty"`
	}
	sarifResult struct {
		RuleID              string            `json:"ruleId"`
		RuleIndex           int               `json:"ruleIndex"`
		Level               string            `json:"level"`
		Message             sarifMessage      `json:"message"`
		Locations           []sarifLocation   `json:"locations"`
		RelatedLocations    []sarifLocation   `json:"relatedLocations,omitempty"`
		PartialFingerprints map[string]string `json:"partialFingerprints"`
	}
	sarifLocation struct {
		ID               *int          `json:"id,omitempty"`
		PhysicalLocation sarifPhysical `json:"physicalLocation"`
		Message          *sarifMessage `json:"message,omitempty"`
	}
	sarifPhysical struct {
		ArtifactLocation sarifArtifactLoc `json:"artifactLocation"`
		Region           *sarifRegion     `json:"region,omitempty"`
	}
	sarifArtifactLoc struct {
		URI       string `json:"uri"`
		URIBaseID string `json:"uriBaseId,omitempty"`
	}
	sarifRegion struct {
		StartLine   int `json:"startLine"`
		StartColumn int `json:"startColumn,omitempty"`
		EndLine     int `json:"endLine,omitempty"`
		EndColumn   int `json:"endColumn,omitempty"`
	}
)

const (
	sarifSchema = "https://json.schemastore.org/sarif-2.1.0.json"
	// srcRoot is the base the result URIs are relative to: the working
	// directory, which a CI job runs idemlint in at the repository root.
	srcRoot = "%SRCROOT%"
	// fingerprintKey names the baseline fingerprint among a result's
	// partialFingerprints; "/v1" changes when the fingerprint does.
	fingerprintKey = "idemlintFingerprint/v1"
)

// writeSARIFTo writes the SARIF log of the findings to the file name, or
// to stdout for "-".
func writeSARIFTo(name string, stdout io.Writer, selected []*analysis.Analyzer, findings []*finding, wd string) error {
	if name == "-" {
		return writeSARIF(stdout, selected, findings, wd)
	}
	f, err := os.Create(name)
	if err != nil {
		return err
	}
	if err := writeSARIF(f, selected, findings, wd); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// writeSARIF writes one run: a rule per sub-rule of the analyzers that ran
// (as their documentation lists them, and any other a finding names), a
// result per finding, counted once across package variants.
func writeSARIF(w io.Writer, selected []*analysis.Analyzer, findings []*finding, wd string) error {
	rules := sarifRules(selected, findings)
	index := map[string]int{}
	for i, r := range rules {
		index[r.ID] = i
	}
	results := []sarifResult{}
	cols := utf16Columns{}
	for _, f := range findings {
		fset := f.pkg.Fset
		// The message is the headline and the detail; the related
		// locations are the evidence (the detail is at the finding's own
		// location, which code scanning would show twice).
		text := f.diag.Message
		detail, evidence, ok := analyzers.Detail(f.diag)
		if ok {
			text += "\n\n" + detail
		}
		res := sarifResult{
			RuleID:              f.rule(),
			RuleIndex:           index[f.rule()],
			Level:               "warning",
			Message:             sarifMessage{Text: text, Markdown: findingMarkdown(wd, f)},
			Locations:           []sarifLocation{cols.location(wd, f.posn, fset.Position(f.diag.End), nil, nil)},
			PartialFingerprints: map[string]string{fingerprintKey: entryOf(f).fingerprint()},
		}
		for i, r := range evidence {
			id := i + 1
			msg := &sarifMessage{Text: r.Message}
			res.RelatedLocations = append(res.RelatedLocations,
				cols.location(wd, fset.Position(r.Pos), fset.Position(r.End), &id, msg))
		}
		results = append(results, res)
	}
	run := sarifRun{
		Tool: sarifTool{Driver: sarifDriver{
			Name:           "idemlint",
			InformationURI: "https://github.com/idemlint/idemlint",
			Version:        moduleVersion(),
			Rules:          rules,
		}},
		Results: results,
	}
	if wd != "" {
		run.OriginalURIBaseIDs = map[string]sarifArtifactLoc{srcRoot: {URI: fileURI(wd) + "/"}}
	}
	data, err := json.MarshalIndent(sarifLog{Schema: sarifSchema, Version: "2.1.0", Runs: []sarifRun{run}}, "", "  ")
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "%s\n", data)
	return err
}

// utf16Columns converts Go's columns (bytes from the start of the line,
// counting from 1) to SARIF's default columnKind, UTF-16 code units, as
// code scanning places them: a line with non-ASCII text before the
// finding would otherwise be marked too far right. It reads each file
// once; a file it cannot read keeps the byte columns.
type utf16Columns map[string][]string

func (c utf16Columns) column(p token.Position) int {
	lines, ok := c[p.Filename]
	if !ok {
		if data, err := os.ReadFile(p.Filename); err == nil {
			lines = strings.Split(string(data), "\n")
		}
		c[p.Filename] = lines
	}
	if p.Line < 1 || p.Line > len(lines) || p.Column < 1 {
		return p.Column
	}
	line := lines[p.Line-1]
	prefix := line[:min(p.Column-1, len(line))]
	n := 0
	for _, r := range prefix {
		n += utf16.RuneLen(r)
	}
	return n + 1 + max(0, p.Column-1-len(line)) // a column past the line's end stays past it
}

func (c utf16Columns) location(wd string, p, e token.Position, id *int, msg *sarifMessage) sarifLocation {
	if p.Column > 0 {
		p.Column = c.column(p)
	}
	if e.IsValid() && e.Column > 0 {
		e.Column = c.column(e)
	}
	return sarifLocationOf(wd, p, e, id, msg)
}

func sarifLocationOf(wd string, p, e token.Position, id *int, msg *sarifMessage) sarifLocation {
	loc := sarifLocation{ID: id, Message: msg}
	rel := relativePath(wd, p.Filename)
	if rel != p.Filename || !filepath.IsAbs(rel) {
		loc.PhysicalLocation.ArtifactLocation = sarifArtifactLoc{URI: escapePath(filepath.ToSlash(rel)), URIBaseID: srcRoot}
	} else {
		loc.PhysicalLocation.ArtifactLocation = sarifArtifactLoc{URI: fileURI(p.Filename)}
	}
	if p.Line > 0 {
		r := &sarifRegion{StartLine: p.Line, StartColumn: p.Column}
		if e.IsValid() && e.Filename == p.Filename && (e.Line > p.Line || e.Line == p.Line && e.Column > p.Column) {
			r.EndLine, r.EndColumn = e.Line, e.Column
		}
		loc.PhysicalLocation.Region = r
	}
	return loc
}

// fileURI is the file:// URI of an absolute path, as editors send it
// (file:///C:/... on Windows).
func fileURI(path string) string {
	p := filepath.ToSlash(path)
	if !strings.HasPrefix(p, "/") {
		p = "/" + p
	}
	return (&url.URL{Scheme: "file", Path: p}).String()
}

// escapePath escapes a relative slash-separated path for a URI reference.
func escapePath(p string) string {
	return (&url.URL{Path: p}).String()
}

// sarifRules returns the rules of the analyzers that ran, in registry
// order, then any rule a finding names that their documentation does not
// list.
func sarifRules(selected []*analysis.Analyzer, findings []*finding) []sarifRule {
	var rules []sarifRule
	seen := map[string]bool{}
	for _, a := range selected {
		for _, r := range documentedRules(a) {
			if !seen[r.ID] {
				seen[r.ID] = true
				rules = append(rules, r)
			}
		}
	}
	for _, f := range findings {
		if id := f.rule(); !seen[id] {
			seen[id] = true
			rules = append(rules, bareRule(f.analyzer, id))
		}
	}
	return rules
}

// documentedRules reads a's sub-rules from its documentation, where each
// is a list item "NAME/RULE: description" (the same text as
// docs/analyzers/NAME.md); an analyzer that lists none is one rule, NAME.
func documentedRules(a *analysis.Analyzer) []sarifRule {
	_, body, _ := strings.Cut(a.Doc, "\n")
	var p comment.Parser
	var rules []sarifRule
	for _, block := range p.Parse(body).Content {
		list, ok := block.(*comment.List)
		if !ok {
			continue
		}
		for _, item := range list.Items {
			var text strings.Builder
			for _, b := range item.Content {
				if para, ok := b.(*comment.Paragraph); ok {
					text.WriteString(plainText(para.Text))
				}
			}
			id, desc, ok := strings.Cut(strings.Join(strings.Fields(text.String()), " "), ": ")
			if !ok || !strings.HasPrefix(id, a.Name+"/") || strings.ContainsAny(id, " ") {
				continue
			}
			rules = append(rules, ruleOf(a, id, desc))
		}
	}
	// A sub-rule the documentation names in passing ("(lostupdate/writeback)")
	// but does not describe in a list is described by the summary.
	listed := map[string]bool{}
	for _, r := range rules {
		listed[r.ID] = true
	}
	for _, m := range regexp.MustCompile(regexp.QuoteMeta(a.Name)+`/[a-z][a-z-]*[a-z]`).FindAllString(a.Doc, -1) {
		if !listed[m] {
			listed[m] = true
			rules = append(rules, bareRule(a, m))
		}
	}
	if len(rules) == 0 {
		rules = append(rules, bareRule(a, a.Name))
	}
	return rules
}

// bareRule is a rule the documentation does not describe apart: its
// analyzer's summary describes it.
func bareRule(a *analysis.Analyzer, id string) sarifRule {
	summary, _, _ := strings.Cut(a.Doc, "\n")
	return ruleOf(a, id, strings.TrimSpace(summary))
}

func ruleOf(a *analysis.Analyzer, id, desc string) sarifRule {
	short := desc
	if i := strings.Index(short, ". "); i > 0 {
		short = short[:i]
	}
	short = strings.TrimSuffix(short, ".")
	url := a.URL
	return sarifRule{
		ID:                   id,
		ShortDescription:     sarifMessage{Text: short},
		FullDescription:      sarifMessage{Text: desc},
		HelpURI:              url,
		Help:                 sarifMessage{Text: desc + "\n\nDocumentation: " + url, Markdown: desc + "\n\n[Documentation](" + url + ")"},
		DefaultConfiguration: sarifConfig{Level: "warning"},
	}
}

// plainText flattens a doc comment's inline text.
func plainText(texts []comment.Text) string {
	var b strings.Builder
	for _, t := range texts {
		switch t := t.(type) {
		case comment.Plain:
			b.WriteString(string(t))
		case comment.Italic:
			b.WriteString(string(t))
		case *comment.Link:
			b.WriteString(plainText(t.Text))
		case *comment.DocLink:
			b.WriteString(plainText(t.Text))
		}
	}
	return b.String()
}
