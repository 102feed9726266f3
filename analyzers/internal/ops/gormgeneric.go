package ops

import (
	"go/token"
	"go/types"
	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/knowledge"
)

// This file gives lostupdate GORM's generics API: a row read by
// gorm.G[T](db).Where(...).First(ctx) (a T value, or a local it is
// stored in) and a column written by G[T](db).Where(...).Update(ctx, "c",
// v) of the same row.

// genericRow returns the model of a generics chain (its type argument)
// and the keys its Where steps pin; a nil model when either is unknown.
func genericRow(site knowledge.Site) (types.Type, []KeyValue) {
	model := typeArg(site.Receiver())
	if model == nil {
		return nil, nil
	}
	op := &RowOp{Model: model}
	if !gormChain(op, site.Receiver()) || len(op.Keys) == 0 {
		return nil, nil
	}
	return model, op.Keys
}

// gormGenericRead makes a read of First, Take or Last of the generics
// API: its model is the type argument, its keys the chain's Where steps,
// its row the T value returned (or the local it is stored in).
func gormGenericRead(call *ssa.Call, site knowledge.Site) *ColumnRead {
	if site.Func.Pkg != "gorm.io/gorm" || site.Func.Recv != "ExecInterface" {
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
	row := entityResult(call)
	if row == nil {
		return nil
	}
	return &ColumnRead{Instr: call, Model: model, ModelAddr: rowLocal(row), Keys: keys, Handle: Root(site.Receiver()),
		Lib: "gorm", Desc: calleeName(site)}
}

// gormGenericUpdates makes the writes of Updates(ctx, t) of the generics
// API: one per field of the struct value t stored in its literal (GORM
// writes the non-zero fields), the row the one the chain's Where steps
// pin. The field's column is the schema layer's (ColumnWrite.Field).
func gormGenericUpdates(call *ssa.Call, site knowledge.Site) []*ColumnWrite {
	if site.Func.Pkg != "gorm.io/gorm" || site.Func.Recv != "ChainInterface" || site.Row.Func.Name != "Updates" {
		return nil
	}
	model, keys := genericRow(site)
	if model == nil {
		return nil
	}
	load, ok := knowledge.Unwrap(site.RoleArg(knowledge.Values)).(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return nil
	}
	alloc, ok := load.X.(*ssa.Alloc)
	if !ok {
		return nil
	}
	var out []*ColumnWrite
	for _, a := range literalAllocs(alloc) {
		for _, st := range FieldStores(call.Parent(), a) {
			if f := FieldOf(st.Addr.(*ssa.FieldAddr)); f != nil {
				out = append(out, &ColumnWrite{Instr: call, Model: model, Field: f.Name(), Value: st.Val,
					Keys: keys, Handle: Root(site.Receiver()), Lib: "gorm", Desc: calleeName(site)})
			}
		}
	}
	return out
}

// gormGenericWrite makes the write of Update(ctx, "c", v) of the
// generics API: the model is the chain's type argument, the row the one
// its Where steps pin.
func gormGenericWrite(call *ssa.Call, site knowledge.Site) *ColumnWrite {
	if site.Func.Pkg != "gorm.io/gorm" || site.Func.Recv != "ChainInterface" || site.Row.Func.Name != "Update" {
		return nil
	}
	col, ok := knowledge.ConstString(site.RoleArg(knowledge.Column))
	if !ok {
		return nil
	}
	model, keys := genericRow(site)
	if model == nil {
		return nil
	}
	return &ColumnWrite{Instr: call, Model: model, Column: col, Value: knowledge.Unwrap(site.RoleArg(knowledge.Value)),
		Keys: keys, Handle: Root(site.Receiver()), Lib: "gorm", Desc: calleeName(site)}
}
