package dialect

import (
	"go/types"
	"reflect"
	"strings"
	"unicode"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/knowledge"
	"github.com/idemlint/idemlint/analyzers/internal/ops"
	"github.com/idemlint/idemlint/analyzers/internal/sqltext"
	"github.com/idemlint/idemlint/analyzers/internal/ssaval"
)

// bunRow classifies a bun finisher: SelectQuery Scan, Exists or Count
// with Where fragments pinning columns is a lookup; InsertQuery Exec or
// Scan of a model built in the function an insert, made idempotent by On
// or Ignore. The table comes from the model's bun:"table:..." tag (a
// model without one is not analysed), columns from the fields' bun tags or
// bun's underscore naming.
func bunRow(site knowledge.Site) *ops.RowOp {
	row := site.Row
	if row.Func.Pkg != bunPkg {
		return nil
	}
	op := &ops.RowOp{Lib: "bun", FromLibrary: true, NilResult: -1}
	switch {
	case row.Func.Recv == "SelectQuery" && row.Kind == knowledge.Find:
		switch row.Func.Name {
		case "Scan":
			if dest := site.RoleArg(knowledge.Dest); dest != nil {
				if vals, ok := site.Variadic(1); !ok || len(vals) > 0 {
					return nil // scanning into other destinations
				}
			}
		case "Exists", "Count":
			op.CountsFound = true
		default:
			return nil
		}
		op.Kind = ops.Lookup
	case row.Func.Recv == "InsertQuery" && row.Kind == knowledge.Insert:
		op.Kind = ops.Insert
	default:
		return nil
	}
	var model ssa.Value
	handle, _, ok := bunChain(site, []string{"NewSelect", "NewInsert"}, func(name string, _ *ssa.Call, step knowledge.Site) bool {
		switch {
		case name == "Model":
			model = step.Arg(0)
		case name == "Where":
			text, ok := ssaval.ConstString(step.RoleArg(knowledge.Cond))
			if !ok {
				return false
			}
			binds, ok := step.Variadic(1)
			if !ok || !ops.FragmentKeys(op, text, binds) {
				return false
			}
		case name == "On":
			text, ok := ssaval.ConstString(step.RoleArg(knowledge.SQL))
			c := sqltext.ParseConflict(text)
			if !ok || c.Unknown {
				op.Conflict = &ops.RowConflict{Unknown: true}
			} else {
				op.Conflict = &ops.RowConflict{Columns: c.TargetColumns}
			}
		case name == "Ignore":
			op.Conflict = &ops.RowConflict{}
		case name == "Column", name == "Limit", name == "Order", name == "For", name == "Returning", name == "ExcludeColumn":
		default:
			return false
		}
		return true
	})
	if !ok {
		return nil
	}
	op.Handle = handle
	t := ops.ModelType(model)
	if t == nil {
		return nil
	}
	// Scan into one struct model returns sql.ErrNoRows when no row
	// matched; into a slice, an empty slice.
	if op.Kind == ops.Lookup && !op.CountsFound {
		if p, ok := ssaval.Unwrap(model).Type().Underlying().(*types.Pointer); ok {
			_, single := p.Elem().Underlying().(*types.Struct)
			op.ErrWhenNotFound = single
		}
	}
	st := t.Underlying().(*types.Struct)
	table := bunTable(st)
	if table == "" {
		return nil
	}
	op.Table = table
	if op.Kind == ops.Insert {
		for _, k := range ops.ModelKeys(model) {
			if col := bunColumn(st, k.Field); col != "" {
				op.Keys = append(op.Keys, ops.KeyValue{Column: col, Value: k.Value})
			}
		}
	}
	if op.Keyless() {
		return nil
	}
	if op.Kind == ops.Lookup {
		op.Desc = "the bun " + site.Row.Func.Name + " of " + table
	} else {
		op.Desc = "the bun insert into " + table
	}
	return op
}

// bunTable returns the table a bun model's embedded bun.BaseModel tag
// names, or "".
func bunTable(st *types.Struct) string {
	for i := 0; i < st.NumFields(); i++ {
		f := st.Field(i)
		if !f.Embedded() || f.Name() != "BaseModel" {
			continue
		}
		tag := reflect.StructTag(st.Tag(i)).Get("bun")
		for _, part := range strings.Split(tag, ",") {
			if name, ok := strings.CutPrefix(part, "table:"); ok {
				if j := strings.IndexByte(name, '.'); j >= 0 {
					name = name[j+1:]
				}
				return strings.Trim(name, `"`)
			}
		}
	}
	return ""
}

// bunColumn returns the column of a bun model's field: its tag's name, or
// bun's underscore naming; "" for a field bun skips.
func bunColumn(st *types.Struct, field string) string {
	for i := 0; i < st.NumFields(); i++ {
		f := st.Field(i)
		if f.Name() != field {
			continue
		}
		tag := reflect.StructTag(st.Tag(i)).Get("bun")
		if tag == "-" {
			return ""
		}
		if name, _, _ := strings.Cut(tag, ","); name != "" && !strings.Contains(name, ":") {
			return name
		}
		return underscore(field)
	}
	return ""
}

// underscore is bun's (and GORM's) naming of a Go field: UserID is
// user_id.
func underscore(s string) string {
	r := []rune(s)
	var b strings.Builder
	for i, c := range r {
		if unicode.IsUpper(c) {
			if i > 0 && (unicode.IsLower(r[i-1]) || (i+1 < len(r) && unicode.IsLower(r[i+1]) && unicode.IsUpper(r[i-1]))) {
				b.WriteByte('_')
			}
			b.WriteRune(unicode.ToLower(c))
			continue
		}
		b.WriteRune(c)
	}
	return b.String()
}
