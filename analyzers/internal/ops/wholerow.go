package ops

import (
	"fmt"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/knowledge"
	"github.com/idemlint/idemlint/analyzers/internal/ssaval"
)

// A WholeWrite is a write of every column of a model from its fields
// (GORM Save(&m), gorp Update(&m), bun NewUpdate().Model(m) without Set
// or Column steps: Library.WholeModel), by the call itself or by a helper
// whose summary says it writes its model parameter whole. The columns
// the function did not change since it read the model are written back
// as they were read: lostupdate's whole-row rule.
type WholeWrite struct {
	Instr     ssa.CallInstruction
	Model     types.Type
	ModelAddr ssa.Value
	// Table and ColumnOf name the model's table and columns when the
	// library, not the schema layer, maps them (ModelColumns).
	Table    string
	ColumnOf func(field string) (string, bool)
	Handle   ssa.Value
	Lib      string
	Desc     string
	Via      string
}

// Evidence names the write for messages, with the helper it is in.
func (w *WholeWrite) Evidence() string {
	if w.Via == "" {
		return w.Desc
	}
	return w.Desc + " in " + w.Via
}

// WholeWrites returns the writes of fn that write a model whole.
func (r *Result) WholeWrites(fn *ssa.Function) []*WholeWrite {
	r.e.lazy.Lock()
	defer r.e.lazy.Unlock()
	var out []*WholeWrite
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(*ssa.Call)
			if !ok {
				continue
			}
			site, ok := knowledge.Resolve(call.Common())
			if ok && site.Row != nil {
				if site.Row.Kind != knowledge.Save && site.Row.Kind != knowledge.Update {
					continue
				}
				addr, lib, ok := wholeModelWrite(site)
				model := ModelType(addr)
				if !ok || model == nil {
					continue
				}
				w := &WholeWrite{Instr: call, Model: model, ModelAddr: addr, Lib: lib, Desc: CalleeName(site)}
				if recv := site.Receiver(); recv != nil {
					w.Handle = Root(recv)
				}
				if l := libraryNamed(lib); l != nil && l.ModelColumns != nil {
					w.Table, w.ColumnOf = l.ModelColumns(fn, model)
				}
				out = append(out, w)
				continue
			}
			if ok && r.e.covered(site.Func.Pkg) {
				continue
			}
			out = append(out, r.e.helperWholeWrites(fn, call)...)
		}
	}
	return out
}

// helperWholeWrites makes the whole writes of a call of a function whose
// summary says it writes its model parameter whole.
func (e *extractor) helperWholeWrites(fn *ssa.Function, call *ssa.Call) []*WholeWrite {
	cs := e.callSummary(call)
	if cs == nil {
		return nil
	}
	var out []*WholeWrite
	for _, mw := range cs.s.ModelWrites {
		if len(mw.Fields) > 0 || mw.Param >= len(cs.args) {
			continue // only the fields named: not whole
		}
		addr := ssaval.Unwrap(cs.args[mw.Param])
		model := ModelType(addr)
		if model == nil {
			continue
		}
		w := &WholeWrite{Instr: call, Model: model, ModelAddr: addr, Lib: mw.Lib, Desc: mw.Desc, Via: cs.name}
		if mw.Handle >= 0 && mw.Handle < len(cs.args) {
			w.Handle = Root(cs.args[mw.Handle])
		}
		if l := libraryNamed(mw.Lib); l != nil && l.ModelColumns != nil {
			w.Table, w.ColumnOf = l.ModelColumns(fn, model)
		}
		out = append(out, w)
	}
	return out
}

// Stamped reports whether the library of a whole write sets the column
// of field itself on every update (GORM's UpdatedAt): it is not written
// back as read.
func (w *WholeWrite) Stamped(field string) bool {
	l := libraryNamed(w.Lib)
	return l != nil && l.Stamped != nil && l.Stamped(w.Model, field)
}

// A ColumnWriter is a write of a column of a table by some function of
// the program: a column an UPDATE sets (to a value, a constant or from
// its own value), a field GORM's Updates(&T{F: v}) or a map key sets, or
// a field a function changes on a row it read before writing it back.
// lostupdate's whole-row rule looks for another writer of a column that
// a whole write rewrites from a stale copy: only then can a concurrent
// change be undone by it.
type ColumnWriter struct {
	// Model is the model type written (types.TypeString, "" for SQL);
	// Table the table named in SQL or by the library's mapping.
	Model, Table string
	// Column, or Field when only the Go field is known (the schema layer
	// of the importer names its column).
	Column, Field string
	// Func names the writing function ("store.(*Issues).SetArchived"),
	// Where its call ("issue.go:132"), Desc the write.
	Func, Where, Desc string
	// pos is the call's position, for related information: kept in
	// memory by the drivers that run every package in one process, and
	// not encoded (its file set is the writer's) by those that do not.
	pos token.Pos
}

// Pos returns the position of the writer's call, or token.NoPos when
// the driver did not keep it.
func (cw ColumnWriter) Pos() token.Pos { return cw.pos }

// TableWriters is the package fact of the column writers of a package.
type TableWriters struct{ Writers []ColumnWriter }

func (*TableWriters) AFact() {}
func (f *TableWriters) String() string {
	return fmt.Sprintf("writers(%d)", len(f.Writers))
}

// ColumnWriters returns the column writers of the package and of every
// package it imports (their TableWriters facts).
func (r *Result) ColumnWriters() []ColumnWriter {
	if r == nil {
		return nil
	}
	return r.writers
}

// columnWriters collects the column writers of funcs (anonymous
// functions named by the function they are declared in).
func (e *extractor) columnWriters(funcs []*ssa.Function, where func(ssa.CallInstruction) string) []ColumnWriter {
	e.lazy.Lock()
	defer e.lazy.Unlock()
	var out []ColumnWriter
	seen := map[ColumnWriter]bool{}
	add := func(cw ColumnWriter) {
		if cw.Column == "" && cw.Field == "" || seen[cw] {
			return
		}
		seen[cw] = true
		out = append(out, cw)
	}
	for _, fn := range funcs {
		if TestFunc(fn) {
			continue // a test runs alone: no concurrent writer
		}
		name := FuncName(fn)
		var reads []*ColumnRead
		readsDone := false
		readHere := func(addr ssa.Value) bool {
			if !readsDone {
				reads, readsDone = columnReads(e, fn), true
			}
			for _, rd := range reads {
				if rd.ModelAddr != nil && SameAddr(rd.ModelAddr, addr) {
					return true
				}
			}
			return false
		}
		// storedBeforeRead: a store the read of the same struct then
		// overwrites (t.CreateTime = now; db.First(&t)) changes nothing.
		storedBeforeRead := func(addr ssa.Value, st *ssa.Store) bool {
			for _, rd := range reads {
				if rd.ModelAddr != nil && SameAddr(rd.ModelAddr, addr) && rd.Instr != nil && dominates(rd.Instr, st) {
					return false
				}
			}
			return true
		}
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				call, ok := instr.(*ssa.Call)
				if !ok {
					continue
				}
				base := ColumnWriter{Func: name, Where: where(call), pos: call.Pos()}
				if u := e.updateOf(call); u != nil {
					cw := base
					cw.Table, cw.Desc = u.Table, u.Desc
					if u.Model != nil {
						cw.Model = types.TypeString(u.Model, nil)
					}
					for _, cols := range [][]string{u.Assigns, u.Bumps, u.Constants} {
						for _, c := range cols {
							if c != "*" {
								cw.Column = c
								add(cw)
							}
						}
					}
				}
				for _, w := range e.callWrites(fn, call) {
					if w.Field != "" && w.Column == "" && w.ModelAddr != nil && !w.Keyed && w.Store != nil &&
						(!readHere(w.ModelAddr) || storedBeforeRead(w.ModelAddr, w.Store)) {
						continue // a row built here, or a field the read overwrote: not one read and changed
					}
					cw := base
					cw.Table, cw.Column, cw.Field, cw.Desc = w.Table, w.Column, w.Field, w.Evidence()
					if w.Model != nil {
						cw.Model = types.TypeString(w.Model, nil)
					}
					add(cw)
				}
			}
		}
	}
	return out
}

// callWrites makes the column writes of one call, as ColumnWrites does.
func (e *extractor) callWrites(fn *ssa.Function, call *ssa.Call) []*ColumnWrite {
	site, ok := knowledge.Resolve(call.Common())
	if !ok || site.Row == nil {
		if callee := call.Common().StaticCallee(); callee != nil {
			if obj, isFunc := callee.Object().(*types.Func); isFunc {
				if l := claimant(obj); l != nil {
					if l.ClientWrites != nil {
						return l.ClientWrites(call, obj)
					}
					return nil
				}
			}
		}
		if !ok || !e.covered(site.Func.Pkg) {
			return append(e.helperWrites(fn, call), e.generatedWrites(call)...)
		}
		return nil
	}
	switch site.Row.Kind {
	case knowledge.Exec, knowledge.Query:
		return e.sqlWrites(call, site)
	case knowledge.Save, knowledge.Update:
		if l := libraryAt(site); l != nil && l.Writes != nil {
			return l.Writes(fn, call, site)
		}
	}
	return nil
}

// importedWriters returns the column writers of the packages the package
// imports, directly or not.
func importedWriters(pass *analysis.Pass) []ColumnWriter {
	var out []ColumnWriter
	for _, pf := range pass.AllPackageFacts() {
		if tw, ok := pf.Fact.(*TableWriters); ok && pf.Package != pass.Pkg {
			out = append(out, tw.Writers...)
		}
	}
	return out
}

// TestFunc reports whether fn is declared in a _test.go file: code the
// go tool runs in tests only, never beside the service's requests.
func TestFunc(fn *ssa.Function) bool {
	if f := fn.Prog.Fset.File(fn.Pos()); f != nil {
		return strings.HasSuffix(f.Name(), "_test.go")
	}
	return false
}

// FieldsSet returns the fields of the struct at addr that fn changes
// between the instructions read and write: those it stores (changed
// ever, always on every path to the write), and those a copying helper
// of the program given addr fills (c.Generate(&model): its FieldCopy
// facts). ok is false when addr is given in between to another call
// that is no database library's: it may change any field.
func FieldsSet(fn *ssa.Function, addr ssa.Value, read, write ssa.Instruction) (changed, always map[string]bool, ok bool) {
	changed, always = map[string]bool{}, map[string]bool{}
	between := func(instr ssa.Instruction) bool {
		return Reaches(read, instr, nil) && Reaches(instr, write, nil)
	}
	for _, st := range FieldStores(fn, addr) {
		f := ssaval.FieldOf(st.Addr.(*ssa.FieldAddr))
		if f == nil || !between(st) {
			continue
		}
		changed[f.Name()] = true
		if dominates(st, write) {
			always[f.Name()] = true
		}
	}
	var calls []ssa.CallInstruction
	uses := []ssa.Value{addr}
	if refs := addr.Referrers(); refs != nil {
		for _, ref := range *refs {
			switch x := ref.(type) {
			case *ssa.MakeInterface, *ssa.ChangeType:
				uses = append(uses, x.(ssa.Value))
			}
		}
	}
	for _, u := range uses {
		if refs := u.Referrers(); refs != nil {
			for _, ref := range *refs {
				if c, isCall := ref.(ssa.CallInstruction); isCall && c != write && c.Parent() == fn && between(c) {
					calls = append(calls, c)
				}
			}
		}
	}
	for _, c := range calls {
		if site, resolved := knowledge.Resolve(c.Common()); resolved && site.Row != nil {
			continue // the library's own step (Model(&m), an association)
		}
		copies := copiesAt(c)
		filled := false
		for i, arg := range c.Common().Args {
			if ssaval.Unwrap(arg) != ssaval.Unwrap(addr) {
				continue
			}
			for _, cp := range copies {
				if cp.To == i {
					filled = true
					changed[cp.ToField] = true
					if dominates(c, write) {
						always[cp.ToField] = true
					}
				}
			}
		}
		if !filled {
			return nil, nil, false
		}
	}
	return changed, always, true
}

// dominates reports whether the instruction in runs on every path to
// the instruction at.
func dominates(in, at ssa.Instruction) bool {
	if in.Block() == at.Block() {
		for _, instr := range in.Block().Instrs {
			switch instr {
			case in:
				return true
			case at:
				return false
			}
		}
		return false
	}
	return in.Block().Dominates(at.Block())
}
