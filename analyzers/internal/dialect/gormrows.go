package dialect

import (
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/knowledge"
	"github.com/idemlint/idemlint/analyzers/internal/ops"
	"github.com/idemlint/idemlint/analyzers/internal/ssaval"
)

// gormRow classifies a classic GORM finisher: First, Take, Last or Count
// with conditions (inline, or Where steps of its chain) is a lookup;
// Create a insert of its model. The table is the model's, which the
// schema layer names (RowOp.Model); keys given by a struct carry the Go
// field (KeyValue.Field), keys given by SQL fragments the column. Nil
// when a step of the chain is not understood.
func gormRow(site knowledge.Site) *ops.RowOp {
	row := site.Row
	name := row.Func.Name
	api := gormOf(row.Func.Pkg)
	if api == nil {
		return nil
	}
	generic := false
	switch row.Func.Recv {
	case "DB":
	case "ExecInterface", "ChainInterface", "CreateInterface":
		generic = true // gorm.G[T](db)...
	default:
		return nil
	}
	var kind ops.RowKind
	switch {
	case row.Kind == knowledge.Find && (name == "First" || name == "Take" || name == "Last" || name == "Count" || (name == "Find" && !generic)):
		kind = ops.Lookup
	case row.Kind == knowledge.Insert && name == "Create":
		kind = ops.Insert
	case row.Kind == knowledge.Save && !generic && gormSaveInserts(site.RoleArg(knowledge.Model)):
		kind = ops.Insert
	default:
		return nil
	}
	op := &ops.RowOp{Kind: kind, Lib: api.lib, FromLibrary: true, NilResult: -1}
	if recv := site.Receiver(); recv != nil {
		op.Handle = ops.Root(recv)
	}
	switch kind {
	case ops.Lookup:
		if generic {
			if name == "Count" {
				return nil
			}
			op.Model = typeArg(site.Receiver())
		} else if name != "Count" {
			op.Model = ops.ModelType(site.RoleArg(knowledge.Dest))
		}
		if i, ok := row.Param(knowledge.Cond); ok {
			conds, ok := site.Variadic(i)
			if !ok || !gormConds(op, conds) {
				return nil
			}
		}
		// v1's Find into a struct raises ErrRecordNotFound as First does
		// (only a slice destination never does); v2's never does.
		if name == "Find" && api.findRaises && op.Model != nil {
			if d := site.RoleArg(knowledge.Dest); d != nil && isStructPtr(ssaval.Unwrap(d).Type()) {
				op.ErrWhenNotFound = true
			}
		}
	case ops.Insert:
		model := site.RoleArg(knowledge.Model)
		op.Model = ops.ModelType(model)
		op.Keys = ops.ModelKeys(model)
		// The model as given: a summary keys an insert of its function's
		// parameter by what the caller reads from it, when it reads none.
		op.Inserted = model
	}
	if !gormChain(op, site.Receiver()) {
		return nil
	}
	op.Desc = "the GORM " + name
	if kind == ops.Lookup && op.Keyless() && op.Model == nil && op.Table == "" {
		// A finder run on the query the function was given: its caller
		// built it (gormChainRow).
		if p, ok := op.Handle.(*ssa.Parameter); ok && !generic {
			op.ChainParam = p
			return op
		}
	}
	if (op.Model == nil && op.Table == "") || (op.Keyless() && (kind != ops.Insert || op.Model == nil)) {
		return nil
	}
	return op
}

// gormChainRow fills in a lookup from the chain a caller gave a helper
// that runs the finder on it: the chain's Model or Table, and its Where
// (and Or) keys.
func gormChainRow(chain ssa.Value, op *ops.RowOp) bool {
	if !gormChain(op, chain) {
		return false
	}
	return (op.Model != nil || op.Table != "") && !op.Keyless()
}

// firstOrCreateKeys fills in the model and the keys of a FirstOrCreate
// from its inline conditions and the Where calls before it, when they are
// understood; the operation is reported either way, so a key not
// understood is only left out.
func firstOrCreateKeys(op *ops.RowOp, site knowledge.Site) {
	op.Model = ops.ModelType(site.RoleArg(knowledge.Dest))
	if op.Model == nil {
		return
	}
	if i, ok := site.Row.Param(knowledge.Cond); ok {
		if conds, ok := site.Variadic(i); !ok || !gormConds(op, conds) {
			op.Keys, op.Alternatives = nil, nil
			return
		}
	}
	if !gormChain(op, site.Receiver()) {
		op.Keys, op.Alternatives = nil, nil
	}
}

// gormConds adds the keys of inline conditions: a SQL fragment and its
// binds, or a struct. False when they are not understood.
func gormConds(op *ops.RowOp, conds []ssa.Value) bool {
	if len(conds) == 0 {
		return true
	}
	if text, ok := ssaval.ConstString(conds[0]); ok {
		return ops.FragmentKeys(op, text, conds[1:])
	}
	if len(conds) == 1 {
		keys := ops.StructKeys(conds[0])
		if keys == nil {
			return false
		}
		op.Keys = append(op.Keys, keys...)
		return true
	}
	return false
}

// gormChain walks the builder chain of a finisher: Where steps add keys,
// Model names the model, Table the table (gormTable), Clauses with an
// OnConflict makes a Create idempotent; Or steps after every Where of a
// lookup make its condition (the Wheres) OR (each Or): each is a term of
// its Alternatives. False on a step that changes what is read in ways not
// followed (Raw, Joins, Not, Scopes, a table not known, an Or before a
// Where or beside inline conditions).
func gormChain(op *ops.RowOp, v ssa.Value) bool {
	inline := !op.Keyless()
	var ors [][]ops.KeyValue
	wheres := false
	ok := gormSteps(v, func(step knowledge.Site) bool {
		switch step.Row.Func.Name {
		case "Where":
			wheres = true
			if !gormWhereKeys(op, step) {
				return false
			}
		case "Or":
			// Steps are visited from the finisher back: an Or seen
			// after a Where comes before it in the chain.
			if op.Kind != ops.Lookup || wheres || inline {
				return false
			}
			term := &ops.RowOp{Kind: ops.Lookup}
			if !gormWhereKeys(term, step) || len(term.Alternatives) > 0 || len(term.Keys) == 0 {
				return false
			}
			ors = append(ors, term.Keys)
		case "Model":
			if op.Model == nil {
				op.Model = ops.ModelType(step.RoleArg(knowledge.Model))
			}
		case "Table":
			if !gormTable(op, step) {
				return false
			}
		case "Clauses", "G":
			if j, ok := step.Row.Param(knowledge.Clauses); ok {
				clauses, ok := step.Variadic(j)
				if !ok {
					return false
				}
				for _, c := range clauses {
					if c != nil && ops.HandleRole(c.Type()) == knowledge.ConflictClause {
						op.Conflict = &ops.RowConflict{Unknown: true}
					}
				}
			}
		case "Set":
			if c, ok := gormInsertOption(step); ok {
				op.Conflict = c
			}
		case "WithContext", "Session", "Debug", "Select", "Omit", "Limit", "Order", "Preload", "Unscoped", "Attrs", "Assign", "New", "LogMode":
		default:
			return false
		}
		return true
	})
	if !ok || len(ors) == 0 {
		return ok
	}
	if len(op.Alternatives) > 0 || len(op.Keys) == 0 {
		return false // (a OR b) OR c of fragments, or an Or with no Where
	}
	slices.Reverse(ors)
	op.Alternatives = append([][]ops.KeyValue{op.Keys}, ors...)
	op.Keys = nil
	return true
}

// gormWhereKeys adds the keys of a Where (or Or) step's condition: a SQL
// fragment and its binds, or a struct. False when it is not understood.
func gormWhereKeys(op *ops.RowOp, step knowledge.Site) bool {
	cond := step.RoleArg(knowledge.Cond)
	if text, ok := ssaval.ConstString(cond); ok {
		var binds []ssa.Value
		if j, ok := step.Row.Param(knowledge.Binds); ok {
			if binds, ok = step.Variadic(j); !ok {
				return false
			}
		}
		return ops.FragmentKeys(op, text, binds)
	}
	keys := ops.StructKeys(cond)
	if keys == nil {
		return false
	}
	op.Keys = append(op.Keys, keys...)
	return true
}

// isStructPtr reports whether t is a pointer to a struct.
func isStructPtr(t types.Type) bool {
	p, ok := t.Underlying().(*types.Pointer)
	if !ok {
		return false
	}
	_, ok = p.Elem().Underlying().(*types.Struct)
	return ok
}

// typeArg returns the model type T of a gorm.G[T] chain value (an
// interface instantiated with T), or nil.
func typeArg(v ssa.Value) types.Type {
	if v == nil {
		return nil
	}
	n, ok := types.Unalias(v.Type()).(*types.Named)
	if !ok || n.TypeArgs().Len() != 1 {
		return nil
	}
	t := n.TypeArgs().At(0)
	if _, ok := t.Underlying().(*types.Struct); !ok {
		return nil
	}
	return t
}

// genericRow returns the model of a generics chain (its type argument)
// and the keys its Where steps pin; a nil model when either is unknown.
func genericRow(site knowledge.Site) (types.Type, []ops.KeyValue) {
	model := typeArg(site.Receiver())
	if model == nil {
		return nil, nil
	}
	op := &ops.RowOp{Model: model}
	if !gormChain(op, site.Receiver()) || op.Table != "" || len(op.Keys) == 0 {
		return nil, nil
	}
	return model, op.Keys
}

// gormGenericRead makes a read of First, Take or Last of the generics
// API: its model is the type argument, its keys the chain's Where steps,
// its row the T value returned (or the local it is stored in).
func gormGenericRead(call *ssa.Call, site knowledge.Site) *ops.ColumnRead {
	if site.Func.Pkg != gormV2.pkg || site.Func.Recv != "ExecInterface" {
		return nil
	}
	switch site.Row.Func.Name {
	case "First", "Take", "Last":
	default:
		return nil
	}
	model, keys := genericRow(site)
	if model == nil {
		return nil
	}
	row := ops.EntityResult(call)
	if row == nil {
		return nil
	}
	return &ops.ColumnRead{Instr: call, Model: model, ModelAddr: ops.RowLocal(row), Keys: keys, Handle: ops.Root(site.Receiver()),
		Lib: gormV2.lib, Desc: ops.CalleeName(site)}
}

// gormGenericUpdates makes the writes of Updates(ctx, t) of the generics
// API: one per field of the struct value t stored in its literal (GORM
// writes the non-zero fields), the row the one the chain's Where steps
// pin. The field's column is the schema layer's (ColumnWrite.Field).
func gormGenericUpdates(call *ssa.Call, site knowledge.Site) []*ops.ColumnWrite {
	if site.Func.Pkg != gormV2.pkg || site.Func.Recv != "ChainInterface" || site.Row.Func.Name != "Updates" {
		return nil
	}
	model, keys := genericRow(site)
	if model == nil {
		return nil
	}
	load, ok := ssaval.Unwrap(site.RoleArg(knowledge.Values)).(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return nil
	}
	alloc, ok := load.X.(*ssa.Alloc)
	if !ok {
		return nil
	}
	var out []*ops.ColumnWrite
	for _, a := range ops.LiteralAllocs(alloc) {
		for _, st := range ops.FieldStores(call.Parent(), a) {
			if f := ssaval.FieldOf(st.Addr.(*ssa.FieldAddr)); f != nil {
				out = append(out, &ops.ColumnWrite{Instr: call, Model: model, Field: f.Name(), Value: st.Val,
					Keys: keys, Handle: ops.Root(site.Receiver()), Lib: gormV2.lib, Desc: ops.CalleeName(site)})
			}
		}
	}
	return out
}

// gormGenericWrite makes the write of Update(ctx, "c", v) of the
// generics API: the model is the chain's type argument, the row the one
// its Where steps pin.
func gormGenericWrite(call *ssa.Call, site knowledge.Site) *ops.ColumnWrite {
	if site.Func.Pkg != gormV2.pkg || site.Func.Recv != "ChainInterface" || site.Row.Func.Name != "Update" {
		return nil
	}
	col, ok := ssaval.ConstString(site.RoleArg(knowledge.Column))
	if !ok {
		return nil
	}
	model, keys := genericRow(site)
	if model == nil {
		return nil
	}
	return &ops.ColumnWrite{Instr: call, Model: model, Column: col, Value: ssaval.Unwrap(site.RoleArg(knowledge.Value)),
		Keys: keys, Handle: ops.Root(site.Receiver()), Lib: gormV2.lib, Desc: ops.CalleeName(site)}
}

// gormTable reads a Table step: a constant names the table (op.Table);
// Table(m.TableName()), the TableName method of GORM's Tabler interface
// on a model, names the model's own table (op.Model, if the chain names
// none). False for any other table, not known here.
func gormTable(op *ops.RowOp, step knowledge.Site) bool {
	arg := step.RoleArg(knowledge.SQL)
	if name, ok := ssaval.ConstString(arg); ok {
		op.Table = name
		return name != "" && !strings.ContainsAny(name, " ()")
	}
	call, ok := ssaval.Unwrap(arg).(*ssa.Call)
	if !ok {
		return false
	}
	callee := call.Common().StaticCallee()
	if callee == nil || callee.Signature.Recv() == nil || callee.Name() != "TableName" || len(call.Common().Args) != 1 {
		return false
	}
	model := ops.ModelTypeOf(callee.Signature.Recv().Type())
	if model == nil {
		return false
	}
	if op.Model == nil {
		op.Model = model
	}
	return types.Identical(op.Model, model)
}
