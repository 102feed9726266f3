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
	"unicode"

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

// opsLibraryNamesAllowed counts, per file of the ops core, the
// identifiers that name a library with a dialect (sqlcRow, EntCall: a
// word of the identifier is the library's family) and the string
// literals that are one ("sqlc"). The core hands a library's calls to
// the hooks its dialect registers and knows no library by name; what is
// left here is to move, and, like libraryPathsAllowed, it may only
// shrink. Plain SQL ("sql") is the core's own.
var opsLibraryNamesAllowed = map[string]int{
	"internal/ops/notfound.go":  1, // ent's generated error classifiers (IsNotFound)
	"internal/ops/trace.go":     6, // ent's client, followed by Root and HandleRole
	"internal/ops/versioned.go": 1, // Update.EntPkg, for ent's fix
}

// TestOpsNamesNoLibrary: the ops core names no library, in its
// identifiers or its string literals, beyond the allowances above.
func TestOpsNamesNoLibrary(t *testing.T) {
	libs := map[string]bool{}
	for _, l := range dialect.Libs() {
		if l != "sql" {
			libs[l] = true
		}
	}
	got := map[string]int{}
	fset := token.NewFileSet()
	paths, err := filepath.Glob("internal/ops/*.go")
	require.NoError(t, err)
	for _, path := range paths {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		require.NoError(t, err)
		rel := filepath.ToSlash(path)
		ast.Inspect(f, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.Ident:
				for _, w := range identWords(x.Name) {
					if libs[strings.ToLower(w)] {
						t.Logf("%s: %s names a library", fset.Position(x.Pos()), x.Name)
						got[rel]++
						break
					}
				}
			case *ast.BasicLit:
				if s, err := strconv.Unquote(x.Value); err == nil && x.Kind == token.STRING && libs[s] {
					t.Logf("%s: %q names a library", fset.Position(x.Pos()), s)
					got[rel]++
				}
			}
			return true
		})
	}
	assert.Equal(t, opsLibraryNamesAllowed, got, "library names in the ops core (move the code into the library's dialect, behind an ops.Library hook, or record the count)")
}

// identWords splits a Go identifier into its words: sqlcRow is sqlc and
// Row, EntCall Ent and Call, SQLCQuery SQLC and Query (an upper-case run
// ends before the capital that starts the next word), gormV1 gorm and V1.
func identWords(id string) []string {
	var words []string
	rs := []rune(id)
	start := 0
	for i := 1; i <= len(rs); i++ {
		switch {
		case i == len(rs):
		case rs[i] == '_':
		case unicode.IsUpper(rs[i]) && (unicode.IsLower(rs[i-1]) || unicode.IsDigit(rs[i-1]) || (i+1 < len(rs) && unicode.IsLower(rs[i+1]))):
		default:
			continue
		}
		if i > start {
			words = append(words, string(rs[start:i]))
		}
		start = i
		if i < len(rs) && rs[i] == '_' {
			start = i + 1
		}
	}
	return words
}
