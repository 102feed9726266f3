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
// filled where the name is not in sight (a constructor given the
// collection, another package's) is named after what holds it: the
// repository type, through the structs embedding it (ConsentRepository
// embedding a Repository embedding *mongo.Collection is
// "ConsentRepository"), or Repo.field; two calls through one repository
// type are on one collection whatever its name. "" when nothing names
// it (a parameter, a helper's result, a field filled with several names).
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
				return fieldCollection(addr, f)
			}
		case *ssa.Global:
			return globalCollection(addr)
		}
	}
	return ""
}

// mongoFields holds, per package, what each field holding a
// *mongo.Collection was filled with; cleared when it holds many packages
// (a long-running gopls).
var mongoFields = struct {
	sync.Mutex
	m map[*types.Package]map[*types.Var]fieldFill
}{m: map[*types.Package]map[*types.Var]fieldFill{}}

// A fieldFill is what a package's stores put into a field: one constant
// collection name, several (conflict), or values not named here.
type fieldFill struct {
	name     string
	conflict bool
}

// fieldCollection names the collection held by the field f at addr, from
// the stores of its function's package, else after what holds it.
func fieldCollection(addr *ssa.FieldAddr, f *types.Var) string {
	fn := addr.Parent()
	if fn == nil || fn.Pkg == nil {
		return ""
	}
	mongoFields.Lock()
	fills, ok := mongoFields.m[fn.Pkg.Pkg]
	if !ok {
		if len(mongoFields.m) >= 256 {
			clear(mongoFields.m)
		}
		fills = storedCollections(fn.Pkg)
		mongoFields.m[fn.Pkg.Pkg] = fills
	}
	fill := fills[f]
	mongoFields.Unlock()
	switch {
	case fill.conflict:
		return ""
	case fill.name != "":
		return fill.name
	}
	return holderName(addr, f)
}

// holderName names a field not filled with a known name after the type
// holding it, walking out through embedded structs (r.Repository.Collection
// is r's type).
func holderName(addr *ssa.FieldAddr, f *types.Var) string {
	embedded := f.Embedded()
	base := addr.X
	for range 4 {
		load, ok := base.(*ssa.UnOp)
		if !ok {
			break
		}
		outer, ok := load.X.(*ssa.FieldAddr)
		if !ok {
			break
		}
		of := ssaval.FieldOf(outer)
		if of == nil || !of.Embedded() {
			break
		}
		base = outer.X
	}
	ptr, ok := base.Type().Underlying().(*types.Pointer)
	if !ok {
		return ""
	}
	named, ok := types.Unalias(ptr.Elem()).(*types.Named)
	if !ok {
		return ""
	}
	if embedded {
		return named.Obj().Name()
	}
	return named.Obj().Name() + "." + f.Name()
}

// storedCollections reads every store of a collection into a struct
// field in the package.
func storedCollections(pkg *ssa.Package) map[*types.Var]fieldFill {
	fills := map[*types.Var]fieldFill{}
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
				if name == "" {
					continue // filled with a value not named here
				}
				fill := fills[f]
				if fill.name != "" && fill.name != name {
					fill.conflict = true
				}
				fill.name = name
				fills[f] = fill
			}
		}
	}
	return fills
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
