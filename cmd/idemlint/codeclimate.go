package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"

	"github.com/idemlint/idemlint/analyzers"
)

// A codeClimateIssue is one entry of the report GitLab's code quality
// widget reads: the subset of the CodeClimate issue format that GitLab
// documents (https://docs.gitlab.com/ci/testing/code_quality/, "Code
// Quality report format") as required of a custom tool's report, a JSON
// array of objects with description, check_name, fingerprint, severity
// (one of info, minor, major, critical, blocker), location.path (relative
// to the repository root, no leading ./) and location.lines.begin, the
// fields golangci-lint's code-climate output has. GitLab ignores the other
// CodeClimate fields; content.body, the finding's detail, is written for
// the other readers of the format.
type codeClimateIssue struct {
	Description string              `json:"description"`
	CheckName   string              `json:"check_name"`
	Fingerprint string              `json:"fingerprint"`
	Severity    string              `json:"severity"`
	Location    codeClimateLocation `json:"location"`
	// Content is the finding's detail (evidence, consequence, fix), the
	// Code Climate spec's optional body; GitLab shows the description.
	Content *codeClimateContent `json:"content,omitempty"`
}

type codeClimateContent struct {
	Body string `json:"body"`
}

type (
	codeClimateLocation struct {
		Path  string           `json:"path"`
		Lines codeClimateLines `json:"lines"`
	}
	codeClimateLines struct {
		Begin int `json:"begin"`
	}
)

// codeClimateSeverity is every finding's: a race or a lost write is a
// bug to fix before merging, not a style note (info, minor), nor an outage
// in itself (critical, blocker).
const codeClimateSeverity = "major"

// writeCodeClimateTo writes the code quality report of the findings to
// the file name, or to stdout for "-".
func writeCodeClimateTo(name string, stdout io.Writer, findings []*finding, wd string) error {
	if name == "-" {
		return writeCodeClimate(stdout, findings, wd)
	}
	f, err := os.Create(name)
	if err != nil {
		return err
	}
	if err := writeCodeClimate(f, findings, wd); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// writeCodeClimate writes one issue per finding, counted once across
// package variants, in the findings' order (file and position), so that
// two runs on the same code write the same bytes.
func writeCodeClimate(w io.Writer, findings []*finding, wd string) error {
	issues := []codeClimateIssue{}
	seen := map[string]int{}
	for _, f := range findings {
		var content *codeClimateContent
		if detail, _, ok := analyzers.Detail(f.diag); ok {
			content = &codeClimateContent{Body: detail}
		}
		issues = append(issues, codeClimateIssue{
			Description: f.diag.Message,
			CheckName:   f.rule(),
			Fingerprint: codeClimateFingerprint(entryOf(f).fingerprint(), seen),
			Severity:    codeClimateSeverity,
			Location: codeClimateLocation{
				Path:  filepath.ToSlash(relativePath(wd, f.posn.Filename)),
				Lines: codeClimateLines{Begin: f.posn.Line},
			},
			Content: content,
		})
	}
	data, err := json.MarshalIndent(issues, "", "  ")
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "%s\n", data)
	return err
}

// codeClimateFingerprint is the baseline fingerprint, which SARIF's
// partialFingerprints carry too: no line in it, so GitLab matches a
// finding across commits that move it and shows it as new only when the
// baseline would. GitLab keys a report's issues by fingerprint, so two
// identical findings in one function (one baseline entry each) would be
// shown as one: the second and later occurrences, in position order, get
// the fingerprint hashed with their occurrence number.
func codeClimateFingerprint(fp string, seen map[string]int) string {
	seen[fp]++
	if n := seen[fp]; n > 1 {
		sum := sha256.Sum256([]byte(fp + "\x00" + strconv.Itoa(n)))
		return hex.EncodeToString(sum[:])
	}
	return fp
}
