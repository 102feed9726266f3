package dialect

import (
	"fmt"
	"go/constant"
	"go/types"
	"maps"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/knowledge"
	"github.com/idemlint/idemlint/analyzers/internal/ops"
	"github.com/idemlint/idemlint/analyzers/internal/ssaval"
)

// squirrelPkg is Masterminds/squirrel, a query builder: its ToSql gives
// database/sql the SQL text and the binds, which the ops layer reads like
// constant SQL (ops.Library.BuildSQL); the operations of that SQL carry
// the squirrel family, so that fixes are written with the builder.
const squirrelPkg = "github.com/Masterminds/squirrel"

var squirrelDialect = &Dialect{
	Lib: "squirrel",
	ClaimInsert: func(cols string) string {
		return fmt.Sprintf("add Suffix(\"ON CONFLICT (%s) DO NOTHING\") to the insert and read the row when nothing was inserted, or catch the unique violation and re-read", cols)
	},
	LockRead: "read the row with Suffix(\"FOR UPDATE\") in the transaction that writes it",
	AtomicUpdate: func(_ *ops.ColumnWrite, col, expr string) string {
		return fmt.Sprintf("update it in SQL with Set(%q, sq.Expr(%q, delta))", col, expr)
	},
	VersionPredicate: func(_ *ops.Update, col, _ string) string {
		return fmt.Sprintf("add Where(sq.Eq{%q: v}) and Set(%q, sq.Expr(%q)), and treat zero affected rows as a conflict", col, col, col+" + 1")
	},
	CheckCount:        "check RowsAffected() of its result and treat 0 as a conflict",
	UnobservableCount: func(*ops.Update) (string, string) { return "", "" },
	Ops:               &ops.Library{Name: "squirrel", Pkg: squirrelPkg, BuildSQL: squirrelSQL, Runner: squirrelRunner},
}

// A sqFragment is SQL text with ? placeholders and the values they bind.
type sqFragment struct {
	text string
	args []ssa.Value
}

// A sqStatement is what a squirrel builder chain says, gathered step by
// step; placeholders are numbered when it is written out, in the order of
// the SQL text, as squirrel numbers them.
type sqStatement struct {
	kind    string // SELECT, INSERT or UPDATE
	table   string
	columns []string     // SELECT list, or INSERT columns
	values  []ssa.Value  // INSERT values, one row
	sets    []sqFragment // UPDATE assignments ("c = ?")
	where   []sqFragment
	suffix  []sqFragment
}

// squirrelSQL reads the statement a SelectBuilder, InsertBuilder,
// UpdateBuilder or DeleteBuilder chain builds: from result 0 of its ToSql
// call (binds, when given, must be result 1 of the same call), or from the
// builder itself when it runs its own SQL (RunWith). A step it does not
// know (a join, a sub-select, a predicate other than a string or an Eq of
// constant keys) makes the statement unknown.
func squirrelSQL(sqlArg, binds ssa.Value) (string, []ssa.Value, bool) {
	var builder ssa.Value
	if ex, ok := sqlArg.(*ssa.Extract); ok && ex.Index == 0 {
		toSQL, ok := ex.Tuple.(*ssa.Call)
		if !ok || sqName(toSQL) != "ToSql" {
			return "", nil, false
		}
		if bx, ok := binds.(*ssa.Extract); binds != nil && (!ok || bx.Tuple != ssa.Value(toSQL) || bx.Index != 1) {
			return "", nil, false
		}
		builder = toSQL.Common().Args[0]
	} else if binds == nil && isSqBuilder(sqlArg.Type()) {
		builder = sqlArg
	} else {
		return "", nil, false
	}
	// The steps, from the builder back to the call that starts the chain.
	var steps []*ssa.Call
	v := builder
	for i := 0; ; i++ {
		c, ok := ssaval.Unwrap(v).(*ssa.Call)
		if !ok || i == ops.MaxTrace || sqName(c) == "" {
			return "", nil, false
		}
		steps = append(steps, c)
		if sqStart(c) {
			break
		}
		v = c.Common().Args[0]
	}
	st := &sqStatement{}
	for i := len(steps) - 1; i >= 0; i-- {
		if !st.apply(steps[i]) {
			return "", nil, false
		}
	}
	return st.write()
}

// isSqBuilder reports whether t is one of squirrel's statement builders.
func isSqBuilder(t types.Type) bool {
	named, ok := types.Unalias(t).(*types.Named)
	if !ok || named.Obj().Pkg() == nil || named.Obj().Pkg().Path() != squirrelPkg {
		return false
	}
	switch named.Obj().Name() {
	case "SelectBuilder", "InsertBuilder", "UpdateBuilder", "DeleteBuilder":
		return true
	}
	return false
}

// squirrelRunner returns the runner a builder was given with RunWith, on
// the builder's chain or on the StatementBuilderType it started from, or
// nil.
func squirrelRunner(builder ssa.Value) ssa.Value {
	v := builder
	for i := 0; i < ops.MaxTrace; i++ {
		c, ok := ssaval.Unwrap(v).(*ssa.Call)
		if !ok || sqName(c) == "" || c.Common().StaticCallee().Signature.Recv() == nil {
			return nil
		}
		if sqName(c) == "RunWith" {
			return unwrapIface(c.Common().Args[1])
		}
		v = c.Common().Args[0]
	}
	return nil
}

// sqName returns the name of the squirrel function or method call calls,
// or "".
func sqName(call *ssa.Call) string {
	callee := call.Common().StaticCallee()
	if callee == nil {
		return ""
	}
	obj, ok := callee.Object().(*types.Func)
	if !ok || obj.Pkg() == nil || obj.Pkg().Path() != squirrelPkg {
		return ""
	}
	return obj.Name()
}

// sqStart reports whether call starts a statement: squirrel.Select,
// Insert or Update, or the same methods of a StatementBuilderType (whose
// own chain, PlaceholderFormat and RunWith, says nothing about the SQL).
func sqStart(call *ssa.Call) bool {
	switch sqName(call) {
	case "Select", "Insert", "Update", "Delete":
	default:
		return false
	}
	recv := call.Common().StaticCallee().Signature.Recv()
	if recv == nil {
		return true
	}
	named, ok := types.Unalias(recv.Type()).(*types.Named)
	return ok && named.Obj().Name() == "StatementBuilderType"
}

// apply adds what one step of the chain says; false for a step not
// understood.
func (st *sqStatement) apply(call *ssa.Call) bool {
	site, _ := knowledge.Resolve(call.Common())
	args := call.Common().Args
	if call.Common().StaticCallee().Signature.Recv() != nil {
		args = args[1:] // the builder
	}
	name := sqName(call)
	if sqStart(call) {
		st.kind = strings.ToUpper(name)
		if name == "Select" {
			cols, ok := constStrings(site, len(args)-1)
			st.columns = cols
			return ok
		}
		t, ok := ssaval.ConstString(args[0])
		st.table = t
		return ok
	}
	switch name {
	case "PlaceholderFormat", "RunWith", "Limit", "Offset", "OrderBy":
		return true
	case "Columns":
		cols, ok := constStrings(site, len(args)-1)
		st.columns = append(st.columns, cols...)
		return ok
	case "From", "Into", "Table":
		t, ok := ssaval.ConstString(args[0])
		st.table = t
		return ok
	case "Values":
		vals, ok := site.Variadic(len(args) - 1)
		if !ok || st.values != nil {
			return false // one row
		}
		for _, v := range vals {
			st.values = append(st.values, unwrapIface(v))
		}
		return true
	case "Set":
		col, ok := ssaval.ConstString(args[0])
		if !ok {
			return false
		}
		if expr, ok := sqExpr(args[1]); ok {
			st.sets = append(st.sets, sqFragment{col + " = " + expr.text, expr.args})
			return true
		}
		st.sets = append(st.sets, sqFragment{col + " = ?", []ssa.Value{unwrapIface(args[1])}})
		return true
	case "Where":
		f, ok := sqPredicate(site, args[0], len(args)-1)
		st.where = append(st.where, f)
		return ok
	case "Suffix":
		text, ok := ssaval.ConstString(args[0])
		if !ok {
			return false
		}
		vals, ok := site.Variadic(len(args) - 1)
		st.suffix = append(st.suffix, sqFragment{text, vals})
		return ok
	}
	return false
}

// sqPredicate reads a Where predicate: SQL text with ? placeholders and
// its args (the variadic parameter i), or an Eq of constant column names.
func sqPredicate(site knowledge.Site, pred ssa.Value, i int) (sqFragment, bool) {
	if text, ok := ssaval.ConstString(pred); ok {
		vals, ok := site.Variadic(i)
		return sqFragment{text, vals}, ok
	}
	mi, ok := pred.(*ssa.MakeInterface)
	if !ok {
		return sqFragment{}, false
	}
	named, ok := types.Unalias(mi.X.Type()).(*types.Named)
	if !ok || named.Obj().Pkg() == nil || named.Obj().Pkg().Path() != squirrelPkg || named.Obj().Name() != "Eq" {
		return sqFragment{}, false
	}
	m, ok := mi.X.(*ssa.MakeMap)
	if !ok {
		return sqFragment{}, false
	}
	entries := map[string]ssa.Value{}
	for _, ref := range *m.Referrers() {
		up, ok := ref.(*ssa.MapUpdate)
		if !ok {
			continue
		}
		key, ok := up.Key.(*ssa.Const)
		if !ok || key.Value == nil || key.Value.Kind() != constant.String {
			return sqFragment{}, false
		}
		val := unwrapIface(up.Value)
		if _, isSlice := val.Type().Underlying().(*types.Slice); isSlice {
			return sqFragment{}, false // squirrel writes IN (...)
		}
		entries[constant.StringVal(key.Value)] = val
	}
	// squirrel writes an Eq's columns sorted.
	var parts []string
	var args []ssa.Value
	for _, k := range slices.Sorted(maps.Keys(entries)) {
		parts = append(parts, k+" = ?")
		args = append(args, entries[k])
	}
	return sqFragment{strings.Join(parts, " AND "), args}, len(parts) > 0
}

// sqExpr reads squirrel.Expr("balance - ?", amount) passed as a value.
func sqExpr(v ssa.Value) (sqFragment, bool) {
	mi, ok := v.(*ssa.MakeInterface)
	if ok {
		v = mi.X
	}
	call, ok := v.(*ssa.Call)
	if !ok || sqName(call) != "Expr" || call.Common().StaticCallee().Signature.Recv() != nil {
		return sqFragment{}, false
	}
	site, _ := knowledge.Resolve(call.Common())
	text, ok := ssaval.ConstString(call.Common().Args[0])
	if !ok {
		return sqFragment{}, false
	}
	vals, ok := site.Variadic(1)
	return sqFragment{text, vals}, ok
}

func unwrapIface(v ssa.Value) ssa.Value {
	if mi, ok := v.(*ssa.MakeInterface); ok {
		return mi.X
	}
	return v
}

// write writes the statement out with $n placeholders, and the values
// they bind.
func (st *sqStatement) write() (string, []ssa.Value, bool) {
	var b strings.Builder
	var binds []ssa.Value
	frag := func(f sqFragment) bool {
		n := strings.Count(f.text, "?")
		if n != len(f.args) {
			return false
		}
		for _, part := range strings.SplitAfter(f.text, "?") {
			if strings.HasSuffix(part, "?") {
				binds = append(binds, f.args[0])
				f.args = f.args[1:]
				b.WriteString(strings.TrimSuffix(part, "?") + "$" + strconv.Itoa(len(binds)))
			} else {
				b.WriteString(part)
			}
		}
		return true
	}
	where := func() bool {
		for i, f := range st.where {
			if i == 0 {
				b.WriteString(" WHERE ")
			} else {
				b.WriteString(" AND ")
			}
			b.WriteString("(")
			if !frag(f) {
				return false
			}
			b.WriteString(")")
		}
		return true
	}
	if st.table == "" {
		return "", nil, false
	}
	switch st.kind {
	case "SELECT":
		if len(st.columns) == 0 {
			return "", nil, false
		}
		b.WriteString("SELECT " + strings.Join(st.columns, ", ") + " FROM " + st.table)
		if !where() {
			return "", nil, false
		}
	case "INSERT":
		if len(st.columns) == 0 || len(st.columns) != len(st.values) {
			return "", nil, false
		}
		b.WriteString("INSERT INTO " + st.table + " (" + strings.Join(st.columns, ", ") + ") VALUES (")
		for i, v := range st.values {
			if i > 0 {
				b.WriteString(", ")
			}
			binds = append(binds, v)
			b.WriteString("$" + strconv.Itoa(len(binds)))
		}
		b.WriteString(")")
	case "DELETE":
		b.WriteString("DELETE FROM " + st.table)
		if !where() {
			return "", nil, false
		}
	case "UPDATE":
		if len(st.sets) == 0 {
			return "", nil, false
		}
		b.WriteString("UPDATE " + st.table + " SET ")
		for i, f := range st.sets {
			if i > 0 {
				b.WriteString(", ")
			}
			if !frag(f) {
				return "", nil, false
			}
		}
		if !where() {
			return "", nil, false
		}
	default:
		return "", nil, false
	}
	for _, f := range st.suffix {
		b.WriteString(" ")
		if !frag(f) {
			return "", nil, false
		}
	}
	return b.String(), binds, true
}
