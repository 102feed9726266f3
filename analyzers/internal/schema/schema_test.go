package schema

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/idemlint/idemlint/analyzers/config"
)

func key(cols ...string) Key { return Key{Columns: cols, Parts: cols} }

func pk(cols ...string) Key { k := key(cols...); k.Primary = true; return k }

func cols(names ...string) []column {
	var out []column
	for _, n := range names {
		out = append(out, column{Name: n})
	}
	return out
}

func testSchema(cfg *config.Config, tables ...*desc) *Schema {
	if cfg == nil {
		cfg = &config.Config{VersionColumn: config.DefaultVersionColumn, VersionField: config.DefaultVersionField}
	}
	for _, t := range tables {
		for i := range t.Keys {
			t.Keys[i].Source = t.Source
		}
	}
	return newSchema(cfg, nil, tables)
}

// TestMerge: the sources are united. A key any source declares counts; a
// table any source describes can answer No; what no source can settle is
// Unknown.
func TestMerge(t *testing.T) {
	ddl := &desc{Source: Source{Kind: FromDDL, Name: "schema.sql"}, Name: "users", Columns: cols("id", "email", "name", "tenant", "handle", "deleted_at"), Keys: []Key{pk("id")}, Describes: true}
	sqlc := &desc{Source: Source{Kind: FromSqlc, Name: "sqlc/schema.sql"}, Name: "users", Columns: cols("id", "email"), Keys: []Key{pk("id"), key("email")}, Describes: true}
	partial := key("handle")
	partial.Where = "deleted_at IS NULL"
	expr := Key{Parts: []string{"lower(name)"}, Expression: true}
	model := &desc{Source: Source{Kind: FromModel, Lib: "orm", Name: "example.com/m.User"}, Name: "users", Columns: cols("id", "tenant", "handle", "name"), Keys: []Key{key("tenant", "handle"), partial, expr}}
	keysOnly := &desc{Source: Source{Kind: FromDDL, Name: "later.sql"}, Name: "events", Keys: []Key{key("idem_key")}}
	public := &desc{Source: Source{Kind: FromDDL, Name: "schema.sql"}, Schema: "billing", Name: "Invoices", Columns: cols("id", "number"), Keys: []Key{pk("id")}, Describes: true}
	s := testSchema(nil, ddl, sqlc, model, keysOnly, public)

	for _, tc := range []struct {
		table   string
		columns []string
		want    Answer
		from    SourceKind
	}{
		{"users", []string{"email"}, Yes, FromSqlc},                    // the DDL says nothing, sqlc says unique: any source counts
		{"users", []string{"EMAIL"}, Yes, FromSqlc},                    // column names compare case-insensitively
		{"users", []string{"email", "name"}, Yes, FromSqlc},            // a superset of a key is unique
		{"users", []string{"tenant", "handle"}, Yes, FromModel},        // a key from a source that does not describe the table still counts
		{"users", []string{"handle"}, Partial, FromModel},              // a partial index
		{"users", []string{"handle", "email"}, Yes, FromSqlc},          // a full key wins over a partial one
		{"users", []string{"tenant"}, No, 0},                           // described by the DDL, no key within
		{"users", []string{"name"}, Unknown, 0},                        // an expression key reads name
		{"users", []string{"nickname"}, Unknown, 0},                    // no source knows the column
		{"users", nil, Unknown, 0},                                     // nothing asked
		{"events", []string{"idem_key"}, Yes, FromDDL},                 // keys only
		{"events", []string{"payload"}, Unknown, 0},                    // not described
		{"accounts", []string{"id"}, Unknown, 0},                       // not mentioned anywhere
		{"billing.invoices", []string{"id"}, Yes, FromDDL},             // schema-qualified, case folded
		{"Invoices", []string{"number"}, No, 0},                        // a bare name matches a qualified table
		{"audit.invoices", []string{"id"}, Unknown, 0},                 // another schema
		{"public.users", []string{"email"}, Yes, FromSqlc},             // a table declared without a schema matches any
		{"users", []string{"id", "tenant", "handle", "email"}, Yes, 0}, // several keys within
	} {
		k, got := s.UniqueKey(tc.table, tc.columns...)
		assert.Equal(t, tc.want, got, "%s%v", tc.table, tc.columns)
		if tc.from != 0 {
			assert.Equal(t, tc.from, k.Source.Kind, "%s%v", tc.table, tc.columns)
		}
	}
	assert.True(t, s.Describes("users"))
	assert.False(t, s.Describes("events"))
	assert.False(t, s.Describes("accounts"))
	assert.Equal(t, []string{"id", "email", "name", "tenant", "handle", "deleted_at"}, s.Columns("users"))
	assert.Len(t, s.Sources("users"), 3)
	assert.Len(t, s.Keys("users"), 6)
	assert.Equal(t, []string{"billing.Invoices", "events", "users"}, s.Tables())
	k, _ := s.UniqueKey("users", "handle")
	assert.Equal(t, "deleted_at IS NULL", k.Condition().Text)

	var none *Schema
	assert.Equal(t, Unknown, none.Unique("users", "email"), "a nil Schema (a guarded panic) answers Unknown")
	_, ok := none.Version("users")
	assert.False(t, ok)
	_, ok = none.Table(types.Typ[types.Int])
	assert.False(t, ok)
}

func TestVersionEvidence(t *testing.T) {
	cfg := &config.Config{VersionColumn: "rev", VersionField: "Revision"}
	ddl := &desc{Source: Source{Kind: FromDDL, Name: "schema.sql"}, Name: "docs", Columns: cols("id", "REV", "version"), Describes: true}
	field := &desc{Source: Source{Kind: FromModel, Lib: "orm", Name: "m.Note"}, Name: "notes", Columns: []column{{Name: "revision", Field: "Revision"}, {Name: "rev", Field: "Rev"}}}
	plugin := &desc{Source: Source{Kind: FromModel, Lib: "orm", Name: "m.Doc"}, Name: "docs", Columns: []column{{Name: "lock", Field: "Lock", Plugin: true}}}
	code := &desc{Source: Source{Kind: FromCode, Lib: "gen", Name: "m/gen/migrate"}, Name: "posts", Columns: cols("id", "version")}
	s := testSchema(cfg, ddl, field, plugin, code)

	v, ok := s.Version("docs")
	require.True(t, ok)
	assert.Equal(t, Version{Column: "lock", Field: "Lock", Kind: VersionPlugin, Source: plugin.Source}, v, "the plugin is the strongest evidence")

	v, ok = s.Version("notes")
	require.True(t, ok)
	assert.Equal(t, Version{Column: "revision", Field: "Revision", Kind: VersionField, Source: field.Source},
		v, "a model is versioned by its field name, not by a column that happens to be named rev")

	_, ok = s.Version("posts")
	assert.False(t, ok, "the configured column is rev, not version")

	s = testSchema(cfg, ddl)
	col, ok := s.VersionColumn("docs")
	assert.True(t, ok)
	assert.Equal(t, "REV", col, "column names compare case-insensitively")
}

// TestModelTypeName: the declared struct a model argument names.
func TestModelTypeName(t *testing.T) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "m.go", `package m

type Post struct{ ID int }
type Kind string
type Generic[T any] struct{ ID T }
`, 0)
	require.NoError(t, err)
	pkg, err := (&types.Config{}).Check("example.com/m", fset, []*ast.File{f}, nil)
	require.NoError(t, err)
	assert.Nil(t, modelTypeName(pkg.Scope().Lookup("Generic").Type()), "a generic model's table is unknown")
	assert.Nil(t, modelTypeName(pkg.Scope().Lookup("Kind").Type()), "not a struct")
	ptrSlice := types.NewSlice(types.NewPointer(pkg.Scope().Lookup("Post").Type()))
	assert.Equal(t, "Post", modelTypeName(ptrSlice).Name(), "[]*T names T")
}

// TestSourceFrom: a source names its kind, or, for generated code and
// models, the library whose reader read it (messages say "the ent schema
// declares ...", probes "from gorm example.com/m.User").
func TestSourceFrom(t *testing.T) {
	assert.Equal(t, "ddl", Source{Kind: FromDDL, Name: "schema.sql"}.From())
	assert.Equal(t, "sqlc", Source{Kind: FromSqlc, Name: "schema.sql"}.From())
	assert.Equal(t, "gen", Source{Kind: FromCode, Lib: "gen", Name: "m/gen/migrate"}.From())
	assert.Equal(t, "orm example.com/m.User", Source{Kind: FromModel, Lib: "orm", Name: "example.com/m.User"}.String())
	assert.Equal(t, "model example.com/m.User", Source{Kind: FromModel, Name: "example.com/m.User"}.String())
}
