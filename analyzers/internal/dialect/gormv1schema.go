package dialect

import (
	"reflect"
	"strings"

	"github.com/idemlint/idemlint/analyzers/internal/schema"
)

// GORM v1 (github.com/jinzhu/gorm v1.9.16) models differ from v2's in
// their tags only: the columns, the table name and the primary key follow
// the same rules, but the settings come from the sql tag and then the gorm
// tag (model_struct.go's parseTagSetting), and a unique index is
// unique_index[:name[,name…]] (scope.go's autoIndex), not uniqueIndex.

// v1TagSettings merges a field's sql and gorm tag settings, the gorm
// tag's winning, as GORM v1 does.
func v1TagSettings(tag reflect.StructTag) map[string]string {
	settings := parseTagSetting(tag.Get("sql"), ";")
	for k, v := range parseTagSetting(tag.Get("gorm"), ";") {
		settings[k] = v
	}
	return settings
}

// v1IndexKeys returns the unique indexes of unique_index settings: each
// field joins every index it names, in field order; an unnamed one is
// uix_<table>_<column>.
func (r *gormModelReader) v1IndexKeys() []schema.Key {
	var names []string
	cols := map[string][]string{}
	for _, f := range r.fields {
		value, ok := f.settings["UNIQUE_INDEX"]
		if !ok {
			continue
		}
		for _, name := range strings.Split(value, ",") {
			if name == "UNIQUE_INDEX" || name == "" {
				name = "uix_" + tableOnly(r.model.Table) + "_" + f.column
			}
			if _, seen := cols[name]; !seen {
				names = append(names, name)
			}
			cols[name] = append(cols[name], f.column)
		}
	}
	var keys []schema.Key
	for _, name := range names {
		keys = append(keys, schema.Key{Name: name, Columns: cols[name], Parts: cols[name]})
	}
	return keys
}
