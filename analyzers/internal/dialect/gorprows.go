package dialect

import (
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/knowledge"
	"github.com/idemlint/idemlint/analyzers/internal/ops"
	"github.com/idemlint/idemlint/analyzers/internal/ssaval"
)

// gorp's SQL calls (SelectOne, SelectInt, Exec...) are the ops core's:
// their text and binds are database/sql's. The hooks here are its struct
// calls, whose SQL gorp builds from the table registered for the model's
// type (gorptables.go).

// gorpModel returns the one model a struct call passes in its list
// (Insert(&u), Update(&u)), the table registered for its type, and the
// function it is in; nil when the list is not one visible model or the
// type's registration is not known.
func gorpModel(site knowledge.Site) (ssa.Value, *gorpTable, *ssa.Function) {
	i, ok := site.Row.Param(knowledge.Model)
	if !ok {
		return nil, nil, nil
	}
	list, ok := site.Variadic(i)
	if !ok || len(list) != 1 || list[0] == nil {
		return nil, nil, nil
	}
	model := ssaval.Unwrap(list[0])
	fn := model.Parent()
	if _, isPtr := model.Type().Underlying().(*types.Pointer); !isPtr || fn == nil {
		return nil, nil, nil // gorp rejects a non-pointer (tableForPointer)
	}
	tab := gorpTableOf(fn, ops.ModelType(model))
	if tab == nil {
		return nil, nil, nil
	}
	return model, tab, fn
}

// gorpRow classifies Insert(&m) as an insert of m's table with the
// columns of its fields stored in the function (with no conflict clause:
// gorp has none), and Get(T{}, keys...) as a lookup of T's primary key,
// which says it found nothing by returning nil with a nil error.
func gorpRow(site knowledge.Site) *ops.RowOp {
	if site.Row.Func.Pkg != gorpPkg {
		return nil
	}
	op := &ops.RowOp{Lib: "gorp", FromLibrary: true, NilResult: -1}
	if recv := site.Receiver(); recv != nil {
		op.Handle = ops.Root(recv)
	}
	switch site.Row.Kind {
	case knowledge.Insert:
		model, tab, _ := gorpModel(site)
		if model == nil {
			return nil
		}
		for _, k := range ops.ModelKeys(model) {
			if col, ok := tab.column(k.Field); ok && tab.written(k.Field) {
				op.Keys = append(op.Keys, ops.KeyValue{Column: col, Value: k.Value})
			}
		}
		op.Kind, op.Table, op.Desc = ops.Insert, tab.name, "the gorp Insert into "+tab.name
	case knowledge.Find:
		proto := site.Arg(0)
		if proto == nil {
			return nil
		}
		tab := gorpTableOf(proto.Parent(), ops.ModelType(proto))
		keys, ok := site.Variadic(1)
		if tab == nil || !ok {
			return nil
		}
		cols, ok := tab.keyColumns()
		if !ok || len(cols) != len(keys) {
			return nil
		}
		for i, v := range keys {
			if v != nil {
				op.Keys = append(op.Keys, ops.KeyValue{Column: cols[i], Value: v})
			}
		}
		op.Kind, op.Table, op.NilResult = ops.Lookup, tab.name, 0
		op.Desc = "the gorp Get of " + tab.name + " by " + strings.Join(cols, ", ")
	default:
		return nil
	}
	if op.Keyless() {
		return nil
	}
	return op
}

// gorpRead makes the read of Get(T{}, keys...): a new *T, returned as an
// interface{} the caller asserts back (obj.(*T)), whose fields hold the
// row's columns.
func gorpRead(call *ssa.Call, site knowledge.Site) *ops.ColumnRead {
	if site.Row.Func.Pkg != gorpPkg || site.Row.Kind != knowledge.Find {
		return nil
	}
	op := gorpRow(site)
	if op == nil {
		return nil
	}
	var model ssa.Value
	for _, ref := range *call.Referrers() {
		ex, ok := ref.(*ssa.Extract)
		if !ok || ex.Index != 0 {
			continue
		}
		for _, use := range *ex.Referrers() {
			if ta, ok := use.(*ssa.TypeAssert); ok && !ta.CommaOk {
				if model != nil {
					return nil
				}
				model = ta
			}
		}
	}
	if model == nil {
		return nil
	}
	tab := gorpTableOf(call.Parent(), ops.ModelType(model))
	if tab == nil || tab.name != op.Table {
		return nil
	}
	return &ops.ColumnRead{Instr: call, Table: tab.name, Model: ops.ModelType(model), ModelAddr: model,
		Keys: op.Keys, Handle: op.Handle, Lib: "gorp", Desc: op.Desc, ColumnOf: tab.column}
}

// gorpWrites makes the writes of Update(&m): gorp writes every column
// from m's fields (table_bindings.go bindUpdate), so each field stored in
// the function since is a write of its column, by the row's key. The
// key's value is what pinned the row m was read by (SelectOne's WHERE),
// or the key field stored in m. UpdateColumns' filter is a function whose
// columns are not known.
func gorpWrites(fn *ssa.Function, call *ssa.Call, site knowledge.Site) []*ops.ColumnWrite {
	if site.Row.Func.Pkg != gorpPkg || site.Row.Func.Name != "Update" {
		return nil
	}
	model, tab, _ := gorpModel(site)
	if model == nil {
		return nil
	}
	base := ops.ColumnWrite{Instr: call, Table: tab.name, Model: ops.ModelType(model), ModelAddr: model,
		Keys: gorpRowKeys(fn, model, tab), Lib: "gorp", Desc: "the gorp Update of " + tab.name}
	if recv := site.Receiver(); recv != nil {
		base.Handle = ops.Root(recv)
	}
	var out []*ops.ColumnWrite
	for _, st := range ops.FieldStores(fn, model) {
		f := ssaval.FieldOf(st.Addr.(*ssa.FieldAddr))
		if f == nil || tab.auto[f.Name()] || f.Name() == tab.version {
			continue
		}
		col, ok := tab.column(f.Name())
		if !ok {
			continue
		}
		w := base
		w.Field, w.Column, w.Value, w.Store = f.Name(), col, st.Val, st
		out = append(out, &w)
	}
	return out
}

// gorpRowKeys returns the primary key columns of the row the model at
// addr holds, with the values that name it: those a SelectOne into addr
// bound in its WHERE, else the key fields stored in it.
func gorpRowKeys(fn *ssa.Function, addr ssa.Value, tab *gorpTable) []ops.KeyValue {
	cols, ok := tab.keyColumns()
	if !ok {
		return nil
	}
	isKey := func(col string) bool { return containsFold(cols, col) }
	var out []ops.KeyValue
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(*ssa.Call)
			if !ok {
				continue
			}
			site, ok := knowledge.Resolve(call.Common())
			if !ok || site.Row == nil || site.Row.Func.Pkg != gorpPkg || site.Row.Func.Name != "SelectOne" {
				continue
			}
			if dest := site.RoleArg(knowledge.Dest); dest == nil || !ops.SameAddr(ssaval.Unwrap(dest), addr) {
				continue
			}
			stmt, _ := ops.StatementOf(site)
			bind, ok := ops.Binder(site)
			if stmt == nil || !ok {
				continue
			}
			if lk := ops.StatementRow(stmt, bind); lk != nil && lk.Kind == ops.Lookup {
				for _, k := range lk.Keys {
					if isKey(k.Column) {
						out = append(out, k)
					}
				}
			}
		}
	}
	if len(out) > 0 {
		return out
	}
	for _, k := range ops.StructKeys(addr) {
		if col, ok := tab.column(k.Field); ok && isKey(col) {
			out = append(out, ops.KeyValue{Column: col, Value: k.Value})
		}
	}
	return out
}

// gorpUpdate summarises Update(&m): UPDATE t SET every column but the
// auto-increment key WHERE key = m's (table_bindings.go bindUpdate). With
// a version column registered (SetVersionCol) gorp adds AND version = m's
// and sets it to m's + 1, and when no row matched returns an
// OptimisticLockError (gorp.go update): the count is checked for the
// caller, unless m's version is zero (a model never read), which gorp
// does not check (rows == 0 && existingVersion > 0).
func gorpUpdate(call ssa.CallInstruction, site knowledge.Site) *ops.Update {
	if site.Row.Func.Pkg != gorpPkg || site.Row.Func.Name != "Update" {
		return nil
	}
	model, tab, _ := gorpModel(site)
	if model == nil {
		return nil
	}
	keys, ok := tab.keyColumns()
	if !ok {
		return nil
	}
	u := &ops.Update{Lib: "gorp", Table: tab.name, Method: "Update", Keyed: true,
		Compares: keys, Desc: "the gorp Update of " + tab.name, Count: ops.CountUseOf(call)}
	if recv := site.Receiver(); recv != nil {
		u.Handle = ops.Root(recv)
	}
	vcol := tab.versionColumn()
	for i := 0; i < tab.st.NumFields(); i++ {
		if tab.st.Field(i).Embedded() {
			continue
		}
		f := tab.st.Field(i).Name()
		if col, ok := tab.column(f); ok && !tab.auto[f] && f != tab.version {
			u.Assigns = append(u.Assigns, col)
		}
	}
	if vcol != "" {
		u.Compares = append(u.Compares, vcol)
		u.Bumps = append(u.Bumps, vcol)
		if !zeroVersion(model, tab.version) {
			u.Count = ops.CountChecked
		}
	}
	return u
}

// zeroVersion reports whether the model is a local the function fills
// itself (&T{...}), not read into, whose version field it never sets:
// its only use besides its fields' is the Update.
func zeroVersion(model ssa.Value, field string) bool {
	alloc, ok := model.(*ssa.Alloc)
	if !ok {
		return false
	}
	uses := 0
	for _, ref := range *alloc.Referrers() {
		switch r := ref.(type) {
		case *ssa.FieldAddr:
			if f := ssaval.FieldOf(r); f != nil && f.Name() == field {
				return false
			}
		case *ssa.DebugRef:
		default:
			uses++
		}
	}
	return uses == 1
}

// gorpWholeModel returns the model Update(&m) writes whole.
func gorpWholeModel(site knowledge.Site) (ssa.Value, bool) {
	if site.Row.Func.Pkg != gorpPkg || site.Row.Func.Name != "Update" {
		return nil, false
	}
	model, _, _ := gorpModel(site)
	return model, model != nil
}

// gorpModelColumns names the columns of a gorp struct's fields by their
// db tags, for the reads and writes of helpers in other packages; the
// table is "": it is the registration's, which only the helper's package
// shows (a ColMap(f).Rename there is not seen either).
func gorpModelColumns(t types.Type) (string, func(string) (string, bool)) {
	st, ok := t.Underlying().(*types.Struct)
	if !ok {
		return "", nil
	}
	tab := &gorpTable{st: st}
	return "", tab.column
}
