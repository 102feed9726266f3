package ops

import (
	"fmt"
	"go/types"
	"reflect"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/knowledge"
	"github.com/idemlint/idemlint/analyzers/internal/sqltext"
	"github.com/idemlint/idemlint/analyzers/internal/ssaval"
)

// A ColumnRead is a read of one row's columns into Go values: a SELECT run
// by database/sql, sqlx, pgx or GORM Exec whose single row is scanned into
// destinations, or a GORM First, Take or Find into a model.
type ColumnRead struct {
	Instr ssa.CallInstruction
	// Table is the table read ("" when Model names it).
	Table string
	// Model is the GORM model read into; ModelAddr the pointer passed as
	// the destination (its fields hold the columns).
	Model     types.Type
	ModelAddr ssa.Value
	// Cols are, for SQL, the scan destinations and the columns they
	// receive.
	Cols []ReadCol
	// Keys are the columns the WHERE pins to bound values.
	Keys []KeyValue
	// Set is, for a read of several rows (SetReads), the columns the
	// WHERE pins to a set of bound values (id = ANY($1), id IN ($1, $2)),
	// Value the first of them: each row read is then told by its own
	// value of the column, scanned into Cols.
	Set    []KeyValue
	Handle ssa.Value
	Lib    string
	Desc   string
	// Via is the helper whose summary gave the read ("" for the library
	// call itself).
	Via string
	// ColumnOf names the column of a field of Model when the library,
	// not GORM's schema, maps them (bun's tags); nil otherwise.
	ColumnOf func(field string) (string, bool)
}

// A ReadCol is a column scanned into the address Addr.
type ReadCol struct {
	Column string
	Addr   ssa.Value
}

// A ColumnWrite is a write of one column of one row with a value known in
// Go: SQL UPDATE ... SET c = $n, GORM Update("c", v), Updates(map), or one
// field of a model stored before GORM Save or Updates(&m).
type ColumnWrite struct {
	Instr ssa.CallInstruction
	Table string
	// Model and ModelAddr are the GORM model written; Column or Field
	// names what is written (Field for a model's field).
	Model         types.Type
	ModelAddr     ssa.Value
	Column, Field string
	// Value is the value written.
	Value ssa.Value
	// Store is, for a model's field, the store that changed it.
	Store  *ssa.Store
	Keys   []KeyValue
	Handle ssa.Value
	Lib    string
	Desc   string
	// Guarded is set when the UPDATE's WHERE pins a column it also sets
	// (a compare-and-set on the old value, a version it bumps), compares
	// something other than columns equal to bound values, or is not
	// understood; for GORM and bun, when a loaded model's update has a
	// Where step. A version column among Keys is the caller's to check.
	Guarded bool
	// Keyed is set when the row written is the one the write's keys pin,
	// not its model's: a fresh &T{} given to GORM's Model with the row
	// chosen by Where. Its Guarded then says whether the WHERE compares
	// anything but other columns equal to bound values.
	Keyed bool
	// Delta is, for GORM Update("c", m.F+d) and Update("c", m.F-d), the
	// delta and its sign (Op "+" or "-"); nil otherwise.
	Delta   ssa.Value
	DeltaOp string
	// Via is the helper whose summary gave the write ("" for the library
	// call itself).
	Via string
}

// Evidence names the read for messages, with the helper it is in.
func (rd *ColumnRead) Evidence() string {
	if rd.Via == "" {
		return rd.Desc
	}
	return rd.Desc + " in " + rd.Via
}

// Evidence names the write for messages, with the helper it is in.
func (w *ColumnWrite) Evidence() string {
	if w.Via == "" {
		return w.Desc
	}
	return w.Desc + " in " + w.Via
}

// ColumnReads returns the single-row reads of fn that scan columns into
// Go values.
func (r *Result) ColumnReads(fn *ssa.Function) []*ColumnRead {
	r.e.lazy.Lock()
	defer r.e.lazy.Unlock()
	return columnReads(r.e, fn)
}

func columnReads(e *extractor, fn *ssa.Function) []*ColumnRead {
	var out []*ColumnRead
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(*ssa.Call)
			if !ok {
				continue
			}
			site, ok := knowledge.Resolve(call.Common())
			if !ok || site.Row == nil {
				if callee := call.Common().StaticCallee(); callee != nil {
					if obj, isFunc := callee.Object().(*types.Func); isFunc {
						if l := claimant(obj); l != nil {
							if l.ClientRead != nil {
								if rd := l.ClientRead(call, obj); rd != nil {
									out = append(out, rd)
								}
							}
							continue
						}
					}
				}
				if !ok || !e.covered(site.Func.Pkg) {
					out = append(out, e.helperReads(call)...)
					if rd := e.generatedRead(call); rd != nil {
						out = append(out, rd)
					}
				}
				continue
			}
			switch site.Row.Kind {
			case knowledge.Query:
				if rd := e.sqlRead(call, site); rd != nil {
					out = append(out, rd)
				}
			case knowledge.Find:
				if rd := libraryRead(call, site); rd != nil {
					out = append(out, rd)
				}
			}
		}
	}
	return out
}

// sqlRead makes a read of a SELECT whose one row is scanned by a Scan
// call on the query's result.
func (e *extractor) sqlRead(call *ssa.Call, site knowledge.Site) *ColumnRead {
	stmt, h := StatementOf(site)
	if stmt == nil || stmt.Kind != sqltext.KindSelect || !stmt.Understood() || stmt.Table.Name == "" || len(stmt.From) > 0 {
		return nil
	}
	bind, ok := Binder(site)
	if !ok {
		return nil
	}
	lk := StatementRow(stmt, bind)
	if lk == nil || lk.Kind != Lookup {
		return nil
	}
	rd := &ColumnRead{Instr: call, Table: stmt.Table.Name, Keys: lk.Keys, Handle: h, Lib: sqlLib(site),
		Desc: "the SELECT of " + stmt.Table.Name + " (" + CalleeName(site) + ")"}
	if dest := site.RoleArg(knowledge.Dest); dest != nil {
		// sqlx Get(&v, ...) scans the row itself.
		rd.Cols = append(rd.Cols, destCols(stmt, ssaval.Unwrap(dest))...)
	}
	refs := *call.Referrers()
	if rows := ResultValue(call, 0); rows != nil && rows != ssa.Value(call) {
		refs = append(refs[:len(refs):len(refs)], *rows.Referrers()...)
	}
	for _, ref := range refs {
		scan := scanCallOn(ref, call)
		if scan == nil {
			continue
		}
		ssite, _ := knowledge.Resolve(scan.Common())
		i, ok := ssite.Row.Param(knowledge.Dest)
		if !ok {
			continue
		}
		dests, ok := ssite.Variadic(i)
		if !ok || len(dests) != len(stmt.SelectList) {
			continue
		}
		for j, d := range dests {
			if col, ok := SelectColumn(stmt, stmt.SelectList[j]); ok && d != nil {
				rd.Cols = append(rd.Cols, ReadCol{Column: col, Addr: d})
			}
		}
	}
	if len(rd.Cols) == 0 {
		return nil
	}
	return rd
}

// SelectColumn returns the column of the statement's table a select-list
// item reads as it is, or false (an expression, *, another table's).
func SelectColumn(stmt *sqltext.Statement, rc sqltext.ResultColumn) (string, bool) {
	if rc.Expr.Kind != sqltext.ExprColumn || len(rc.Expr.Columns) != 1 || rc.Name == "*" {
		return "", false
	}
	if q := rc.Expr.Columns[0].Table; q != "" && !strings.EqualFold(q, stmt.Table.Name) && !strings.EqualFold(q, stmt.Table.Alias) {
		return "", false
	}
	return rc.Expr.Columns[0].Name, true
}

// rowLocal returns the local a row value returned by a call is stored in
// (t := First(ctx); t.F -= d: its fields are then loaded from the local),
// or the value itself.
func RowLocal(row ssa.Value) ssa.Value {
	if refs := row.Referrers(); refs != nil {
		for _, ref := range *refs {
			if st, ok := ref.(*ssa.Store); ok && st.Val == row {
				if alloc, ok := st.Addr.(*ssa.Alloc); ok {
					return alloc
				}
			}
		}
	}
	return row
}

// destCols maps the select list of stmt onto the destination of sqlx's
// Get: a pointer to one value receives a one-column row; a pointer to a
// struct receives each column in the field sqlx's default mapper picks
// (its db tag, else its name lower-cased). The addresses are field
// addresses of the destination, compared by SameAddr with the loads the
// write's value comes from.
func destCols(stmt *sqltext.Statement, dest ssa.Value) []ReadCol {
	column := func(rc sqltext.ResultColumn) (string, bool) { return SelectColumn(stmt, rc) }
	ptr, ok := dest.Type().Underlying().(*types.Pointer)
	if !ok {
		return nil
	}
	st, isStruct := ptr.Elem().Underlying().(*types.Struct)
	if !isStruct {
		if len(stmt.SelectList) != 1 {
			return nil
		}
		if col, ok := column(stmt.SelectList[0]); ok {
			return []ReadCol{{Column: col, Addr: dest}}
		}
		return nil
	}
	if len(stmt.SelectList) == 1 && stmt.SelectList[0].Expr.Kind == sqltext.ExprStar {
		// SELECT * of the one table (sqlRead takes no joins): sqlx
		// fills each field its mapper names from the row's columns, so
		// the fields are the columns read.
		return starCols(st, dest)
	}
	var out []ReadCol
	for _, rc := range stmt.SelectList {
		col, ok := column(rc)
		if !ok {
			continue
		}
		// The name the row's column has: its alias, if any.
		name := col
		if rc.Name != "" {
			name = rc.Name
		}
		if i, ok := dbField(st, name); ok {
			out = append(out, ReadCol{Column: col, Addr: &ssa.FieldAddr{X: dest, Field: i}})
		}
	}
	return out
}

// starCols maps every field sqlx's default mapper fills onto its column,
// for a SELECT * into the struct at dest.
func starCols(st *types.Struct, dest ssa.Value) []ReadCol {
	var out []ReadCol
	for i := 0; i < st.NumFields(); i++ {
		if col, ok := sqlxColumn(st, i); ok {
			out = append(out, ReadCol{Column: col, Addr: &ssa.FieldAddr{X: dest, Field: i}})
		}
	}
	return out
}

// sqlxColumn returns the column sqlx's default mapper fills field i of st
// from: its db tag, else its name lower-cased; false for an embedded,
// unexported or db:"-" field.
func sqlxColumn(st *types.Struct, i int) (string, bool) {
	f := st.Field(i)
	if f.Embedded() || !f.Exported() {
		return "", false
	}
	tag, _, _ := strings.Cut(reflect.StructTag(st.Tag(i)).Get("db"), ",")
	switch tag {
	case "-":
		return "", false
	case "":
		return strings.ToLower(f.Name()), true
	}
	return tag, true
}

// scanCallOn returns ref when it is a Scan call whose receiver is the
// query call q.
func scanCallOn(ref ssa.Instruction, q *ssa.Call) *ssa.Call {
	c, ok := ref.(*ssa.Call)
	if !ok {
		return nil
	}
	site, ok := knowledge.Resolve(c.Common())
	if !ok || site.Row == nil || site.Row.Kind != knowledge.Scan {
		return nil
	}
	recv := site.Receiver()
	if recv == nil {
		return nil
	}
	r := ssaval.Unwrap(recv)
	// The rows of Query (rows, err := ...; for rows.Next() { rows.Scan }):
	// a lookup by key reads one row at most, scanned in the loop.
	if x, ok := r.(*ssa.Extract); ok && x.Tuple == q && x.Index == 0 {
		r = q
	}
	if r != q {
		return nil
	}
	return c
}

// ColumnWrites returns the writes of fn that store a Go value into a
// column.
func (r *Result) ColumnWrites(fn *ssa.Function) []*ColumnWrite {
	r.e.lazy.Lock()
	defer r.e.lazy.Unlock()
	var out []*ColumnWrite
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(*ssa.Call)
			if !ok {
				continue
			}
			site, ok := knowledge.Resolve(call.Common())
			if !ok || site.Row == nil {
				if callee := call.Common().StaticCallee(); callee != nil {
					if obj, isFunc := callee.Object().(*types.Func); isFunc {
						if l := claimant(obj); l != nil {
							if l.ClientWrites != nil {
								out = append(out, l.ClientWrites(call, obj)...)
							}
							continue
						}
					}
				}
				if !ok || !r.e.covered(site.Func.Pkg) {
					out = append(out, r.e.helperWrites(fn, call)...)
					out = append(out, r.e.generatedWrites(call)...)
				}
				continue
			}
			switch site.Row.Kind {
			case knowledge.Exec, knowledge.Query:
				// A query too: UPDATE ... RETURNING run with QueryRow or Get.
				out = append(out, r.e.sqlWrites(call, site)...)
			case knowledge.Save, knowledge.Update:
				if l := libraryAt(site); l != nil && l.Writes != nil {
					out = append(out, l.Writes(fn, call, site)...)
				}
			}
		}
	}
	return out
}

// sqlWrites makes a write of each SET c = $n of an UPDATE.
func (e *extractor) sqlWrites(call *ssa.Call, site knowledge.Site) []*ColumnWrite {
	stmt, h := StatementOf(site)
	if stmt == nil {
		return nil
	}
	bind, ok := Binder(site)
	if !ok {
		return nil
	}
	return StatementWrites(call, stmt, h, bind, sqlLib(site), "the UPDATE of "+stmt.Table.Name+" ("+CalleeName(site)+")")
}

// floorOfSet reports whether c compares a column the statement sets with
// <, >, <= or >=.
func floorOfSet(stmt *sqltext.Statement, c sqltext.Comparison) bool {
	switch c.Op {
	case "<", ">", "<=", ">=":
	default:
		return false
	}
	for _, a := range stmt.Set {
		if strings.EqualFold(a.Column, c.Column.Name) {
			return true
		}
	}
	return false
}

// StatementWrites makes a write of each SET c = $n of an UPDATE run by
// call, its placeholders' values given by bind.
func StatementWrites(call *ssa.Call, stmt *sqltext.Statement, h ssa.Value, bind func(sqltext.Placeholder) ssa.Value, lib, desc string) []*ColumnWrite {
	if stmt.Kind != sqltext.KindUpdate || stmt.Table.Name == "" || len(stmt.From) > 0 || stmt.Where == nil {
		return nil
	}
	var keys []KeyValue
	guarded := stmt.Where.Unknown || len(stmt.Unknown) > 0
	for _, c := range stmt.Where.Comparisons {
		if c.Conjunct && c.Equality() && c.Operand.Kind == sqltext.OperandPlaceholder && len(c.Operand.Placeholders) == 1 && stmt.TargetColumn(c.Column) {
			if v := bind(c.Operand.Placeholders[0]); v != nil {
				keys = append(keys, KeyValue{Column: c.Column.Name, Value: v})
				continue
			}
		}
		if c.Conjunct && floorOfSet(stmt, c) {
			// stock >= $2 beside SET stock = $3: a floor the new value
			// keeps, not a compare-and-set; both writers pass it.
			continue
		}
		guarded = true
	}
	if len(keys) == 0 {
		return nil
	}
	// A pinned column that is also set (WHERE id = $1 AND balance = $2,
	// SET version = version + 1 ... AND version = $3) makes the write a
	// compare-and-set.
	for _, a := range stmt.Set {
		for _, k := range keys {
			if strings.EqualFold(k.Column, a.Column) {
				guarded = true
			}
		}
	}
	var out []*ColumnWrite
	for _, a := range stmt.Set {
		if a.SelfReferential {
			continue
		}
		p, ok := a.Value.Placeholder()
		if !ok {
			continue
		}
		v := bind(p)
		if v == nil {
			continue
		}
		out = append(out, &ColumnWrite{Instr: call, Table: stmt.Table.Name, Column: a.Column, Value: v, Keys: keys, Handle: h,
			Lib: lib, Guarded: guarded, Desc: desc})
	}
	return out
}

// FieldStores returns the stores into a field of the struct at addr.
func FieldStores(fn *ssa.Function, addr ssa.Value) []*ssa.Store {
	var out []*ssa.Store
	refs := addr.Referrers()
	if refs == nil {
		return nil
	}
	for _, ref := range *refs {
		fa, ok := ref.(*ssa.FieldAddr)
		if !ok || fa.X != addr {
			continue
		}
		for _, use := range *fa.Referrers() {
			if st, ok := use.(*ssa.Store); ok && st.Addr == fa && st.Parent() == fn {
				out = append(out, st)
			}
		}
	}
	return out
}

// String describes a write for tests.
func (w *ColumnWrite) String() string {
	what := w.Column
	if what == "" {
		what = w.Field
	}
	return fmt.Sprintf("write(%s%v.%s)", w.Table, w.Model, what)
}

// generatedRead makes the read of a call of a generated function, by the
// library that generated it (Library.GeneratedRead).
func (e *extractor) generatedRead(call *ssa.Call) *ColumnRead {
	callee := call.Common().StaticCallee()
	if l, f := e.generated(callee); f != nil && l.GeneratedRead != nil {
		return l.GeneratedRead(call, callee, f)
	}
	return nil
}

// generatedWrites makes the writes of a call of a generated function, by
// the library that generated it (Library.GeneratedWrites).
func (e *extractor) generatedWrites(call *ssa.Call) []*ColumnWrite {
	callee := call.Common().StaticCallee()
	if l, f := e.generated(callee); f != nil && l.GeneratedWrites != nil {
		return l.GeneratedWrites(call, callee, f)
	}
	return nil
}
