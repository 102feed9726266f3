package ops

import (
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/knowledge"
	"github.com/idemlint/idemlint/analyzers/internal/ssaval"
)

// Model reads and writes made of SQL text (database/sql, sqlx, pgx): a
// repository's Get that scans one row into the fields of a struct it
// returns, and its Update that binds every SET and the WHERE key from
// the fields of the struct it is given. Their callers see a model read
// and a model write, as of an ORM's Get and Save, with the column of
// each field taken from the SQL itself (which column the Scan put in
// which field, which field each SET placeholder binds), so that the
// caller's b.Quantity-- between the two is a write-back of
// book.quantity.

// sqlModelRead makes the fact of a SQL read whose every scan destination
// is a field of one struct fn returns (by pointer, or by value loaded
// from the variable the scan filled): the fields with their columns, and
// the parameters the WHERE binds its key columns to.
func sqlModelRead(fn *ssa.Function, rd *ColumnRead) (ModelReadFact, bool) {
	if rd.ModelAddr != nil || rd.Via != "" || rd.Table == "" || len(rd.Cols) == 0 {
		return ModelReadFact{}, false
	}
	var base ssa.Value
	var fields, columns []string
	for _, c := range rd.Cols {
		fa, ok := ssaval.Unwrap(c.Addr).(*ssa.FieldAddr)
		if !ok || (base != nil && fa.X != base) {
			return ModelReadFact{}, false
		}
		base = fa.X
		f := ssaval.FieldOf(fa)
		if f == nil {
			return ModelReadFact{}, false
		}
		fields, columns = append(fields, f.Name()), append(columns, c.Column)
	}
	if ModelType(base) == nil {
		return ModelReadFact{}, false
	}
	res, byValue := returnedIn(fn, base), false
	if res < 0 {
		res, byValue = returnedLoadIn(fn, base), true
	}
	if res < 0 {
		return ModelReadFact{}, false
	}
	// The key the caller names the row by: the parameters the WHERE
	// binds. A key bound to anything else leaves the row unnamed, and
	// the caller's write is then matched by the row's own key field.
	var keyCols []string
	var keyParams []int
	for _, k := range rd.Keys {
		if i := paramIndex(fn, ssaval.Unwrap(k.Value)); i >= 0 {
			keyCols, keyParams = append(keyCols, k.Column), append(keyParams, i)
		}
	}
	h := -1
	if p, ok := rd.Handle.(*ssa.Parameter); ok {
		h = paramIndex(fn, p)
	}
	return ModelReadFact{Result: res, ByValue: byValue, Lib: rd.Lib, Desc: rd.Desc, Handle: h,
		Table: rd.Table, Fields: fields, Columns: columns, KeyColumns: keyCols, KeyParams: keyParams}, true
}

// passedModelRead makes the fact of a function returning, as it is, the
// model a SQL read helper it calls returned (a use case's GetBook over
// its repository's Get): the helper's fact, its handle and keys moved to
// fn's parameters given to the call.
func passedModelRead(fn *ssa.Function, rd *ColumnRead, cs *calleeSummary) (ModelReadFact, bool) {
	if rd.Via == "" || rd.ModelAddr == nil || cs == nil {
		return ModelReadFact{}, false
	}
	for _, r := range cs.s.ModelReads {
		if len(r.Fields) == 0 {
			continue // an ORM's read: its columns are the schema's
		}
		v := ResultValue(rd.Instr.(*ssa.Call), r.Result)
		if v == nil {
			continue
		}
		if r.ByValue {
			v = byValueLocal(v)
		}
		if v != rd.ModelAddr {
			continue
		}
		res, byValue := returnedIn(fn, v), r.ByValue
		if res < 0 && r.ByValue {
			res = returnedLoadIn(fn, v)
		} else if byValue {
			res = -1 // returned as the helper's value, not loaded
		}
		if res < 0 {
			return ModelReadFact{}, false
		}
		out := r
		out.Result, out.ByValue = res, byValue
		out.Handle = argParam(fn, cs.args, r.Handle)
		out.KeyColumns, out.KeyParams = nil, nil
		for j, p := range r.KeyParams {
			if i := argParam(fn, cs.args, p); i >= 0 {
				out.KeyColumns, out.KeyParams = append(out.KeyColumns, r.KeyColumns[j]), append(out.KeyParams, i)
			}
		}
		return out, true
	}
	return ModelReadFact{}, false
}

// argParam returns the index of fn's parameter given as argument i, or -1.
func argParam(fn *ssa.Function, args []ssa.Value, i int) int {
	if i < 0 || i >= len(args) {
		return -1
	}
	return paramIndex(fn, ssaval.Unwrap(args[i]))
}

// sqlParamFieldWrites returns, per struct parameter, the fields fn's SQL
// UPDATEs write to the parameter's own row: every SET placeholder bound
// to a field of the parameter (UPDATE book SET quantity = ? ... WHERE id
// = ? with e.Quantity, e.ID), every WHERE key a field of it, nothing but
// keys compared. A parameter one of whose writes is of another row or
// guarded makes no fact, as in paramFieldWrites.
func (e *extractor) sqlParamFieldWrites(fn *ssa.Function) []ModelWriteFact {
	var writes []*ColumnWrite
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(*ssa.Call)
			if !ok {
				continue
			}
			site, ok := knowledge.Resolve(call.Common())
			if !ok || site.Row == nil || (site.Row.Kind != knowledge.Exec && site.Row.Kind != knowledge.Query) {
				continue
			}
			writes = append(writes, e.sqlWrites(call, site)...)
		}
	}
	return ownRowFieldWrites(fn, writes)
}

// passedFieldWrites returns the facts of fn passing a struct parameter to
// a helper whose fact says it writes those fields of it (a use case's
// UpdateBook over its repository's Update): the fields fn stores into the
// parameter itself (e.UpdatedAt = time.Now()) are not its caller's.
func (e *extractor) passedFieldWrites(fn *ssa.Function) []ModelWriteFact {
	var out []ModelWriteFact
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(*ssa.Call)
			if !ok {
				continue
			}
			if site, ok := knowledge.Resolve(call.Common()); ok && site.Row != nil {
				continue // a library's call: not a helper
			}
			cs := e.callSummary(call)
			if cs == nil {
				continue
			}
			for _, w := range cs.s.ModelWrites {
				if len(w.Fields) == 0 {
					continue // an ORM's whole-model write: not carried here
				}
				i := argParam(fn, cs.args, w.Param)
				if i < 0 {
					continue
				}
				stored := map[string]bool{}
				for _, st := range FieldStores(fn, fn.Params[i]) {
					if f := ssaval.FieldOf(st.Addr.(*ssa.FieldAddr)); f != nil {
						stored[f.Name()] = true
					}
				}
				out1 := ModelWriteFact{Param: i, Lib: w.Lib, Desc: w.Desc, Handle: argParam(fn, cs.args, w.Handle), Table: w.Table}
				for j, f := range w.Fields {
					if !stored[f] && j < len(w.Columns) {
						out1.Fields, out1.Columns = append(out1.Fields, f), append(out1.Columns, w.Columns[j])
					}
				}
				if len(out1.Fields) > 0 {
					out = append(out, out1)
				}
			}
		}
	}
	return out
}

// ownRowFieldWrites groups writes by the parameter whose field each
// writes, keeping a parameter only when every one of its writes is of
// its own row (keys loaded from its fields), unguarded, of one table.
func ownRowFieldWrites(fn *ssa.Function, writes []*ColumnWrite) []ModelWriteFact {
	type acc struct {
		fact  ModelWriteFact
		valid bool
	}
	byParam := map[int]*acc{}
	var order []int
	for _, w := range writes {
		p, f := paramFieldLoad(w.Value)
		i := paramIndex(fn, p)
		if i < 0 || w.Column == "" || w.Table == "" {
			continue
		}
		if _, ok := p.Type().Underlying().(*types.Pointer); !ok {
			continue
		}
		a := byParam[i]
		if a == nil {
			h := -1
			if hp, ok := w.Handle.(*ssa.Parameter); ok {
				h = paramIndex(fn, hp)
			}
			a = &acc{fact: ModelWriteFact{Param: i, Lib: w.Lib, Desc: w.Desc, Handle: h, Table: w.Table}, valid: true}
			byParam[i] = a
			order = append(order, i)
		}
		own := w.ModelAddr == nil && len(w.Keys) > 0
		for _, k := range w.Keys {
			if kp, _ := paramFieldLoad(k.Value); kp != p {
				own = false
			}
		}
		if !own || w.Guarded || w.Keyed || w.Table != a.fact.Table {
			a.valid = false
			continue
		}
		a.fact.Fields = append(a.fact.Fields, f)
		a.fact.Columns = append(a.fact.Columns, w.Column)
	}
	var out []ModelWriteFact
	for _, i := range order {
		if a := byParam[i]; a.valid && len(a.fact.Fields) > 0 {
			out = append(out, a.fact)
		}
	}
	return out
}

// sqlColumnOf names the column a SQL read fact scanned field f into.
func (r *ModelReadFact) sqlColumnOf(f string) (string, bool) {
	for i, g := range r.Fields {
		if g == f && i < len(r.Columns) {
			return r.Columns[i], true
		}
	}
	return "", false
}

// fieldCols returns the columns a SQL read fact scanned into the fields
// of the struct v points to, as the addresses of those fields (as sqlx's
// Get destinations are made): the caller's own UPDATE of the same row
// from b.Quantity matches them as an inline read's.
func (r *ModelReadFact) fieldCols(v ssa.Value) []ReadCol {
	ptr, ok := v.Type().Underlying().(*types.Pointer)
	if !ok {
		return nil
	}
	st, ok := ptr.Elem().Underlying().(*types.Struct)
	if !ok {
		return nil
	}
	var out []ReadCol
	for j, f := range r.Fields {
		for i := 0; i < st.NumFields(); i++ {
			if st.Field(i).Name() == f && j < len(r.Columns) {
				out = append(out, ReadCol{Column: r.Columns[j], Addr: &ssa.FieldAddr{X: v, Field: i}})
			}
		}
	}
	return out
}
