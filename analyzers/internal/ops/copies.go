package ops

import (
	"go/ast"
	"go/token"
	"go/types"
	"sync"

	"golang.org/x/tools/go/ssa"
)

// Fields a helper copies from one parameter into another.
//
// Admin-panel services fill the model they insert from the request with
// a helper of the request type: `c.Generate(&data)`, whose body is
// `model.Username = s.Username` and so on, in a package of DTOs that
// imports no database library. The lookup before it is keyed by
// c.Username; the insert writes data, whose Username the caller never
// stores. A FieldCopy in the helper's summary says that data.Username
// holds c.Username after the call, so the two keys are the same field of
// one value.
//
// Copies are read from the syntax (copiesOf): an assignment at the top
// level of the body, with no return before it, runs on every call, and a
// package of DTOs needs no SSA for it.

// A FieldCopy is an assignment `p[To].ToField = p[From].FromField` that
// every call of the function makes.
type FieldCopy struct {
	To        int
	ToField   string
	From      int
	FromField string
}

// copiesOf returns, by function, the copies each function of the package
// declares at the top level of its body.
func copiesOf(files []*ast.File, info *types.Info) map[*types.Func][]FieldCopy {
	out := map[*types.Func][]FieldCopy{}
	for _, f := range files {
		for _, decl := range f.Decls {
			fd, ok := decl.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			obj, ok := info.Defs[fd.Name].(*types.Func)
			if !ok {
				continue
			}
			params := paramObjects(info, fd)
			if len(params) < 2 {
				continue
			}
			assigned := map[[2]any]int{} // (param, field) -> stores
			var copies []FieldCopy
			for _, stmt := range fd.Body.List {
				if returns(stmt) {
					break // what follows may not run
				}
				as, ok := stmt.(*ast.AssignStmt)
				if !ok || as.Tok != token.ASSIGN || len(as.Lhs) != len(as.Rhs) {
					continue
				}
				for i := range as.Lhs {
					to, toField, ok := paramField(info, params, as.Lhs[i], true)
					if !ok {
						continue
					}
					assigned[[2]any{to, toField}]++
					from, fromField, ok := paramField(info, params, as.Rhs[i], false)
					if ok && from != to {
						copies = append(copies, FieldCopy{To: to, ToField: toField, From: from, FromField: fromField})
					}
				}
			}
			// A field assigned twice holds the last value; keep the copies
			// of fields assigned once.
			var kept []FieldCopy
			for _, c := range copies {
				if assigned[[2]any{c.To, c.ToField}] == 1 {
					kept = append(kept, c)
				}
			}
			if len(kept) > 0 {
				out[obj] = kept
			}
		}
	}
	return out
}

// paramObjects returns the function's parameters as SSA counts them:
// the receiver first.
func paramObjects(info *types.Info, fd *ast.FuncDecl) []types.Object {
	var out []types.Object
	add := func(fl *ast.FieldList) {
		if fl == nil {
			return
		}
		for _, field := range fl.List {
			if len(field.Names) == 0 {
				out = append(out, nil) // unnamed: a slot, never referred to
				continue
			}
			for _, n := range field.Names {
				out = append(out, info.Defs[n])
			}
		}
	}
	add(fd.Recv)
	add(fd.Type.Params)
	return out
}

// paramField matches e against p.F for a parameter p of params (a
// pointer to a struct when ptr is set, as an assignment through it must
// be to reach the caller), and returns p's index and F.
func paramField(info *types.Info, params []types.Object, e ast.Expr, ptr bool) (int, string, bool) {
	sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
	if !ok {
		return 0, "", false
	}
	id, ok := ast.Unparen(sel.X).(*ast.Ident)
	if !ok {
		return 0, "", false
	}
	s, ok := info.Selections[sel]
	if !ok || s.Kind() != types.FieldVal || len(s.Index()) != 1 {
		return 0, "", false
	}
	obj := info.Uses[id]
	for i, p := range params {
		if p == nil || p != obj {
			continue
		}
		if _, isPtr := p.Type().Underlying().(*types.Pointer); ptr && !isPtr {
			return 0, "", false
		}
		return i, sel.Sel.Name, true
	}
	return 0, "", false
}

// returns reports whether stmt holds a return statement outside function
// literals.
func returns(stmt ast.Stmt) bool {
	found := false
	ast.Inspect(stmt, func(n ast.Node) bool {
		switch n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			found = true
		}
		return !found
	})
	return found
}

// programCopies gives, for the SSA program of a package under analysis,
// the copies of a called function: StructKeys, which the dialects call
// without the extractor, finds them through the program of the model's
// function.
var programCopies sync.Map // *ssa.Program -> func(*types.Func) []FieldCopy

// copiesAt returns the copies the callee of call makes, in the program's
// own package or from its summary.
func copiesAt(call ssa.CallInstruction) []FieldCopy {
	fn := call.Parent()
	if fn == nil || fn.Prog == nil {
		return nil
	}
	v, ok := programCopies.Load(fn.Prog)
	if !ok {
		return nil
	}
	common := call.Common()
	callee := common.StaticCallee()
	if callee == nil || common.IsInvoke() {
		return nil
	}
	if callee.Origin() != nil {
		callee = callee.Origin()
	}
	obj, ok := callee.Object().(*types.Func)
	if !ok {
		return nil
	}
	return v.(func(*types.Func) []FieldCopy)(obj)
}

// copiedField is a key value a helper copied into the inserted row: the
// field Field of Base (the argument the helper copied it from).
type copiedField struct {
	Base  ssa.Value
	Field string
	typ   types.Type
	call  ssa.CallInstruction
	// row and rowField are the row's own field the helper copied it into.
	row      ssa.Value
	rowField string
}

// rowSide is the key of the row's own field the value was copied into.
func (c *copiedField) rowSide() valKey { return valKey{base: c.row, path: []string{c.rowField}} }

var _ ssa.Value = (*copiedField)(nil)

func (c *copiedField) Name() string                  { return c.Base.Name() + "." + c.Field }
func (c *copiedField) String() string                { return c.Name() }
func (c *copiedField) Type() types.Type              { return c.typ }
func (c *copiedField) Parent() *ssa.Function         { return c.call.Parent() }
func (c *copiedField) Referrers() *[]ssa.Instruction { return nil }
func (c *copiedField) Pos() token.Pos                { return c.call.Pos() }

// copiedKeys returns the keys the calls passing alloc to a copying helper
// give its fields, for the fields in none of have.
func copiedKeys(alloc *ssa.Alloc, have []KeyValue) []KeyValue {
	var calls []*ssa.Call
	for _, ref := range *alloc.Referrers() {
		if call, ok := ref.(*ssa.Call); ok {
			calls = append(calls, call)
		}
	}
	return copiedKeysAt(alloc, calls, func(a ssa.Value) bool { return a == alloc }, have)
}

// copiedKeysIn is copiedKeys for a model fn holds in a variable a closure
// captures: the calls of fn given a load of it.
func copiedKeysIn(fn *ssa.Function, alloc *ssa.Alloc, have []KeyValue) []KeyValue {
	var calls []*ssa.Call
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if call, ok := instr.(*ssa.Call); ok {
				calls = append(calls, call)
			}
		}
	}
	return copiedKeysAt(alloc, calls, func(a ssa.Value) bool {
		k := keyOf(a)
		return k.base == alloc && len(k.path) == 0
	}, have)
}

// copiedKeysAt returns the keys the copying helpers among calls give the
// fields of the model at alloc (an argument is the model when isModel
// says so), for the fields in none of have.
func copiedKeysAt(alloc *ssa.Alloc, calls []*ssa.Call, isModel func(ssa.Value) bool, have []KeyValue) []KeyValue {
	seen := map[string]bool{}
	for _, k := range have {
		seen[k.Field] = true
	}
	var out []KeyValue
	for _, call := range calls {
		args := call.Common().Args
		for j, a := range args {
			if !isModel(a) {
				continue
			}
			for _, c := range copiesAt(call) {
				if c.To != j || c.From >= len(args) || seen[c.ToField] {
					continue
				}
				seen[c.ToField] = true
				var typ types.Type = types.Typ[types.Invalid]
				if st, ok := alloc.Type().Underlying().(*types.Pointer).Elem().Underlying().(*types.Struct); ok {
					for i := 0; i < st.NumFields(); i++ {
						if st.Field(i).Name() == c.ToField {
							typ = st.Field(i).Type()
						}
					}
				}
				out = append(out, KeyValue{Field: c.ToField, Value: &copiedField{Base: args[c.From], Field: c.FromField, typ: typ, call: call, row: alloc, rowField: c.ToField}})
			}
		}
	}
	return out
}

// registerCopies makes the copies of the functions of funcs' program
// (local, by function) and of the functions of other packages (from
// their summaries) visible to StructKeys, until Release.
func registerCopies(funcs []*ssa.Function, local map[*types.Func][]FieldCopy, imported func(*types.Func) *Summary) {
	if len(funcs) == 0 {
		return
	}
	programCopies.Store(funcs[0].Prog, func(obj *types.Func) []FieldCopy {
		if c, ok := local[obj]; ok {
			return c
		}
		if obj.Pkg() != nil && imported != nil {
			if s := imported(obj); s != nil {
				return s.Copies
			}
		}
		return nil
	})
}

// forgetCopies drops what registerCopies registered for funcs' program.
func forgetCopies(funcs []*ssa.Function) {
	if len(funcs) > 0 {
		programCopies.Delete(funcs[0].Prog)
	}
}

// withCopies returns a copy of s (nil: an empty summary) with copies.
func withCopies(s *Summary, copies []FieldCopy) *Summary {
	out := &Summary{}
	if s != nil {
		c := *s
		out = &c
	}
	out.Copies = copies
	return out
}
