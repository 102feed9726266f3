package lostupdate

import (
	"fmt"
	"go/types"
	"sort"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/dialect"
	"github.com/idemlint/idemlint/analyzers/internal/ops"
	"github.com/idemlint/idemlint/analyzers/internal/report"
	"github.com/idemlint/idemlint/analyzers/internal/schema"
)

// The whole-row rule: a write of every column of a model (GORM Save)
// after the function read the model and changed some of its fields
// writes the other columns back as they were read. That alone is the
// shape of most CRUD code (First(&m); m.Name = req.Name; Save(&m)), and
// harmless when nothing else writes those columns. It loses an update
// when some other function of the program changes one of them (a status
// transition, an atomic counter, another handler's partial update): that
// change, made between this read and this write, is undone. So a stale
// column is reported only when another writer of it is known (the
// package's and its imports' ColumnWriters), and the message names it.
// design.md (the ops layer, "Whole-row writes and the other writers of a
// column") has the measurement that chose this.

// maxNamed bounds the other writers a message names.
const maxNamed = 2

// maxColumns bounds the stale columns a message lists.
const maxColumns = 4

// staleWriter is a column written back as read and another function
// that changes it.
type staleWriter struct {
	column string
	writer ops.ColumnWriter
}

// checkWhole reports the whole writes of fn of a model it read and
// changed whose stale columns another function writes.
func checkWhole(pass *analysis.Pass, r *report.Reporter, res *ops.Result, sch *schema.Schema, vs *ops.Versioning, fn *ssa.Function, reads []*ops.ColumnRead, reported map[ssa.CallInstruction]bool) {
	if ops.TestFunc(fn) {
		return // a test runs alone: nothing writes between its read and its write
	}
	writers := res.ColumnWriters()
	if len(writers) == 0 {
		return
	}
	self := ops.FuncName(fn)
	for _, ww := range res.WholeWrites(fn) {
		if reported[ww.Instr] {
			continue
		}
		for _, rd := range reads {
			if rd.ModelAddr == nil || rd.Instr == ww.Instr || !ops.SameAddr(rd.ModelAddr, ww.ModelAddr) || !ops.Reaches(rd.Instr, ww.Instr, nil) {
				continue
			}
			if !types.Identical(rd.Model, ww.Model) || versioned(vs, rd) || res.Protection(fn, rd.Handle, rd.Instr, func(op *ops.Op) bool { return op.Instr != ww.Instr }) != ops.Unprotected {
				continue
			}
			stale, ok := staleFields(sch, fn, rd, ww)
			if !ok {
				continue
			}
			found := otherWriters(sch, ww, stale, writers, self)
			if len(found) == 0 {
				continue
			}
			reported[ww.Instr] = true
			r.Report(report.Finding{
				Pos:     ww.Instr.Pos(),
				Rule:    "writeback",
				Message: wholeHeadline(sch, ww, found),
				Detail:  wholeMessage(sch, rd, ww, found),
				Related: wholeRelated(pass, rd, found),
			})
			break
		}
	}
}

// A staleField is a field of the model written back as read: its Go
// name and its column.
type staleField struct{ field, column string }

// staleFields returns the columns ww writes back as rd read them: every
// column of the model but its primary key, the columns the library
// stamps itself, and those fn stores on every path from the read to the
// write. ok is false when fn changed no field in between (nothing of the
// function's own is written: not this rule's), gave the model to code
// that may change any field, or the columns are not known.
func staleFields(sch *schema.Schema, fn *ssa.Function, rd *ops.ColumnRead, ww *ops.WholeWrite) ([]staleField, bool) {
	changed, always, ok := ops.FieldsSet(fn, ww.ModelAddr, rd.Instr, ww.Instr)
	if !ok {
		return nil, false // given to code that may change any field
	}
	if len(changed) == 0 {
		return nil, false
	}
	var fields []staleField
	colOf := ww.ColumnOf
	if colOf == nil {
		colOf = rd.ColumnOf
	}
	if colOf == nil {
		m, ok := sch.Model(ww.Model)
		if !ok {
			return nil, false
		}
		for _, f := range m.Fields {
			fields = append(fields, staleField{f.Name, f.Column})
		}
	} else if st, ok := ww.Model.Underlying().(*types.Struct); ok {
		for i := 0; i < st.NumFields(); i++ {
			if c, ok := colOf(st.Field(i).Name()); ok {
				fields = append(fields, staleField{st.Field(i).Name(), c})
			}
		}
	}
	var out []staleField
	for _, f := range fields {
		if always[f.field] || ww.Stamped(f.field) || readKey(sch, rd, f.column) {
			continue
		}
		out = append(out, f)
	}
	return out, len(out) > 0
}

// otherWriters returns, per stale column, the writers of it in functions
// other than fn and the helpers of the write: the same model's field or
// column, or its table's column named in SQL.
func otherWriters(sch *schema.Schema, ww *ops.WholeWrite, stale []staleField, writers []ops.ColumnWriter, self string) []staleWriter {
	model := types.TypeString(ww.Model, nil)
	table := ww.Table
	if table == "" {
		table, _ = sch.Table(ww.Model)
	}
	var out []staleWriter
	for _, f := range stale {
		for _, w := range writers {
			if w.Func == self || (ww.Via != "" && w.Func == ww.Via) {
				continue
			}
			var same bool
			switch {
			case w.Model == model:
				same = (w.Column != "" && strings.EqualFold(w.Column, f.column)) || (w.Column == "" && w.Field == f.field)
			case w.Model == "" && table != "" && strings.EqualFold(w.Table, table):
				same = strings.EqualFold(w.Column, f.column)
			}
			if same {
				out = append(out, staleWriter{column: f.column, writer: w})
				break
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].writer.Func < out[j].writer.Func })
	return out
}

// wholeHeadline names the columns another writer's change of which the
// whole-row write undoes, and the first such writer.
func wholeHeadline(sch *schema.Schema, ww *ops.WholeWrite, found []staleWriter) string {
	table := ww.Table
	if table == "" {
		table, _ = sch.Table(ww.Model)
	}
	col := found[0].column
	if table != "" {
		col = table + "." + col
	}
	more := ""
	if n := len(distinctColumns(found)); n > 1 {
		more = fmt.Sprintf(" and %d more", n-1)
	}
	return fmt.Sprintf("lost update of %s%s: %s writes the whole row back over %s's change", col, more, named(ww.Desc, ww.Via), found[0].writer.Func)
}

func distinctColumns(found []staleWriter) map[string]bool {
	cols := map[string]bool{}
	for _, s := range found {
		cols[s.column] = true
	}
	return cols
}

func wholeMessage(sch *schema.Schema, rd *ops.ColumnRead, ww *ops.WholeWrite, found []staleWriter) string {
	table := ww.Table
	if table == "" {
		table, _ = sch.Table(ww.Model)
	}
	var cols, named []string
	seen := map[string]bool{}
	for _, s := range found {
		cols = append(cols, s.column)
		if len(named) < maxNamed && !seen[s.writer.Func] {
			seen[s.writer.Func] = true
			named = append(named, fmt.Sprintf("%s changes %s at %s", s.writer.Func, s.column, s.writer.Where))
		}
	}
	first := found[0].writer.Func
	if i := strings.LastIndex(first, "."); i >= 0 {
		first = first[i+1:]
	}
	what := strings.Join(cols, ", ")
	if len(cols) > maxColumns {
		what = fmt.Sprintf("%s and %d more", strings.Join(cols[:maxColumns], ", "), len(cols)-maxColumns)
	}
	if table != "" {
		what += " of " + table
	}
	d := dialect.For(ww.Lib)
	fix := d.PartialWrite
	if fix == "" {
		fix = "write only the changed columns"
	}
	return fmt.Sprintf("%s writes the whole row back, %s as %s read it; %s: a concurrent %s between the read and this write is undone; %s, or %s, or pin a version column",
		ww.Evidence(), what, rd.Evidence(), strings.Join(named, "; "), first, fix, d.LockRead)
}

// wholeRelated gives the read and the other writers whose positions the
// driver kept.
func wholeRelated(pass *analysis.Pass, rd *ops.ColumnRead, found []staleWriter) []analysis.RelatedInformation {
	rel := []analysis.RelatedInformation{{Pos: rd.Instr.Pos(), Message: "the read: " + rd.Evidence()}}
	seen := map[string]bool{}
	for _, s := range found {
		if p := s.writer.Pos(); p.IsValid() && pass.Fset.File(p) != nil && !seen[s.writer.Where] {
			seen[s.writer.Where] = true
			rel = append(rel, analysis.RelatedInformation{Pos: p, Message: fmt.Sprintf("another writer of %s: %s (%s)", s.column, s.writer.Func, s.writer.Desc)})
		}
	}
	return rel
}
