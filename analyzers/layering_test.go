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

// libraryPathsAllowed counts, per file, the string literals naming a
// library's import path that the layers below the dialects still hold.
// The design is one place per library (its knowledge rows and its
// dialect); this list is what is left to move, and it may only shrink:
// the test fails on a file missing from it, and on a count that is no
// longer exact, so that a move is recorded here when it is made.
var libraryPathsAllowed = map[string]int{
	"internal/schema/ent.go":    2, // ent's migrate package, read by the schema layer
	"internal/schema/gormv1.go": 1, // GORM v1's tags, told from v2's by the model package's imports
}

// libraryNamesAllowed counts, per file, the comparisons of a knowledge
// row's function or receiver name (row.Func.Name == "Save") that the
// layers below the dialects still make; like libraryPathsAllowed, it may
// only shrink.
var libraryNamesAllowed = map[string]int{}

// TestLayering: no analyzer names a library, and no layer below them
// spells a library's import path or compares a library function's name,
// outside the knowledge tables and the dialects (and the allowances
// above).
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
	assert.Equal(t, libraryPathsAllowed, got, "library import paths outside knowledge and the dialects (move them into the library's dialect, or record the count)")
	assert.Equal(t, libraryNamesAllowed, gotNames, "comparisons of library function names outside knowledge and the dialects (move them into the library's dialect or a knowledge row, or record the count)")
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
