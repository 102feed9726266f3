package dialect

import (
	"go/types"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/idemlint/idemlint/analyzers/internal/schema"
)

// gormModels reads GORM models (v2 and v1) from go/types: the struct's
// fields and their gorm tags, with GORM v1.31.2's rules (gorm.io/gorm/schema:
// ParseField, ParseIndexes, parseFieldIndexes, ParseTagSetting and the
// primary key choice in Parse): primaryKey/primary_key, unique,
// uniqueIndex[:name], index:[name],unique (or class:UNIQUE), composite:,
// priority:, where: (a partial key), expression: (an expression key),
// column:, embedded, embeddedPrefix:, "-"; embedded structs flattened;
// GORM's default primary key (the id column, or a field named ID) when
// none is tagged; a TableName() string method returning a constant, else
// GORM's default naming (gormnaming.go). v1's tags are read where the
// model's package imports v1 (gormv1schema.go). Its evidence: a gorm tag
// (an embedded gorm.Model counts), an optimisticlock.Version field
// (ModelField.Plugin) or a constant TableName method.
//
// It is the schema layer's default reader: any struct can be handed to
// GORM, so a struct no other library claims is named as GORM names it,
// whatever its package imports (the structs of database/sql, sqlx, pgx,
// sqlc or squirrel code included, as their Table and ModelUnique
// answers); one without GORM's evidence (Model.Evidence) contributes its
// keys only.
var gormModels = &schema.ModelReader{
	Lib:     gormV2.lib,
	Claims:  gormMayHaveEvidence,
	Read:    namingFixed(gormReadModel),
	Default: true,
	// GORM's own structs (gorm.Model, the plugins') are not the
	// program's models.
	Own: func(path string) bool { return strings.HasPrefix(path, gormModulePrefix) },
}

const (
	optimisticlockPath = "gorm.io/plugin/optimisticlock"
	gormModulePrefix   = "gorm.io/"
)

// gormReadModel reads a struct as GORM would. A model whose TableName
// method's result is not a visible constant (or TableName(Namer)) is
// named by its type (pkg.Name), a name no SQL text uses.
func gormReadModel(obj *types.TypeName, tableNames schema.TableNameLookup) *schema.Model {
	st, ok := obj.Type().Underlying().(*types.Struct)
	if !ok {
		return nil
	}
	m := &schema.Model{Type: schema.TypeKey(obj)}
	if name, has, known := schema.TableNameOf(obj, tableNames); has {
		if !known {
			// TableName computed at run time (a configured prefix):
			// the table is named by its model, which still says its
			// columns, so that operations on the model pair up.
			m.Table = obj.Pkg().Name() + "." + obj.Name()
		} else {
			m.Table, m.Evidence = name, true
		}
	} else {
		m.Table = gormTableName(obj.Name())
	}
	r := &gormModelReader{model: m, v1: importsPath(obj.Pkg(), gormV1.pkg)}
	r.walk(st, "", "", 0)
	m.Keys = r.keys()
	return m
}

// gormMayHaveEvidence is a cheap test that rules out most structs before
// the facts read their model: a gorm tag (or GORM v1's sql tag), an
// optimisticlock.Version field or an embedded struct somewhere, or a
// TableName method.
func gormMayHaveEvidence(obj *types.TypeName) bool {
	st, ok := obj.Type().Underlying().(*types.Struct)
	if !ok {
		return false
	}
	for i := 0; i < st.NumFields(); i++ {
		f := st.Field(i)
		if strings.Contains(st.Tag(i), `gorm:"`) || strings.Contains(st.Tag(i), `sql:"`) || f.Anonymous() {
			return true
		}
		t := f.Type()
		if p, ok := t.(*types.Pointer); ok {
			t = p.Elem()
		}
		if isNamedType(t, optimisticlockPath, "Version") {
			return true
		}
	}
	sel, _, _ := types.LookupFieldOrMethod(types.NewPointer(obj.Type()), true, obj.Pkg(), "TableName")
	return sel != nil
}

// gormField is a field that is a column, with its tag.
type gormField struct {
	name, column string
	depth        int
	plugin       bool
	tag          string            // the raw gorm tag
	settings     map[string]string // parseTagSetting(tag, ";")
}

type gormModelReader struct {
	model  *schema.Model
	fields []gormField
	// v1: the model's package imports GORM v1, whose tags gormv1schema.go
	// reads.
	v1 bool
}

// maxEmbedding bounds the depth of embedded structs followed.
const maxEmbedding = 8

// walk adds the columns of st, flattening embedded structs as GORM does.
func (r *gormModelReader) walk(st *types.Struct, path, colPrefix string, depth int) {
	for i := 0; i < st.NumFields(); i++ {
		f := st.Field(i)
		if !f.Exported() {
			continue
		}
		tag := reflect.StructTag(st.Tag(i)).Get("gorm")
		settings := parseTagSetting(tag, ";")
		if r.v1 {
			settings = v1TagSettings(reflect.StructTag(st.Tag(i)))
			tag += reflect.StructTag(st.Tag(i)).Get("sql")
		}
		if tag != "" {
			r.model.Evidence = true
		}
		if v, ok := settings["-"]; ok {
			if v = strings.ToLower(strings.TrimSpace(v)); v == "-" || v == "all" {
				continue
			}
		}
		ft := f.Type()
		for {
			p, ok := types.Unalias(ft).(*types.Pointer)
			if !ok {
				break
			}
			ft = p.Elem()
		}
		name := path + f.Name()
		plugin := isNamedType(ft, optimisticlockPath, "Version")
		if plugin {
			r.model.Evidence = true
		}
		_, embeddedTag := settings["EMBEDDED"]
		if sub, ok := types.Unalias(ft).Underlying().(*types.Struct); ok && !plugin && (embeddedTag || f.Anonymous()) && !isTime(ft) && !isValuer(ft) {
			if depth >= maxEmbedding {
				continue
			}
			subPath := path
			if embeddedTag || !f.Anonymous() {
				subPath = name + "."
			}
			r.walk(sub, subPath, colPrefix+settings["EMBEDDEDPREFIX"], depth+1)
			continue
		}
		if !plugin && !isColumnType(ft, settings) {
			continue // a relationship, not a column
		}
		col := settings["COLUMN"]
		if col == "" {
			col = gormColumnName(f.Name())
		}
		col = colPrefix + col
		gf := gormField{name: name, column: col, depth: depth, plugin: plugin, tag: tag, settings: settings}
		if j := slices.IndexFunc(r.fields, func(x gormField) bool { return x.column == col }); j >= 0 {
			// GORM keeps the shortest path to a column.
			if depth < r.fields[j].depth {
				r.fields[j] = gf
			}
			continue
		}
		r.fields = append(r.fields, gf)
	}
	if depth == 0 {
		for _, f := range r.fields {
			r.model.Fields = append(r.model.Fields, schema.ModelField{Name: f.name, Column: f.column, Plugin: f.plugin})
		}
	}
}

func isTime(t types.Type) bool { return isNamedType(t, "time", "Time") }

// isValuer reports whether *T has a Value or Scan method (driver.Valuer,
// sql.Scanner): GORM stores such a type in one column.
func isValuer(t types.Type) bool {
	ms := types.NewMethodSet(types.NewPointer(t))
	for _, name := range []string{"Value", "Scan"} {
		if sel := ms.Lookup(nil, name); sel != nil {
			return true
		}
	}
	return false
}

// isColumnType reports whether a field of type t is a column rather than
// a relationship: a basic type, time.Time, []byte, a Valuer or Scanner,
// or any type given a type or serializer in its tag.
func isColumnType(t types.Type, settings map[string]string) bool {
	if settings["TYPE"] != "" || settings["SERIALIZER"] != "" {
		return true
	}
	if isTime(t) || isValuer(t) {
		return true
	}
	switch u := t.Underlying().(type) {
	case *types.Basic:
		return u.Kind() != types.UntypedNil && u.Kind() != types.Invalid
	case *types.Slice:
		b, ok := u.Elem().Underlying().(*types.Basic)
		return ok && (b.Kind() == types.Byte || b.Kind() == types.Uint8)
	}
	return false
}

// checkTruth is GORM's utils.CheckTruth.
func checkTruth(vals ...string) bool {
	for _, v := range vals {
		if v != "" && !strings.EqualFold(v, "false") {
			return true
		}
	}
	return false
}

// keys returns the model's unique keys: the primary key, unique fields
// and unique indexes (the schema layer sets their Source).
func (r *gormModelReader) keys() []schema.Key {
	m := r.model
	var keys []schema.Key
	var pk []string
	for _, f := range r.fields {
		if checkTruth(f.settings["PRIMARYKEY"], f.settings["PRIMARY_KEY"]) {
			pk = append(pk, f.column)
		}
	}
	if len(pk) == 0 {
		// GORM's prioritized primary field: LookUpField("id"), then
		// LookUpField("ID"), by column, then by field name.
		for _, name := range []string{"id", "ID"} {
			if i := slices.IndexFunc(r.fields, func(f gormField) bool { return f.column == name }); i >= 0 {
				pk = []string{r.fields[i].column}
				break
			}
			if i := slices.IndexFunc(r.fields, func(f gormField) bool { return f.name == name }); i >= 0 {
				pk = []string{r.fields[i].column}
				break
			}
		}
	}
	if len(pk) > 0 {
		keys = append(keys, schema.Key{Columns: pk, Parts: pk, Primary: true})
	}
	for _, f := range r.fields {
		if checkTruth(f.settings["UNIQUE"]) {
			keys = append(keys, schema.Key{Name: gormUniqueName(tableOnly(m.Table), f.column), Columns: []string{f.column}, Parts: []string{f.column}})
		}
	}
	if r.v1 {
		return append(keys, r.v1IndexKeys()...)
	}
	return append(keys, r.indexKeys()...)
}

// tableOnly is the table of "schema.table".
func tableOnly(table string) string {
	return table[strings.LastIndexByte(table, '.')+1:]
}

type gormIndex struct {
	name, class, where string
	parts              []gormIndexPart
}

type gormIndexPart struct {
	column, expression string
	priority           int
}

// indexKeys is GORM's ParseIndexes, keeping the unique indexes.
func (r *gormModelReader) indexKeys() []schema.Key {
	var indexes []*gormIndex
	byName := map[string]*gormIndex{}
	for _, f := range r.fields {
		if f.settings["INDEX"] == "" && f.settings["UNIQUEINDEX"] == "" {
			continue
		}
		for _, idx := range parseFieldIndexes(f, tableOnly(r.model.Table)) {
			x := byName[idx.name]
			if x == nil {
				x = &gormIndex{name: idx.name}
				byName[idx.name] = x
				indexes = append(indexes, x)
			}
			if x.class == "" {
				x.class = idx.class
			}
			if x.where == "" {
				x.where = idx.where
			}
			x.parts = append(x.parts, idx.parts...)
		}
	}
	var keys []schema.Key
	for _, x := range indexes {
		if !strings.EqualFold(x.class, "UNIQUE") {
			continue
		}
		sort.SliceStable(x.parts, func(i, j int) bool { return x.parts[i].priority < x.parts[j].priority })
		k := schema.Key{Name: x.name, Where: x.where}
		for _, p := range x.parts {
			if p.expression != "" {
				k.Expression = true
				k.Parts = append(k.Parts, p.expression)
				continue
			}
			k.Parts = append(k.Parts, p.column)
			k.Columns = append(k.Columns, p.column)
		}
		if k.Expression {
			k.Columns = nil
		}
		keys = append(keys, k)
	}
	return keys
}

// parseFieldIndexes is GORM's: each index: or uniqueIndex: entry of the
// raw tag, "name,setting:value,…".
func parseFieldIndexes(f gormField, table string) []gormIndex {
	var out []gormIndex
	for _, value := range strings.Split(f.tag, ";") {
		if value == "" {
			continue
		}
		v := strings.Split(value, ":")
		k := strings.TrimSpace(strings.ToUpper(v[0]))
		if k != "INDEX" && k != "UNIQUEINDEX" {
			continue
		}
		tag := strings.Join(v[1:], ":")
		idx := strings.IndexByte(tag, ',')
		settings := parseTagSetting(strings.Join(strings.Split(tag, ",")[1:], ","), ",")
		if idx == -1 {
			idx = len(tag)
		}
		name := tag[0:idx]
		if name == "" {
			subName := f.name[strings.LastIndexByte(f.name, '.')+1:]
			if composite, ok := settings["COMPOSITE"]; ok {
				if composite == "" || composite == "COMPOSITE" {
					continue // GORM reports an error
				}
				subName = composite
			}
			name = gormIndexName(table, subName)
		}
		if k == "UNIQUEINDEX" || settings["UNIQUE"] != "" {
			settings["CLASS"] = "UNIQUE"
		}
		priority, err := strconv.Atoi(settings["PRIORITY"])
		if err != nil {
			priority = 10
		}
		out = append(out, gormIndex{
			name:  name,
			class: settings["CLASS"],
			where: settings["WHERE"],
			parts: []gormIndexPart{{column: f.column, expression: settings["EXPRESSION"], priority: priority}},
		})
	}
	return out
}

// parseTagSetting is GORM's ParseTagSetting: "a;b:c" -> {A: A, B: c},
// keys upper-cased, a separator escaped with a backslash.
func parseTagSetting(str, sep string) map[string]string {
	settings := map[string]string{}
	names := strings.Split(str, sep)
	var parsed []string
	for i := 0; i < len(names); i++ {
		s := names[i]
		for strings.HasSuffix(s, "\\") && i+1 < len(names) {
			i++
			s = s[:len(s)-1] + sep + names[i]
		}
		parsed = append(parsed, s)
	}
	for _, tag := range parsed {
		values := strings.Split(tag, ":")
		k := strings.TrimSpace(strings.ToUpper(values[0]))
		if len(values) >= 2 {
			settings[k] = strings.ReplaceAll(strings.Join(values[1:], ":"), `\"`, `"`)
		} else if k != "" {
			settings[k] = k
		}
	}
	return settings
}
