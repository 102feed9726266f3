package schema

import (
	"go/types"
	"strings"

	"github.com/idemlint/idemlint/analyzers/internal/knowledge"
)

// A ModelReader is one library's naming of its models: which struct types
// are its models, and the table, columns and unique keys each maps to.
// A library's dialect registers its reader (RegisterModels) when the
// program starts. The schema layer knows no library's naming: it asks the
// readers that claim a struct, and, for a struct none claims, the one
// default reader, whose library takes any struct as a model.
type ModelReader struct {
	// Lib is the library family, recorded on the models it reads and on
	// their sources.
	Lib string
	// Claims reports whether a struct type carries the library's
	// evidence: one of its struct tags, or a base model of it embedded.
	// It runs on every package-level struct type, so it must be cheap.
	// For the default reader it only rules out the structs that cannot
	// carry its evidence, so that the facts record the others.
	Claims func(obj *types.TypeName) bool
	// Read reads a claimed type's model, nil when its table cannot be
	// known. tableNames answers for types with a TableName method;
	// naming is what the package reading it and its imports set of the
	// library's naming (Naming), sorted, nil when they set nothing. The
	// schema layer sets the model's Lib and its keys' Source.
	Read func(obj *types.TypeName, tableNames TableNameLookup, naming []string) *Model
	// Naming, for a library whose models' names the program sets at run
	// time (xorm's engine.SetMapper), reads one call that sets them: row
	// is its knowledge row (a knowledge.Naming), value the type of the
	// value passed as its knowledge.Value (nil when there is none). It
	// returns the settings the call makes in the reader's own words
	// ("column=gonic"), which the facts carry from the package making
	// the call to its importers and Read is given.
	Naming func(row *knowledge.Call, value types.Type) []string
	// Default marks the reader of every struct no other reader claims:
	// it reads any struct, and says itself (Model.Evidence) whether the
	// struct declares itself one of the library's models. A claimed
	// model always has evidence.
	Default bool
	// Own, when set, reports whether a package is one of the library's
	// own: its structs (a base model the library declares) are not the
	// program's models, so no model or TableName method is read there.
	Own func(pkgPath string) bool
}

// readers are the registered readers that claim their models, and
// defaultReader the one for the structs none claims; RegisterModels is
// called from package initialisation only, so they are read without a
// lock.
var (
	readers       []*ModelReader
	defaultReader *ModelReader
)

// RegisterModels adds a library's model reader. There is one default
// reader at most.
func RegisterModels(r *ModelReader) {
	if !r.Default {
		readers = append(readers, r)
		return
	}
	if defaultReader != nil {
		panic("schema: two default model readers: " + defaultReader.Lib + " and " + r.Lib)
	}
	defaultReader = r
}

// claimant returns the reader claiming obj, or nil.
func claimant(obj *types.TypeName) *ModelReader {
	for _, r := range readers {
		if r.Claims(obj) {
			return r
		}
	}
	return nil
}

// mayBeModel reports whether the facts should record obj's model: some
// reader claims it, or the default reader's cheap test lets it through.
func mayBeModel(obj *types.TypeName) bool {
	return claimant(obj) != nil || defaultReader != nil && defaultReader.Claims(obj)
}

// libraryOwn reports whether a package is one of a library's own
// (ModelReader.Own).
func libraryOwn(pkgPath string) bool {
	for _, r := range readers {
		if r.Own != nil && r.Own(pkgPath) {
			return true
		}
	}
	return defaultReader != nil && defaultReader.Own != nil && defaultReader.Own(pkgPath)
}

// readModel reads a model: the library's that claims it, or else the
// default reader's. It returns nil when the model's table is not known (a
// TableName method whose result is not a visible constant), and when no
// reader is registered.
//
// naming is every library's naming settings the package sees, each
// prefixed with its library ("xorm:column=gonic"); the reader is given
// its own library's.
func readModel(obj *types.TypeName, tableNames tableNameLookup, naming []string) *Model {
	named, ok := obj.Type().(*types.Named)
	if !ok {
		return nil
	}
	if _, ok := named.Underlying().(*types.Struct); !ok {
		return nil
	}
	r := claimant(obj)
	if r == nil {
		r = defaultReader
	}
	if r == nil {
		return nil
	}
	m := r.Read(obj, tableNames, namingOf(naming, r.Lib))
	if m == nil {
		return nil
	}
	m.Lib = r.Lib
	if !r.Default {
		m.Evidence = true
	}
	src := Source{Kind: FromModel, Lib: r.Lib, Name: m.Type}
	for i := range m.Keys {
		m.Keys[i].Source = src
	}
	return m
}

// typeKey names a package-level type: "example.com/store.User".
func typeKey(obj *types.TypeName) string {
	if obj.Pkg() == nil {
		return obj.Name()
	}
	return obj.Pkg().Path() + "." + obj.Name()
}

// modelTypeName returns the declared struct type a model argument names:
// T, *T, []T, []*T, [n]T.
func modelTypeName(t types.Type) *types.TypeName {
	for range 4 {
		switch u := types.Unalias(t).(type) {
		case *types.Pointer:
			t = u.Elem()
			continue
		case *types.Slice:
			t = u.Elem()
			continue
		case *types.Array:
			t = u.Elem()
			continue
		case *types.Named:
			if u.TypeParams().Len() > 0 || u.TypeArgs().Len() > 0 {
				return nil
			}
			if _, ok := u.Underlying().(*types.Struct); !ok {
				return nil
			}
			return u.Obj()
		}
		return nil
	}
	return nil
}

// recvTypeName returns the named type declaring method fn.
func recvTypeName(fn *types.Func) *types.TypeName {
	sig, ok := fn.Type().(*types.Signature)
	if !ok || sig.Recv() == nil {
		return nil
	}
	t := sig.Recv().Type()
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	if n, ok := types.Unalias(t).(*types.Named); ok {
		return n.Obj()
	}
	return nil
}

type tableNameLookup func(typeKey string) (name string, known, found bool)

// TableNameLookup answers, for the type declaring a TableName method,
// the constant it returns: found reports that the type is known to have
// one, known that its result is a visible constant.
type TableNameLookup = tableNameLookup

// TypeKey names a package-level type as models and facts do:
// "example.com/store.User".
func TypeKey(obj *types.TypeName) string { return typeKey(obj) }

// TableNameOf returns what obj's TableName method (its own or promoted)
// returns: has reports that it has one, known that the result is a
// visible constant.
func TableNameOf(obj *types.TypeName, tableNames TableNameLookup) (table string, has, known bool) {
	sel, _, _ := types.LookupFieldOrMethod(types.NewPointer(obj.Type()), true, obj.Pkg(), "TableName")
	if sel == nil {
		return "", false, false
	}
	fn, ok := sel.(*types.Func)
	if !ok {
		return "", true, false
	}
	recv := recvTypeName(fn)
	if recv == nil || tableNames == nil {
		return "", true, false
	}
	name, known, _ := tableNames(typeKey(recv))
	return name, true, known
}

// namingOf returns lib's settings among naming, without their prefix.
func namingOf(naming []string, lib string) []string {
	var out []string
	for _, n := range naming {
		if rest, ok := strings.CutPrefix(n, lib+":"); ok {
			out = append(out, rest)
		}
	}
	return out
}

// readerOf returns the registered reader of library lib, or nil.
func readerOf(lib string) *ModelReader {
	for _, r := range readers {
		if r.Lib == lib {
			return r
		}
	}
	if defaultReader != nil && defaultReader.Lib == lib {
		return defaultReader
	}
	return nil
}
