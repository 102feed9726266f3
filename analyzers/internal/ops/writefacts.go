package ops

import (
	"fmt"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/knowledge"
	"github.com/idemlint/idemlint/analyzers/internal/ssaval"
)

// A ModelReadFact says that a function returns, in result Result, a
// pointer to a model it read from the database (GORM First, Take, Find;
// bun Scan): a repository's Get. With ByValue, the result is the model
// itself, loaded from the variable the read filled (var m T; db.Find(&m);
// return m, nil).
type ModelReadFact struct {
	Result  int
	ByValue bool
	Lib     string
	Desc    string
	// Handle is the parameter holding the handle read on, or -1.
	Handle int
	// For a read of SQL text scanned into the fields of the struct
	// returned (sqlmodel.go): its Table, the Fields scanned, each from
	// the column of the same index in Columns, and the parameters
	// (KeyParams) its WHERE binds the columns KeyColumns to.
	Table      string
	Fields     []string
	Columns    []string
	KeyColumns []string
	KeyParams  []int
}

// A ModelWriteFact says that a function writes every column of the
// model its parameter Param points to (GORM Save or Updates(m), bun
// NewUpdate().Model(m) without Set or Column steps): a repository's
// Save. With Fields, it writes those fields only, each to the column of
// the same index in Columns of Table, on the model's own row: a client's
// update of the model given, keyed by its fields, setting columns to
// its fields (ent's UpdateOne(m).SetCount(m.Count)).
type ModelWriteFact struct {
	Param  int
	Lib    string
	Desc   string
	Handle int
	Table  string
	Fields []string
	// Columns are the columns of Fields, by index.
	Columns []string
}

func (s *Summary) writeParts() []string {
	var parts []string
	for _, r := range s.ModelReads {
		value := ""
		if r.ByValue {
			value = " by value"
		}
		if len(r.Fields) > 0 {
			value += " " + r.Table + " " + strings.Join(r.Fields, ",")
		}
		parts = append(parts, fmt.Sprintf("model-read(r%d %s%s)", r.Result, r.Lib, value))
	}
	for _, w := range s.ModelWrites {
		fields := ""
		if len(w.Fields) > 0 {
			fields = " " + strings.Join(w.Fields, ",")
		}
		parts = append(parts, fmt.Sprintf("model-write(p%d %s%s)", w.Param, w.Lib, fields))
	}
	return parts
}

// writeSummary adds to fn's summary the models it returns after reading
// them and the model parameters it writes whole.
func (e *extractor) writeSummary(fn *ssa.Function, s *Summary) *Summary {
	if fn.Parent() != nil {
		return s
	}
	var reads []ModelReadFact
	for _, rd := range columnReads(e, fn) {
		if r, ok := sqlModelRead(fn, rd); ok {
			reads = append(reads, r)
			continue
		}
		if call, ok := rd.Instr.(*ssa.Call); ok && rd.Via != "" {
			if r, ok := passedModelRead(fn, rd, e.callSummary(call)); ok {
				reads = append(reads, r)
				continue
			}
		}
		if rd.ModelAddr == nil {
			continue
		}
		if _, ok := rd.ModelAddr.Type().Underlying().(*types.Pointer); !ok {
			continue
		}
		res, byValue := returnedIn(fn, rd.ModelAddr), false
		if res < 0 {
			res, byValue = returnedLoadIn(fn, rd.ModelAddr), true
		}
		if res < 0 {
			continue
		}
		h := -1
		if p, ok := rd.Handle.(*ssa.Parameter); ok {
			h = paramIndex(fn, p)
		}
		// A helper's read returned again (a service's GetByID checking
		// access around its store's): the read is the helper's, named
		// with it.
		reads = append(reads, ModelReadFact{Result: res, ByValue: byValue, Lib: rd.Lib, Desc: rd.Evidence(), Handle: h})
	}
	var writes []ModelWriteFact
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(*ssa.Call)
			if !ok {
				continue
			}
			site, ok := knowledge.Resolve(call.Common())
			if !ok || site.Row == nil || (site.Row.Kind != knowledge.Save && site.Row.Kind != knowledge.Update) {
				continue
			}
			addr, lib, ok := wholeModelWrite(site)
			if !ok {
				continue
			}
			p, ok := addr.(*ssa.Parameter)
			if !ok {
				continue
			}
			h := -1
			if recv := site.Receiver(); recv != nil {
				if hp, ok := Root(recv).(*ssa.Parameter); ok {
					h = paramIndex(fn, hp)
				}
			}
			if i := paramIndex(fn, p); i >= 0 {
				writes = append(writes, ModelWriteFact{Param: i, Lib: lib, Desc: CalleeName(site), Handle: h})
			}
		}
	}
	writes = append(writes, e.paramFieldWrites(fn)...)
	writes = append(writes, e.sqlParamFieldWrites(fn)...)
	writes = append(writes, e.passedFieldWrites(fn)...)
	if len(reads) == 0 && len(writes) == 0 {
		return s
	}
	if s == nil {
		s = &Summary{}
	}
	s.ModelReads, s.ModelWrites = reads, writes
	return s
}

// returnedIn returns the index of the result every return of fn gives v
// in on its success path (some return gives v there), or -1.
func returnedIn(fn *ssa.Function, v ssa.Value) int {
	for i := 0; i < fn.Signature.Results().Len(); i++ {
		for _, r := range returnedValues(fn, i) {
			if ssaval.Unwrap(r) == v {
				return i
			}
		}
	}
	return -1
}

// returnedLoadIn returns the index of the result in which fn returns the
// model the variable addr holds, loaded whole (var m T; db.Find(&m);
// return m, nil), when every return with a constant nil error gives it
// there (a zero value returned with an error is not one); -1 otherwise. The
// variable must be stored only through the read: a value stored into it
// whole (m = T{}) is not what was read.
func returnedLoadIn(fn *ssa.Function, addr ssa.Value) int {
	alloc, ok := addr.(*ssa.Alloc)
	if !ok {
		return -1
	}
	for _, ref := range *alloc.Referrers() {
		if st, ok := ref.(*ssa.Store); ok && st.Addr == alloc {
			return -1
		}
	}
	isLoad := func(v ssa.Value) bool {
		load, ok := ssaval.Unwrap(v).(*ssa.UnOp)
		return ok && load.Op == token.MUL && load.X == alloc
	}
	for i := 0; i < fn.Signature.Results().Len(); i++ {
		if ModelTypeOf(fn.Signature.Results().At(i).Type()) == nil {
			continue
		}
		found, other := false, false
		for _, ret := range ssaval.Returns(fn) {
			if i >= len(ret.Results) || !nilError(ret) {
				continue
			}
			// A function with a defer returns its result slots, whose
			// error is not a constant: not followed here.
			if isLoad(ret.Results[i]) {
				found = true
			} else {
				other = true
			}
		}
		if found && !other {
			return i
		}
	}
	return -1
}

// byValueLocal returns the variable a caller stores a model returned by
// value into when that store is the variable's only one (query, err :=
// q.Get(...); ... Model(&query)), or v itself: the read's model then
// lives there, where the caller's field loads and &query find it.
func byValueLocal(v ssa.Value) ssa.Value {
	var local *ssa.Alloc
	for _, ref := range *v.Referrers() {
		st, ok := ref.(*ssa.Store)
		if !ok || st.Val != v {
			continue
		}
		a, ok := st.Addr.(*ssa.Alloc)
		if !ok || local != nil {
			return v
		}
		local = a
	}
	if local == nil {
		return v
	}
	for _, ref := range *local.Referrers() {
		if st, ok := ref.(*ssa.Store); ok && st.Addr == local && st.Val != v {
			return v
		}
	}
	return local
}

// wholeModelWrite returns the model a library's save or update call
// writes whole (Library.WholeModel), with the library's name.
func wholeModelWrite(site knowledge.Site) (ssa.Value, string, bool) {
	if l := libraryAt(site); l != nil && l.WholeModel != nil {
		if m, ok := l.WholeModel(site); ok {
			return m, l.Name, true
		}
	}
	return nil, "", false
}

// helperReads makes the reads of a call of a function whose summary says
// it returns a model it read.
func (e *extractor) helperReads(call *ssa.Call) []*ColumnRead {
	cs := e.callSummary(call)
	if cs == nil || len(cs.s.ModelReads) == 0 {
		return nil
	}
	s, name, args := cs.s, cs.name, cs.args
	var out []*ColumnRead
	for _, r := range s.ModelReads {
		v := ResultValue(call, r.Result)
		model := ModelType(v)
		if v == nil || model == nil {
			continue
		}
		if r.ByValue {
			v = byValueLocal(v)
		}
		rd := &ColumnRead{Instr: call, Model: model, ModelAddr: v, Lib: r.Lib, Desc: r.Desc, Via: name}
		if r.Handle >= 0 && r.Handle < len(args) {
			rd.Handle = Root(args[r.Handle])
		}
		if len(r.Fields) > 0 {
			// Scanned from SQL text: the columns are the fact's, the
			// keys the caller's arguments bound in the WHERE.
			rd.Table, rd.ColumnOf = r.Table, r.sqlColumnOf
			rd.Cols = r.fieldCols(v)
			for j, p := range r.KeyParams {
				if p < len(args) && j < len(r.KeyColumns) {
					rd.Keys = append(rd.Keys, KeyValue{Column: r.KeyColumns[j], Value: args[p]})
				}
			}
		} else if l := libraryNamed(r.Lib); l != nil && l.ModelColumns != nil {
			rd.Table, rd.ColumnOf = l.ModelColumns(call.Parent(), model)
		}
		out = append(out, rd)
	}
	return out
}

// helperWrites makes the writes of a call of a function whose summary
// says it writes its model parameter whole: one per field of the model
// stored in fn.
func (e *extractor) helperWrites(fn *ssa.Function, call *ssa.Call) []*ColumnWrite {
	cs := e.callSummary(call)
	if cs == nil || len(cs.s.ModelWrites) == 0 {
		return nil
	}
	s, name, args := cs.s, cs.name, cs.args
	var out []*ColumnWrite
	for _, w := range s.ModelWrites {
		if w.Param >= len(args) {
			continue
		}
		addr := ssaval.Unwrap(args[w.Param])
		model := ModelType(addr)
		if model == nil {
			continue
		}
		var h ssa.Value
		if w.Handle >= 0 && w.Handle < len(args) {
			h = Root(args[w.Handle])
		}
		var columnOf func(string) (string, bool)
		table := ""
		if len(w.Fields) > 0 {
			table, columnOf = w.Table, w.columnOf
		} else if l := libraryNamed(w.Lib); l != nil && l.ModelColumns != nil {
			table, columnOf = l.ModelColumns(fn, model)
		}
		for _, st := range FieldStores(fn, addr) {
			f := ssaval.FieldOf(st.Addr.(*ssa.FieldAddr))
			if f == nil {
				continue
			}
			if len(w.Fields) > 0 {
				if _, ok := w.columnOf(f.Name()); !ok {
					continue // a field the helper does not write
				}
			}
			cw := &ColumnWrite{Instr: call, Table: table, Model: model, ModelAddr: addr, Field: f.Name(), Value: st.Val, Store: st,
				Handle: h, Lib: w.Lib, Desc: w.Desc, Via: name}
			if columnOf != nil {
				cw.Column, _ = columnOf(f.Name())
			}
			out = append(out, cw)
		}
	}
	return out
}

// ResultValue returns the value of result i of call.
func ResultValue(call *ssa.Call, i int) ssa.Value {
	if call.Common().Signature().Results().Len() == 1 {
		if i == 0 {
			return call
		}
		return nil
	}
	for _, ref := range *call.Referrers() {
		if x, ok := ref.(*ssa.Extract); ok && x.Index == i {
			return x
		}
	}
	return nil
}

// columnOf returns the column a ModelWriteFact with Fields writes field f
// to.
func (w *ModelWriteFact) columnOf(f string) (string, bool) {
	for i, g := range w.Fields {
		if g == f && i < len(w.Columns) {
			return w.Columns[i], true
		}
	}
	return "", false
}

// paramFieldWrites returns, per model parameter, the fields fn writes
// back to the parameter's own row through a library's client update: a
// write of a column whose value is a load of a field of the parameter,
// of the model given (ent's UpdateOne(p).SetCount(p.Count)) or keyed by
// loads of its fields (UpdateOneID(p.ID)), not guarded by a Where. A
// parameter one of whose writes is of another row or guarded makes no
// fact: the caller's stores into the model would not be what the helper
// writes as they are.
func (e *extractor) paramFieldWrites(fn *ssa.Function) []ModelWriteFact {
	type acc struct {
		fact  ModelWriteFact
		valid bool
	}
	byParam := map[int]*acc{}
	var order []int
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(*ssa.Call)
			if !ok {
				continue
			}
			callee := call.Common().StaticCallee()
			if callee == nil {
				continue
			}
			obj, ok := callee.Object().(*types.Func)
			if !ok {
				continue
			}
			l := claimant(obj)
			if l == nil || l.ClientWrites == nil {
				continue
			}
			for _, w := range l.ClientWrites(call, obj) {
				p, f := paramFieldLoad(w.Value)
				i := paramIndex(fn, p)
				if i < 0 || w.Column == "" || w.Table == "" {
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
				// The parameter's own row: the model given (UpdateOne(p)),
				// or keys that are its fields (UpdateOneID(p.ID)).
				own := w.ModelAddr != nil && ssaval.Unwrap(w.ModelAddr) == p
				if w.ModelAddr == nil && len(w.Keys) > 0 {
					own = true
					for _, k := range w.Keys {
						if kp, _ := paramFieldLoad(k.Value); kp != p {
							own = false
						}
					}
				}
				if !own || w.Guarded || w.Keyed || w.Table != a.fact.Table {
					a.valid = false
					continue
				}
				a.fact.Fields = append(a.fact.Fields, f)
				a.fact.Columns = append(a.fact.Columns, w.Column)
			}
		}
	}
	var out []ModelWriteFact
	for _, i := range order {
		if a := byParam[i]; a.valid && len(a.fact.Fields) > 0 {
			out = append(out, a.fact)
		}
	}
	return out
}

// paramFieldLoad returns the parameter and field name when v is a load of a
// field of a parameter (p.Count, p a pointer to a struct); nil, "" otherwise.
func paramFieldLoad(v ssa.Value) (*ssa.Parameter, string) {
	load, ok := ssaval.Unwrap(v).(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return nil, ""
	}
	fa, ok := load.X.(*ssa.FieldAddr)
	if !ok {
		return nil, ""
	}
	p, ok := fa.X.(*ssa.Parameter)
	if !ok {
		return nil, ""
	}
	f := ssaval.FieldOf(fa)
	if f == nil {
		return nil, ""
	}
	return p, f.Name()
}
