package schema_test

import (
	"encoding/json"
	"fmt"
	"go/types"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"
	"golang.org/x/tools/go/analysis/multichecker"

	"github.com/idemlint/idemlint/analyzers/internal/schema"
	"github.com/idemlint/idemlint/analyzers/internal/testutil"
)

// asTool makes this test binary a multichecker running the probe, as the
// idemlint binary would: warnings go to standard error when it runs
// standalone, not when it is go vet's tool.
const asTool = "IDEMLINT_SCHEMA_PROBE_TOOL"

func TestMain(m *testing.M) {
	if os.Getenv(asTool) != "" {
		if args := os.Args[1:]; len(args) == 0 || !strings.HasSuffix(args[len(args)-1], ".cfg") {
			schema.SetWarnings(os.Stderr)
		}
		multichecker.Main(probe)
	}
	os.Exit(m.Run())
}

// captured holds the Schema of each package capture ran on.
var captured sync.Map // package path -> *schema.Schema

var capture = &analysis.Analyzer{
	Name:       "schemacapture",
	Doc:        "keep the package's Schema for the test",
	Requires:   []*analysis.Analyzer{schema.Analyzer},
	ResultType: reflect.TypeFor[*schema.Schema](),
	Run: func(pass *analysis.Pass) (any, error) {
		s, _ := pass.ResultOf[schema.Analyzer].(*schema.Schema)
		captured.Store(pass.Pkg.Path(), s)
		return s, nil
	},
}

// TestDemo reads the demo service as the analyzers will: its sqlc.yaml
// (found from internal/store up to the module root) names db/schema.sql,
// and its store package declares GORM models, one versioned by the
// optimisticlock plugin.
func TestDemo(t *testing.T) {
	dir := testutil.Module(t, "demo")
	results := analysistest.Run(t, dir, capture, "./internal/store")
	require.Len(t, results, 1)
	s := results[0].Result.(*schema.Schema)
	require.NotNil(t, s)
	pkg := results[0].Pass.Pkg
	typ := func(name string) types.Type { return pkg.Scope().Lookup(name).Type() }

	for _, tc := range []struct {
		table   string
		columns []string
		want    schema.Answer
	}{
		{"users", []string{"email"}, schema.Yes},
		{"users", []string{"name"}, schema.No},
		{"devices", []string{"token"}, schema.Yes},
		{"articles", []string{"slug"}, schema.Yes},
		{"tags", []string{"name"}, schema.Yes},
		{"orders", []string{"user_id"}, schema.No},
		{"referral_rewards", []string{"referee_id"}, schema.Yes},
		{"cashbacks", []string{"order_id"}, schema.Yes},
		{"outbox", []string{"id"}, schema.Yes},
		{"outbox", []string{"kind"}, schema.No},
		{"nosuch", []string{"id"}, schema.Unknown},
	} {
		assert.Equal(t, tc.want, s.Unique(tc.table, tc.columns...), "%s%v", tc.table, tc.columns)
	}
	v, ok := s.Version("workspaces")
	require.True(t, ok)
	assert.Equal(t, schema.VersionPlugin, v.Kind)
	assert.Equal(t, "version", v.Column)
	assert.Equal(t, "Version", v.Field)
	assert.Equal(t, "example.com/demo/internal/store.Workspace", v.Source.Name)
	v, ok = s.Version("documents")
	require.True(t, ok)
	assert.Equal(t, schema.VersionColumn, v.Kind)
	assert.Equal(t, schema.FromSqlc, v.Source.Kind)
	_, ok = s.Version("orders")
	assert.False(t, ok)

	name, ok := s.Table(typ("Workspace"))
	assert.True(t, ok)
	assert.Equal(t, "workspaces", name)
	name, _ = s.Table(typ("ReferralReward"))
	assert.Equal(t, "referral_rewards", name)
	assert.Equal(t, schema.Yes, s.ModelUnique(typ("Device"), "token"))
	mv, ok := s.ModelVersion(typ("Workspace"))
	assert.True(t, ok)
	assert.Equal(t, schema.VersionPlugin, mv.Kind)
	var kinds []string
	for _, src := range s.Sources("workspaces") {
		kinds = append(kinds, src.From())
	}
	assert.Equal(t, []string{"sqlc", "gorm"}, kinds)
}

// TestEditedSchemaChangesTheResult edits a DDL file the configuration names
// between two runs in one process (as gopls or a long golangci-lint run
// would see it) and shows the answer change.
func TestEditedSchemaChangesTheResult(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) {
		t.Helper()
		path := filepath.Join(dir, name)
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
		require.NoError(t, os.WriteFile(path, []byte(content), 0o644))
		later := time.Now().Add(time.Duration(len(content)) * time.Second)
		require.NoError(t, os.Chtimes(path, later, later))
	}
	write("go.mod", "module example.com/edit\n\ngo 1.26.0\n")
	write(".idemlint.yml", "schema: [db/schema.sql]\n")
	write("db/schema.sql", "CREATE TABLE users (id bigint PRIMARY KEY, email text NOT NULL);\n")
	write("p/p.go", "package p\n\n//probe unique users email // want `users\\(email\\): no`\n//probe version users // want `version users: none`\n")
	analysistest.Run(t, dir, probe, "./p")

	write("db/schema.sql", "CREATE TABLE users (id bigint PRIMARY KEY, email text NOT NULL UNIQUE, version int NOT NULL);\n")
	write("p/p.go", "package p\n\n//probe unique users email // want `users\\(email\\): yes by unique\\(email\\) from ddl`\n//probe version users // want `version users: version \\(column, ddl`\n")
	analysistest.Run(t, dir, probe, "./p")
}

// runTool runs this test binary as the probe's multichecker, or go vet
// with it as the tool, in dir.
func runTool(t *testing.T, dir string, args ...string) (findings []string, stderr string) {
	t.Helper()
	exe, err := os.Executable()
	require.NoError(t, err)
	if args[0] == "vet" {
		args = append([]string{"go", "vet", "-vettool=" + exe}, args[1:]...)
	} else {
		args = append([]string{exe}, args...)
	}
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), asTool+"=1")
	var out, errb strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errb
	err = cmd.Run()
	if _, ok := err.(*exec.ExitError); !ok {
		require.NoError(t, err)
	}
	return jsonFindings(t, out.String()), errb.String()
}

// jsonFindings flattens the drivers' -json output into sorted
// "file:line: message" lines.
func jsonFindings(t *testing.T, out string) []string {
	t.Helper()
	var lines []string
	dec := json.NewDecoder(strings.NewReader(out))
	for dec.More() {
		var tree map[string]map[string]json.RawMessage
		require.NoError(t, dec.Decode(&tree), "%s", out)
		for _, byAnalyzer := range tree {
			for _, raw := range byAnalyzer {
				var diags []struct{ Posn, Message string }
				if json.Unmarshal(raw, &diags) != nil {
					lines = append(lines, "error: "+string(raw))
					continue
				}
				for _, d := range diags {
					file, rest, _ := strings.Cut(d.Posn, ".go:")
					line, _, _ := strings.Cut(rest, ":")
					lines = append(lines, fmt.Sprintf("%s.go:%s: %s", filepath.Base(file), line, d.Message))
				}
			}
		}
	}
	sort.Strings(lines)
	return lines
}

// TestUnderBothDrivers runs the probe over the fixtures as the standalone
// checker and as go vet's tool. go vet hands a package only its direct
// imports' facts, so the ent tables reach entuser (which imports the
// client, not migrate) only because each package re-exports the union.
// Warnings about schema files go to standard error standalone only.
func TestUnderBothDrivers(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs go vet")
	}
	dir := testutil.Module(t, "fixtures/schema")
	standalone, stderr := runTool(t, dir, "-json", "./entuser", "./ddl", "./gormuser")
	vet, vetStderr := runTool(t, dir, "vet", "-json", "./entuser", "./ddl", "./gormuser")
	assert.Equal(t, standalone, vet)
	assert.Contains(t, standalone, "users.go:14: users(email): yes by unique(email) from ent example.com/schemafixtures/ent/migrate")
	assert.Contains(t, standalone, "ddl.go:6: subscriptions(account_id): partial by unique subscriptions_live(account_id) where deleted_at IS NULL from ddl "+
		filepath.Join(dir, "ddl", "schema.sql")+", "+filepath.Join(dir, "ddl", "later.sql"))
	assert.Contains(t, standalone, "use.go:21: table Entry: ledger_entries")
	warning := "idemlint: warning: " + filepath.Join(dir, "ddl", "schema.sql") + ":9: skipped CREATE TABLE this: "
	assert.Contains(t, stderr, warning)
	assert.Equal(t, 1, strings.Count(stderr, warning), "once, however many packages read the file")
	assert.NotContains(t, vetStderr, "warning")
}

// TestStandaloneResultFollowsTheSchema edits a DDL file between two
// standalone runs: the result changes.
func TestStandaloneResultFollowsTheSchema(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the checker as a subprocess")
	}
	dir := t.TempDir()
	files := map[string]string{
		"go.mod":        "module example.com/edit\n\ngo 1.26.0\n",
		".idemlint.yml": "schema: [db/schema.sql]\n",
		"db/schema.sql": "CREATE TABLE users (id bigint PRIMARY KEY, email text NOT NULL);\n",
		"p/p.go":        "package p\n\n//probe unique users email\n",
	}
	for name, content := range files {
		require.NoError(t, os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644))
	}
	before, _ := runTool(t, dir, "-json", "./p")
	assert.Equal(t, []string{"p.go:3: users(email): no"}, before)

	require.NoError(t, os.WriteFile(filepath.Join(dir, "db/schema.sql"), []byte("CREATE TABLE users (id bigint PRIMARY KEY, email text NOT NULL UNIQUE);\n"), 0o644))
	after, _ := runTool(t, dir, "-json", "./p")
	assert.Equal(t, []string{"p.go:3: users(email): yes by unique(email) from ddl " + filepath.Join(dir, "db", "schema.sql")}, after)
}
