package dialect

import (
	"go/constant"
	"go/token"
	"go/types"
	"maps"
	"reflect"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/knowledge"
	"github.com/idemlint/idemlint/analyzers/internal/ops"
	"github.com/idemlint/idemlint/analyzers/internal/ssaval"
)

// gqApply adds what one step of a goqu dataset chain says to st; false
// for a step not understood.
func gqApply(st *sqStatement, call *ssa.Call) bool {
	site, _ := knowledge.Resolve(call.Common())
	args := call.Common().Args
	if call.Common().StaticCallee().Signature.Recv() != nil {
		args = args[1:] // the dataset, the DialectWrapper or the Database
	}
	name := gqName(call)
	if gqStart(call) {
		st.kind = strings.ToUpper(name)
		if name == "From" {
			st.kind = "SELECT"
		}
		if name == "Select" {
			return gqSelect(st, site, len(args)-1)
		}
		return gqTable(st, site, args)
	}
	switch name {
	// Steps that change nothing the summaries read: Prepared decides
	// between interpolated values and placeholders, which are bound
	// alike; LIMIT, OFFSET and ORDER BY pick among the rows matched.
	case "Prepared", "WithDialect", "Executor", "Limit", "Offset", "Order":
		return true
	case "From", "Into", "Table":
		if gqTypeName(call.Common().Args[0].Type()) == "UpdateDataset" && name == "From" {
			return false // UPDATE ... FROM other tables
		}
		return gqTable(st, site, args)
	case "Select":
		return gqSelect(st, site, len(args)-1)
	case "Where":
		exprs, ok := site.Variadic(len(args) - 1)
		if !ok {
			return false
		}
		for _, e := range exprs {
			f, ok := gqPredicate(e)
			if !ok {
				return false
			}
			st.where = append(st.where, f)
		}
		return true
	case "ForUpdate", "ForNoKeyUpdate", "ForShare", "ForKeyShare":
		return gqLock(st, site, name, args)
	case "Rows":
		rows, ok := site.Variadic(len(args) - 1)
		if !ok || len(rows) != 1 || st.values != nil {
			return false // one row
		}
		rec, ok := gqRecord(rows[0], gqInsert)
		if !ok {
			return false
		}
		for _, f := range rec {
			if f.value.text != "?" {
				return false // a literal value: not one bind
			}
			st.columns = append(st.columns, f.column)
			st.values = append(st.values, f.value.args[0])
		}
		return true
	case "Set":
		rec, ok := gqRecord(args[0], gqUpdate)
		if !ok {
			return false
		}
		for _, f := range rec {
			st.sets = append(st.sets, sqFragment{f.column + " = " + f.value.text, f.value.args})
		}
		return true
	case "OnConflict":
		return gqConflict(st, args[0])
	case "Returning":
		cols, ok := constStrings(site, len(args)-1)
		if !ok {
			return false
		}
		st.suffix = append(st.suffix, sqFragment{text: "RETURNING " + strings.Join(cols, ", ")})
		return true
	}
	return false
}

// gqTable reads the one constant table of From, Into, Table, Insert,
// Update or Delete (From of a select takes several: a join).
func gqTable(st *sqStatement, site knowledge.Site, args []ssa.Value) bool {
	if site.Call.Signature().Variadic() {
		tables, ok := site.Variadic(len(args) - 1)
		if !ok || len(tables) != 1 {
			return false // FROM a, b: a join
		}
		args = tables
	}
	t, ok := ssaval.ConstString(args[0])
	st.table = t
	return ok && t != ""
}

// gqSelect reads the select list: constant column names, or a struct
// whose columns goqu selects (exp col.go NewColumnListExpression).
func gqSelect(st *sqStatement, site knowledge.Site, i int) bool {
	vals, ok := site.Variadic(i)
	if !ok {
		return false
	}
	if len(vals) == 1 {
		if s := gqStructOf(vals[0]); s != nil {
			fields, ok := gqFields(s, "")
			st.columns = nil
			for _, f := range fields {
				st.columns = append(st.columns, f.column)
			}
			return ok
		}
	}
	cols, ok := constStrings(site, i)
	st.columns = cols
	return ok && len(cols) > 0
}

// gqLock reads ForUpdate(exp.Wait) and the other lock steps: the wait
// option a constant, no OF tables.
func gqLock(st *sqStatement, site knowledge.Site, name string, args []ssa.Value) bool {
	of, ok := site.Variadic(1)
	if !ok || len(of) > 0 {
		return false
	}
	c, ok := args[0].(*ssa.Const)
	if !ok || c.Value == nil || c.Value.Kind() != constant.Int {
		return false
	}
	text := map[string]string{"ForUpdate": "FOR UPDATE", "ForNoKeyUpdate": "FOR NO KEY UPDATE", "ForShare": "FOR SHARE", "ForKeyShare": "FOR KEY SHARE"}[name]
	// The options are exp's constants Wait, NoWait and SkipLocked, read
	// from the package: declared in the block of the lock strengths, they
	// are 5, 6 and 7 (exp lock.go), not 0, 1 and 2.
	named, ok := types.Unalias(c.Type()).(*types.Named)
	if !ok || named.Obj().Pkg() == nil {
		return false
	}
	for opt, sql := range map[string]string{"Wait": "", "NoWait": " NOWAIT", "SkipLocked": " SKIP LOCKED"} {
		if k, ok := named.Obj().Pkg().Scope().Lookup(opt).(*types.Const); ok && constant.Compare(k.Val(), token.EQL, c.Value) {
			st.suffix = append(st.suffix, sqFragment{text: text + sql})
			return true
		}
	}
	return false
}

// gqConflict reads OnConflict(goqu.DoNothing()) and
// OnConflict(goqu.DoUpdate("key", goqu.Record{...})).
func gqConflict(st *sqStatement, arg ssa.Value) bool {
	c, ok := gqUnwrap(arg).(*ssa.Call)
	if !ok || c.Common().StaticCallee().Signature.Recv() != nil {
		return false
	}
	switch gqName(c) {
	case "DoNothing":
		st.suffix = append(st.suffix, sqFragment{text: "ON CONFLICT DO NOTHING"})
		return true
	case "DoUpdate":
		target, ok := ssaval.ConstString(c.Common().Args[0])
		if !ok {
			return false
		}
		rec, ok := gqRecord(c.Common().Args[1], gqUpdate)
		if !ok || len(rec) == 0 {
			return false
		}
		// The target is wrapped in parentheses unless it is ON
		// CONSTRAINT name (sqlgen insert_sql_generator.go).
		if !strings.HasPrefix(strings.ToLower(target), "on constraint") {
			target = "(" + target + ")"
		}
		f := sqFragment{text: "ON CONFLICT " + target + " DO UPDATE SET "}
		for i, r := range rec {
			if i > 0 {
				f.text += ", "
			}
			f.text += r.column + " = " + r.value.text
			f.args = append(f.args, r.value.args...)
		}
		st.suffix = append(st.suffix, f)
		return true
	}
	return false
}

// gqOps are the comparisons of exp.Comparable whose SQL form is one
// operator (exp bool.go).
var gqOps = map[string]string{"Eq": "=", "Neq": "!=", "Gt": ">", "Gte": ">=", "Lt": "<", "Lte": "<="}

// gqPredicate reads a Where expression: goqu.C("c").Eq(v) (or goqu.I,
// and the other operators of gqOps), an Ex of constant keys, or a
// literal goqu.L("c = ?", v).
func gqPredicate(e ssa.Value) (sqFragment, bool) {
	v := gqUnwrap(e)
	if m, ok := v.(*ssa.MakeMap); ok && gqMapOf(m.Type(), "Ex") {
		rec, ok := gqMap(m, true)
		if !ok || len(rec) == 0 {
			return sqFragment{}, false
		}
		var parts []string
		var args []ssa.Value
		for _, r := range rec {
			if r.value.text != "?" {
				return sqFragment{}, false // an Op map, a literal
			}
			parts = append(parts, r.column+" = ?")
			args = append(args, r.value.args...)
		}
		return sqFragment{strings.Join(parts, " AND "), args}, true
	}
	call, ok := v.(*ssa.Call)
	if !ok {
		return sqFragment{}, false
	}
	if lit, ok := gqLiteral(call); ok {
		return lit, true
	}
	common := call.Common()
	if !common.IsInvoke() || gqOps[common.Method.Name()] == "" || len(common.Args) != 1 {
		return sqFragment{}, false
	}
	col, ok := gqIdent(common.Value)
	if !ok {
		return sqFragment{}, false
	}
	val, ok := gqValue(common.Args[0], true)
	if !ok || val.text != "?" {
		return sqFragment{}, false
	}
	return sqFragment{col + " " + gqOps[common.Method.Name()] + " ?", val.args}, true
}

// gqUnwrap looks through the conversions of an expression to the
// interface a step takes: goqu's expressions are interfaces (a
// BooleanExpression given as an exp.Expression, a LiteralExpression as
// an interface{}), Go values are made into one.
func gqUnwrap(v ssa.Value) ssa.Value {
	if ci, ok := v.(*ssa.ChangeInterface); ok {
		v = ci.X
	}
	return ssaval.Unwrap(v)
}

// gqIdent reads goqu.C("col") or goqu.I("t.col").
func gqIdent(v ssa.Value) (string, bool) {
	call, ok := ssaval.Unwrap(v).(*ssa.Call)
	if !ok || call.Common().StaticCallee() == nil || call.Common().StaticCallee().Signature.Recv() != nil {
		return "", false
	}
	switch gqName(call) {
	case "C", "I":
		return ssaval.ConstString(call.Common().Args[0])
	}
	return "", false
}

// gqLiteral reads goqu.L(text, args...) or goqu.Literal: SQL text with ?
// placeholders.
func gqLiteral(call *ssa.Call) (sqFragment, bool) {
	switch gqName(call) {
	case "L", "Literal":
	default:
		return sqFragment{}, false
	}
	if call.Common().StaticCallee().Signature.Recv() != nil {
		return sqFragment{}, false
	}
	site, _ := knowledge.Resolve(call.Common())
	text, ok := ssaval.ConstString(call.Common().Args[0])
	if !ok {
		return sqFragment{}, false
	}
	vals, ok := site.Variadic(1)
	for i, v := range vals {
		vals[i] = unwrapIface(v)
	}
	return sqFragment{text, vals}, ok
}

// gqValue reads a value given for a column: a literal, or a Go value
// that goqu binds (or interpolates) as it is. In a comparison (cmp), a
// bool, a slice but []byte or nil turns = into IS or IN (exp bool.go
// checkBoolExpType); anywhere, a goqu expression is written as SQL and
// an interface value is not known before run time: not understood.
func gqValue(v ssa.Value, cmp bool) (sqFragment, bool) {
	if call, ok := gqUnwrap(v).(*ssa.Call); ok {
		if lit, ok := gqLiteral(call); ok {
			return lit, true
		}
	}
	mi, ok := v.(*ssa.MakeInterface)
	if !ok || !gqPlain(mi.X.Type(), cmp) {
		return sqFragment{}, false
	}
	return sqFragment{"?", []ssa.Value{mi.X}}, true
}

// gqPlain reports whether goqu writes a value of type t as one bind (in
// a comparison, with =).
func gqPlain(t types.Type, cmp bool) bool {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	if named, ok := types.Unalias(t).(*types.Named); ok && named.Obj().Pkg() != nil {
		if path := named.Obj().Pkg().Path(); strings.HasPrefix(path, goquPkg) || path == "regexp" {
			return false
		}
	}
	switch u := t.Underlying().(type) {
	case *types.Basic:
		return u.Kind() != types.UntypedNil && (!cmp || u.Info()&types.IsBoolean == 0)
	case *types.Slice:
		b, ok := u.Elem().Underlying().(*types.Basic)
		return !cmp || (ok && b.Kind() == types.Byte)
	case *types.Interface:
		return false
	}
	return true
}

// A gqColumn is a column of a record, a row or an update, and its value.
type gqColumn struct {
	column string
	value  sqFragment
}

// gqPurpose is what a struct's columns are read for: goqu leaves out
// the fields tagged goqu:"skipinsert" from an insert's row and
// goqu:"skipupdate" from an update's (exp record.go shouldSkipField).
type gqPurpose uint8

const (
	gqInsert gqPurpose = iota + 1
	gqUpdate
)

// gqRecord reads the columns a Rows or Set argument writes: a
// goqu.Record (or any map of constant string keys), sorted as goqu sorts
// them (exp insert.go, update.go), or for an insert a struct value or
// pointer, whose fields are read where the row is written.
func gqRecord(v ssa.Value, purpose gqPurpose) ([]gqColumn, bool) {
	x := ssaval.Unwrap(v)
	if m, ok := x.(*ssa.MakeMap); ok {
		return gqMap(m, false)
	}
	if purpose != gqInsert {
		return nil, false
	}
	st := gqStructOf(v)
	if st == nil {
		return nil, false
	}
	fields, ok := gqFields(st, "skipinsert")
	if !ok {
		return nil, false
	}
	// A struct built in this function holds the values stored in its
	// fields (nil for a field left zero); any other is read where the row
	// is written.
	stored := map[string]ssa.Value{}
	keys := ops.StructKeys(x)
	for _, k := range keys {
		stored[k.Field] = k.Value
	}
	var out []gqColumn
	for _, f := range fields {
		val := f.read(x)
		if keys != nil {
			val = stored[st.Field(f.index).Name()]
		}
		out = append(out, gqColumn{f.column, sqFragment{"?", []ssa.Value{val}}})
	}
	return out, true
}

// gqMap reads the entries of a map literal of constant string keys,
// sorted by key: an Ex's comparisons (cmp), or a record's values.
func gqMap(m *ssa.MakeMap, cmp bool) ([]gqColumn, bool) {
	entries := map[string]sqFragment{}
	for _, ref := range *m.Referrers() {
		up, ok := ref.(*ssa.MapUpdate)
		if !ok {
			continue
		}
		key, ok := up.Key.(*ssa.Const)
		if !ok || key.Value == nil || key.Value.Kind() != constant.String {
			return nil, false
		}
		val, ok := gqValue(up.Value, cmp)
		if !ok {
			return nil, false
		}
		entries[constant.StringVal(key.Value)] = val
	}
	var out []gqColumn
	for _, k := range slices.Sorted(maps.Keys(entries)) {
		out = append(out, gqColumn{k, entries[k]})
	}
	return out, true
}

// gqMapOf reports whether t is the exp map type name (Ex, Record).
func gqMapOf(t types.Type, name string) bool {
	named, ok := types.Unalias(t).(*types.Named)
	return ok && named.Obj().Pkg() != nil && named.Obj().Pkg().Path() == goquExpPkg && named.Obj().Name() == name
}

// gqStructOf returns the struct type a value is, points to, or is a
// pointer to a slice of, or nil.
func gqStructOf(v ssa.Value) *types.Struct {
	t := ssaval.Unwrap(v).Type()
	for i := 0; i < 3; i++ {
		switch u := t.Underlying().(type) {
		case *types.Pointer:
			t = u.Elem()
		case *types.Slice:
			t = u.Elem()
		case *types.Struct:
			return u
		default:
			return nil
		}
	}
	return nil
}

// A gqField is a struct field goqu maps to a column.
type gqField struct {
	column string
	index  int
}

// read returns the value of the field in the row x (a struct or a
// pointer to one), as the statement reads it when it runs: a load of the
// field made for the summary, as the ops core makes the field addresses
// of a scan destination; it compares with the caller's own reads of the
// field by the field path (ops.SameKey).
func (f gqField) read(x ssa.Value) ssa.Value {
	if _, isPtr := x.Type().Underlying().(*types.Pointer); isPtr {
		return &ssa.UnOp{Op: token.MUL, X: &ssa.FieldAddr{X: x, Field: f.index}}
	}
	return &ssa.Field{X: x, Field: f.index}
}

// gqFields maps a struct's fields to columns as goqu's column map does
// (internal/util column_map.go): exported fields, the db tag's first
// value or else the field name lower-cased, db:"-" left out, and so is a
// field whose goqu tag holds skip. Embedded structs and fields of
// struct types with columns of their own (prefixed "field.col") are not
// read: false. The columns are sorted, as ColumnMap.Cols sorts them.
func gqFields(st *types.Struct, skip string) ([]gqField, bool) {
	var out []gqField
	for i := 0; i < st.NumFields(); i++ {
		f := st.Field(i)
		tag := gqTag(st.Tag(i), "db")
		if f.Embedded() {
			if slices.Contains(tag, "-") {
				continue
			}
			return nil, false
		}
		if !f.Exported() || (len(tag) == 1 && tag[0] == "-") {
			continue
		}
		if gqNested(f.Type()) {
			return nil, false
		}
		if skip != "" && slices.Contains(gqTag(st.Tag(i), "goqu"), skip) {
			continue
		}
		col := strings.ToLower(f.Name())
		if len(tag) > 0 {
			col = tag[0]
		}
		out = append(out, gqField{col, i})
	}
	slices.SortFunc(out, func(a, b gqField) int { return strings.Compare(a.column, b.column) })
	return out, true
}

// gqTag returns the comma-separated values of a struct tag key.
func gqTag(tag, key string) []string {
	v, ok := reflect.StructTag(tag).Lookup(key)
	if !ok || v == "" {
		return nil
	}
	return strings.Split(v, ",")
}

// gqNested reports whether goqu maps a field of type t to the columns
// of its own fields: a struct (or pointer to one) that is not an
// sql.Scanner and has exported fields (time.Time has none).
func gqNested(t types.Type) bool {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	st, ok := t.Underlying().(*types.Struct)
	if !ok {
		return false
	}
	if sel := types.NewMethodSet(types.NewPointer(t)).Lookup(nil, "Scan"); sel != nil {
		return false
	}
	for i := 0; i < st.NumFields(); i++ {
		if st.Field(i).Exported() {
			return true
		}
	}
	return false
}
