package report

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"strings"
)

// Doc extracts an analyzer's documentation from the source of its doc.go,
// the way the analyzers in golang.org/x/tools do: the package comment holds
// a section
//
//	# Analyzer NAME
//
//	NAME: one-line summary
//
//	Full description, which may have further sections.
//
// Doc returns everything after "NAME: ", which is the form Analyzer.Doc
// expects (summary, blank line, details). It panics if the section is
// missing, so that a mistake fails every test at once.
func Doc(docGo, name string) string {
	doc, err := extractDoc(docGo, name)
	if err != nil {
		panic(err)
	}
	return doc
}

func extractDoc(docGo, name string) (string, error) {
	f, err := parser.ParseFile(token.NewFileSet(), "doc.go", docGo, parser.ParseComments|parser.PackageClauseOnly)
	if err != nil {
		return "", fmt.Errorf("doc.go of %s: %v", name, err)
	}
	if f.Doc == nil {
		return "", fmt.Errorf("doc.go of %s has no package comment", name)
	}
	return sectionOf(f.Doc, name)
}

func sectionOf(doc *ast.CommentGroup, name string) (string, error) {
	text := doc.Text()
	heading := "# Analyzer " + name + "\n"
	_, section, ok := strings.Cut(text, heading)
	if !ok {
		return "", fmt.Errorf("doc.go of %s lacks the heading %q", name, strings.TrimSpace(heading))
	}
	section = strings.TrimLeft(section, "\n")
	body, ok := strings.CutPrefix(section, name+": ")
	if !ok {
		return "", fmt.Errorf("doc.go of %s: the section %q must start with %q", name, strings.TrimSpace(heading), name+": ")
	}
	return strings.TrimSpace(body) + "\n", nil
}
