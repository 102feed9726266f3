package ops

import (
	"go/ast"
	"go/types"
)

// testOnlyTypes returns the unexported types of the package that its own
// build never makes a value of: every mention of the type outside its own
// methods is in an unexported function nothing in the package calls (an
// in-memory repository whose newInmem only the package's tests call).
// Such a type is no implementation of the package's interfaces at run
// time, so the one-implementation rule (soleImplMethods) passes it over:
// the interface is then open, and the program's binding of it (the real
// store) completes its calls.
func testOnlyTypes(files []*ast.File, info *types.Info) map[*types.TypeName]bool {
	if info == nil {
		return nil
	}
	used := map[types.Object]bool{}
	for _, obj := range info.Uses {
		used[obj] = true
	}
	// Where each identifier of a type name lies: a method of the type,
	// a dead unexported function, or anywhere else.
	ok := map[*types.TypeName]bool{}
	bad := map[*types.TypeName]bool{}
	for _, f := range files {
		for _, decl := range f.Decls {
			fd, isFunc := decl.(*ast.FuncDecl)
			var recv *types.TypeName
			dead := false
			if isFunc {
				if fd.Recv != nil && len(fd.Recv.List) == 1 {
					recv = recvTypeName(info, fd.Recv.List[0].Type)
				} else if obj := info.Defs[fd.Name]; obj != nil && !obj.Exported() && !used[obj] && fd.Name.Name != "init" && fd.Name.Name != "main" {
					dead = true
				}
			}
			ast.Inspect(decl, func(n ast.Node) bool {
				id, isIdent := n.(*ast.Ident)
				if !isIdent {
					return true
				}
				tn, isType := info.Uses[id].(*types.TypeName)
				if !isType || tn.Pkg() == nil || tn.Exported() || tn.Parent() != tn.Pkg().Scope() {
					return true
				}
				switch {
				case recv == tn, dead:
					ok[tn] = true
				default:
					bad[tn] = true
				}
				return true
			})
		}
	}
	out := map[*types.TypeName]bool{}
	for tn := range ok {
		if !bad[tn] {
			out[tn] = true
		}
	}
	return out
}

// recvTypeName returns the type name of a method's receiver (T, *T).
func recvTypeName(info *types.Info, x ast.Expr) *types.TypeName {
	if star, ok := x.(*ast.StarExpr); ok {
		x = star.X
	}
	id, ok := x.(*ast.Ident)
	if !ok {
		return nil
	}
	tn, _ := info.Uses[id].(*types.TypeName)
	return tn
}
