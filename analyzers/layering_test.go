package analyzers_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/idemlint/idemlint/analyzers/internal/dialect"
	"github.com/idemlint/idemlint/analyzers/internal/knowledge"
)

// TestLayering: no analyzer names a library, and no layer below them
// spells a library's import path or compares a knowledge row's function
// or receiver name (row.Func.Name == "Save"), outside the knowledge tables
// and the dialects. The design is one place per library (its knowledge
// rows and its dialect); the per-file allowances the test once had for
// what was left to move are gone, every move made.
func TestLayering(t *testing.T) {
	paths := knowledge.Packages()
	libs := dialect.Libs()
	names := func(lit string) bool {
		for _, p := range paths {
			if !strings.ContainsAny(p, "./") {
				continue // "time", "net": words SQL and prose use too
			}
			if lit == p || strings.HasPrefix(lit, p+"/") || strings.HasPrefix(lit, p+".") {
				return true
			}
		}
		return false
	}
	got, gotNames := map[string]int{}, map[string]int{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch filepath.ToSlash(path) {
			case "internal/knowledge", "internal/dialect", "internal/docgen", "internal/testutil":
				return filepath.SkipDir
			}
			if d.Name() == "testdata" {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		rel := filepath.ToSlash(path)
		analyzer := !strings.HasPrefix(rel, "internal/") && strings.Contains(rel, "/")
		imports := map[*ast.BasicLit]bool{}
		for _, imp := range f.Imports {
			imports[imp.Path] = true
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.BinaryExpr:
				if (x.Op == token.EQL || x.Op == token.NEQ) && (rowName(x.X) && isString(x.Y) || rowName(x.Y) && isString(x.X)) {
					gotNames[rel]++
				}
			case *ast.SwitchStmt:
				if rowName(x.Tag) {
					gotNames[rel]++
				}
			}
			lit, ok := n.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING || imports[lit] {
				return true
			}
			s, err := strconv.Unquote(lit.Value)
			if err != nil {
				return true
			}
			if names(s) {
				got[rel]++
			}
			if analyzer && slices.Contains(libs, s) {
				t.Errorf("%s: an analyzer names the library %q: ask its dialect (dialect.For(lib)) instead", fset.Position(lit.Pos()), s)
			}
			return true
		})
		return nil
	})
	require.NoError(t, err)
	assert.Empty(t, got, "library import paths outside knowledge and the dialects (move them into the library's dialect)")
	assert.Empty(t, gotNames, "comparisons of library function names outside knowledge and the dialects (move them into the library's dialect or a knowledge row)")
}

// rowName reports whether e is a knowledge row's function or receiver
// name: X.Func.Name or X.Func.Recv.
func rowName(e ast.Expr) bool {
	sel, ok := e.(*ast.SelectorExpr)
	if !ok || (sel.Sel.Name != "Name" && sel.Sel.Name != "Recv") {
		return false
	}
	inner, ok := sel.X.(*ast.SelectorExpr)
	return ok && inner.Sel.Name == "Func"
}

func isString(e ast.Expr) bool {
	lit, ok := e.(*ast.BasicLit)
	return ok && lit.Kind == token.STRING
}
