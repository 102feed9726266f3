package dialect

import (
	"go/ast"
	"go/constant"
	"go/types"

	"golang.org/x/tools/go/analysis"

	"github.com/idemlint/idemlint/analyzers/internal/schema"
)

// entTables reads ent's generated migrate package (ent/migrate/schema.go)
// for the schema layer, from its syntax when that package is analysed:
//
//	UsersColumns = []*schema.Column{
//		{Name: "id", Type: field.TypeInt, Increment: true},
//		{Name: "email", Type: field.TypeString, Unique: true},
//	}
//	UsersTable = &schema.Table{
//		Name:       "users",
//		Columns:    UsersColumns,
//		PrimaryKey: []*schema.Column{UsersColumns[0]},
//		Indexes: []*schema.Index{{
//			Name: "user_tenant_handle", Unique: true,
//			Columns:    []*schema.Column{UsersColumns[2], UsersColumns[3]},
//			Annotation: &entsql.IndexAnnotation{Where: "deleted_at IS NULL"},
//		}},
//	}
//
// The package is recognised by that shape: a package named migrate whose
// package-level variables are composite literals of
// entgo.io/ent/dialect/sql/schema's Column and Table. What this reader
// does not understand in a table makes the table contribute its keys only.
//
// Lib is entDialect's family, spelt out: entDialect refers to this
// reader, so this cannot refer to it.
var entTables = &schema.TableReader{Lib: "ent", Read: readEnt}

const (
	entSchemaPath = "entgo.io/ent/dialect/sql/schema"
	entSQLPath    = "entgo.io/ent/dialect/entsql"
)

// entColumn is one element of a []*schema.Column literal; notCounter
// marks a column whose field type cannot count changes.
type entColumn struct {
	name       string
	unique     bool
	notCounter bool
}

// entFieldPath is where ent's column types (field.TypeInt, ...) are.
const entFieldPath = "entgo.io/ent/schema/field"

// entCounterTypes are the field types a version can be: the numbers.
var entCounterTypes = map[string]bool{
	"TypeInt": true, "TypeInt8": true, "TypeInt16": true, "TypeInt32": true, "TypeInt64": true,
	"TypeUint": true, "TypeUint8": true, "TypeUint16": true, "TypeUint32": true, "TypeUint64": true,
	"TypeFloat32": true, "TypeFloat64": true,
}

// readEnt returns the tables an ent migrate package declares.
func readEnt(pass *analysis.Pass) []*schema.Table {
	if pass.Pkg.Name() != "migrate" || !importsPath(pass.Pkg, entSchemaPath) {
		return nil
	}
	r := &entReader{pass: pass, columns: map[types.Object][]entColumn{}}
	var tables []*ast.CompositeLit
	for _, f := range pass.Files {
		for _, decl := range f.Decls {
			gd, ok := decl.(*ast.GenDecl)
			if !ok {
				continue
			}
			for _, spec := range gd.Specs {
				vs, ok := spec.(*ast.ValueSpec)
				if !ok || len(vs.Values) != len(vs.Names) {
					continue
				}
				for i, name := range vs.Names {
					v := ast.Unparen(vs.Values[i])
					switch {
					case r.isType(v, "[]*", "Column"):
						if cols, ok := r.columnList(v); ok {
							r.columns[pass.TypesInfo.Defs[name]] = cols
						}
					case r.isType(v, "*", "Table"):
						if u, ok := v.(*ast.UnaryExpr); ok {
							if lit, ok := u.X.(*ast.CompositeLit); ok {
								tables = append(tables, lit)
							}
						}
					}
				}
			}
		}
	}
	var out []*schema.Table
	for _, lit := range tables {
		if t := r.table(lit); t != nil {
			out = append(out, t)
		}
	}
	return out
}

type entReader struct {
	pass    *analysis.Pass
	columns map[types.Object][]entColumn
}

// isType reports whether e's type is []*schema.NAME ("[]*") or
// *schema.NAME ("*") of ent's schema package.
func (r *entReader) isType(e ast.Expr, shape, name string) bool {
	t := r.pass.TypesInfo.TypeOf(e)
	if shape == "[]*" {
		s, ok := t.(*types.Slice)
		if !ok {
			return false
		}
		t = s.Elem()
	}
	p, ok := t.(*types.Pointer)
	return ok && isNamedType(p.Elem(), entSchemaPath, name)
}

// entFields returns the key: value pairs of a struct literal.
func entFields(lit *ast.CompositeLit) map[string]ast.Expr {
	out := map[string]ast.Expr{}
	for _, elt := range lit.Elts {
		kv, ok := elt.(*ast.KeyValueExpr)
		if !ok {
			return nil
		}
		if id, ok := kv.Key.(*ast.Ident); ok {
			out[id.Name] = kv.Value
		}
	}
	return out
}

func (r *entReader) stringConst(e ast.Expr) (string, bool) {
	if e == nil {
		return "", false
	}
	v := r.pass.TypesInfo.Types[e].Value
	if v == nil || v.Kind() != constant.String {
		return "", false
	}
	return constant.StringVal(v), true
}

func (r *entReader) boolConst(e ast.Expr) (bool, bool) {
	if e == nil {
		return false, true
	}
	v := r.pass.TypesInfo.Types[e].Value
	if v == nil || v.Kind() != constant.Bool {
		return false, false
	}
	return constant.BoolVal(v), true
}

// entElement returns the struct literal of a slice element ({…} or &T{…}).
func entElement(e ast.Expr) *ast.CompositeLit {
	if u, ok := e.(*ast.UnaryExpr); ok {
		e = u.X
	}
	lit, _ := e.(*ast.CompositeLit)
	return lit
}

func (r *entReader) columnList(e ast.Expr) ([]entColumn, bool) {
	lit, ok := e.(*ast.CompositeLit)
	if !ok {
		return nil, false
	}
	var cols []entColumn
	for _, elt := range lit.Elts {
		el := entElement(elt)
		if el == nil {
			return nil, false
		}
		fs := entFields(el)
		name, ok := r.stringConst(fs["Name"])
		unique, ok2 := r.boolConst(fs["Unique"])
		if !ok || !ok2 {
			return nil, false
		}
		cols = append(cols, entColumn{name: name, unique: unique, notCounter: r.notCounter(fs["Type"])})
	}
	return cols, true
}

// notCounter reports whether a column's Type is one of ent's field types
// that cannot count (field.TypeString, TypeEnum, TypeTime, ...); an
// expression that is not one of them says nothing.
func (r *entReader) notCounter(e ast.Expr) bool {
	sel, ok := e.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	c, ok := r.pass.TypesInfo.Uses[sel.Sel].(*types.Const)
	return ok && c.Pkg() != nil && c.Pkg().Path() == entFieldPath && !entCounterTypes[c.Name()]
}

// columnRefs resolves []*schema.Column{UsersColumns[2], …} to names.
func (r *entReader) columnRefs(e ast.Expr) ([]string, bool) {
	lit, ok := e.(*ast.CompositeLit)
	if !ok {
		return nil, false
	}
	var out []string
	for _, elt := range lit.Elts {
		ix, ok := elt.(*ast.IndexExpr)
		if !ok {
			return nil, false
		}
		id, ok := ix.X.(*ast.Ident)
		if !ok {
			return nil, false
		}
		cols, ok := r.columns[r.pass.TypesInfo.Uses[id]]
		if !ok {
			return nil, false
		}
		v := r.pass.TypesInfo.Types[ix.Index].Value
		if v == nil || v.Kind() != constant.Int {
			return nil, false
		}
		i, exact := constant.Int64Val(v)
		if !exact || i < 0 || int(i) >= len(cols) {
			return nil, false
		}
		out = append(out, cols[i].name)
	}
	return out, len(out) > 0
}

// table reads a schema.Table literal.
func (r *entReader) table(lit *ast.CompositeLit) *schema.Table {
	fs := entFields(lit)
	name, ok := r.stringConst(fs["Name"])
	if fs == nil || !ok || name == "" {
		return nil
	}
	t := &schema.Table{Name: name, Describes: true}
	if s, ok := r.stringConst(fs["Schema"]); ok {
		t.Schema = s
	}
	var cols []entColumn
	switch c := fs["Columns"].(type) {
	case *ast.Ident:
		cols, ok = r.columns[r.pass.TypesInfo.Uses[c]]
	default:
		cols, ok = r.columnList(c)
	}
	if !ok {
		t.Describes = false
	}
	for _, c := range cols {
		t.Columns = append(t.Columns, c.name)
		if c.notCounter {
			t.NotCounters = append(t.NotCounters, c.name)
		}
		if c.unique {
			t.Keys = append(t.Keys, schema.Key{Columns: []string{c.name}, Parts: []string{c.name}})
		}
	}
	if pk, ok := fs["PrimaryKey"]; ok {
		if names, ok := r.columnRefs(pk); ok {
			t.Keys = append(t.Keys, schema.Key{Columns: names, Parts: names, Primary: true})
		} else {
			t.Describes = false
		}
	}
	if ix, ok := fs["Indexes"]; ok {
		lit, ok := ix.(*ast.CompositeLit)
		if !ok {
			t.Describes = false
			return t
		}
		for _, elt := range lit.Elts {
			k, unique, ok := r.index(entElement(elt))
			if !ok {
				t.Describes = false
				continue
			}
			if unique {
				t.Keys = append(t.Keys, k)
			}
		}
	}
	return t
}

// index reads a schema.Index literal.
func (r *entReader) index(lit *ast.CompositeLit) (schema.Key, bool, bool) {
	if lit == nil {
		return schema.Key{}, false, false
	}
	fs := entFields(lit)
	unique, ok := r.boolConst(fs["Unique"])
	if fs == nil || !ok {
		return schema.Key{}, false, false
	}
	name, _ := r.stringConst(fs["Name"])
	cols, ok := r.columnRefs(fs["Columns"])
	if !ok {
		return schema.Key{}, unique, false
	}
	k := schema.Key{Name: name, Columns: cols, Parts: cols}
	if a, ok := fs["Annotation"]; ok {
		al := entElement(a)
		if al == nil || !isNamedType(r.pass.TypesInfo.TypeOf(al), entSQLPath, "IndexAnnotation") {
			return schema.Key{}, unique, false
		}
		afs := entFields(al)
		if w, ok := afs["Where"]; ok {
			where, ok := r.stringConst(w)
			if !ok {
				return schema.Key{}, unique, false
			}
			k.Where = where
		}
	}
	return k, unique, true
}
