package ops

import (
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/knowledge"
	"github.com/idemlint/idemlint/analyzers/internal/sqltext"
)

// gormRow classifies a classic GORM finisher: First, Take, Last or Count
// with conditions (inline, or Where steps of its chain) is a lookup;
// Create a insert of its model. The table is the model's, which the
// schema layer names (RowOp.Model); keys given by a struct carry the Go
// field (KeyValue.Field), keys given by SQL fragments the column. Nil
// when a step of the chain is not understood.
func gormRow(site knowledge.Site) *RowOp {
	row := site.Row
	name := row.Func.Name
	if row.Func.Pkg != "gorm.io/gorm" {
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
	var kind RowKind
	switch {
	case row.Kind == knowledge.Find && (name == "First" || name == "Take" || name == "Last" || name == "Count" || (name == "Find" && !generic)):
		kind = Lookup
	case row.Kind == knowledge.Insert && name == "Create":
		kind = Insert
	default:
		return nil
	}
	op := &RowOp{Kind: kind, Lib: "gorm", FromLibrary: true, NilResult: -1}
	if recv := site.Receiver(); recv != nil {
		op.Handle = Root(recv)
	}
	switch kind {
	case Lookup:
		if generic {
			if name == "Count" {
				return nil
			}
			op.Model = typeArg(site.Receiver())
		} else if name != "Count" {
			op.Model = ModelType(site.RoleArg(knowledge.Dest))
		}
		if i, ok := row.Param(knowledge.Cond); ok {
			conds, ok := site.Variadic(i)
			if !ok || !gormConds(op, conds) {
				return nil
			}
		}
	case Insert:
		model := site.RoleArg(knowledge.Model)
		op.Model = ModelType(model)
		op.Keys = StructKeys(model)
	}
	if !gormChain(op, site.Receiver()) || op.Model == nil || len(op.Keys) == 0 {
		return nil
	}
	op.Desc = "the GORM " + name
	return op
}

// firstOrCreateKeys fills in the model and the keys of a FirstOrCreate
// from its inline conditions and the Where calls before it, when they are
// understood; the operation is reported either way, so a key not
// understood is only left out.
func firstOrCreateKeys(op *RowOp, site knowledge.Site) {
	op.Model = ModelType(site.RoleArg(knowledge.Dest))
	if op.Model == nil {
		return
	}
	if i, ok := site.Row.Param(knowledge.Cond); ok {
		if conds, ok := site.Variadic(i); !ok || !gormConds(op, conds) {
			op.Keys = nil
			return
		}
	}
	if !gormChain(op, site.Receiver()) {
		op.Keys = nil
	}
}

// gormConds adds the keys of inline conditions: a SQL fragment and its
// binds, or a struct. False when they are not understood.
func gormConds(op *RowOp, conds []ssa.Value) bool {
	if len(conds) == 0 {
		return true
	}
	if text, ok := knowledge.ConstString(conds[0]); ok {
		return FragmentKeys(op, text, conds[1:])
	}
	if len(conds) == 1 {
		keys := StructKeys(conds[0])
		if keys == nil {
			return false
		}
		op.Keys = append(op.Keys, keys...)
		return true
	}
	return false
}

// FragmentKeys adds the columns a WHERE fragment pins to bound values.
func FragmentKeys(op *RowOp, text string, binds []ssa.Value) bool {
	cond := sqltext.ParseCondition(text)
	if cond == nil {
		return false
	}
	for _, c := range cond.Comparisons {
		if !c.Conjunct || !c.Equality() || c.Operand.Kind != sqltext.OperandPlaceholder || len(c.Operand.Placeholders) != 1 {
			continue
		}
		p := c.Operand.Placeholders[0]
		if p.Named() || p.Position < 1 || p.Position > len(binds) || binds[p.Position-1] == nil {
			continue
		}
		op.Keys = append(op.Keys, KeyValue{Column: c.Column.Name, Value: binds[p.Position-1]})
	}
	return true
}

// gormChain walks the builder chain of a finisher: Where steps add keys,
// Model names the model, Clauses with an OnConflict makes a Create
// idempotent. False on a step that changes what is read in ways not
// followed (Raw, Joins, Or, Not, Table, Scopes).
func gormChain(op *RowOp, v ssa.Value) bool {
	for i := 0; i < MaxTrace && v != nil; i++ {
		call, ok := knowledge.Unwrap(v).(*ssa.Call)
		if !ok {
			return true // the handle itself
		}
		step, ok := knowledge.Resolve(call.Common())
		if !ok || step.Row == nil || step.Row.Result != knowledge.ChainResult {
			return true // a handle returned by something else (a Begin)
		}
		switch step.Row.Func.Name {
		case "Where":
			cond := step.RoleArg(knowledge.Cond)
			if text, ok := knowledge.ConstString(cond); ok {
				var binds []ssa.Value
				if j, ok := step.Row.Param(knowledge.Binds); ok {
					if binds, ok = step.Variadic(j); !ok {
						return false
					}
				}
				if !FragmentKeys(op, text, binds) {
					return false
				}
			} else {
				keys := StructKeys(cond)
				if keys == nil {
					return false
				}
				op.Keys = append(op.Keys, keys...)
			}
		case "Model":
			if op.Model == nil {
				op.Model = ModelType(step.RoleArg(knowledge.Model))
			}
		case "Clauses", "G":
			if j, ok := step.Row.Param(knowledge.Clauses); ok {
				clauses, ok := step.Variadic(j)
				if !ok {
					return false
				}
				for _, c := range clauses {
					if c != nil && handleRole(c.Type()) == knowledge.ConflictClause {
						op.Conflict = &RowConflict{Unknown: true}
					}
				}
			}
		case "WithContext", "Session", "Debug", "Select", "Omit", "Limit", "Order", "Preload", "Unscoped", "Attrs", "Assign", "Set":
		default:
			return false
		}
		v = step.Receiver()
	}
	return true
}

// ModelType returns the struct type a model or destination argument
// points to, or nil.
func ModelType(v ssa.Value) types.Type {
	if v == nil {
		return nil
	}
	t := knowledge.Unwrap(v).Type()
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	if sl, ok := t.Underlying().(*types.Slice); ok {
		t = sl.Elem()
		if p, ok := t.Underlying().(*types.Pointer); ok {
			t = p.Elem()
		}
	}
	if _, ok := types.Unalias(t).(*types.Named); !ok {
		return nil
	}
	if _, ok := t.Underlying().(*types.Struct); !ok {
		return nil
	}
	return t
}

// StructKeys returns the fields a composite literal of a model sets (by
// Go field name) with the values stored, or nil when the struct is not a
// local composite whose stores are visible.
func StructKeys(v ssa.Value) []KeyValue {
	if v == nil {
		return nil
	}
	v = knowledge.Unwrap(v)
	if load, ok := v.(*ssa.UnOp); ok {
		v = load.X
	}
	alloc, ok := v.(*ssa.Alloc)
	if !ok {
		return nil
	}
	var keys []KeyValue
	for _, alloc := range literalAllocs(alloc) {
		for _, ref := range *alloc.Referrers() {
			fa, ok := ref.(*ssa.FieldAddr)
			if !ok || fa.X != alloc {
				continue
			}
			f := FieldOf(fa)
			if f == nil || f.Embedded() {
				continue
			}
			for _, use := range *fa.Referrers() {
				if st, ok := use.(*ssa.Store); ok && st.Addr == fa {
					keys = append(keys, KeyValue{Field: f.Name(), Value: st.Val})
				}
			}
		}
	}
	if keys == nil {
		keys = []KeyValue{}
	}
	return keys
}

// qualifiedType names a named type "pkg/path.Name" for facts.
func qualifiedType(t types.Type) string {
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || n.Obj().Pkg() == nil {
		return ""
	}
	return n.Obj().Pkg().Path() + "." + n.Obj().Name()
}

// lookupType finds the named type "pkg/path.Name" among pkg and the
// packages it imports, transitively.
func lookupType(pkg *types.Package, name string) types.Type {
	i := strings.LastIndex(name, ".")
	if i < 0 || pkg == nil {
		return nil
	}
	path, obj := name[:i], name[i+1:]
	seen := map[*types.Package]bool{}
	var find func(p *types.Package, depth int) types.Type
	find = func(p *types.Package, depth int) types.Type {
		if seen[p] || depth > 8 {
			return nil
		}
		seen[p] = true
		if p.Path() == path {
			if tn, ok := p.Scope().Lookup(obj).(*types.TypeName); ok {
				return tn.Type()
			}
			return nil
		}
		for _, imp := range p.Imports() {
			if t := find(imp, depth+1); t != nil {
				return t
			}
		}
		return nil
	}
	return find(pkg, 0)
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
