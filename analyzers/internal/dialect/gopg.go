package dialect

import (
	"fmt"
	"go/types"
	"reflect"
	"slices"
	"strings"

	"github.com/idemlint/idemlint/analyzers/internal/ops"
)

const gopgPkg = "github.com/go-pg/pg/v10"

// gopgDialect is go-pg v10's ORM (*orm.Query).
var gopgDialect = &Dialect{
	Models: gopgModels,
	Lib:    "gopg",
	ClaimInsert: func(cols string) string {
		// Insert without Returning runs Query, not QueryOne: a row the
		// conflict skipped is a nil error and RowsAffected() == 0.
		return fmt.Sprintf("insert with OnConflict(\"(%s) DO NOTHING\") and read the row when RowsAffected() is 0, or catch the unique violation (pg.Error's IntegrityViolation()) and re-read", cols)
	},
	LockRead:     "read the row with .For(\"UPDATE\") in the transaction that writes it (RunInTransaction)",
	PartialWrite: "write only the changed columns (.Column(\"col\", ...) before Update)",
	AtomicUpdate: func(_ *ops.ColumnWrite, col, expr string) string {
		return fmt.Sprintf("update it in SQL with .Set(%q, delta)", col+" = "+expr)
	},
	VersionPredicate: func(u *ops.Update, col, field string) string {
		if field == "" {
			field = "Version"
		}
		bump := fmt.Sprintf("Set(%q)", col+" = "+col+" + 1")
		if slices.Contains(u.Assigns, "*") {
			// Update writes the model's columns; Value replaces one of
			// them by an expression (orm/update.go appendSetStruct).
			bump = fmt.Sprintf("Value(%q, %q)", col, col+" + 1")
		}
		return fmt.Sprintf("add Where(%q, m.%s) and %s, and treat RowsAffected() == 0 as a conflict", col+" = ?", field, bump)
	},
	CheckCount:        "check RowsAffected() of its pg.Result and treat 0 as a conflict",
	UnobservableCount: func(*ops.Update) (string, string) { return "", "" },
	Ops: &ops.Library{
		Name:         "gopg",
		Pkg:          gopgPkg,
		Row:          gopgRow,
		Read:         gopgRead,
		Writes:       gopgWrites,
		Update:       gopgUpdate,
		WholeModel:   gopgWholeModel,
		Count:        gopgCount,
		ModelColumns: columnsFixed(gopgModelColumns),
	},
}

// gopgModelColumns names the table of a go-pg model (its tableName
// field's tag, else the plural of its underscored type name, as newTable
// names it) and the column of each of its fields; "" and nil when its
// tableName field names no table (pg:"_", a placeholder).
func gopgModelColumns(t types.Type) (string, func(string) (string, bool)) {
	st := gopgStruct(t)
	if st == nil {
		return "", nil
	}
	table := gopgTable(st)
	if table == "" {
		if gopgHasTableName(st) {
			return "", nil
		}
		table = plural(gopgUnderscore(types.Unalias(t).(*types.Named).Obj().Name()))
	}
	return table, func(field string) (string, bool) {
		c := gopgColumn(st, field)
		return c, c != ""
	}
}

// gopgStruct returns the struct of a named model type, or nil.
func gopgStruct(t types.Type) *types.Struct {
	if t == nil {
		return nil
	}
	if _, ok := types.Unalias(t).(*types.Named); !ok {
		return nil
	}
	st, _ := t.Underlying().(*types.Struct)
	return st
}

// gopgHasTableName reports whether a model declares a tableName field.
func gopgHasTableName(st *types.Struct) bool {
	for i := 0; i < st.NumFields(); i++ {
		if st.Field(i).Name() == "tableName" {
			return true
		}
	}
	return false
}

// gopgTable returns the table a model's tableName field names
// (`pg:"users"`, `pg:"users,alias:u"`, `pg:"app.users"`), or "". Without
// one go-pg uses the plural of the type's underscored name
// (orm/table.go newTable: inflection.Plural; gopgModelColumns).
func gopgTable(st *types.Struct) string {
	for i := 0; i < st.NumFields(); i++ {
		if st.Field(i).Name() != "tableName" {
			continue
		}
		name, _, _ := strings.Cut(reflect.StructTag(st.Tag(i)).Get("pg"), ",")
		name = strings.Trim(name, `'"`)
		if name == "_" || strings.ContainsAny(name, "?(") {
			return "" // no table, or one named by a placeholder or expression
		}
		if j := strings.LastIndexByte(name, '.'); j >= 0 {
			name = name[j+1:]
		}
		return name
	}
	return ""
}

// gopgColumn returns the column of a model's field: its pg tag's name, or
// go-pg's underscored field name; "" for a field go-pg skips (pg:"-",
// unexported, tableName). go-pg v10 reads the pg tag alone (orm/table.go
// newField); embedded structs, whose fields it flattens, are not followed.
func gopgColumn(st *types.Struct, field string) string {
	for i := 0; i < st.NumFields(); i++ {
		f := st.Field(i)
		if f.Name() != field || !f.Exported() || f.Embedded() {
			continue
		}
		name, _, _ := strings.Cut(reflect.StructTag(st.Tag(i)).Get("pg"), ",")
		switch name {
		case "-":
			return ""
		case "":
			return gopgUnderscore(field)
		}
		return name
	}
	return ""
}

// gopgPKs returns the primary-key columns of a model, as go-pg adds its
// fields in order (orm/table.go newField, AddField): a field tagged pk is
// one; so is a field named id, uuid or pk_<model> while none has been
// found yet (unless tagged nopk).
func gopgPKs(t types.Type) []string {
	st := gopgStruct(t)
	if st == nil {
		return nil
	}
	model := gopgUnderscore(types.Unalias(t).(*types.Named).Obj().Name())
	var pks []string
	for i := 0; i < st.NumFields(); i++ {
		col := gopgColumn(st, st.Field(i).Name())
		if col == "" {
			continue
		}
		_, opts, _ := strings.Cut(reflect.StructTag(st.Tag(i)).Get("pg"), ",")
		options := strings.Split(opts, ",")
		switch {
		case slices.Contains(options, "pk"):
			pks = append(pks, col)
		case len(pks) == 0 && !slices.Contains(options, "nopk") && (col == "id" || col == "uuid" || col == "pk_"+model):
			pks = append(pks, col)
		}
	}
	return pks
}

// gopgUnderscore is go-pg's internal.Underscore: an upper-case letter
// that is neither the first nor the last and follows or precedes a
// lower-case one starts a word (UserID is user_id, but UserA is usera).
func gopgUnderscore(s string) string {
	isUpper := func(c byte) bool { return c >= 'A' && c <= 'Z' }
	isLower := func(c byte) bool { return c >= 'a' && c <= 'z' }
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !isUpper(c) {
			b.WriteByte(c)
			continue
		}
		if i > 0 && i+1 < len(s) && (isLower(s[i-1]) || isLower(s[i+1])) {
			b.WriteByte('_')
		}
		b.WriteByte(c + 'a' - 'A')
	}
	return b.String()
}
