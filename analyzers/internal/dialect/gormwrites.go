package dialect

import (
	"go/constant"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/knowledge"
	"github.com/idemlint/idemlint/analyzers/internal/ops"
	"github.com/idemlint/idemlint/analyzers/internal/schema"
	"github.com/idemlint/idemlint/analyzers/internal/sqltext"
	"github.com/idemlint/idemlint/analyzers/internal/ssaval"
)

// gormRead makes a read of GORM First, Take, Last or Find into a model
// pointer.
func gormRead(call *ssa.Call, site knowledge.Site) *ops.ColumnRead {
	api := gormOf(site.Func.Pkg)
	if api == nil || site.Func.Recv != "DB" {
		return nil
	}
	dest := site.RoleArg(knowledge.Dest)
	if dest == nil {
		return nil
	}
	addr := ssaval.Unwrap(dest)
	model := ops.ModelType(addr)
	if model == nil {
		return nil
	}
	op := &ops.RowOp{Model: model}
	if !gormChain(op, site.Receiver()) || op.Table != "" {
		return nil // a Table("t") of the chain is not followed to the model's columns
	}
	rd := &ops.ColumnRead{Instr: call, Model: model, ModelAddr: addr, Keys: op.Keys, Lib: api.lib, Desc: ops.CalleeName(site)}
	if recv := site.Receiver(); recv != nil {
		rd.Handle = ops.Root(recv)
	}
	return rd
}

// gormWrites makes the writes of GORM Save(&m) and Updates(&m) (each
// field of m stored since it was loaded), Update("c", v) and
// UpdateColumn("c", v) on Model(&m), and Updates(map[string]any{...}).
func gormWrites(fn *ssa.Function, call *ssa.Call, site knowledge.Site) []*ops.ColumnWrite {
	api := gormOf(site.Func.Pkg)
	if api == nil || site.Func.Recv != "DB" {
		return nil
	}
	var h ssa.Value
	if recv := site.Receiver(); recv != nil {
		h = ops.Root(recv)
	}
	op := &ops.RowOp{}
	modelAddr := gormModelAddr(site.Receiver())
	if !gormChain(op, site.Receiver()) || op.Table != "" {
		return nil
	}
	// A Where step on an update of a loaded model adds to its primary
	// key: a version predicate or a compare-and-set on the old value.
	base := ops.ColumnWrite{Instr: call, Handle: h, Lib: api.lib, Desc: ops.CalleeName(site), Keys: op.Keys, Guarded: gormWhere(site.Receiver())}
	name := site.Row.Func.Name
	switch {
	case (name == "Updates" || name == "UpdateColumns") && (modelAddr == nil || zeroModel(modelAddr)) && literalModel(site.RoleArg(knowledge.Values)) != nil:
		// Updates(T{StockNum: v}) of the row the Where steps pin: each
		// field the literal sets.
		lit := literalModel(site.RoleArg(knowledge.Values))
		model := ops.ModelType(lit)
		if model == nil {
			return nil
		}
		var out []*ops.ColumnWrite
		for _, st := range ops.FieldStores(fn, lit) {
			f := ssaval.FieldOf(st.Addr.(*ssa.FieldAddr))
			if f == nil {
				continue
			}
			w := base
			w.Model, w.ModelAddr, w.Field, w.Value, w.Store = model, lit, f.Name(), st.Val, st
			keyedBy(&w, site.Receiver(), gormFieldColumn(model, f.Name()))
			out = append(out, &w)
		}
		return out
	case name == "Save" || (name == "Updates" && isModelPtr(site.RoleArg(knowledge.Values))):
		arg := site.RoleArg(knowledge.Model)
		if arg == nil {
			arg = site.RoleArg(knowledge.Values)
		}
		addr := ssaval.Unwrap(arg)
		model := ops.ModelType(addr)
		if model == nil {
			return nil
		}
		var out []*ops.ColumnWrite
		stored := map[int]bool{}
		for _, st := range ops.FieldStores(fn, addr) {
			fa := st.Addr.(*ssa.FieldAddr)
			f := ssaval.FieldOf(fa)
			if f == nil {
				continue
			}
			stored[fa.Field] = true
			w := base
			w.Model, w.ModelAddr, w.Field, w.Value, w.Store = model, addr, f.Name(), st.Val, st
			out = append(out, &w)
		}
		// The model handed to a callback first (modify(&m)): Save
		// writes every field, each as the callback left it.
		if st := pointedStruct(addr); st != nil && name == "Save" && ops.GivenToCallback(fn, addr, call) {
			for i := 0; i < st.NumFields(); i++ {
				if f := st.Field(i); !stored[i] && !f.Embedded() && f.Exported() {
					w := base
					w.Model, w.ModelAddr, w.Field, w.Value = model, addr, f.Name(), ops.FieldLoad(addr, i)
					out = append(out, &w)
				}
			}
		}
		return out
	case name == "Update" || name == "UpdateColumn":
		colArg, val := api.columnValue(site)
		col, ok := ssaval.ConstString(colArg)
		if !ok || modelAddr == nil {
			return nil
		}
		w := base
		w.Model, w.ModelAddr, w.Column, w.Value = ops.ModelType(modelAddr), modelAddr, col, val
		keyedWrite(&w, site.Receiver(), modelAddr)
		if bin, ok := val.(*ssa.BinOp); ok && (bin.Op.String() == "+" || bin.Op.String() == "-") {
			w.Delta, w.DeltaOp = bin.Y, bin.Op.String()
		}
		return []*ops.ColumnWrite{&w}
	case name == "Updates" || name == "UpdateColumns":
		mm, ok := ssaval.Unwrap(site.RoleArg(knowledge.Values)).(*ssa.MakeMap)
		if !ok || modelAddr == nil {
			return nil
		}
		var out []*ops.ColumnWrite
		for _, ref := range *mm.Referrers() {
			up, ok := ref.(*ssa.MapUpdate)
			if !ok {
				continue
			}
			k, ok := ssaval.Unwrap(up.Key).(*ssa.Const)
			if !ok || k.Value == nil || k.Value.Kind() != constant.String {
				continue
			}
			w := base
			w.Model, w.ModelAddr, w.Column, w.Value = ops.ModelType(modelAddr), modelAddr, constant.StringVal(k.Value), ssaval.Unwrap(up.Value)
			keyedWrite(&w, site.Receiver(), modelAddr)
			out = append(out, &w)
		}
		return out
	}
	return nil
}

// keyedWrite marks a write whose Model is a fresh &T{} (zeroModel): GORM
// writes the row its Where steps pin, so the write is Keyed, and guarded
// only when a Where compares more than other columns equal to bound
// values (a compare-and-set on the written column, a range, an OR).
func keyedWrite(w *ops.ColumnWrite, chain, modelAddr ssa.Value) {
	if !zeroModel(modelAddr) {
		return
	}
	keyedBy(w, chain, w.Column)
}

// keyedBy marks w, a write of column to the row chain's Where steps pin,
// Keyed, and Guarded as keyedWrite says. A range on the written column
// (stock_num >= ?) is a floor the new value must stay above, not a
// compare-and-set: two writers that read the same value both pass it.
func keyedBy(w *ops.ColumnWrite, chain ssa.Value, column string) {
	if len(w.Keys) == 0 {
		return
	}
	w.Keyed, w.Guarded = true, false
	gormSteps(chain, func(step knowledge.Site) bool {
		if step.Row.Func.Name != "Where" {
			return true
		}
		text, ok := ssaval.ConstString(step.RoleArg(knowledge.Cond))
		c := sqltext.ParseCondition(text)
		if !ok || c == nil || c.Unknown {
			w.Guarded = true
			return false
		}
		for _, cmp := range c.Comparisons {
			if cmp.Conjunct && column != "" && strings.EqualFold(cmp.Column.Name, column) && isRange(cmp.Op) {
				continue
			}
			if !cmp.Conjunct || !cmp.Equality() || strings.EqualFold(cmp.Column.Name, column) {
				w.Guarded = true
				return false
			}
		}
		return true
	})
}

func isRange(op string) bool { return op == "<" || op == ">" || op == "<=" || op == ">=" }

// literalModel returns the struct literal an update is given, by pointer
// (&T{F: v}) or by value (T{F: v}), or nil.
func literalModel(v ssa.Value) *ssa.Alloc {
	if v == nil {
		return nil
	}
	var a *ssa.Alloc
	switch x := ssaval.Unwrap(v).(type) {
	case *ssa.Alloc:
		a = x
	case *ssa.UnOp:
		if ops.LiteralValue(x) {
			a = x.X.(*ssa.Alloc)
		}
	}
	if a == nil || a.Comment != "complit" {
		return nil
	}
	// Only filled and read: fields stored, the value loaded whole.
	for _, ref := range *a.Referrers() {
		switch x := ref.(type) {
		case *ssa.FieldAddr:
			for _, use := range *x.Referrers() {
				if st, ok := use.(*ssa.Store); !ok || st.Addr != x {
					return nil
				}
			}
		case *ssa.UnOp, *ssa.MakeInterface, *ssa.DebugRef:
		default:
			return nil
		}
	}
	return a
}

// gormFieldColumn returns the column GORM maps a model's field to (its
// column tag, or the naming strategy's name), or "".
func gormFieldColumn(model types.Type, field string) string {
	named, ok := types.Unalias(model).(*types.Named)
	if !ok {
		return ""
	}
	st, ok := named.Underlying().(*types.Struct)
	if !ok {
		return ""
	}
	r := &gormModelReader{model: &schema.Model{}, v1: importsPath(named.Obj().Pkg(), gormV1.pkg)}
	r.walk(st, "", "", 0)
	for _, f := range r.fields {
		if f.name == field {
			return f.column
		}
	}
	return ""
}

// gormModelAddr returns the model pointer given to Model in the chain v,
// or nil.
func gormModelAddr(v ssa.Value) ssa.Value {
	var model ssa.Value
	gormSteps(v, func(step knowledge.Site) bool {
		if step.Row.Func.Name == "Model" {
			model = ssaval.Unwrap(step.RoleArg(knowledge.Model))
			return false
		}
		return true
	})
	return model
}

// gormWhere reports whether the chain v has a Where step.
func gormWhere(v ssa.Value) bool {
	where := false
	gormSteps(v, func(step knowledge.Site) bool {
		where = step.Row.Func.Name == "Where"
		return !where
	})
	return where
}

// gormSteps walks a GORM method chain back from v, calling visit with
// each step (a call that returns the chain), and reports whether it got
// to the chain's start (the handle itself, or one something else
// returned, a Begin) without visit returning false.
func gormSteps(v ssa.Value, visit func(step knowledge.Site) bool) bool {
	for i := 0; i < ops.MaxTrace && v != nil; i++ {
		call, ok := ssaval.Unwrap(v).(*ssa.Call)
		if !ok {
			return true
		}
		step, ok := knowledge.Resolve(call.Common())
		if !ok || step.Row == nil {
			// A helper of this package returning the chain it extends
			// (func UserDB(ctx, db) *gorm.DB { return db.Model(&User{}) }):
			// the chain goes on in its body.
			if ret := returnedChain(call); ret != nil {
				v = ret
				continue
			}
			return true
		}
		if step.Row.Result != knowledge.ChainResult {
			return true
		}
		if !visit(step) {
			return false
		}
		v = step.Receiver()
	}
	return true
}

// returnedChain returns the value a static callee with a body returns
// on its one return, when it is a GORM chain step; nil otherwise.
func returnedChain(call *ssa.Call) ssa.Value {
	callee := call.Common().StaticCallee()
	if callee == nil || len(callee.Blocks) == 0 || callee.Signature.Results().Len() != 1 {
		return nil
	}
	var ret ssa.Value
	for _, b := range callee.Blocks {
		if r, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return); ok {
			if ret != nil {
				return nil
			}
			ret = r.Results[0]
		}
	}
	c, ok := ssaval.Unwrap(ret).(*ssa.Call)
	if !ok {
		return nil
	}
	if step, ok := knowledge.Resolve(c.Common()); !ok || step.Row == nil || step.Row.Result != knowledge.ChainResult {
		return nil
	}
	return ret
}

// gormRawRead makes a read of GORM Raw("SELECT c FROM t WHERE ...",
// args...).Scan(&v): one column scanned into one local.
func gormRawRead(call *ssa.Call, site knowledge.Site) *ops.ColumnRead {
	api := gormOf(site.Row.Func.Pkg)
	if api == nil || site.Row.Func.Recv != "DB" || site.Row.Func.Name != "Scan" {
		return nil
	}
	raw, ok := ssaval.Unwrap(site.Receiver()).(*ssa.Call)
	if !ok {
		return nil
	}
	rsite, ok := knowledge.Resolve(raw.Common())
	if !ok || rsite.Row == nil || rsite.Row.Kind != knowledge.Raw {
		return nil
	}
	stmt, h := ops.StatementOf(rsite)
	if stmt == nil || stmt.Kind != sqltext.KindSelect || !stmt.Understood() || stmt.Table.Name == "" || len(stmt.From) > 0 || len(stmt.SelectList) != 1 {
		return nil
	}
	rc := stmt.SelectList[0]
	if rc.Expr.Kind != sqltext.ExprColumn || len(rc.Expr.Columns) != 1 || rc.Name == "*" {
		return nil
	}
	dest := ssaval.Unwrap(site.RoleArg(knowledge.Dest))
	if _, ok := dest.(*ssa.Alloc); !ok {
		return nil
	}
	bind, ok := ops.Binder(rsite)
	if !ok {
		return nil
	}
	lk := ops.StatementRow(stmt, bind)
	if lk == nil || lk.Kind != ops.Lookup {
		return nil
	}
	return &ops.ColumnRead{Instr: call, Table: stmt.Table.Name, Keys: lk.Keys, Handle: h, Lib: api.lib,
		Cols: []ops.ReadCol{{Column: rc.Expr.Columns[0].Name, Addr: dest}}, Desc: "the SELECT of " + stmt.Table.Name + " (" + ops.CalleeName(rsite) + ")"}
}

func isModelPtr(v ssa.Value) bool {
	if v == nil {
		return false
	}
	_, ok := ssaval.Unwrap(v).Type().Underlying().(*types.Pointer)
	return ok && ops.ModelType(ssaval.Unwrap(v)) != nil
}

// pointedStruct returns the struct v points to, or nil (a slice of
// models, a value).
func pointedStruct(v ssa.Value) *types.Struct {
	p, ok := v.Type().Underlying().(*types.Pointer)
	if !ok {
		return nil
	}
	st, _ := p.Elem().Underlying().(*types.Struct)
	return st
}
