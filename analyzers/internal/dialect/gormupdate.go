package dialect

import (
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/knowledge"
	"github.com/idemlint/idemlint/analyzers/internal/ops"
	"github.com/idemlint/idemlint/analyzers/internal/sqltext"
	"github.com/idemlint/idemlint/analyzers/internal/ssaval"
)

// gormUpdate summarises a classic GORM Update, Updates, UpdateColumn(s)
// or Save and its chain.
func gormUpdate(call ssa.CallInstruction, site knowledge.Site) *ops.Update {
	row := site.Row
	api := gormOf(row.Func.Pkg)
	if api == nil || row.Func.Recv != "DB" {
		return nil
	}
	name := row.Func.Name
	u := &ops.Update{Lib: api.lib, Method: name, Desc: "the GORM " + name}
	switch name {
	case "Update", "UpdateColumn":
		colArg, val := api.columnValue(site)
		col, ok := ssaval.ConstString(colArg)
		if !ok {
			return nil
		}
		if isGormExpr(val) {
			u.Bumps = append(u.Bumps, col)
		} else {
			u.Assigns = append(u.Assigns, col)
		}
	case "Updates", "UpdateColumns":
		u.Assigns = append(u.Assigns, "*")
	case "Save":
		model := site.RoleArg(knowledge.Model)
		u.Model = ops.ModelType(model)
		if u.Model == nil {
			return nil
		}
		if _, isSlice := ssaval.Unwrap(model).Type().Underlying().(*types.Slice); isSlice {
			return nil
		}
		u.LoadedModel = loadedModel(model)
		u.Keyed = u.LoadedModel
		u.Assigns = append(u.Assigns, "*")
	default:
		return nil
	}
	if !gormUpdateChain(u, site.Receiver()) || u.Model == nil {
		return nil
	}
	if !u.Keyed {
		return nil // GORM refuses an update without conditions
	}
	u.Count = gormCount(call)
	if recv := site.Receiver(); recv != nil {
		u.Handle = ops.Root(recv)
	}
	return u
}

// gormUpdateChain walks the chain of an update: Model names the model
// (zero or loaded), Where adds compared columns, Unscoped is noted.
func gormUpdateChain(u *ops.Update, v ssa.Value) bool {
	return gormSteps(v, func(step knowledge.Site) bool {
		switch step.Row.Func.Name {
		case "Where":
			cond := step.RoleArg(knowledge.Cond)
			text, ok := ssaval.ConstString(cond)
			if !ok {
				// A struct or map condition: its keys pin the row.
				keys := ops.StructKeys(cond)
				if keys == nil {
					u.WhereUnknown = true
				}
				for _, k := range keys {
					u.WhereFields = append(u.WhereFields, k.Field)
					u.Keyed = true
				}
				break
			}
			c := sqltext.ParseCondition(text)
			if c == nil {
				u.WhereUnknown = true
				break
			}
			if c.Unknown {
				u.WhereUnknown = true
			}
			for _, cmp := range c.Comparisons {
				if !cmp.Conjunct || !cmp.Equality() {
					continue
				}
				u.Compares = append(u.Compares, cmp.Column.Name)
				u.Keyed = true
			}
		case "Model":
			if u.Model == nil {
				m := step.RoleArg(knowledge.Model)
				u.Model = ops.ModelType(m)
				if u.Model == nil {
					return false
				}
				u.ZeroModel = zeroModel(m)
				u.LoadedModel = loadedModel(m)
				if u.ZeroModel {
					for _, k := range ops.StructKeys(m) {
						u.ModelFields = append(u.ModelFields, k.Field)
					}
					// GORM adds the primary key when the literal sets one.
					u.Keyed = u.Keyed || len(u.ModelFields) > 0
				} else {
					u.Keyed = true // GORM adds the primary key of the model
				}
			}
		case "Unscoped":
			u.Unscoped = true
		case "WithContext", "Session", "Debug", "Select", "Omit":
		default:
			return false
		}
		return true
	})
}

// gormCount follows the *gorm.DB a finisher returns: RowsAffected read is
// checked; only Error read is ignored.
func gormCount(call ssa.CallInstruction) ops.CountUse {
	v := call.Value()
	if v == nil {
		return ops.CountUnknown
	}
	use := ops.CountIgnored
	for _, ref := range *v.Referrers() {
		switch x := ref.(type) {
		case *ssa.FieldAddr:
			f := ssaval.FieldOf(x)
			if f == nil {
				use = ops.CountUnknown
				continue
			}
			switch f.Name() {
			case "RowsAffected":
				return ops.CountChecked
			case "Error":
			default:
				use = ops.CountUnknown
			}
		case *ssa.DebugRef:
		default:
			use = ops.CountUnknown
		}
	}
	return use
}

// isGormExpr reports whether v is a gorm.Expr value.
func isGormExpr(v ssa.Value) bool {
	if v == nil {
		return false
	}
	call, ok := ssaval.Unwrap(v).(*ssa.Call)
	if !ok {
		return false
	}
	site, ok := knowledge.Resolve(call.Common())
	return ok && site.Row != nil && site.Row.Kind == knowledge.Expr
}

// loadedModel reports whether m points to a variable a GORM finder
// (First, Take, Last, Find) reads into in the same function.
func loadedModel(m ssa.Value) bool {
	alloc, ok := ssaval.Unwrap(m).(*ssa.Alloc)
	if !ok {
		return false
	}
	for _, ref := range *alloc.Referrers() {
		mi, ok := ref.(*ssa.MakeInterface)
		if !ok {
			continue
		}
		for _, use := range *mi.Referrers() {
			call, ok := use.(ssa.CallInstruction)
			if !ok {
				continue
			}
			site, ok := knowledge.Resolve(call.Common())
			if ok && site.Row != nil && site.Row.Kind == knowledge.Find {
				if d := site.RoleArg(knowledge.Dest); d != nil && ssaval.Unwrap(d) == ssa.Value(alloc) {
					return true
				}
			}
		}
	}
	return false
}

// zeroModel reports whether m is &T{...} built in this function whose
// fields are only set by the literal, and not read into by anything else:
// a model with no loaded values.
func zeroModel(m ssa.Value) bool {
	alloc, ok := ssaval.Unwrap(m).(*ssa.Alloc)
	if !ok {
		return false
	}
	for _, ref := range *alloc.Referrers() {
		switch x := ref.(type) {
		case *ssa.FieldAddr:
			for _, use := range *x.Referrers() {
				if st, ok := use.(*ssa.Store); !ok || st.Addr != x {
					return false
				}
			}
		case *ssa.MakeInterface, *ssa.DebugRef:
		default:
			return false
		}
	}
	return true
}
