package ops

import (
	"go/token"
	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/knowledge"
)

// This file gives lostupdate GORM's generics API: a row read by
// gorm.G[T](db).Where(...).First(ctx) (a T value, or a local it is
// stored in) and a column written by G[T](db).Where(...).Update(ctx, "c",
// v) of the same row.

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
	model := typeArg(site.Receiver())
	if model == nil {
		return nil
	}
	op := &RowOp{Model: model}
	if !gormChain(op, site.Receiver()) || len(op.Keys) == 0 {
		return nil
	}
	row := entityResult(call)
	if row == nil {
		return nil
	}
	// t := First(ctx) then t.F -= d: the value is stored in a local whose
	// fields are loaded.
	if refs := row.Referrers(); refs != nil {
		for _, ref := range *refs {
			if st, ok := ref.(*ssa.Store); ok && st.Val == row {
				if alloc, ok := st.Addr.(*ssa.Alloc); ok {
					row = alloc
				}
			}
		}
	}
	return &ColumnRead{Instr: call, Model: model, ModelAddr: row, Keys: op.Keys, Handle: Root(site.Receiver()),
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
	model := typeArg(site.Receiver())
	if model == nil {
		return nil
	}
	op := &RowOp{Model: model}
	if !gormChain(op, site.Receiver()) || len(op.Keys) == 0 {
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
		for _, ref := range *a.Referrers() {
			fa, ok := ref.(*ssa.FieldAddr)
			if !ok || FieldOf(fa) == nil {
				continue
			}
			for _, use := range *fa.Referrers() {
				if st, ok := use.(*ssa.Store); ok && st.Addr == fa {
					out = append(out, &ColumnWrite{Instr: call, Model: model, Field: FieldOf(fa).Name(), Value: st.Val,
						Keys: op.Keys, Handle: Root(site.Receiver()), Lib: "gorm", Desc: calleeName(site)})
				}
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
	model := typeArg(site.Receiver())
	col, ok := knowledge.ConstString(site.RoleArg(knowledge.Column))
	if model == nil || !ok {
		return nil
	}
	op := &RowOp{Model: model}
	if !gormChain(op, site.Receiver()) || len(op.Keys) == 0 {
		return nil
	}
	return &ColumnWrite{Instr: call, Model: model, Column: col, Value: knowledge.Unwrap(site.RoleArg(knowledge.Value)),
		Keys: op.Keys, Handle: Root(site.Receiver()), Lib: "gorm", Desc: calleeName(site)}
}
