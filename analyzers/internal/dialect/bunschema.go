package dialect

import (
	"go/types"
	"reflect"
	"strings"

	"github.com/idemlint/idemlint/analyzers/internal/schema"
)

// bunModels reads bun models (bun v1.3.0 schema/table.go): a struct
// embedding bun.BaseModel, its table the BaseModel tag's name or table:
// option, else the plural of the underscored type name (newTable's
// tableNameInflector); a field's column is its tag's name or its
// underscored name; pk marks the primary key, and unique[:name[,name]]
// the unique keys: fields with a bare unique are each unique alone, those
// naming a group are one key together (addUnique, and CreateTableQuery's
// appendUniqueConstraints).
var bunModels = &schema.ModelReader{Lib: "bun", Claims: bunClaims, Read: namingFixed(bunReadModel)}

// bunClaims reports whether obj embeds bun.BaseModel.
func bunClaims(obj *types.TypeName) bool {
	st, ok := obj.Type().Underlying().(*types.Struct)
	if !ok {
		return false
	}
	for i := 0; i < st.NumFields(); i++ {
		if f := st.Field(i); f.Embedded() && isBunBaseModel(f.Type()) {
			return true
		}
	}
	return false
}

// isBunBaseModel reports whether t is bun.BaseModel, an alias of
// schema.BaseModel.
func isBunBaseModel(t types.Type) bool {
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == bunPkg+"/schema" && n.Obj().Name() == "BaseModel"
}

func bunReadModel(obj *types.TypeName, _ schema.TableNameLookup) *schema.Model {
	st, ok := obj.Type().Underlying().(*types.Struct)
	if !ok {
		return nil
	}
	table := bunTable(st)
	if table == "" {
		table = plural(underscore(obj.Name()))
	}
	// Services make bun's tables with SQL migrations more often than
	// with CreateTable from the model: its keys count, its columns do not
	// describe the table.
	m := &schema.Model{Type: schema.TypeKey(obj), Table: table, KeysOnly: true}
	r := &bunModelReader{model: m}
	r.walk(st, 0)
	m.Keys = r.keys.keys()
	return m
}

type bunModelReader struct {
	model *schema.Model
	keys  modelKeys
}

// walk adds the columns of st, flattening embedded structs as bun does.
func (r *bunModelReader) walk(st *types.Struct, depth int) {
	for i := 0; i < st.NumFields(); i++ {
		f := st.Field(i)
		if !f.Exported() || (f.Embedded() && isBunBaseModel(f.Type())) {
			continue
		}
		tag := reflect.StructTag(st.Tag(i)).Get("bun")
		if tag == "-" {
			continue
		}
		name, opts := bunTagOptions(tag)
		if _, rel := opts["rel"]; rel {
			continue // a relation, not a column
		}
		if _, m2m := opts["m2m"]; m2m {
			continue
		}
		if sub, ok := f.Type().Underlying().(*types.Struct); ok && f.Embedded() && depth < 8 {
			r.walk(sub, depth+1)
			continue
		}
		col := name
		if col == "" {
			col = underscore(f.Name())
		}
		r.model.Fields = append(r.model.Fields, schema.ModelField{Name: f.Name(), Column: col})
		if _, pk := opts["pk"]; pk {
			r.keys.pk = append(r.keys.pk, col)
		}
		groups, unique := opts["unique"]
		if !unique {
			continue
		}
		if groups == "" {
			r.keys.alone = append(r.keys.alone, col)
			continue
		}
		for _, g := range strings.Split(groups, ",") {
			r.keys.group(g, col)
		}
	}
}

// bunTagOptions splits a bun tag "name,opt,opt:value" into its name and
// options; a value may be quoted to hold commas (unique:"a,b").
func bunTagOptions(tag string) (string, map[string]string) {
	var parts []string
	var cur strings.Builder
	quoted := false
	for _, c := range tag {
		switch {
		case c == '"':
			quoted = !quoted
		case c == ',' && !quoted:
			parts = append(parts, cur.String())
			cur.Reset()
		default:
			cur.WriteRune(c)
		}
	}
	parts = append(parts, cur.String())
	opts := map[string]string{}
	name := ""
	for i, p := range parts {
		if i == 0 && !strings.Contains(p, ":") {
			name = p
			continue
		}
		k, v, _ := strings.Cut(p, ":")
		opts[k] = v
	}
	return name, opts
}
