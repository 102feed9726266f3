package schema

import (
	"go/types"
)

// A ModelReader is one library's naming of its models: which struct types
// are its models, and the table, columns and unique keys each maps to.
// A library's dialect registers its reader (RegisterModels) when the
// program starts; the schema layer asks the readers before GORM's naming,
// which stays the default for a struct no library claims (gorm.go).
type ModelReader struct {
	// Lib is the library family, recorded on the models it reads.
	Lib string
	// Claims reports whether a struct type carries the library's
	// evidence: one of its struct tags, or a base model of it embedded.
	// It runs on every package-level struct type, so it must be cheap.
	Claims func(obj *types.TypeName) bool
	// Read reads a claimed type's model, nil when its table cannot be
	// known. tableNames answers for types with a TableName method.
	Read func(obj *types.TypeName, tableNames TableNameLookup) *Model
}

// readers are the registered readers; RegisterModels is called from
// package initialisation only, so they are read without a lock.
var readers []*ModelReader

// RegisterModels adds a library's model reader.
func RegisterModels(r *ModelReader) { readers = append(readers, r) }

// claimant returns the reader claiming obj, or nil.
func claimant(obj *types.TypeName) *ModelReader {
	for _, r := range readers {
		if r.Claims(obj) {
			return r
		}
	}
	return nil
}

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
