package dialect

import (
	"go/types"
	"sync"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/knowledge"
	"github.com/idemlint/idemlint/analyzers/internal/ops"
	"github.com/idemlint/idemlint/analyzers/internal/ssaval"
)

// mongoCollection names the collection a *mongo.Collection value is:
// the constant name of the Database.Collection call that made it, in the
// function or stored in the struct field or package variable it is
// loaded from (a repository's coll, set by its constructor). A field
// every store of the package fills with the same name is that
// collection; one filled elsewhere, or with names not constant, is named
// after the field (Repo.coll) when all its stores are Collection calls
// of one name or none is seen, since two calls on one field's value are
// on one collection whatever its name. "" when nothing names it (a
// parameter, a helper's result).
func mongoCollection(v ssa.Value) string {
	return collectionOf(v, true)
}

// collectionOf is mongoCollection, looking into the stores of fields and
// variables only when follow is set (not from inside those stores).
func collectionOf(v ssa.Value, follow bool) string {
	if v == nil {
		return ""
	}
	switch x := ssaval.Unwrap(v).(type) {
	case *ssa.Call:
		site, ok := knowledge.Resolve(x.Common())
		if !ok || !isMongo(site.Func.Pkg) || site.Func.Recv != "Database" || site.Func.Name != "Collection" {
			return ""
		}
		name, _ := ssaval.ConstString(site.Arg(0))
		return name
	case *ssa.UnOp:
		if !follow {
			return ""
		}
		switch addr := x.X.(type) {
		case *ssa.FieldAddr:
			if f := ssaval.FieldOf(addr); f != nil {
				return fieldCollection(addr.Parent(), addr.X.Type(), f)
			}
		case *ssa.Global:
			return globalCollection(addr)
		}
	case *ssa.Field:
		if f := ssaval.FieldOf(x); follow && f != nil && x.Parent() != nil {
			return fieldCollection(x.Parent(), types.NewPointer(x.X.Type()), f)
		}
	}
	return ""
}

// mongoFields holds, per package, the collection each field holding a
// *mongo.Collection was filled with; cleared when it holds many
// packages (a long-running gopls).
var mongoFields = struct {
	sync.Mutex
	m map[*types.Package]map[*types.Var]string
}{m: map[*types.Package]map[*types.Var]string{}}

// fieldCollection names the collection held by field f of the struct
// *recv points to, from the stores of fn's package.
func fieldCollection(fn *ssa.Function, recv types.Type, f *types.Var) string {
	if fn == nil || fn.Pkg == nil {
		return ""
	}
	mongoFields.Lock()
	defer mongoFields.Unlock()
	names, ok := mongoFields.m[fn.Pkg.Pkg]
	if !ok {
		if len(mongoFields.m) >= 256 {
			clear(mongoFields.m)
		}
		names = storedCollections(fn.Pkg)
		mongoFields.m[fn.Pkg.Pkg] = names
	}
	if name, ok := names[f]; ok {
		return name
	}
	// Filled where this package cannot see (another package's
	// constructor): one field is one collection.
	owner := "?"
	if ptr, ok := recv.Underlying().(*types.Pointer); ok {
		if named, ok := types.Unalias(ptr.Elem()).(*types.Named); ok {
			owner = named.Obj().Name()
		}
	}
	return owner + "." + f.Name()
}

// storedCollections reads every store of a collection into a struct
// field in the package: a field filled with one constant name is that
// collection, one filled with several or a name not known is "" (not
// named, and not one collection).
func storedCollections(pkg *ssa.Package) map[*types.Var]string {
	names := map[*types.Var]string{}
	for _, fn := range ops.PackageFuncs(pkg) {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				st, ok := instr.(*ssa.Store)
				if !ok {
					continue
				}
				fa, ok := st.Addr.(*ssa.FieldAddr)
				if !ok || !knowledge.HasRole(st.Val.Type(), knowledge.DBHandle) {
					continue
				}
				f := ssaval.FieldOf(fa)
				if f == nil {
					continue
				}
				name := collectionOf(st.Val, false) // a Collection call, not another field
				if prev, seen := names[f]; seen && prev != name {
					name = ""
				}
				names[f] = name
			}
		}
	}
	return names
}

// globalCollection names the collection a package variable holds: the
// Collection call of its initialiser or of every store to it, when they
// agree.
func globalCollection(g *ssa.Global) string {
	if g.Pkg == nil {
		return ""
	}
	name, seen := "", false
	for _, fn := range ops.PackageFuncs(g.Pkg) {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				st, ok := instr.(*ssa.Store)
				if !ok || st.Addr != g {
					continue
				}
				n := collectionOf(st.Val, false)
				if seen && n != name {
					return ""
				}
				name, seen = n, true
			}
		}
	}
	if !seen {
		return g.Name()
	}
	return name
}
