package schema

import (
	"go/types"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/idemlint/idemlint/analyzers/config"
	"github.com/idemlint/idemlint/analyzers/internal/sqltext"
)

// Answer is what the schema says about a column set.
type Answer uint8

const (
	// Unknown: no source describes the table completely, or a column asked
	// about is not among its known columns, or an expression key may cover
	// the columns. Unknown suppresses findings downstream.
	Unknown Answer = iota
	// No: the table is described and no unique key lies within the
	// columns.
	No
	// Partial: a partial unique index lies within the columns; it holds
	// only among the rows its predicate selects (UniqueKey says which).
	Partial
	// Yes: a unique key (primary key, unique constraint or index, in any
	// source) lies within the columns, so they are unique.
	Yes
)

func (a Answer) String() string {
	switch a {
	case No:
		return "no"
	case Partial:
		return "partial"
	case Yes:
		return "yes"
	}
	return "unknown"
}

// SourceKind is the kind of source a description comes from.
type SourceKind uint8

const (
	FromDDL   SourceKind = iota + 1 // a DDL file named by the configuration's schema setting
	FromSqlc                        // a schema file of a sqlc.yaml, sqlc.yml or sqlc.json
	FromCode                        // a package of generated code a library's TableReader reads
	FromModel                       // a model type a library's ModelReader reads
	// FromMigration is a directory of DDL migrations the schema layer
	// discovered in the module (no schema configured; discover.go).
	FromMigration
)

// model reports whether descriptions of this kind come from a model type.
func (k SourceKind) model() bool { return k == FromModel }

func (k SourceKind) String() string {
	switch k {
	case FromDDL:
		return "ddl"
	case FromSqlc:
		return "sqlc"
	case FromCode:
		return "code"
	case FromModel:
		return "model"
	case FromMigration:
		return "migration"
	}
	return "?"
}

// Source says where a description came from, for messages: a file's
// absolute path, a generated package's path, a model type
// ("example.com/store.User"), or a discovered migration directory,
// relative to the module root ("db/migrations").
type Source struct {
	Kind SourceKind
	// Lib is, for generated code and models, the library whose reader
	// read it (TableReader.Lib, ModelReader.Lib).
	Lib  string
	Name string
}

// From names the kind of source: "ddl", "sqlc", or the library whose
// reader read the code or the model.
func (s Source) From() string {
	if s.Lib != "" && (s.Kind == FromCode || s.Kind == FromModel) {
		return s.Lib
	}
	return s.Kind.String()
}

func (s Source) String() string { return s.From() + " " + s.Name }

// Key is a unique key of a table.
type Key struct {
	// Name is the constraint's or index's name ("" when unnamed).
	Name string
	// Columns are the key's columns; nil for an expression key.
	Columns []string
	// Parts are the key's parts as written (expressions included).
	Parts []string
	// Expression reports a key on expressions (lower(email)): not a plain
	// column set.
	Expression bool
	Primary    bool
	// Where is the predicate of a partial unique index ("" when none).
	Where  string
	Source Source
}

// Condition parses a partial key's predicate (nil when not partial).
func (k Key) Condition() *sqltext.Condition {
	if k.Where == "" {
		return nil
	}
	return sqltext.ParseCondition(k.Where)
}

// VersionKind is the evidence that makes a table versioned.
type VersionKind uint8

const (
	// VersionPlugin: a model has a field of the type a plugin of its
	// library versions by itself (ModelField.Plugin): the plugin adds the
	// version predicate to the library's updates.
	VersionPlugin VersionKind = iota + 1
	// VersionColumn: a table of a DDL file, sqlc or generated code has a
	// column named as the version-column setting says.
	VersionColumn
	// VersionField: a model has a field named as the version-field
	// setting says. design.md's versioned rule wants, for a model known
	// only this way, evidence from an update that compares or bumps it.
	VersionField
)

func (k VersionKind) String() string {
	switch k {
	case VersionPlugin:
		return "optimisticlock"
	case VersionColumn:
		return "column"
	case VersionField:
		return "field"
	}
	return "?"
}

// Version is a table's version column and the evidence for it.
type Version struct {
	Column string
	// Field is the model's field holding it ("" when not from a model).
	Field  string
	Kind   VersionKind
	Source Source
}

// column is a column of a description; Field is the model's field (a
// dotted path through embedded structs) that maps to it.
type column struct {
	Name  string
	Field string
	// Plugin marks a field a plugin of the model's library versions by
	// itself (ModelField.Plugin).
	Plugin bool
	// NotCounter marks a DDL or generated column that cannot be a
	// concurrency counter, whatever its name: its type is not a number (a
	// text or enum label), or an UPDATE of the DDL scripts sets it to a
	// literal without comparing it (a migration moving a module version
	// by hand).
	NotCounter bool
}

// desc is one source's description of a table.
type desc struct {
	Source       Source
	Schema, Name string
	Columns      []column
	Keys         []Key
	// Describes: the columns and keys are all known, so that a column set
	// without a key is known not to be unique. A model without its
	// library's evidence (Model.Evidence), a table only altered or indexed
	// in the DDL, or one created by LIKE or AS SELECT, contributes its keys
	// only.
	Describes bool
}

// Model is a model as the schema layer reads it from its type, through
// the reader of the library that claims it, or the default reader for a
// struct no library claims (ModelReader).
type Model struct {
	// Type is the model's type, "example.com/store.User".
	Type  string
	Table string
	// Lib is the library whose reader read it (ModelReader.Lib).
	Lib string
	// Fields are the columns, in the library's order (embedded structs
	// flattened): Name is the Go field (A.B through a named embedded
	// struct), Column its column.
	Fields []ModelField
	// Keys are its unique keys; their Source is the model's.
	Keys []Key
	// Evidence reports declarations of the library's own: one of its
	// tags, a field of its plugin's type, a constant TableName method (a
	// claimed model always has it). A model with evidence describes its
	// table (No answers are possible); the default reader reads any
	// struct, so one without contributes only its keys (its primary key).
	Evidence bool
	// KeysOnly marks a model whose library's tables are made by
	// migrations more often than from its structs (bun): its keys count,
	// but its columns do not describe the table, so no No answer comes
	// from it.
	KeysOnly bool
}

// ModelField is a field of a model that is a column.
type ModelField struct {
	Name, Column string
	// Plugin marks a field of the type a plugin of the library versions
	// by itself: the model is versioned by it (VersionPlugin).
	Plugin bool
}

// Schema answers what the schema sources say about tables, for one
// package: the DDL files of the configuration, the sqlc schema files found
// from the package's directory, and the generated packages and models of
// the package and everything it imports that the libraries' readers read. A nil *Schema answers
// Unknown to everything.
type Schema struct {
	cfg    *config.Config
	facts  *factSet
	tables map[string][]*desc // by lower-cased name

	mu     sync.Mutex
	models map[*types.TypeName]*Model // computed on demand for structs not in the facts
}

func newSchema(cfg *config.Config, facts *factSet, files []*desc) *Schema {
	s := &Schema{cfg: cfg, facts: facts, tables: map[string][]*desc{}, models: map[*types.TypeName]*Model{}}
	add := func(t *desc) {
		key := strings.ToLower(t.Name)
		s.tables[key] = append(s.tables[key], t)
	}
	for _, t := range files {
		add(t)
	}
	if facts != nil {
		for _, ft := range facts.tables() {
			add(ft)
		}
	}
	return s
}

// splitTable splits "schema.table".
func splitTable(name string) (schema, table string) {
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		return name[:i], name[i+1:]
	}
	return "", name
}

// lookup returns the descriptions of table ("name" or "schema.name"): a
// description without a schema matches any schema, names compare exactly
// and, when nothing matches exactly, case-insensitively.
func (s *Schema) lookup(name string) []*desc {
	if s == nil {
		return nil
	}
	schema, bare := splitTable(name)
	candidates := s.tables[strings.ToLower(bare)]
	for _, fold := range []bool{false, true} {
		eq := func(a, b string) bool { return a == b }
		if fold {
			eq = strings.EqualFold
		}
		var out []*desc
		for _, t := range candidates {
			if eq(t.Name, bare) && (schema == "" || t.Schema == "" || eq(t.Schema, schema)) {
				out = append(out, t)
			}
		}
		if len(out) > 0 {
			return out
		}
	}
	return nil
}

// Describes reports whether some source describes table completely.
func (s *Schema) Describes(table string) bool {
	return slices.ContainsFunc(s.lookup(table), func(t *desc) bool { return t.Describes })
}

// Sources returns the sources that say something about table.
func (s *Schema) Sources(table string) []Source {
	var out []Source
	for _, t := range s.lookup(table) {
		if !slices.Contains(out, t.Source) {
			out = append(out, t.Source)
		}
	}
	return out
}

// Keys returns the unique keys of table, from every source.
func (s *Schema) Keys(table string) []Key {
	var out []Key
	for _, t := range s.lookup(table) {
		out = append(out, t.Keys...)
	}
	return out
}

// Columns returns the known columns of table, from every source, in the
// order first seen.
func (s *Schema) Columns(table string) []string {
	var out []string
	for _, t := range s.lookup(table) {
		for _, c := range t.Columns {
			if !containsFold(out, c.Name) {
				out = append(out, c.Name)
			}
		}
	}
	return out
}

// Unique answers whether rows of table are unique by columns (names as
// sqltext normalises them: unquoted names lower-cased). The sources merge
// by union: a key declared by any source counts, and a table described by
// any source can answer No.
func (s *Schema) Unique(table string, columns ...string) Answer {
	_, a := s.UniqueKey(table, columns...)
	return a
}

// UniqueKey is Unique with the key that makes the answer Yes or Partial.
func (s *Schema) UniqueKey(table string, columns ...string) (Key, Answer) {
	return answer(s.lookup(table), columns)
}

func answer(tables []*desc, columns []string) (Key, Answer) {
	if len(columns) == 0 || len(tables) == 0 {
		return Key{}, Unknown
	}
	var partial *Key
	for _, t := range tables {
		for i, k := range t.Keys {
			if k.Expression || len(k.Columns) == 0 || !subsetFold(k.Columns, columns) {
				continue
			}
			if k.Where == "" {
				return k, Yes
			}
			if partial == nil {
				partial = &t.Keys[i]
			}
		}
	}
	if partial != nil {
		return *partial, Partial
	}
	described := false
	var known []string
	for _, t := range tables {
		described = described || t.Describes
		for _, c := range t.Columns {
			known = append(known, c.Name)
		}
	}
	if !described || !subsetFold(columns, known) {
		return Key{}, Unknown
	}
	for _, t := range tables {
		for _, k := range t.Keys {
			if k.Expression && expressionMentions(k, columns) {
				return Key{}, Unknown
			}
		}
	}
	return Key{}, No
}

// expressionMentions reports whether an expression key reads one of
// columns: unique(lower(email)) makes email unique too, but this layer
// does not decide which expressions imply what, so the answer is Unknown.
func expressionMentions(k Key, columns []string) bool {
	for _, part := range k.Parts {
		e := sqltext.ParseExpr(part)
		if e.Kind == sqltext.ExprUnknown {
			for _, w := range strings.FieldsFunc(part, func(r rune) bool {
				return !(r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= 0x80)
			}) {
				if containsFold(columns, w) {
					return true
				}
			}
			continue
		}
		for _, c := range e.Columns {
			if containsFold(columns, c.Name) {
				return true
			}
		}
	}
	return false
}

func subsetFold(sub, of []string) bool {
	for _, c := range sub {
		if !containsFold(of, c) {
			return false
		}
	}
	return true
}

func containsFold(list []string, s string) bool {
	return slices.ContainsFunc(list, func(x string) bool { return strings.EqualFold(x, s) })
}

// VersionColumn returns the version column of table, when the static half
// of the versioned rule finds one (see Version).
func (s *Schema) VersionColumn(table string) (string, bool) {
	v, ok := s.Version(table)
	return v.Column, ok
}

// Version returns the version column of table and the strongest evidence
// for it: a model's field its library's plugin versions, then a column
// named by the version-column setting in DDL, sqlc or generated code,
// then a model's field named by the version-field setting.
func (s *Schema) Version(table string) (Version, bool) {
	if s == nil {
		return Version{}, false
	}
	return s.version(s.lookup(table))
}

func (s *Schema) version(tables []*desc) (Version, bool) {
	var best Version
	for _, t := range tables {
		for _, c := range t.Columns {
			var v Version
			switch {
			case c.Plugin:
				v = Version{Column: c.Name, Field: c.Field, Kind: VersionPlugin, Source: t.Source}
			case !t.Source.Kind.model() && strings.EqualFold(c.Name, s.cfg.VersionColumn) && !c.NotCounter:
				v = Version{Column: c.Name, Kind: VersionColumn, Source: t.Source}
			case t.Source.Kind.model() && c.Field == s.cfg.VersionField:
				v = Version{Column: c.Name, Field: c.Field, Kind: VersionField, Source: t.Source}
			default:
				continue
			}
			if best.Kind == 0 || v.Kind < best.Kind {
				best = v
			}
		}
	}
	return best, best.Kind != 0
}

// Table returns the table of a model type (the struct, a pointer to it,
// or a slice or array of either), as its reader names it (Model). ok is
// false for a type that is not a named struct, a generic one, or one whose
// table its reader cannot know (a TableName that is not a visible
// constant).
func (s *Schema) Table(t types.Type) (string, bool) {
	m, ok := s.Model(t)
	if !ok {
		return "", false
	}
	return m.Table, true
}

// Model returns the model of a type (see Table for the types accepted):
// the reader of the library that claims it reads it, or, for a struct no
// library claims, the default reader (ModelReader.Default). The model is
// shared: do not modify it.
func (s *Schema) Model(t types.Type) (*Model, bool) {
	if s == nil {
		return nil, false
	}
	obj := modelTypeName(t)
	if obj == nil {
		return nil, false
	}
	if obj.Parent() == obj.Pkg().Scope() {
		// A package-level type: the facts know it if it is a model with
		// evidence or has a TableName method.
		if m, ok := s.facts.model(typeKey(obj)); ok {
			return m, m != nil
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if m, ok := s.models[obj]; ok {
		return m, m != nil
	}
	m := readModel(obj, s.facts.tableName, s.facts.naming())
	s.models[obj] = m
	return m, m != nil
}

// modelTable is the description a model gives of its table.
func modelTable(m *Model) *desc {
	src := Source{Kind: FromModel, Lib: m.Lib, Name: m.Type}
	t := &desc{Source: src, Name: m.Table, Keys: m.Keys, Describes: m.Evidence && !m.KeysOnly}
	t.Schema, t.Name = splitTable(m.Table)
	for _, f := range m.Fields {
		t.Columns = append(t.Columns, column{Name: f.Column, Field: f.Name, Plugin: f.Plugin})
	}
	return t
}

// modelTables returns the descriptions of the table of model t: the
// model's own, even without its library's evidence, and every other
// source's.
func (s *Schema) modelTables(t types.Type) ([]*desc, *Model) {
	m, ok := s.Model(t)
	if !ok {
		return nil, nil
	}
	own := modelTable(m)
	tables := []*desc{own}
	for _, x := range s.lookup(m.Table) {
		if x.Source != own.Source {
			tables = append(tables, x)
		}
	}
	return tables, m
}

// ModelUnique is Unique for the table of a model, counting the model's
// own keys (its primary key at least) even when the model carries no
// evidence of its library.
func (s *Schema) ModelUnique(t types.Type, columns ...string) Answer {
	tables, _ := s.modelTables(t)
	_, a := answer(tables, columns)
	return a
}

// ModelVersion is Version for the table of a model, counting the
// model's own fields.
func (s *Schema) ModelVersion(t types.Type) (Version, bool) {
	tables, m := s.modelTables(t)
	if m == nil {
		return Version{}, false
	}
	return s.version(tables)
}

// Column returns the column of a model's field (a Go field name, or a
// dotted path through a named embedded struct).
func (s *Schema) Column(t types.Type, field string) (string, bool) {
	m, ok := s.Model(t)
	if !ok {
		return "", false
	}
	for _, f := range m.Fields {
		if f.Name == field {
			return f.Column, true
		}
	}
	return "", false
}

// Tables lists the tables some source says something about, sorted.
func (s *Schema) Tables() []string {
	if s == nil {
		return nil
	}
	var out []string
	for _, ts := range s.tables {
		for _, t := range ts {
			name := t.Name
			if t.Schema != "" {
				name = t.Schema + "." + t.Name
			}
			if !slices.Contains(out, name) {
				out = append(out, name)
			}
		}
	}
	sort.Strings(out)
	return out
}
