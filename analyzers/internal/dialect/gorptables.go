package dialect

import (
	"go/constant"
	"go/types"
	"reflect"
	"strings"
	"sync"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/knowledge"
	"github.com/idemlint/idemlint/analyzers/internal/ops"
	"github.com/idemlint/idemlint/analyzers/internal/ssaval"
)

const gorpPkg = "github.com/go-gorp/gorp/v3"

// A gorpTable is what a package's registration of a struct type with a
// gorp DbMap says: AddTableWithName(T{}, "t") names the table (AddTable
// names it after the type, db.go AddTableWithNameAndSchema), and the
// *TableMap it returns is told the keys (SetKeys), the version column
// (SetVersionCol) and renamed or transient columns (ColMap(f).Rename,
// SetTransient). Struct calls (Insert, Update, Get) build their SQL from
// it; without it they fail at run time, so a type with no registration
// in sight is registered somewhere this package cannot see.
type gorpTable struct {
	name string
	st   *types.Struct
	// keys are the primary key fields, in order; auto the
	// auto-increment ones, whose values the database makes.
	keys []string
	auto map[string]bool
	// version is the version field SetVersionCol names, or "".
	version   string
	renamed   map[string]string
	transient map[string]bool
}

// column returns the column of a field as gorp maps it (db.go
// readStructColumns): the db tag's name, else the field's own name, as
// it is; false for a field gorp skips (db:"-", SetTransient) or does not
// know. Fields of embedded structs are the struct's own.
func (t *gorpTable) column(field string) (string, bool) {
	if t.transient[field] {
		return "", false
	}
	if c, ok := t.renamed[field]; ok {
		return c, true
	}
	tag, ok := gorpTag(t.st, field)
	if !ok {
		return "", false
	}
	name, _, _ := strings.Cut(tag, ",")
	switch name {
	case "-":
		return "", false
	case "":
		return field, true
	}
	return name, true
}

// written reports whether Insert writes the field's value: not an
// auto-increment key, nor a column with a default:... tag option, whose
// value the INSERT spells instead (table_bindings.go bindInsert).
func (t *gorpTable) written(field string) bool {
	if _, ok := t.column(field); !ok || t.auto[field] {
		return false
	}
	tag, _ := gorpTag(t.st, field)
	return !strings.Contains(tag, "default:")
}

// gorpTag returns the db tag of a field of st or of a struct it embeds.
func gorpTag(st *types.Struct, field string) (string, bool) {
	for i := 0; i < st.NumFields(); i++ {
		f := st.Field(i)
		if f.Name() == field && !f.Embedded() {
			return reflect.StructTag(st.Tag(i)).Get("db"), true
		}
	}
	for i := 0; i < st.NumFields(); i++ {
		if f := st.Field(i); f.Embedded() {
			if inner, ok := f.Type().Underlying().(*types.Struct); ok {
				if tag, ok := gorpTag(inner, field); ok {
					return tag, true
				}
			}
		}
	}
	return "", false
}

// tagKeys returns the fields tagged primarykey (and which of them
// autoincrement), the keys when SetKeys is not called.
func tagKeys(st *types.Struct, auto map[string]bool) []string {
	var keys []string
	for i := 0; i < st.NumFields(); i++ {
		f := st.Field(i)
		if f.Embedded() {
			if inner, ok := f.Type().Underlying().(*types.Struct); ok {
				keys = append(keys, tagKeys(inner, auto)...)
			}
			continue
		}
		opts := strings.Split(reflect.StructTag(st.Tag(i)).Get("db"), ",")
		for _, o := range opts[1:] {
			switch strings.TrimSpace(o) {
			case "primarykey":
				keys = append(keys, f.Name())
			case "autoincrement":
				auto[f.Name()] = true
			}
		}
	}
	return keys
}

// gorpTables holds each package's registrations, computed on first use;
// cleared when it holds many packages (a long-running gopls).
var gorpTables = struct {
	sync.Mutex
	m map[*types.Package]map[*types.TypeName]*gorpTable
}{m: map[*types.Package]map[*types.TypeName]*gorpTable{}}

// gorpTableOf returns the registration of the model type t in the
// package of fn; nil when the package registers it nowhere, more than
// once under different names, with a name or a step not constant, or
// hands the *TableMap somewhere not followed (a field, a function).
func gorpTableOf(fn *ssa.Function, t types.Type) *gorpTable {
	named, ok := types.Unalias(t).(*types.Named)
	if !ok || fn == nil || fn.Pkg == nil {
		return nil
	}
	gorpTables.Lock()
	defer gorpTables.Unlock()
	regs, ok := gorpTables.m[fn.Pkg.Pkg]
	if !ok {
		if len(gorpTables.m) >= 256 {
			clear(gorpTables.m)
		}
		regs = registrations(fn.Pkg)
		gorpTables.m[fn.Pkg.Pkg] = regs
	}
	return regs[named.Obj()]
}

// registrations reads every AddTable call of the package's functions.
func registrations(pkg *ssa.Package) map[*types.TypeName]*gorpTable {
	regs := map[*types.TypeName]*gorpTable{}
	bad := map[*types.TypeName]bool{}
	for _, fn := range ops.PackageFuncs(pkg) {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				call, ok := instr.(*ssa.Call)
				if !ok {
					continue
				}
				site, ok := knowledge.Resolve(call.Common())
				if !ok || site.Func.Pkg != gorpPkg || site.Func.Recv != "DbMap" {
					continue
				}
				nameArg := -1
				switch site.Func.Name {
				case "AddTable":
				case "AddTableWithName":
					nameArg = 1
				case "AddTableWithNameAndSchema":
					nameArg = 2
				default:
					continue
				}
				named, st := registeredType(site.Arg(0))
				if named == nil {
					continue
				}
				obj := named.Obj()
				name := obj.Name()
				if nameArg >= 0 {
					n, ok := ssaval.ConstString(site.Arg(nameArg))
					if !ok {
						bad[obj] = true
						continue
					}
					if n != "" {
						name = n
					}
				}
				tab := regs[obj]
				if tab == nil {
					tab = &gorpTable{name: name, st: st, auto: map[string]bool{}, renamed: map[string]string{}, transient: map[string]bool{}}
					tab.keys = tagKeys(st, tab.auto)
					regs[obj] = tab
				} else if !strings.EqualFold(tab.name, name) {
					bad[obj] = true
				}
				if !tab.follow(call, 0) {
					bad[obj] = true
				}
			}
		}
	}
	for obj := range bad {
		delete(regs, obj)
	}
	return regs
}

// registeredType returns the named struct type of AddTable's argument
// (a T{} value converted to interface{}).
func registeredType(v ssa.Value) (*types.Named, *types.Struct) {
	if v == nil {
		return nil, nil
	}
	t := ssaval.Unwrap(v).Type()
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	named, ok := types.Unalias(t).(*types.Named)
	if !ok {
		return nil, nil
	}
	st, ok := named.Underlying().(*types.Struct)
	if !ok {
		return nil, nil
	}
	return named, st
}

// follow applies the TableMap calls made on v (AddTable's or SetKeys'
// result) to the table; false when v goes where the steps cannot be
// seen, or a step's arguments are not constant.
func (t *gorpTable) follow(v ssa.Value, depth int) bool {
	if depth > 8 {
		return false
	}
	for _, ref := range *v.Referrers() {
		switch ref := ref.(type) {
		case *ssa.DebugRef:
			continue
		case *ssa.Call:
			site, ok := knowledge.Resolve(ref.Common())
			if !ok || site.Func.Pkg != gorpPkg || site.Receiver() != v {
				return false
			}
			if !t.step(ref, site, depth) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// step applies one TableMap call.
func (t *gorpTable) step(call *ssa.Call, site knowledge.Site, depth int) bool {
	switch site.Func.Name {
	case "SetKeys":
		// SetKeys(isAutoIncr, fieldNames...) replaces the keys (table.go).
		auto, ok := constBool(site.Arg(0))
		fields, ok2 := constStrings(site, 1)
		if !ok || !ok2 {
			return false
		}
		t.keys, t.auto = fields, map[string]bool{}
		for _, f := range fields {
			t.auto[f] = auto
		}
		return t.follow(call, depth+1)
	case "SetVersionCol":
		// SetVersionCol(field) takes a field or a column name (colMapOrNil).
		f, ok := ssaval.ConstString(site.Arg(0))
		if !ok {
			return false
		}
		t.version = t.fieldOf(f)
		return true
	case "ColMap":
		f, ok := ssaval.ConstString(site.Arg(0))
		if !ok {
			return false
		}
		return t.columnSteps(call, t.fieldOf(f))
	case "SetUniqueTogether", "AddIndex", "ResetSql", "SqlForCreate", "IdxMap", "DropIndex":
		// Schema creation only: not what the statements read or write.
		return true
	}
	return false
}

// columnSteps applies ColMap(field)'s ColumnMap calls.
func (t *gorpTable) columnSteps(v ssa.Value, field string) bool {
	for _, ref := range *v.Referrers() {
		call, ok := ref.(*ssa.Call)
		if !ok {
			if _, isDebug := ref.(*ssa.DebugRef); isDebug {
				continue
			}
			return false
		}
		site, ok := knowledge.Resolve(call.Common())
		if !ok || site.Func.Pkg != gorpPkg || site.Receiver() != v {
			return false
		}
		switch site.Func.Name {
		case "Rename":
			col, ok := ssaval.ConstString(site.Arg(0))
			if !ok {
				return false
			}
			t.renamed[field] = col
		case "SetTransient":
			b, ok := constBool(site.Arg(0))
			if !ok {
				return false
			}
			t.transient[field] = b
		case "SetUnique", "SetNotNull", "SetMaxSize":
		default:
			return false
		}
		if !t.columnSteps(call, field) {
			return false
		}
	}
	return true
}

// fieldOf returns the field a TableMap call names by field or column.
func (t *gorpTable) fieldOf(name string) string {
	for i := 0; i < t.st.NumFields(); i++ {
		f := t.st.Field(i)
		if c, ok := t.column(f.Name()); ok && (f.Name() == name || c == name) {
			return f.Name()
		}
	}
	return name
}

// keyColumns returns the columns of the primary key, in order.
func (t *gorpTable) keyColumns() ([]string, bool) {
	var cols []string
	for _, f := range t.keys {
		c, ok := t.column(f)
		if !ok {
			return nil, false
		}
		cols = append(cols, c)
	}
	return cols, len(cols) > 0
}

// versionColumn returns the version column, or "".
func (t *gorpTable) versionColumn() string {
	if t.version == "" {
		return ""
	}
	c, _ := t.column(t.version)
	return c
}

func constBool(v ssa.Value) (bool, bool) {
	c, ok := v.(*ssa.Const)
	if !ok || c.Value == nil || c.Value.Kind() != constant.Bool {
		return false, false
	}
	return constant.BoolVal(c.Value), true
}
