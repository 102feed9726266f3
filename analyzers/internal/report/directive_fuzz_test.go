package report_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"testing"

	"github.com/idemlint/idemlint/analyzers/internal/report"
)

// FuzzDirectives: any source after a package clause, compiling or not
// (the parser's partial file is used, as the drivers do for a package that
// does not type-check), gives directives without a panic, each either well
// formed, with names, a reason and lines it covers, or malformed with a
// diagnosis.
func FuzzDirectives(f *testing.F) {
	for _, seed := range []string{
		"//idemlint:ignore checkinsert emails are unique per tenant\nfunc f() {\n\tx := 1\n\t_ = x\n}\n",
		"func f() {\n\terr := s.db.WithContext(ctx). //idemlint:ignore lostupdate views are approximate\n\t\tSave(&p).Error\n}\n",
		"//idemlint:file-ignore retrypost/nokey,lostupdate generated client\n",
		"// idemlint:ignore checkinsert spaced\nvar x = 1\n",
		"//idemlint:ignore\nvar y = 2\n",
		"//idemlint:nosuchverb x y\n",
		"//idemlint:ignore checkinsert,, reason\ntype T struct{}\n",
		"func g() { /*idemlint:ignore x y*/ }\n",
		"//idemlint:ignore checkinsert reason\n",
		"var (\n\t//idemlint:ignore noversion why\n\ta = 1\n\tb = 2\n)\n",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, src string) {
		fset := token.NewFileSet()
		file, _ := parser.ParseFile(fset, "fuzz.go", "package p\n"+src, parser.ParseComments|parser.AllErrors)
		if file == nil {
			return
		}
		for _, d := range report.Directives(fset, []*ast.File{file}) {
			if d.Malformed != "" {
				continue
			}
			if len(d.Names) == 0 || d.Reason == "" {
				t.Errorf("well formed without names or a reason: %+v", d)
			}
			if d.Scope != report.ScopeFile && (d.FromLine < 1 || d.ToLine < d.FromLine) {
				t.Errorf("covers lines %d to %d: %+v", d.FromLine, d.ToLine, d)
			}
		}
	})
}
