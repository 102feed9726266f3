package dialect

import (
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/knowledge"
	"github.com/idemlint/idemlint/analyzers/internal/ops"
	"github.com/idemlint/idemlint/analyzers/internal/sqltext"
	"github.com/idemlint/idemlint/analyzers/internal/ssaval"
)

// bunUpdate summarises bun's UpdateQuery Exec: Model names the table (its
// bun:"table:..." tag), Set fragments the columns written, Where
// fragments and WherePK the row. A model without a table tag, or a step
// not understood, gives nil.
func bunUpdate(call ssa.CallInstruction, site knowledge.Site) *ops.Update {
	row := site.Row
	if row.Func.Pkg != bunPkg || row.Func.Recv != "UpdateQuery" || row.Func.Name != "Exec" {
		return nil
	}
	if d := site.RoleArg(knowledge.Dest); d != nil {
		if vals, ok := site.Variadic(1); !ok || len(vals) > 0 {
			return nil // scanning RETURNING columns
		}
	}
	u := &ops.Update{Lib: "bun", Method: "Exec"}
	var model ssa.Value
	sets := false
	_, _, ok := bunChain(site, []string{"NewUpdate"}, func(name string, _ *ssa.Call, step knowledge.Site) bool {
		switch name {
		case "Model":
			model = step.Arg(0)
		case "Where":
			text, ok := ssaval.ConstString(step.RoleArg(knowledge.Cond))
			if !ok {
				return false
			}
			cond := sqltext.ParseCondition(text)
			if cond == nil || cond.Unknown {
				u.WhereUnknown = true
				break
			}
			for _, cmp := range cond.Comparisons {
				if cmp.Conjunct && cmp.Equality() {
					u.Compares = append(u.Compares, cmp.Column.Name)
					if cmp.Operand.Kind == sqltext.OperandPlaceholder {
						u.Keyed = true
					}
				}
			}
		case "WherePK":
			u.Keyed = true
			if cols, ok := step.Variadic(0); ok {
				for _, col := range cols {
					if name, ok := ssaval.ConstString(col); ok {
						u.Compares = append(u.Compares, name)
					}
				}
			}
		case "Set":
			text, ok := ssaval.ConstString(step.RoleArg(knowledge.SQL))
			if !ok {
				return false
			}
			list := sqltext.ParseSetList(text)
			if list == nil || list.Unknown {
				return false
			}
			sets = true
			for _, a := range list.Assignments {
				switch {
				case a.Value.ReadsColumn(a.Column):
					u.Bumps = append(u.Bumps, a.Column)
				case a.Value.Kind == sqltext.ExprPlaceholder || len(a.Value.Placeholders) > 0:
					u.Assigns = append(u.Assigns, a.Column)
				default:
					u.Constants = append(u.Constants, a.Column)
				}
			}
		case "Column", "OmitZero":
			u.Assigns = append(u.Assigns, "*")
		default:
			return false
		}
		return true
	})
	if !ok {
		return nil
	}
	t := ops.ModelType(model)
	if t == nil {
		return nil
	}
	st, ok := t.Underlying().(*types.Struct)
	if !ok {
		return nil
	}
	if u.Table = bunTable(st); u.Table == "" {
		return nil
	}
	if !sets {
		u.Assigns = append(u.Assigns, "*") // every column of the model
	}
	u.Desc = "the bun update of " + u.Table
	u.Count = ops.CountUseOf(call)
	return u
}
