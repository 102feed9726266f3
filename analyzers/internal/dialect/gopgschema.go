package dialect

import (
	"go/types"
	"reflect"
	"slices"
	"strings"

	"github.com/idemlint/idemlint/analyzers/internal/schema"
)

// gopgModels reads go-pg models (go-pg v10.11.0 orm/table.go): a struct
// with pg tags, its table named by its tableName field's tag or else the
// plural of its underscored type name (newTable), its columns, its
// primary key (gopgPKs) and its unique keys: pg:",unique" alone, and
// unique:name for columns unique together (newField). Services make
// go-pg's tables with migrations as often as with CreateTable from the
// model: its keys count, its columns do not describe the table.
var gopgModels = &schema.ModelReader{Lib: "gopg", Claims: gopgClaims, Read: namingFixed(gopgReadModel)}

// gopgClaims reports whether a field of obj has a pg tag.
func gopgClaims(obj *types.TypeName) bool {
	st, ok := obj.Type().Underlying().(*types.Struct)
	if !ok {
		return false
	}
	for i := 0; i < st.NumFields(); i++ {
		if strings.Contains(st.Tag(i), `pg:"`) {
			return true
		}
	}
	return false
}

func gopgReadModel(obj *types.TypeName, _ schema.TableNameLookup) *schema.Model {
	st, ok := obj.Type().Underlying().(*types.Struct)
	if !ok {
		return nil
	}
	table := gopgTable(st)
	if table == "" {
		if gopgHasTableName(st) {
			return nil // no table, or one named by a placeholder
		}
		table = plural(gopgUnderscore(obj.Name()))
	}
	m := &schema.Model{Type: schema.TypeKey(obj), Table: table, KeysOnly: true}
	keys := modelKeys{pk: gopgPKs(obj.Type())}
	for i := 0; i < st.NumFields(); i++ {
		col := gopgColumn(st, st.Field(i).Name())
		if col == "" || st.Field(i).Name() == "tableName" {
			continue
		}
		m.Fields = append(m.Fields, schema.ModelField{Name: st.Field(i).Name(), Column: col})
		_, opts, _ := strings.Cut(reflect.StructTag(st.Tag(i)).Get("pg"), ",")
		options := strings.Split(opts, ",")
		if slices.Contains(options, "unique") {
			keys.alone = append(keys.alone, col)
		}
		for _, o := range options {
			if name, ok := strings.CutPrefix(o, "unique:"); ok && name != "" {
				keys.group(name, col)
			}
		}
	}
	m.Keys = keys.keys()
	return m
}
