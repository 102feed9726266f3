package report_test

import (
	"go/ast"
	"go/types"
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/idemlint/idemlint/analyzers/internal/report"
	"github.com/idemlint/idemlint/analyzers/internal/testutil"
)

// probe reports each call of a function named effect and panics on a call
// of one named crash. It borrows the name checkinsert because directives
// may only name idemlint analyzers; it is local to this test.
var probe = &analysis.Analyzer{
	Name: "checkinsert",
	Doc:  "test probe",
	URL:  report.URL("checkinsert"),
	Run:  report.Guard(runProbe),
}

func runProbe(pass *analysis.Pass) (any, error) {
	r := report.New(pass)
	for _, f := range pass.Files {
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok {
				continue
			}
			r.Func(fn.Name.Name, fn.Pos(), fn.End(), func() {
				ast.Inspect(fn, func(n ast.Node) bool {
					call, ok := n.(*ast.CallExpr)
					if !ok {
						return true
					}
					id, ok := call.Fun.(*ast.Ident)
					if !ok {
						return true
					}
					if _, ok := pass.TypesInfo.Uses[id].(*types.Func); !ok {
						return true
					}
					switch id.Name {
					case "effect":
						r.Report(report.Finding{Pos: call.Pos(), End: call.End(), Rule: "probe", Message: "effect is called"})
					case "crash":
						panic("crash")
					}
					return true
				})
			})
		}
	}
	r.Finish()
	return nil, nil
}

func TestReporter(t *testing.T) {
	results := analysistest.Run(t, testutil.Fixtures(t), probe, "./report")
	for _, res := range results {
		for _, d := range res.Diagnostics {
			switch {
			case strings.HasPrefix(d.Message, "internal error"):
				assert.Equal(t, "internal", d.Category)
			case strings.HasPrefix(d.Message, "this //idemlint:ignore"):
				assert.Equal(t, "checkinsert/unused-ignore", d.Category)
			default:
				assert.Equal(t, "checkinsert/probe", d.Category)
			}
		}
	}
}

// A panic outside any Func is caught by Guard: one internal error at the
// package clause and no result.
func TestGuard(t *testing.T) {
	crashing := &analysis.Analyzer{
		Name: "checkinsert",
		Doc:  "test probe",
		Run:  report.Guard(func(*analysis.Pass) (any, error) { panic("boom") }),
	}
	results := analysistest.Run(&collect{T: t}, testutil.Fixtures(t), crashing, "./report")
	require.Len(t, results, 1)
	require.Len(t, results[0].Diagnostics, 1)
	d := results[0].Diagnostics[0]
	assert.Equal(t, "internal", d.Category)
	assert.Contains(t, d.Message, "internal error: checkinsert failed while analysing package example.com/fixtures/report (boom)")
	assert.NoError(t, results[0].Err)
	assert.Nil(t, results[0].Result)
}

// collect is an analysistest.Testing that accepts unexpected diagnostics,
// for tests that inspect them themselves.
type collect struct{ *testing.T }

func (c *collect) Errorf(format string, args ...any) {}

func TestVoice(t *testing.T) {
	for _, tc := range []struct {
		msg string
		ok  bool
	}{
		{"lookup then insert of users by email", true},
		{"SQL text is built at run time", true},
		{"GORM FirstOrCreate races", true},
		{"Lookup then insert", false},
		{"lookup then insert.", false},
		{"", false},
	} {
		assert.Equal(t, tc.ok, report.CheckVoice(tc.msg) == nil, tc.msg)
	}
}

func TestDoc(t *testing.T) {
	src := "// Package x.\n//\n// # Analyzer x\n//\n// x: find things\n//\n// Details.\n//\n// # Example\n//\n//\tx()\npackage x\n"
	assert.Equal(t, "find things\n\nDetails.\n\n# Example\n\n\tx()\n", report.Doc(src, "x"))
	assert.Panics(t, func() { report.Doc(src, "y") })
}

// A guarded analyzer with a result type returns a typed nil after a panic,
// which the drivers accept (an untyped nil fails their type check).
func TestGuardTypedResult(t *testing.T) {
	type result struct{}
	crashing := &analysis.Analyzer{
		Name:       "checkinsert",
		Doc:        "test probe",
		Run:        report.Guard(func(*analysis.Pass) (any, error) { panic("boom") }),
		ResultType: reflect.TypeFor[*result](),
	}
	results := analysistest.Run(&collect{T: t}, testutil.Fixtures(t), crashing, "./report")
	require.Len(t, results, 1)
	assert.NoError(t, results[0].Err)
	assert.IsType(t, (*result)(nil), results[0].Result)
}
