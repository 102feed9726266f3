package lostupdate

import (
	_ "embed"
	"fmt"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/config"
	"github.com/idemlint/idemlint/analyzers/internal/dialect"
	"github.com/idemlint/idemlint/analyzers/internal/ops"
	"github.com/idemlint/idemlint/analyzers/internal/report"
	"github.com/idemlint/idemlint/analyzers/internal/schema"
	"github.com/idemlint/idemlint/analyzers/internal/ssaval"
)

//go:embed doc.go
var doc string

// Analyzer reports values read from the database, changed in Go and
// written back.
var Analyzer = &analysis.Analyzer{
	Name:     "lostupdate",
	Doc:      report.Doc(doc, "lostupdate"),
	URL:      report.URL("lostupdate"),
	Requires: []*analysis.Analyzer{ops.Analyzer, schema.Analyzer, config.Analyzer},
	Run:      report.Guard(run),
	// The package's own type errors are the driver's to report; with
	// RunDespiteErrors its importers still get this package's facts.
	RunDespiteErrors: true,
}

func run(pass *analysis.Pass) (any, error) {
	sch, _ := pass.ResultOf[schema.Analyzer].(*schema.Schema)
	cfg, _ := pass.ResultOf[config.Analyzer].(*config.Config)
	versionColumn := config.DefaultVersionColumn
	if cfg != nil && cfg.VersionColumn != "" {
		versionColumn = cfg.VersionColumn
	}
	return ops.Analyze(pass, func(r *report.Reporter, res *ops.Result) func(*ssa.Function) {
		vs := res.Versioning(sch, cfg)
		return func(fn *ssa.Function) { check(pass, r, res, sch, vs, versionColumn, fn) }
	})
}

// check reports each write of fn whose value derives from the same
// column of the same row as an earlier read of fn left it.
func check(pass *analysis.Pass, r *report.Reporter, res *ops.Result, sch *schema.Schema, vs *ops.Versioning, versionColumn string, fn *ssa.Function) {
	reads := append(res.ColumnReads(fn), res.SetReads(fn)...)
	if len(reads) == 0 {
		return
	}
	writes := res.ColumnWrites(fn)
	reported := map[ssa.CallInstruction]bool{}
	for _, w := range writes {
		if w.Guarded || reported[w.Instr] || pinsVersion(w, versionColumn) {
			continue
		}
		for _, rd := range reads {
			if rd.Instr == w.Instr || !ops.Reaches(rd.Instr, w.Instr, nil) {
				continue
			}
			col, d, readAddr := match(sch, rd, w)
			load := d.Load
			if load == nil || readKey(sch, rd, col) {
				continue
			}
			change := ops.ChangeOf(w.Value, load, readAddr, rd.Instr, w.Instr)
			if cc, ok := ops.CodecChange(d, rd.Instr, w.Instr); ok {
				// Decoded from the column and encoded again: what the
				// code did to the decoded value says.
				change = cc
			}
			if change.Kind == ops.Unchanged {
				continue // written back as read: nothing computed from it
			}
			if versioned(vs, rd) || protected(res, fn, rd, w) {
				continue
			}
			if b := load.Block(); b != nil && !ops.Reaches(rd.Instr, load, nil) {
				continue // the value was loaded before the read
			}
			if w.Store != nil && !ops.Reaches(w.Store, w.Instr, nil) {
				continue // the field is stored after the write
			}
			reported[w.Instr] = true
			r.Report(report.Finding{
				Pos:     w.Instr.Pos(),
				Rule:    "writeback",
				Message: headline(sch, rd, w, col, change),
				Detail:  message(res, fn, sch, rd, w, col, change),
				Related: []analysis.RelatedInformation{{Pos: rd.Instr.Pos(), Message: "the read: " + rd.Evidence()}},
				Fixes:   fixes(pass, w, col, load),
			})
			break
		}
	}
	checkWhole(pass, r, res, sch, vs, fn, reads, reported)
}

// match returns the column w writes, the load of the same column of the
// row rd read that w's value derives from and the read's address of that
// column; nil when there is none.
func match(sch *schema.Schema, rd *ops.ColumnRead, w *ops.ColumnWrite) (string, ops.Derivation, ssa.Value) {
	var readAddr ssa.Value
	at := func(addr ssa.Value, ok bool) bool {
		if ok {
			readAddr = addr
		}
		return ok
	}
	switch {
	case rd.ModelAddr != nil && w.ModelAddr != nil && !w.Keyed:
		if !ops.SameAddr(rd.ModelAddr, w.ModelAddr) {
			return "", ops.Derivation{}, nil
		}
		model := rd.Model
		colOf := func(field string) (string, bool) {
			if rd.ColumnOf != nil {
				return rd.ColumnOf(field)
			}
			return sch.Column(model, field)
		}
		col := w.Column
		if col == "" {
			c, ok := colOf(w.Field)
			if !ok {
				return "", ops.Derivation{}, nil
			}
			col = c
		}
		load := ops.DerivationOf(w.Value, func(addr ssa.Value) bool {
			fa, ok := addr.(*ssa.FieldAddr)
			if !ok || !ops.SameAddr(fa.X, rd.ModelAddr) {
				return false
			}
			f := ssaval.FieldOf(fa)
			if f == nil {
				return false
			}
			c, ok := colOf(f.Name())
			return at(fa, ok && strings.EqualFold(c, col))
		})
		return col, load, readAddr
	case rd.Model != nil && w.Model != nil && (w.ModelAddr == nil || w.Keyed) && rd.ModelAddr != nil && (w.Column != "" || w.Field != ""):
		// A row read into a model (or, with GORM generics, as a T value
		// or a local holding it), a column of the same model's row
		// written by Where keys (Update's column, a field of Updates'
		// struct, through a fresh &T{}): the keys pin the same values, or
		// the read row's own key column.
		if !types.Identical(rd.Model, w.Model) || !(sameRow(rd.Keys, w.Keys) || keyedByRow(sch, rd, w.Keys)) {
			return "", ops.Derivation{}, nil
		}
		col := w.Column
		if col == "" {
			c, ok := sch.Column(w.Model, w.Field)
			if !ok {
				return "", ops.Derivation{}, nil
			}
			col = c
		}
		load := ops.DerivationOf(w.Value, func(v ssa.Value) bool {
			var f *types.Var
			switch x := v.(type) {
			case *ssa.FieldAddr:
				if !ops.SameAddr(x.X, rd.ModelAddr) {
					return false
				}
				f = ssaval.FieldOf(x)
			case *ssa.Field:
				// The value itself, or a load of the local holding it.
				base := x.X
				if load, ok := base.(*ssa.UnOp); ok && load.Op == token.MUL {
					base = load.X
				}
				if base != rd.ModelAddr && !ops.SameAddr(base, rd.ModelAddr) {
					return false
				}
				f = ssaval.FieldOf(x)
			}
			if f == nil {
				return false
			}
			c, ok := sch.Column(rd.Model, f.Name())
			return at(v, ok && strings.EqualFold(c, col))
		})
		return col, load, readAddr
	case rd.Table != "" && w.Table != "" && strings.EqualFold(rd.Table, w.Table):
		if len(rd.Set) > 0 {
			return matchSet(rd, w)
		}
		if !sameRow(rd.Keys, w.Keys) && !keyedByScan(rd, w.Keys) && !scannedInto(rd, w.ModelAddr) {
			return "", ops.Derivation{}, nil
		}
		var dests []ssa.Value
		for _, c := range rd.Cols {
			if strings.EqualFold(c.Column, w.Column) {
				dests = append(dests, c.Addr)
			}
		}
		if len(dests) == 0 {
			return "", ops.Derivation{}, nil
		}
		load := ops.DerivationOf(w.Value, func(addr ssa.Value) bool {
			for _, d := range dests {
				if ops.SameAddr(addr, d) {
					return at(d, true)
				}
			}
			return false
		})
		return w.Column, load, readAddr
	}
	return "", ops.Derivation{}, nil
}

// matchSet is match for a read of several rows by a set of keys: the
// write pins one of the set's columns, and its value derives from the
// column read by way of map entries kept under the key of the row that
// column came from (Derivation.KeyedBy).
func matchSet(rd *ops.ColumnRead, w *ops.ColumnWrite) (string, ops.Derivation, ssa.Value) {
	var dests []ssa.Value
	for _, c := range rd.Cols {
		if strings.EqualFold(c.Column, w.Column) {
			dests = append(dests, c.Addr)
		}
	}
	if len(dests) == 0 {
		return "", ops.Derivation{}, nil
	}
	for _, set := range rd.Set {
		for _, k := range w.Keys {
			if !strings.EqualFold(set.Column, k.Column) {
				continue
			}
			var readAddr ssa.Value
			d := ops.DerivationOf(w.Value, func(addr ssa.Value) bool {
				for _, dst := range dests {
					if ops.SameAddr(addr, dst) {
						readAddr = dst
						return true
					}
				}
				return false
			})
			if d.Load == nil {
				return "", ops.Derivation{}, nil
			}
			scanned := func(v ssa.Value) bool {
				for _, c := range rd.Cols {
					if strings.EqualFold(c.Column, set.Column) && ops.SameAddr(v, c.Addr) {
						return true
					}
				}
				return false
			}
			if d.KeyedBy(k.Value, scanned) {
				return w.Column, d, readAddr
			}
		}
	}
	return "", ops.Derivation{}, nil
}

// keyedByRow reports whether a key column of the write is pinned to the
// read row's own value of that column (Where("id = ?", p.ID) after p was
// read, the field promoted from an embedded struct too): the write is of
// the row read, whatever the read's keys were.
func keyedByRow(sch *schema.Schema, rd *ops.ColumnRead, keys []ops.KeyValue) bool {
	for _, k := range keys {
		if f := rowField(k.Value, rd.ModelAddr); f != nil {
			if c, ok := sch.Column(rd.Model, f.Name()); ok && strings.EqualFold(c, k.Column) {
				return true
			}
		}
	}
	return false
}

// keyedByScan reports whether a key column of the write is pinned to the
// value the read scanned from that column of its row (UPDATE ... WHERE id
// = $2 with the id the SELECT returned): the write is of the row read,
// whatever the read's keys were. The id may come through a conversion of
// the row the read filled (t.ID after t := tr.toTask(), or of what a
// callback returned for it).
func keyedByScan(rd *ops.ColumnRead, keys []ops.KeyValue) bool {
	for _, k := range keys {
		from := ops.LoadedFrom(k.Value)
		if from == nil {
			continue
		}
		for _, c := range rd.Cols {
			if !strings.EqualFold(c.Column, k.Column) {
				continue
			}
			if ops.SameAddr(from, c.Addr) {
				return true
			}
			for _, src := range ops.ConvertedChain(from) {
				if ops.SameAddr(src, c.Addr) {
					return true
				}
			}
		}
	}
	return false
}

// scannedInto reports whether the read scanned its row into fields of
// the struct at addr, which a helper writing that struct's fields to its
// own row is given (Scan(&b.ID, ..., &b.Quantity), then r.Update(&b)).
func scannedInto(rd *ops.ColumnRead, addr ssa.Value) bool {
	if addr == nil {
		return false
	}
	for _, c := range rd.Cols {
		if fa, ok := c.Addr.(*ssa.FieldAddr); ok && ops.SameAddr(fa.X, addr) {
			return true
		}
	}
	return false
}

// rowField returns the field of the model at addr that v is a load of,
// looking through embedded structs, or nil.
func rowField(v, addr ssa.Value) *types.Var {
	load, ok := v.(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return nil
	}
	fa, ok := load.X.(*ssa.FieldAddr)
	if !ok {
		return nil
	}
	f, base := ssaval.FieldOf(fa), fa.X
	for range 4 {
		if ops.SameAddr(base, addr) {
			return f
		}
		outer, ok := base.(*ssa.FieldAddr)
		if !ok {
			return nil
		}
		if of := ssaval.FieldOf(outer); of == nil || !of.Embedded() {
			return nil
		}
		base = outer.X
	}
	return nil
}

// readKey reports whether col is a column the read's WHERE pinned, or
// the primary key of the model read: the key chooses the row, it is not
// a value computed from it (a whole-model Save writes it back as well).
func readKey(sch *schema.Schema, rd *ops.ColumnRead, col string) bool {
	for _, k := range rd.Keys {
		if strings.EqualFold(k.Column, col) {
			return true
		}
	}
	if rd.Model == nil {
		return false
	}
	m, ok := sch.Model(rd.Model)
	if !ok {
		return false
	}
	for _, k := range m.Keys {
		if k.Primary && len(k.Columns) == 1 && strings.EqualFold(k.Columns[0], col) {
			return true
		}
	}
	return false
}

// pinsVersion reports whether the write's WHERE pins the version column:
// an optimistic guard even on a table the schema does not describe.
func pinsVersion(w *ops.ColumnWrite, versionColumn string) bool {
	for _, k := range w.Keys {
		if strings.EqualFold(k.Column, versionColumn) {
			return true
		}
	}
	return false
}

// sameRow reports whether a key column is pinned to the same value by
// both operations.
func sameRow(a, b []ops.KeyValue) bool {
	for _, x := range a {
		for _, y := range b {
			if strings.EqualFold(x.Column, y.Column) && ops.SameKey(x.Value, y.Value) {
				return true
			}
		}
	}
	return false
}

// versioned reports whether the package treats the row as versioned: the
// write is noversion's (design.md, one finding per bug, decided by
// ops.Versioning).
func versioned(vs *ops.Versioning, rd *ops.ColumnRead) bool {
	if rd.Model != nil {
		if _, ok := vs.Model(rd.Model); ok {
			return true
		}
	}
	_, _, ok := vs.Table(rd.Table)
	return ok
}

// protected reports whether the read runs in a SERIALIZABLE transaction,
// or took (or runs after) a row lock in its transaction.
func protected(res *ops.Result, fn *ssa.Function, rd *ops.ColumnRead, w *ops.ColumnWrite) bool {
	// The read's own FOR UPDATE counts; the write's row lock does not.
	return res.Protection(fn, rd.Handle, rd.Instr, func(op *ops.Op) bool { return op.Instr != w.Instr }) != ops.Unprotected
}

// headline says which column loses an update, naming the write and the
// read by their helpers when they are in one.
func headline(sch *schema.Schema, rd *ops.ColumnRead, w *ops.ColumnWrite, col string, change ops.FieldChange) string {
	what := col
	if table := tableOf(sch, rd); table != "" {
		what = table + "." + col
	}
	if change.Kind == ops.ByCallback {
		return fmt.Sprintf("lost update of %s: %s writes the row back after a callback may have changed it", what, named(w.Desc, w.Via))
	}
	return fmt.Sprintf("lost update of %s: %s writes back a value computed in Go from its read", what, named(w.Desc, w.Via))
}

// named names an operation by the helper it runs in, or by itself when it
// runs in the reported function.
func named(desc, via string) string {
	if via != "" {
		return via
	}
	return desc
}

func tableOf(sch *schema.Schema, rd *ops.ColumnRead) string {
	if rd.Table == "" && rd.Model != nil {
		table, _ := sch.Table(rd.Model)
		return table
	}
	return rd.Table
}

func message(res *ops.Result, fn *ssa.Function, sch *schema.Schema, rd *ops.ColumnRead, w *ops.ColumnWrite, col string, change ops.FieldChange) string {
	table := tableOf(sch, rd)
	what := col
	if table != "" {
		what = table + "." + col
	}
	if w.Field != "" {
		what += " (field " + w.Field + ")"
	}
	if change.Kind == ops.ByCallback {
		// The change is the callback's: the row is handed to code the
		// caller chose, then written back whole.
		return fmt.Sprintf("%s is written back by %s from the row %s read, after passing the row to %s, which may change it: a read-modify-write, so another writer's update made in between is lost%s; %s, or pin a version column in the UPDATE's WHERE and check the rows affected",
			what, w.Evidence(), rd.Evidence(), change.Desc, poolLock(res, fn, rd), dialect.For(w.Lib).LockRead)
	}
	return fmt.Sprintf("%s is written back by %s with a value computed in Go from what %s read: two concurrent callers read the same value and one update is lost%s; %s",
		what, w.Evidence(), rd.Evidence(), poolLock(res, fn, rd), fix(w, col))
}

// poolLock says, when the read takes a row lock on a handle that is not
// a transaction (a FOR UPDATE on the pool: its autocommit statement
// releases the lock when it ends), that it protects nothing; "" otherwise.
func poolLock(res *ops.Result, fn *ssa.Function, rd *ops.ColumnRead) string {
	for _, op := range res.Ops(fn) {
		if op.Kind == ops.Lock && op.Instr == rd.Instr && op.Handle != nil && !res.InTx(op.Handle) {
			return fmt.Sprintf(" (the read's lock is taken on %s outside any transaction, so it ends with that statement)", types.TypeString(op.Handle.Type(), ops.Qualifier(fn)))
		}
	}
	return ""
}

// fix gives the library's atomic form, or a row lock.
func fix(w *ops.ColumnWrite, col string) string {
	d := dialect.For(w.Lib)
	// The SQL form of the computation: col + ?, col - ?, col * ?, or,
	// when the value is not one operation on the old value, a generic
	// "compute it in the UPDATE".
	if bin, ok := w.Value.(*ssa.BinOp); ok {
		switch bin.Op {
		case token.ADD, token.SUB, token.MUL, token.QUO:
			return d.AtomicUpdate(w, col, fmt.Sprintf("%s %s ?", col, bin.Op)) + ", or " + d.LockRead
		}
	}
	return d.ComputeInPlace(col) + ", or " + d.LockRead
}

// fixes offers the library's atomic form as a suggested fix, where it has
// one that can be written mechanically.
func fixes(pass *analysis.Pass, w *ops.ColumnWrite, col string, load *ssa.UnOp) []analysis.SuggestedFix {
	if d := dialect.For(w.Lib); d.AtomicFix != nil {
		return d.AtomicFix(pass, w, col, load)
	}
	return nil
}
