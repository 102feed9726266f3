package ops

import (
	"fmt"
	"go/constant"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/knowledge"
	"github.com/idemlint/idemlint/analyzers/internal/sqltext"
	"github.com/idemlint/idemlint/analyzers/internal/ssaval"
)

// A RowKind is what a row operation does.
type RowKind uint8

const (
	// Lookup reads one row by key: a SELECT whose WHERE pins columns to
	// bound values (EXISTS and count(*) included), a sqlc SELECT, or a
	// helper whose summary says it does one.
	Lookup RowKind = iota + 1
	// Insert inserts a row with the values of its key columns: an INSERT
	// statement, a sqlc INSERT, or a helper whose summary says so.
	Insert
	// LookupOrInsert is both in one call, not atomic: GORM FirstOrCreate.
	LookupOrInsert
)

func (k RowKind) String() string {
	switch k {
	case Lookup:
		return "lookup"
	case Insert:
		return "insert"
	case LookupOrInsert:
		return "lookup-or-insert"
	}
	return "?"
}

// A KeyValue is a column a row operation pins (a lookup's WHERE col = $n)
// or writes (an insert's column), and the SSA value bound to it.
type KeyValue struct {
	Column string
	// Field is, when Column is "", the Go field of the GORM model that
	// holds the key (a struct condition, a created model's field); the
	// schema layer names its column.
	Field string
	Value ssa.Value
}

// A RowConflict is what an insert does when a row with the same key
// exists.
type RowConflict struct {
	// Columns is the conflict target (ON CONFLICT (email)); nil when the
	// clause names none, in which case any unique key counts (ON CONFLICT
	// DO NOTHING, INSERT IGNORE, ON DUPLICATE KEY UPDATE).
	Columns []string
	// Unknown is set when the clause was not understood.
	Unknown bool
}

// Covers reports whether the conflict clause makes an insert of the key
// columns idempotent: no target (any unique key), or a target within the
// key columns.
func (c *RowConflict) Covers(keys []string) bool {
	if c == nil {
		return false
	}
	if c.Unknown || len(c.Columns) == 0 {
		return true
	}
	for _, t := range c.Columns {
		found := false
		for _, k := range keys {
			if strings.EqualFold(t, k) {
				found = true
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// A RowOp is a lookup or an insert of a function, at the call that
// performs it (the library call, or the call of a helper that does it).
type RowOp struct {
	Kind  RowKind
	Instr ssa.CallInstruction
	// Table is the table read or written ("" when not known, or when
	// Model names it).
	Table string
	// Model is the GORM model the operation reads or writes, whose table
	// the schema layer names; nil for SQL.
	Model types.Type
	// Keys are the pinned or written columns with the values bound.
	Keys []KeyValue
	// Lib names the library family, for the fix in messages: "sql",
	// "gorm", "bun", "ent", "sqlc".
	Lib string
	// Conflict is an insert's conflict handling, nil when it has none.
	Conflict *RowConflict
	// HandlesUnique is set for a helper's insert whose own body checks
	// the insert's error for a unique violation.
	HandlesUnique bool
	// Handle is the root of the handle the operation runs on, when known.
	Handle ssa.Value
	// Desc names the operation for messages; Via the helper that performs
	// it ("" for the library call itself).
	Desc, Via string
	// For a helper's lookup: how it says it found nothing. NilResult is
	// the result it returns nil in (with a nil error), or -1; Sentinel the
	// error variable it returns ("pkg/path.ErrNotFound"); Propagates is
	// whether it returns the library's not-found error unchanged.
	NilResult  int
	Sentinel   string
	Propagates bool
	// FoundResult is, when HasFound, the bool result a helper's lookup
	// returns true in when it found the row (an exists helper).
	FoundResult int
	HasFound    bool
	// FromLibrary is set for a library call (its not-found error is the
	// library's); CountsFound for a lookup whose result 0 is the answer
	// (ent Exist, Count).
	FromLibrary, CountsFound bool
	// update marks an UPDATE used as a lookup (RowsAffected == 0, then
	// insert); it is not summarised for callers.
	update bool
}

// Pos returns the position of the operation's call.
func (op *RowOp) Pos() token.Pos { return op.Instr.Pos() }

// Evidence names the operation for messages, with the helper it is in.
func (op *RowOp) Evidence() string {
	if op.Via == "" {
		return op.Desc
	}
	return op.Desc + " in " + op.Via
}

// KeyColumns returns the columns of op's keys.
func (op *RowOp) KeyColumns() []string {
	var cols []string
	for _, k := range op.Keys {
		cols = append(cols, k.Column)
	}
	return cols
}

// A ParamRef is where a summarised key's value comes from: parameter
// Param (SSA numbering, receiver first) or its field Field.
type ParamRef struct {
	Param int
	Field string
}

// A LookupFact is a lookup a function performs keyed by its parameters.
type LookupFact struct {
	Table      string
	Model      string // a GORM model, "pkg/path.Name"
	Columns    []string
	Fields     []string // a GORM model's Go field, where the column is ""
	Params     []ParamRef
	Handle     int // the parameter holding the handle, or -1
	Lib        string
	Desc       string
	NilResult  int
	Sentinel   string
	Propagates bool
	// FoundResult is, when HasFound, the bool result that says the row
	// was found.
	FoundResult int
	HasFound    bool
}

// An InsertFact is an insert a function performs keyed by its parameters.
type InsertFact struct {
	Table         string
	Model         string
	Columns       []string
	Fields        []string
	Params        []ParamRef
	Handle        int
	Lib           string
	Desc          string
	Conflict      *RowConflict
	HandlesUnique bool
}

func (s *Summary) rowParts() []string {
	var parts []string
	for _, l := range s.Lookups {
		how := ""
		switch {
		case l.NilResult >= 0:
			how = fmt.Sprintf(" nil=r%d", l.NilResult)
		case l.Sentinel != "":
			how = " sentinel=" + l.Sentinel
		case l.Propagates:
			how = " propagates"
		}
		if l.HasFound {
			how += fmt.Sprintf(" found=r%d", l.FoundResult)
		}
		parts = append(parts, fmt.Sprintf("lookup(%s %s%s)", l.Table+l.Model, refs(l.Columns, l.Fields, l.Params), how))
	}
	for _, i := range s.Inserts {
		extra := ""
		if i.Conflict != nil {
			extra = " on-conflict"
		}
		if i.HandlesUnique {
			extra += " catches-unique"
		}
		parts = append(parts, fmt.Sprintf("insert(%s %s%s)", i.Table+i.Model, refs(i.Columns, i.Fields, i.Params), extra))
	}
	for _, p := range s.UniqueChecks {
		parts = append(parts, fmt.Sprintf("unique-check(p%d)", p))
	}
	return parts
}

func refs(cols, fields []string, params []ParamRef) string {
	var b []string
	for i, c := range cols {
		if c == "" && i < len(fields) {
			c = fields[i]
		}
		r := params[i]
		s := fmt.Sprintf("%s=p%d", c, r.Param)
		if r.Field != "" {
			s += "." + r.Field
		}
		b = append(b, s)
	}
	return strings.Join(b, ",")
}

// rowExt memoises the row operations of functions.
type rowExt struct {
	rows map[*ssa.Function][]*RowOp
}

func (e *extractor) rowState() *rowExt {
	if e.rowx == nil {
		e.rowx = &rowExt{rows: map[*ssa.Function][]*RowOp{}}
	}
	return e.rowx
}

// Rows returns the lookups and inserts of fn, in block and instruction
// order.
func (r *Result) Rows(fn *ssa.Function) []*RowOp { return r.e.Rows(fn) }

// Rows returns the lookups and inserts of fn.
func (e *extractor) Rows(fn *ssa.Function) []*RowOp {
	st := e.rowState()
	if rows, ok := st.rows[fn]; ok {
		return rows
	}
	st.rows[fn] = nil
	var rows []*RowOp
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(ssa.CallInstruction)
			if !ok {
				continue
			}
			switch instr.(type) {
			case *ssa.Go, *ssa.Defer:
				continue
			}
			for _, op := range e.classifyRow(call) {
				op.Instr = call
				rows = append(rows, op)
			}
		}
	}
	st.rows[fn] = rows
	return rows
}

func (e *extractor) classifyRow(call ssa.CallInstruction) []*RowOp {
	common := call.Common()
	site, resolved := knowledge.Resolve(common)
	if resolved && site.Row != nil {
		return e.libraryRow(call, site)
	}
	callee := common.StaticCallee()
	if callee == nil {
		return nil
	}
	if q := knowledge.SQLC(callee); q != nil {
		return sqlcRow(call, callee, q)
	}
	if obj, ok := callee.Object().(*types.Func); ok {
		if l := claimant(obj); l != nil {
			if l.ClientRow != nil {
				if op := l.ClientRow(call, obj); op != nil {
					return []*RowOp{op}
				}
			}
			return nil
		}
	}
	return e.helperRows(call, callee)
}

// libraryRow classifies a library call: SQL run by database/sql, sqlx or
// pgx, and GORM FirstOrCreate.
func (e *extractor) libraryRow(call ssa.CallInstruction, site knowledge.Site) []*RowOp {
	row := site.Row
	switch row.Kind {
	case knowledge.Query, knowledge.Exec:
		stmt, h := StatementOf(site)
		if stmt == nil {
			return nil
		}
		bind, ok := Binder(site)
		if !ok {
			return nil
		}
		op := StatementRow(stmt, bind)
		if op == nil {
			return nil
		}
		op.Handle, op.Lib, op.FromLibrary = h, sqlLib(site), true
		op.NilResult = -1
		// A value that is zero when no row matched says so itself (n == 0).
		op.CountsFound = row.Result == knowledge.ScalarResult
		op.Desc = op.Kind.String() + " of " + op.Table + " (" + CalleeName(site) + ")"
		if op.Kind == Lookup {
			op.Desc = "the lookup of " + op.Table + " by " + strings.Join(op.KeyColumns(), ", ")
			if stmt.Kind == sqltext.KindUpdate {
				op.Desc = "the UPDATE of " + op.Table + " by " + strings.Join(op.KeyColumns(), ", ")
			}
		} else {
			op.Desc = "the INSERT into " + op.Table
		}
		return []*RowOp{op}
	case knowledge.Find, knowledge.Insert, knowledge.FirstOrCreate:
		if l := libraryAt(site); l != nil && l.Row != nil {
			if op := l.Row(site); op != nil {
				return []*RowOp{op}
			}
		}
	}
	return nil
}

// stmtRow makes a lookup or an insert of a statement, binding its
// placeholders with bind. Nil when the statement is neither, or its key
// is not understood.
func StatementRow(stmt *sqltext.Statement, bind func(sqltext.Placeholder) ssa.Value) *RowOp {
	switch stmt.Kind {
	case sqltext.KindSelect:
		if len(stmt.RowLocks) > 0 && stmt.Table.Name == "" {
			return nil
		}
		q := stmt
		if q.Table.Name == "" || q.Where == nil {
			// SELECT EXISTS (SELECT 1 FROM t WHERE ...), SELECT count(*) ...
			q = nil
			for _, sub := range stmt.Subqueries {
				if sub.Table.Name != "" && sub.Where != nil {
					q = sub
					break
				}
			}
			if q == nil {
				return nil
			}
		}
		if len(q.From) > 0 {
			return nil // a join: which row is looked up is not the target's
		}
		op := &RowOp{Kind: Lookup, Table: q.Table.Name}
		for _, c := range q.Where.Comparisons {
			if !c.Conjunct || !c.Equality() || c.Operand.Kind != sqltext.OperandPlaceholder || len(c.Operand.Placeholders) != 1 || !q.TargetColumn(c.Column) {
				continue
			}
			if v := bind(c.Operand.Placeholders[0]); v != nil {
				op.Keys = append(op.Keys, KeyValue{Column: c.Column.Name, Value: v})
			}
		}
		if len(op.Keys) == 0 {
			return nil
		}
		return op
	case sqltext.KindUpdate:
		// UPDATE ... WHERE key = $1, then an insert when it touched no
		// row: the found-nothing test is RowsAffected == 0.
		if stmt.Table.Name == "" || stmt.Where == nil || len(stmt.From) > 0 {
			return nil
		}
		op := &RowOp{Kind: Lookup, Table: stmt.Table.Name, update: true}
		for _, c := range stmt.Where.Comparisons {
			if !c.Conjunct || !c.Equality() || c.Operand.Kind != sqltext.OperandPlaceholder || len(c.Operand.Placeholders) != 1 || !stmt.TargetColumn(c.Column) {
				continue
			}
			if v := bind(c.Operand.Placeholders[0]); v != nil {
				op.Keys = append(op.Keys, KeyValue{Column: c.Column.Name, Value: v})
			}
		}
		if len(op.Keys) == 0 {
			return nil
		}
		return op
	case sqltext.KindInsert, sqltext.KindUpsert:
		if stmt.Table.Name == "" || len(stmt.InsertRows) != 1 {
			return nil
		}
		op := &RowOp{Kind: Insert, Table: stmt.Table.Name}
		for _, col := range stmt.InsertColumns {
			vals := stmt.ColumnValues(col)
			if len(vals) != 1 {
				continue
			}
			p, ok := vals[0].Placeholder()
			if !ok {
				continue
			}
			if v := bind(p); v != nil {
				op.Keys = append(op.Keys, KeyValue{Column: col, Value: v})
			}
		}
		if stmt.Kind == sqltext.KindUpsert {
			op.Conflict = &RowConflict{Unknown: true}
			if c := stmt.Conflict; c != nil && !c.Unknown && c.TargetConstraint == "" {
				op.Conflict = &RowConflict{Columns: c.TargetColumns}
			}
		}
		if len(op.Keys) == 0 {
			return nil
		}
		return op
	}
	return nil
}

// sqlcRow classifies a call of a sqlc-generated method by its SQL, its
// placeholders bound to the call's arguments (or their fields).
func sqlcRow(call ssa.CallInstruction, callee *ssa.Function, q *knowledge.SQLCQuery) []*RowOp {
	if q.Dynamic {
		return nil
	}
	stmt := sqltext.Parse(q.SQL)
	args := call.Common().Args
	off := 0
	if callee.Signature.Recv() != nil {
		off = 1
	}
	bind := func(p sqltext.Placeholder) ssa.Value {
		if p.Named() || p.Position < 1 || p.Position > len(q.Binds) {
			return nil
		}
		b := q.Binds[p.Position-1]
		if b.Param < 0 || b.Each || b.Param+off >= len(args) {
			return nil
		}
		v := args[b.Param+off]
		if b.Field != "" {
			return fieldValue(v, b.Field)
		}
		return v
	}
	op := StatementRow(stmt, bind)
	if op == nil {
		return nil
	}
	op.Lib, op.FromLibrary, op.NilResult = "sqlc", true, -1
	switch {
	case q.Handle >= 0 && q.Handle+off < len(args):
		op.Handle = Root(args[q.Handle+off])
	case off == 1 && len(args) > 0:
		op.Handle = Root(args[0])
	}
	if op.Kind == Lookup {
		op.Desc = fmt.Sprintf("the lookup of %s by %s (sqlc %s)", op.Table, strings.Join(op.KeyColumns(), ", "), q.Name)
	} else {
		op.Desc = fmt.Sprintf("the INSERT into %s (sqlc %s)", op.Table, q.Name)
	}
	return []*RowOp{op}
}

// fieldValue returns the value stored in field name of the struct value
// v (a composite literal built in a local), or a synthetic key for the
// field when the stores are not visible.
func fieldValue(v ssa.Value, name string) ssa.Value {
	// A struct value loaded from a local, or a pointer to a local
	// (&Request{Title: t}).
	alloc, ok := v.(*ssa.Alloc)
	if load, isLoad := v.(*ssa.UnOp); isLoad && load.Op == token.MUL {
		alloc, ok = load.X.(*ssa.Alloc)
	}
	if !ok {
		return nil
	}
	var found ssa.Value
	for _, alloc := range LiteralAllocs(alloc) {
		for _, ref := range *alloc.Referrers() {
			fa, ok := ref.(*ssa.FieldAddr)
			if !ok {
				continue
			}
			if f := ssaval.FieldOf(fa); f == nil || f.Name() != name {
				continue
			}
			for _, use := range *fa.Referrers() {
				if st, ok := use.(*ssa.Store); ok && st.Addr == fa {
					if found != nil {
						return nil
					}
					found = st.Val
				}
			}
		}
	}
	return found
}

// literalAllocs returns alloc and the locals copied whole into it. Newer
// go/ssa (the x/tools gopls v0.23.0 pins) builds a composite literal
// assigned to an existing variable in a temporary and copies it
// (c = T{F: v} is *c = *complit), so the field stores are the temporary's.
func LiteralAllocs(alloc *ssa.Alloc) []*ssa.Alloc {
	out := []*ssa.Alloc{alloc}
	for _, ref := range *alloc.Referrers() {
		st, ok := ref.(*ssa.Store)
		if !ok || st.Addr != alloc {
			continue
		}
		if load, ok := st.Val.(*ssa.UnOp); ok && load.Op == token.MUL {
			if tmp, ok := load.X.(*ssa.Alloc); ok && tmp != alloc {
				out = append(out, tmp)
			}
		}
	}
	return out
}

// helperRows applies the lookups and inserts of a callee's summary to the
// call's arguments.
func (e *extractor) helperRows(call ssa.CallInstruction, callee *ssa.Function) []*RowOp {
	fn := callee
	if fn.Origin() != nil {
		fn = fn.Origin()
	}
	s := e.summary(fn)
	if s == nil || (len(s.Lookups) == 0 && len(s.Inserts) == 0) {
		return nil
	}
	name := ""
	if obj, ok := fn.Object().(*types.Func); ok {
		name = funcName(obj)
	}
	args := call.Common().Args
	arg := func(r ParamRef) ssa.Value {
		if r.Param < 0 || r.Param >= len(args) {
			return nil
		}
		if r.Field == "" {
			return args[r.Param]
		}
		return fieldValue(args[r.Param], r.Field)
	}
	keys := func(cols, fields []string, params []ParamRef) []KeyValue {
		var out []KeyValue
		for i, c := range cols {
			if v := arg(params[i]); v != nil {
				kv := KeyValue{Column: c, Value: v}
				if i < len(fields) {
					kv.Field = fields[i]
				}
				out = append(out, kv)
			}
		}
		return out
	}
	model := func(name string) types.Type {
		pkg := ssaval.Pkg(fn)
		if name == "" || pkg == nil {
			return nil
		}
		return lookupType(pkg, name)
	}
	handle := func(i int) ssa.Value {
		if i >= 0 && i < len(args) {
			return Root(args[i])
		}
		return nil
	}
	var ops []*RowOp
	for _, l := range s.Lookups {
		ks := keys(l.Columns, l.Fields, l.Params)
		if len(ks) == 0 || (l.Model != "" && model(l.Model) == nil) {
			continue
		}
		ops = append(ops, &RowOp{Kind: Lookup, Table: l.Table, Model: model(l.Model), Keys: ks, Lib: l.Lib, Handle: handle(l.Handle),
			Desc: l.Desc, Via: name, NilResult: l.NilResult, Sentinel: l.Sentinel, Propagates: l.Propagates,
			FoundResult: l.FoundResult, HasFound: l.HasFound})
	}
	for _, in := range s.Inserts {
		ks := keys(in.Columns, in.Fields, in.Params)
		if len(ks) == 0 || (in.Model != "" && model(in.Model) == nil) {
			continue
		}
		ops = append(ops, &RowOp{Kind: Insert, Table: in.Table, Model: model(in.Model), Keys: ks, Lib: in.Lib, Handle: handle(in.Handle),
			Desc: in.Desc, Via: name, Conflict: in.Conflict, HandlesUnique: in.HandlesUnique, NilResult: -1})
	}
	return ops
}

// rowSummary adds to fn's summary the lookups and inserts keyed by its
// parameters that its callers see: a lookup whose found-nothing answer
// reaches the caller (a nil result, a sentinel error, the library's
// error), an insert, and the error parameters it checks for a unique
// violation.
func (e *extractor) rowSummary(fn *ssa.Function, s *Summary) *Summary {
	if fn.Signature.Recv() == nil && fn.Parent() != nil {
		return s
	}
	if s == nil {
		s = &Summary{}
	}
	rows := e.Rows(fn)
	refs := map[ssa.Value]ParamRef{}
	if q := knowledge.SQLC(fn); q != nil {
		rows = append(rows, sqlcOwnRow(fn, q, refs)...)
	}
	for _, op := range rows {
		params, ok := keyParams(fn, op.Keys)
		if len(refs) > 0 {
			params, ok = nil, false
			for _, k := range op.Keys {
				ref, found := refs[k.Value]
				if !found {
					ref = ParamRef{Param: -1}
				}
				ok = ok || found
				params = append(params, ref)
			}
		}
		if !ok {
			continue
		}
		handle := -1
		if p, isParam := op.Handle.(*ssa.Parameter); isParam {
			handle = paramIndex(fn, p)
		}
		cols := op.KeyColumns()
		var fields []string
		for _, k := range op.Keys {
			fields = append(fields, k.Field)
		}
		modelName := ""
		if op.Model != nil {
			if modelName = qualifiedType(op.Model); modelName == "" {
				continue
			}
		}
		switch op.Kind {
		case Lookup:
			if op.update {
				continue
			}
			nilRes, sentinel, propagates := -1, "", op.Propagates
			if !propagates {
				nilRes, sentinel, propagates = e.lookupResult(fn, op)
				if propagates && !op.FromLibrary && !op.Propagates {
					// The error passed on is a helper's: its sentinel, if any.
					propagates, sentinel = false, op.Sentinel
				}
			}
			found, hasFound := -1, false
			if nilRes < 0 && sentinel == "" {
				found, hasFound = foundResult(fn, op)
				if !hasFound && !propagates {
					continue
				}
			}
			s.Lookups = append(s.Lookups, LookupFact{FoundResult: found, HasFound: hasFound, Table: op.Table, Model: modelName, Columns: cols, Fields: fields, Params: params, Handle: handle,
				Lib: op.Lib, Desc: op.Evidence(), NilResult: nilRes, Sentinel: sentinel, Propagates: propagates})
		case Insert:
			s.Inserts = append(s.Inserts, InsertFact{Table: op.Table, Model: modelName, Columns: cols, Fields: fields, Params: params, Handle: handle,
				Lib: op.Lib, Desc: op.Evidence(), Conflict: op.Conflict,
				HandlesUnique: op.HandlesUnique || e.ChecksUnique(fn, errOf(op.Instr))})
		}
	}
	for i, p := range fn.Params {
		if isErrorType(p.Type()) && e.ChecksUnique(fn, p) {
			s.UniqueChecks = append(s.UniqueChecks, i)
		}
	}
	if s.empty() {
		return nil
	}
	return s
}

// keyParams maps key values onto fn's parameters (or their fields); ok is
// false when none maps. Keys that map to nothing are dropped.
func keyParams(fn *ssa.Function, keys []KeyValue) ([]ParamRef, bool) {
	var refs []ParamRef
	any := false
	for _, k := range keys {
		ref := ParamRef{Param: -1}
		vk := keyOf(k.Value)
		if p, ok := vk.base.(*ssa.Parameter); ok && p.Parent() == fn {
			ref.Param = paramIndex(fn, p)
			if len(vk.path) == 1 {
				ref.Field = vk.path[0]
			} else if len(vk.path) > 1 {
				ref.Param = -1
			}
		}
		if ref.Param >= 0 {
			any = true
		}
		refs = append(refs, ref)
	}
	return refs, any
}

// A valKey identifies a key value: a base value and a path of field
// names, so that two loads of req.Email are the same key.
type valKey struct {
	base ssa.Value
	path []string
}

func (k valKey) String() string { return fmt.Sprintf("%p.%s", k.base, strings.Join(k.path, ".")) }

// keyOf computes the key of a value, looking through conversions,
// variables stored once, closure bindings and field selections.
func keyOf(v ssa.Value) valKey {
	var path []string
	for i := 0; i < MaxTrace && v != nil; i++ {
		switch x := v.(type) {
		case *ssa.MakeInterface:
			v = x.X
			continue
		case *ssa.ChangeType:
			v = x.X
			continue
		case *ssa.Convert:
			v = x.X
			continue
		case *ssa.FreeVar:
			if b := binding(x); b != nil {
				v = b
				continue
			}
		case *ssa.Field:
			st, ok := x.X.Type().Underlying().(*types.Struct)
			if ok {
				path = append([]string{st.Field(x.Field).Name()}, path...)
				v = x.X
				continue
			}
		case *ssa.FieldAddr:
			// A field of an embedded struct: &v.Embedded, then .F.
			if f := ssaval.FieldOf(x); f != nil {
				path = append([]string{f.Name()}, path...)
				v = x.X
				continue
			}
		case *ssa.UnOp:
			if x.Op.String() == "*" {
				if fa, ok := x.X.(*ssa.FieldAddr); ok {
					if f := ssaval.FieldOf(fa); f != nil {
						path = append([]string{f.Name()}, path...)
						v = fa.X
						continue
					}
				}
				if stored := storedOnce(x); stored != nil {
					v = stored
					continue
				}
			}
		}
		break
	}
	return valKey{base: v, path: path}
}

// SameKey reports whether two key values are the same value, or the same
// field of one value.
func SameKey(a, b ssa.Value) bool {
	ka, kb := keyOf(a), keyOf(b)
	if ka.base == nil || ka.base != kb.base || len(ka.path) != len(kb.path) {
		return false
	}
	if _, isConst := ka.base.(*ssa.Const); isConst {
		return false
	}
	for i := range ka.path {
		if ka.path[i] != kb.path[i] {
			return false
		}
	}
	return true
}

func isErrorType(t types.Type) bool {
	return types.Identical(t, types.Universe.Lookup("error").Type())
}

// ChecksUnique reports whether fn tests err for a unique violation (see
// extractor.ChecksUnique).
func (r *Result) ChecksUnique(fn *ssa.Function, err ssa.Value) bool { return r.e.ChecksUnique(fn, err) }

// ErrOf returns the error value of a call: its error result, or GORM's
// Error field of the *gorm.DB it returns; nil if none.
func ErrOf(call ssa.CallInstruction) ssa.Value { return errOf(call) }

// sqlcOwnRow makes the lookup or insert of a sqlc-generated method from
// its own query, its placeholders bound to its parameters: refs maps the
// stand-in value of each bound parameter (or field) to it. A :one lookup
// returns the driver's not-found error as it is.
func sqlcOwnRow(fn *ssa.Function, q *knowledge.SQLCQuery, refs map[ssa.Value]ParamRef) []*RowOp {
	if q.Dynamic {
		return nil
	}
	off := 0
	if fn.Signature.Recv() != nil {
		off = 1
	}
	bind := func(p sqltext.Placeholder) ssa.Value {
		if p.Named() || p.Position < 1 || p.Position > len(q.Binds) {
			return nil
		}
		b := q.Binds[p.Position-1]
		if b.Param < 0 || b.Each || b.Param+off >= len(fn.Params) {
			return nil
		}
		v := ssa.Value(fn.Params[b.Param+off])
		if b.Field != "" {
			v = ssa.NewConst(constant.MakeString(b.Field), types.Typ[types.String])
		}
		refs[v] = ParamRef{Param: b.Param + off, Field: b.Field}
		return v
	}
	op := StatementRow(sqltext.Parse(q.SQL), bind)
	if op == nil {
		return nil
	}
	op.Lib, op.NilResult = "sqlc", -1
	op.Propagates = op.Kind == Lookup && q.Cmd == ":one"
	if op.Kind == Lookup {
		op.Desc = fmt.Sprintf("the lookup of %s by %s (sqlc %s)", op.Table, strings.Join(op.KeyColumns(), ", "), q.Name)
	} else {
		op.Desc = fmt.Sprintf("the INSERT into %s (sqlc %s)", op.Table, q.Name)
	}
	if q.Handle >= 0 && q.Handle+off < len(fn.Params) {
		op.Handle = fn.Params[q.Handle+off]
	}
	return []*RowOp{op}
}
