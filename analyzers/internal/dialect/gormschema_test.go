package dialect

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

	"github.com/idemlint/idemlint/analyzers/internal/schema"
)

// The GORM reader's models, read from source type-checked here. What the
// schema layer makes of them (their tables merged with the other sources,
// the facts) is tested in package schema over its fixtures module.

// gormDescribeKey renders a key as the schema tests' probe does.
func gormDescribeKey(k schema.Key) string {
	var b strings.Builder
	if k.Primary {
		b.WriteString("pk")
	} else {
		b.WriteString("unique")
		if k.Name != "" {
			b.WriteString(" " + k.Name)
		}
	}
	if k.Expression {
		b.WriteString("(expr " + strings.Join(k.Parts, " | ") + ")")
	} else {
		b.WriteString("(" + strings.Join(k.Columns, ",") + ")")
	}
	if k.Where != "" {
		b.WriteString(" where " + k.Where)
	}
	return b.String()
}

// typecheck type-checks src (package "m") against stand-ins of the
// packages GORM models use: the reader recognises them by path and name
// only.
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
func describeModel(m *schema.Model) string {
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
		keys = append(keys, gormDescribeKey(k))
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
		return describeModel(gormReadModel(obj, nil))
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
	read := func(name string) *schema.Model {
		return gormReadModel(pkg.Scope().Lookup(name).(*types.TypeName), lookup)
	}
	require.NotNil(t, read("Ledger"))
	assert.Equal(t, "ledger_entries", read("Ledger").Table)
	assert.True(t, read("Ledger").Evidence, "a TableName method is GORM evidence")
	assert.Equal(t, "ledger_entries", read("Entry").Table, "a promoted TableName names the embedding model's table")
	dyn := read("Dynamic")
	require.NotNil(t, dyn, "a TableName that is not a visible constant names the table by the model")
	assert.Equal(t, "m.Dynamic", dyn.Table)
	assert.False(t, dyn.Evidence, "a computed table name is no evidence of the table")
	assert.Equal(t, "m.Ledger", gormReadModel(pkg.Scope().Lookup("Ledger").(*types.TypeName), nil).Table, "without the facts, unknown: named by the model")
}
