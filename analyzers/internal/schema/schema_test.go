package schema

import (
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"strings"
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
	ddl := &desc{Source: Source{FromDDL, "schema.sql"}, Name: "users", Columns: cols("id", "email", "name", "tenant", "handle", "deleted_at"), Keys: []Key{pk("id")}, Describes: true}
	sqlc := &desc{Source: Source{FromSqlc, "sqlc/schema.sql"}, Name: "users", Columns: cols("id", "email"), Keys: []Key{pk("id"), key("email")}, Describes: true}
	partial := key("handle")
	partial.Where = "deleted_at IS NULL"
	expr := Key{Parts: []string{"lower(name)"}, Expression: true}
	gorm := &desc{Source: Source{FromGORM, "example.com/m.User"}, Name: "users", Columns: cols("id", "tenant", "handle", "name"), Keys: []Key{key("tenant", "handle"), partial, expr}}
	keysOnly := &desc{Source: Source{FromDDL, "later.sql"}, Name: "events", Keys: []Key{key("idem_key")}}
	public := &desc{Source: Source{FromDDL, "schema.sql"}, Schema: "billing", Name: "Invoices", Columns: cols("id", "number"), Keys: []Key{pk("id")}, Describes: true}
	s := testSchema(nil, ddl, sqlc, gorm, keysOnly, public)

	for _, tc := range []struct {
		table   string
		columns []string
		want    Answer
		from    SourceKind
	}{
		{"users", []string{"email"}, Yes, FromSqlc},                    // the DDL says nothing, sqlc says unique: any source counts
		{"users", []string{"EMAIL"}, Yes, FromSqlc},                    // column names compare case-insensitively
		{"users", []string{"email", "name"}, Yes, FromSqlc},            // a superset of a key is unique
		{"users", []string{"tenant", "handle"}, Yes, FromGORM},         // a key from a source that does not describe the table still counts
		{"users", []string{"handle"}, Partial, FromGORM},               // a partial index
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
	ddl := &desc{Source: Source{FromDDL, "schema.sql"}, Name: "docs", Columns: cols("id", "REV", "version"), Describes: true}
	field := &desc{Source: Source{FromGORM, "m.Note"}, Name: "notes", Columns: []column{{Name: "revision", Field: "Revision"}, {Name: "rev", Field: "Rev"}}}
	plugin := &desc{Source: Source{FromGORM, "m.Doc"}, Name: "docs", Columns: []column{{Name: "lock", Field: "Lock", Plugin: true}}}
	ent := &desc{Source: Source{FromEnt, "m/ent/migrate"}, Name: "posts", Columns: cols("id", "version")}
	s := testSchema(cfg, ddl, field, plugin, ent)

	v, ok := s.Version("docs")
	require.True(t, ok)
	assert.Equal(t, Version{Column: "lock", Field: "Lock", Kind: VersionPlugin, Source: plugin.Source}, v, "the plugin is the strongest evidence")

	v, ok = s.Version("notes")
	require.True(t, ok)
	assert.Equal(t, Version{Column: "revision", Field: "Revision", Kind: VersionField, Source: field.Source},
		v, "a GORM model is versioned by its field name, not by a column that happens to be named rev")

	_, ok = s.Version("posts")
	assert.False(t, ok, "the configured column is rev, not version")

	s = testSchema(cfg, ddl)
	col, ok := s.VersionColumn("docs")
	assert.True(t, ok)
	assert.Equal(t, "REV", col, "column names compare case-insensitively")
}

// typecheck type-checks src (package "m") against stand-ins of the
// packages GORM models use: the schema layer recognises them by path and
// name only.
func typecheck(t *testing.T, src string) *types.Package {
	t.Helper()
	stand := map[string]string{
		"time":                          `package time; type Time struct{ wall uint64 }`,
		"gorm.io/plugin/optimisticlock": `package optimisticlock; type Version struct{ Int64 int64; Valid bool }`,
		"gorm.io/gorm": `package gorm
			import "time"
			type Model struct {
				ID        uint ` + "`gorm:\"primarykey\"`" + `
				CreatedAt time.Time
				UpdatedAt time.Time
				DeletedAt DeletedAt ` + "`gorm:\"index\"`" + `
			}
			type DeletedAt struct{ Time time.Time; Valid bool }
			func (n *DeletedAt) Scan(value any) error { return nil }
			func (n DeletedAt) Value() (any, error) { return nil, nil }`,
	}
	fset := token.NewFileSet()
	pkgs := map[string]*types.Package{}
	var imp types.ImporterFrom
	imp = importerFunc(func(path string) (*types.Package, error) {
		if p, ok := pkgs[path]; ok {
			return p, nil
		}
		code, ok := stand[path]
		if !ok {
			return importer.Default().Import(path)
		}
		f, err := parser.ParseFile(fset, path+".go", code, 0)
		if err != nil {
			return nil, err
		}
		p, err := (&types.Config{Importer: imp}).Check(path, fset, []*ast.File{f}, nil)
		pkgs[path] = p
		return p, err
	})
	f, err := parser.ParseFile(fset, "m.go", src, 0)
	require.NoError(t, err)
	pkg, err := (&types.Config{Importer: imp}).Check("example.com/m", fset, []*ast.File{f}, nil)
	require.NoError(t, err)
	return pkg
}

type importerFunc func(path string) (*types.Package, error)

func (f importerFunc) Import(path string) (*types.Package, error) { return f(path) }
func (f importerFunc) ImportFrom(path, _ string, _ types.ImportMode) (*types.Package, error) {
	return f(path)
}

// describeModel renders a model in one line: table, columns (field=column
// when they differ in more than case), keys, evidence.
func describeModel(m *Model) string {
	if m == nil {
		return "unknown"
	}
	var fields, keys []string
	for _, f := range m.Fields {
		s := f.Column
		if gormColumnName(f.Name) != f.Column {
			s = f.Name + "=" + f.Column
		}
		if f.Plugin {
			s += "(plugin)"
		}
		fields = append(fields, s)
	}
	for _, k := range m.Keys {
		keys = append(keys, describeKey(k))
	}
	return strings.Join(append(append([]string{m.Table, "[" + strings.Join(fields, " ") + "]"}, keys...), fmt.Sprintf("evidence=%v", m.Evidence)), " ")
}

func TestGORMModels(t *testing.T) {
	pkg := typecheck(t, `package m

import (
	"time"

	"gorm.io/gorm"
	"gorm.io/plugin/optimisticlock"
)

type Plain struct {
	ID    int64
	Email string
	Born  time.Time
	Blob  []byte
	Ptr   *string
	Kind  Kind
	Owner Owner     // relationship
	Items []Item    // relationship
	Boss  *Owner    // relationship
	Meta  map[string]string
	Null  NullString
	lower string
}

type Serialized struct {
	Attrs map[string]string `+"`gorm:\"serializer:json\"`"+`
}

type Kind string
type Owner struct{ ID int }
type Item struct{ ID int }
type NullString struct{ S string }
func (n *NullString) Scan(any) error { return nil }

type Tagged struct {
	Code   string `+"`gorm:\"primaryKey;column:code\"`"+`
	Region string `+"`gorm:\"primary_key\"`"+`
	ID     int
	Skip   string `+"`gorm:\"-\"`"+`
	SkipAll string `+"`gorm:\"-:all\"`"+`
	NoMigrate string `+"`gorm:\"-:migration\"`"+`
	ReadOnly string `+"`gorm:\"->\"`"+`
	NotPK  string `+"`gorm:\"primaryKey:false\"`"+`
	A      string `+"`gorm:\"index:ab,class:UNIQUE,priority:2\"`"+`
	B      string `+"`gorm:\"index:ab,priority:1\"`"+`
	C      string `+"`gorm:\"uniqueIndex:,composite:cd;unique\"`"+`
	D      string `+"`gorm:\"uniqueIndex:,composite:cd\"`"+`
	E      string `+"`gorm:\"index\"`"+`
	F      string `+"`gorm:\"index:f_idx,unique,where:f <> ''\"`"+`
	G      string `+"`gorm:\"uniqueIndex:g_lower,expression:lower(g)\"`"+`
}

type Base struct {
	ID        uint
	CreatedAt time.Time
}

type Author struct {
	Name  string `+"`gorm:\"uniqueIndex\"`"+`
	Email string
}

type Post struct {
	Base
	*Extra
	Author  Author `+"`gorm:\"embedded;embeddedPrefix:author_\"`"+`
	Title   string
	Lock    optimisticlock.Version
}

type Extra struct {
	Note string
	ID   uint // a deeper id: the shallower Base.ID... both depth 1: the first wins
}

type WithModel struct {
	gorm.Model
	Slug string `+"`gorm:\"uniqueIndex:idx_slug\"`"+`
}

type IDColumn struct {
	Key string `+"`gorm:\"column:id\"`"+`
	ID  string `+"`gorm:\"column:legacy_id\"`"+`
}

type NoKey struct{ Name string }

type Generic[T any] struct{ ID T }
`)
	model := func(name string) string {
		obj := pkg.Scope().Lookup(name).(*types.TypeName)
		return describeModel(readModel(obj, nil))
	}
	assert.Equal(t, "plains [id email born blob ptr kind null] pk(id) evidence=false", model("Plain"),
		"relationships, maps without a serializer and unexported fields are not columns")
	assert.Equal(t, "serializeds [attrs] evidence=true", model("Serialized"), "a serializer makes a column")
	assert.Equal(t, "taggeds [code region id no_migrate read_only not_pk a b c d e f g] pk(code,region) "+
		"unique uni_taggeds_c(c) unique ab(b,a) unique idx_taggeds_cd(c,d) unique f_idx(f) where f <> '' unique g_lower(expr lower(g)) evidence=true", model("Tagged"))
	assert.Equal(t, "posts [id created_at note Author.Name=author_name Author.Email=author_email title lock(plugin)] pk(id) unique idx_posts_name(author_name) evidence=true", model("Post"))
	assert.Equal(t, "with_models [id created_at updated_at deleted_at slug] pk(id) unique idx_slug(slug) evidence=true", model("WithModel"))
	assert.Equal(t, "id_columns [Key=id ID=legacy_id] pk(id) evidence=true", model("IDColumn"), "the id column wins over the ID field")
	assert.Equal(t, "no_keys [name] evidence=false", model("NoKey"))
	assert.Nil(t, modelTypeName(pkg.Scope().Lookup("Generic").Type()), "a generic model's table is unknown")
	assert.Nil(t, modelTypeName(pkg.Scope().Lookup("Kind").Type()), "not a struct")
	ptrSlice := types.NewSlice(types.NewPointer(pkg.Scope().Lookup("Post").Type()))
	assert.Equal(t, "Post", modelTypeName(ptrSlice).Name(), "[]*T names T")
}

func TestGORMTableName(t *testing.T) {
	pkg := typecheck(t, `package m

type Ledger struct{ Key string }
func (Ledger) TableName() string { return "ledger_entries" }

type Entry struct {
	Ledger
	Note string
}

type Dynamic struct{ ID int }
func (*Dynamic) TableName() string { return "x" }
`)
	lookup := func(key string) (string, bool, bool) {
		switch key {
		case "example.com/m.Ledger":
			return "ledger_entries", true, true
		case "example.com/m.Dynamic":
			return "", false, true
		}
		return "", false, false
	}
	read := func(name string) *Model {
		return readModel(pkg.Scope().Lookup(name).(*types.TypeName), lookup)
	}
	require.NotNil(t, read("Ledger"))
	assert.Equal(t, "ledger_entries", read("Ledger").Table)
	assert.True(t, read("Ledger").Evidence, "a TableName method is GORM evidence")
	assert.Equal(t, "ledger_entries", read("Entry").Table, "a promoted TableName names the embedding model's table")
	assert.Nil(t, read("Dynamic"), "a TableName that is not a visible constant leaves the table unknown")
	assert.Nil(t, readModel(pkg.Scope().Lookup("Ledger").(*types.TypeName), nil), "without the facts, unknown")
}
