package dialect

import (
	"go/types"
	"reflect"
	"strings"

	"github.com/idemlint/idemlint/analyzers/internal/schema"
)

// xormModels reads xorm beans (xorm v1.4.3 tags/parser.go, tags/tag.go):
// a struct with xorm tags, its table its TableName's constant or the name
// both mappers give its type (xormmodel.go), its primary key (pk, or an
// untagged int64 ID) and its unique keys: unique alone, unique(name) for
// columns unique together. Sync2 makes tables from the beans, but
// services also migrate with SQL: the keys count, the columns do not
// describe the table.
var xormModels = &schema.ModelReader{Lib: "xorm", Claims: xormClaims, Read: xormReadModel, Naming: xormNames}

// xormClaims reports whether a field of obj has an xorm tag.
func xormClaims(obj *types.TypeName) bool {
	st, ok := obj.Type().Underlying().(*types.Struct)
	if !ok {
		return false
	}
	for i := 0; i < st.NumFields(); i++ {
		if strings.Contains(st.Tag(i), `xorm:"`) {
			return true
		}
	}
	return false
}

// xormReadModel reads a bean under the naming the package reading it sees
// (xormNamingOf).
func xormReadModel(obj *types.TypeName, tableNames schema.TableNameLookup, settings []string) *schema.Model {
	naming := xormNamingOf(settings)
	st, ok := obj.Type().Underlying().(*types.Struct)
	if !ok {
		return nil
	}
	table, has, known := schema.TableNameOf(obj, tableNames)
	switch {
	case has && !known:
		return nil
	case !has:
		if table = naming.table.name(obj.Name()); table == "" {
			return nil
		}
	}
	m := &schema.Model{Type: schema.TypeKey(obj), Table: table, KeysOnly: true}
	var keys modelKeys
	for i := 0; i < st.NumFields(); i++ {
		f := xormFieldOf(st, i, naming.column)
		if f.skip || f.column == "" {
			continue
		}
		m.Fields = append(m.Fields, schema.ModelField{Name: st.Field(i).Name(), Column: f.column})
		if f.pk {
			keys.pk = append(keys.pk, f.column)
		}
		for _, word := range xormTagWords(reflect.StructTag(st.Tag(i)).Get("xorm")) {
			upper := strings.ToUpper(word)
			switch {
			case upper == "UNIQUE":
				keys.alone = append(keys.alone, f.column)
			case strings.HasPrefix(upper, "UNIQUE(") && strings.HasSuffix(word, ")"):
				keys.group(word[len("UNIQUE("):len(word)-1], f.column)
			}
		}
	}
	m.Keys = keys.keys()
	return m
}
