package analyzers_test

import (
	"fmt"
	"go/ast"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/idemlint/idemlint/analyzers"
	"github.com/idemlint/idemlint/analyzers/internal/report"
	"github.com/idemlint/idemlint/analyzers/internal/testutil"
)

// wiringFixtures are programs whose hazards lie behind interfaces their
// consumers declare: a finding is reported, at the consumer's line, by
// the package that binds the interface, so analysistest (which matches a
// package's findings against that package's own // want comments) cannot
// check them.
var wiringFixtures = []string{
	"./cleanarch/...",          // use cases over their own repository interfaces; database/sql and GORM stores, one or two per interface; app binds them
	"./lostupdate/library/...", // loan over book's UseCase over its Repository (an in-memory double only tests make), stock over its Store; database/sql and sqlx repositories scanning into the entity they return and updating from the entity given; app binds them
	"./dialectdb/...",          // a database package's own Querier, one sqlc wrapper per dialect taking struct parameters; the cache calls it in transaction closures
	"./wiringmain/...",         // the store binds the use case's interface itself; two sibling packages and main import both sides
}

// TestWiringMain: a consumer whose interfaces are bound by its
// dependencies alone (the store's constructor returns the interface) is
// completed by the main package, not again by each sibling importing
// both sides.
func TestWiringMain(t *testing.T) {
	cfg := &packages.Config{Mode: packages.LoadAllSyntax, Dir: testutil.Fixtures(t), Tests: false}
	pkgs, err := packages.Load(cfg, "./wiringmain/...")
	require.NoError(t, err)
	require.Zero(t, packages.PrintErrors(pkgs))
	graph, err := checker.Analyze(analyzers.All(), pkgs, nil)
	require.NoError(t, err)
	var reporters []string
	for act := range graph.All() {
		if act.IsRoot && act.Analyzer.Name == "checkinsert" && len(act.Diagnostics) > 0 {
			reporters = append(reporters, act.Package.PkgPath)
		}
	}
	assert.Equal(t, []string{"example.com/fixtures/wiringmain/cmd/svc"}, reporters)
}

// TestWiring runs the whole suite over each program, as the standalone
// driver does, and checks every finding against the // want comments of
// every package of it, and every // want comment against a finding.
func TestWiring(t *testing.T) {
	dir := testutil.Fixtures(t)
	for _, pattern := range wiringFixtures {
		t.Run(pattern, func(t *testing.T) {
			cfg := &packages.Config{Mode: packages.LoadAllSyntax, Dir: dir, Tests: false}
			pkgs, err := packages.Load(cfg, pattern)
			require.NoError(t, err)
			require.Zero(t, packages.PrintErrors(pkgs))
			graph, err := checker.Analyze(analyzers.All(), pkgs, nil)
			require.NoError(t, err)

			got := map[string][]string{} // file:line -> messages
			seen := map[string]bool{}
			for act := range graph.All() {
				if !act.IsRoot {
					continue
				}
				for _, d := range act.Diagnostics {
					p := act.Package.Fset.Position(d.Pos)
					key := fmt.Sprintf("%s:%d", p.Filename, p.Line)
					msg := report.Whole(d) // the headline and the detail, as analysistest sees them
					if seen[key+msg] {
						continue // reported by two packages binding it
					}
					seen[key+msg] = true
					got[key] = append(got[key], msg)
				}
			}
			want := map[string][]*regexp.Regexp{}
			for _, pkg := range pkgs {
				for _, f := range pkg.Syntax {
					for key, rxs := range wantComments(t, pkg.Fset.Position(f.Pos()).Filename, f, pkg) {
						want[key] = append(want[key], rxs...)
					}
				}
			}
			var keys []string
			for key := range got {
				keys = append(keys, key)
			}
			for key := range want {
				if _, ok := got[key]; !ok {
					keys = append(keys, key)
				}
			}
			sort.Strings(keys)
			for _, key := range keys {
				msgs, rxs := got[key], want[key]
				for _, rx := range rxs {
					i := matchAny(rx, msgs)
					if !assert.GreaterOrEqual(t, i, 0, "%s: no finding matching %s", key, rx) {
						continue
					}
					msgs = append(msgs[:i:i], msgs[i+1:]...)
				}
				for _, m := range msgs {
					assert.Fail(t, "unexpected finding", "%s: %s", key, m)
				}
			}
		})
	}
}

func matchAny(rx *regexp.Regexp, msgs []string) int {
	for i, m := range msgs {
		if rx.MatchString(m) {
			return i
		}
	}
	return -1
}

// wantComments returns the expectations of f's // want comments, by
// file:line: each a quoted regular expression, as analysistest writes
// them.
func wantComments(t *testing.T, filename string, f *ast.File, pkg *packages.Package) map[string][]*regexp.Regexp {
	out := map[string][]*regexp.Regexp{}
	for _, g := range f.Comments {
		for _, c := range g.List {
			text := strings.TrimSpace(strings.TrimPrefix(c.Text, "//"))
			rest, ok := strings.CutPrefix(text, "want ")
			if !ok {
				continue
			}
			line := pkg.Fset.Position(c.Pos()).Line
			for rest = strings.TrimSpace(rest); rest != ""; rest = strings.TrimSpace(rest) {
				quoted, err := strconv.QuotedPrefix(rest)
				require.NoError(t, err, "%s:%d: want comment", filename, line)
				pattern, _ := strconv.Unquote(quoted)
				key := fmt.Sprintf("%s:%d", filename, line)
				out[key] = append(out[key], regexp.MustCompile(pattern))
				rest = rest[len(quoted):]
			}
		}
	}
	return out
}
