package dialect

import (
	"go/token"
	"go/types"
	"reflect"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/knowledge"
	"github.com/idemlint/idemlint/analyzers/internal/ops"
	"github.com/idemlint/idemlint/analyzers/internal/schema"
	"github.com/idemlint/idemlint/analyzers/internal/ssaval"
)

const (
	mongoModule = "go.mongodb.org/mongo-driver"
	mongoV1     = "go.mongodb.org/mongo-driver/mongo"
	mongoV2     = "go.mongodb.org/mongo-driver/v2/mongo"
)

// mongoRow classifies FindOne(ctx, filter) and CountDocuments(ctx,
// filter) as lookups of the collection by the fields the filter pins to a
// value, and InsertOne(ctx, doc) as an insert of the document's fields.
// A lookup whose filter holds anything but equalities of fields
// (operators, $or, a value not a single one) is Narrowed; a collection
// whose name is not known is no operation.
func mongoRow(site knowledge.Site) *ops.RowOp {
	if !isMongo(site.Row.Func.Pkg) || site.Row.Func.Recv != "Collection" {
		return nil
	}
	recv := site.Receiver()
	if recv == nil {
		return nil
	}
	coll := mongoCollection(recv)
	if coll == "" {
		return nil
	}
	op := &ops.RowOp{Lib: "mongo", FromLibrary: true, NilResult: -1, Table: coll, Handle: ops.Root(recv)}
	switch site.Row.Kind {
	case knowledge.Find:
		fields, narrowed, ok := mongoDoc(site.RoleArg(knowledge.Cond))
		if !ok {
			return nil
		}
		for _, f := range fields {
			if f.value == nil {
				narrowed = true
				continue
			}
			op.Keys = append(op.Keys, ops.KeyValue{Column: f.name, Value: f.value})
		}
		op.Kind, op.Narrowed = ops.Lookup, narrowed
		op.CountsFound = site.Row.Result == knowledge.ScalarResult
		op.Desc = "the " + site.Row.Func.Name + " of " + coll + " by " + op.KeyDesc()
	case knowledge.Insert:
		doc := site.RoleArg(knowledge.Model)
		if doc == nil {
			return nil
		}
		op.Kind, op.Desc = ops.Insert, "the InsertOne into "+coll
		if model := ops.ModelType(doc); model != nil {
			// A struct: its fields by their bson names; the caller's
			// struct given to a helper is keyed by what the caller knows
			// of it (RowOp.Inserted), its fields named by mongoModels.
			op.Model, op.Inserted = model, doc
			st, _ := model.Underlying().(*types.Struct)
			for _, k := range ops.ModelKeys(doc) {
				if name, ok := bsonName(st, k.Field); ok {
					k.Column = name
					op.Keys = append(op.Keys, k)
				}
			}
			return op
		}
		fields, _, ok := mongoDoc(doc)
		if !ok {
			return nil
		}
		for _, f := range fields {
			if f.value != nil {
				op.Keys = append(op.Keys, ops.KeyValue{Column: f.name, Value: f.value})
			}
		}
	default:
		return nil
	}
	if op.Keyless() {
		return nil
	}
	return op
}

func isMongo(pkg string) bool { return pkg == mongoV1 || pkg == mongoV2 }

// A docField is a field of a bson document a call is given, with the one
// value it holds; value is nil for a field holding an operator document
// other than {$eq: v}, or a value not followed.
type docField struct {
	name  string
	value ssa.Value
}

// A docEntry is one top-level entry of a bson document in sight: its
// key (named is false when not constant) and the value stored.
type docEntry struct {
	name  string
	named bool
	value ssa.Value
	// conditional is set for a map entry made on some paths only
	// (if f.Type != nil { filter["type"] = *f.Type }): not always there.
	conditional bool
}

// docEntries reads a bson.M or bson.D the function builds (a literal, or
// a map filled key by key); ok is false when v is no such document in
// sight (a parameter, a struct, a helper's result).
func docEntries(v ssa.Value) (entries []docEntry, ok bool) {
	if v == nil {
		return nil, false
	}
	switch x := ssaval.Unwrap(v).(type) {
	case *ssa.MakeMap:
		var uses []ssa.Instruction
		for _, ref := range *x.Referrers() {
			switch ref.(type) {
			case *ssa.MapUpdate, *ssa.DebugRef:
			default:
				uses = append(uses, ref)
			}
		}
		for _, ref := range *x.Referrers() {
			if up, isUpdate := ref.(*ssa.MapUpdate); isUpdate && up.Map == x {
				name, named := ssaval.ConstString(up.Key)
				entries = append(entries, docEntry{name: name, named: named, value: up.Value, conditional: !before(up, uses)})
			}
		}
		return entries, true
	case *ssa.Slice:
		alloc, isAlloc := x.X.(*ssa.Alloc)
		if !isAlloc || !isElemSlice(x.Type()) {
			return nil, false
		}
		for _, ref := range *alloc.Referrers() {
			if elem, isIndex := ref.(*ssa.IndexAddr); isIndex {
				name, value, named := elemField(elem)
				entries = append(entries, docEntry{name: name, named: named, value: value})
			}
		}
		return entries, true
	}
	return nil, false
}

// mongoDoc reads a filter or a document of fields: its top-level
// fields, each with the value it pins (equalTo). narrowed is set when it
// also has what is not a field ($or, $and, a key not constant).
func mongoDoc(v ssa.Value) (fields []docField, narrowed, ok bool) {
	entries, ok := docEntries(v)
	if !ok {
		return nil, false, false
	}
	for _, e := range entries {
		if !e.named || e.conditional || strings.HasPrefix(e.name, "$") {
			narrowed = true
			continue
		}
		fields = append(fields, docField{name: e.name, value: equalTo(e.value)})
	}
	return fields, narrowed, true
}

// before reports whether instr runs before each of uses on every path:
// earlier in the same block, or in a block dominating theirs.
func before(instr ssa.Instruction, uses []ssa.Instruction) bool {
	b := instr.Block()
	for _, u := range uses {
		ub := u.Block()
		if ub == nil || b == nil {
			return false
		}
		if ub != b {
			if !b.Dominates(ub) {
				return false
			}
			continue
		}
		for _, in := range b.Instrs {
			if in == u {
				return false // the use comes first
			}
			if in == instr {
				break
			}
		}
	}
	return true
}

// setFields returns the fields an update document's $set assigns, each
// with the value given.
func setFields(update ssa.Value) []docField {
	entries, _ := docEntries(update)
	var out []docField
	for _, e := range entries {
		if e.name != "$set" {
			continue
		}
		inner, _ := docEntries(e.value)
		for _, f := range inner {
			if f.named && !strings.HasPrefix(f.name, "$") && f.value != nil {
				out = append(out, docField{name: f.name, value: f.value})
			}
		}
	}
	return out
}

// isElemSlice reports whether t is a bson.D: a slice of structs with Key
// and Value fields (primitive.E in v1, bson.E in v2).
func isElemSlice(t types.Type) bool {
	sl, ok := t.Underlying().(*types.Slice)
	if !ok {
		return false
	}
	st, ok := sl.Elem().Underlying().(*types.Struct)
	return ok && st.NumFields() == 2 && st.Field(0).Name() == "Key" && st.Field(1).Name() == "Value"
}

// elemField reads the Key and Value stored into one element of a bson.D
// literal ({"email", email}): into the element's fields, or into a local
// composite stored whole into the element (how newer go/ssa builds the
// elements of a slice literal).
func elemField(elem *ssa.IndexAddr) (name string, value ssa.Value, ok bool) {
	addrs := []ssa.Value{elem}
	for _, ref := range *elem.Referrers() {
		if st, isStore := ref.(*ssa.Store); isStore && st.Addr == elem {
			if load, isLoad := st.Val.(*ssa.UnOp); isLoad && load.Op == token.MUL {
				if lit, isAlloc := load.X.(*ssa.Alloc); isAlloc {
					addrs = append(addrs, lit)
				}
			}
		}
	}
	named := false
	for _, addr := range addrs {
		for _, ref := range *addr.Referrers() {
			fa, isField := ref.(*ssa.FieldAddr)
			if !isField || fa.X != addr {
				continue
			}
			for _, use := range *fa.Referrers() {
				st, isStore := use.(*ssa.Store)
				if !isStore || st.Addr != fa {
					continue
				}
				switch fa.Field {
				case 0:
					name, named = ssaval.ConstString(st.Val)
				case 1:
					value = st.Val
				}
			}
		}
	}
	return name, value, named
}

// equalTo returns the value a filter field pins: the field's value, or
// v of {"$eq": v}; nil for another document (an operator, a subdocument).
func equalTo(v ssa.Value) ssa.Value {
	entries, isDoc := docEntries(v)
	if !isDoc {
		return v
	}
	if len(entries) == 1 && entries[0].name == "$eq" {
		return entries[0].value
	}
	return nil
}

// bsonName returns the name under which the driver stores a field of a
// struct (its promoted name for a field of an embedded struct): the bson
// tag's name, else the field's name lower-cased (bsoncodec's
// DefaultStructTagParser); false for a field it skips (bson:"-", not
// exported) or stores inside a subdocument (an embedded struct not
// inlined).
func bsonName(st *types.Struct, field string) (string, bool) {
	if st == nil {
		return "", false
	}
	for i := 0; i < st.NumFields(); i++ {
		f := st.Field(i)
		if f.Embedded() || f.Name() != field {
			continue
		}
		return bsonTagName(f, st.Tag(i))
	}
	for i := 0; i < st.NumFields(); i++ {
		f := st.Field(i)
		if !f.Embedded() || !strings.Contains(","+reflect.StructTag(st.Tag(i)).Get("bson")+",", ",inline,") {
			continue
		}
		if inner, ok := f.Type().Underlying().(*types.Struct); ok {
			if name, ok := bsonName(inner, field); ok {
				return name, true
			}
		}
	}
	return "", false
}

// bsonTagName names one field by its tag.
func bsonTagName(f *types.Var, tag string) (string, bool) {
	if !f.Exported() {
		return "", false
	}
	name, _, _ := strings.Cut(reflect.StructTag(tag).Get("bson"), ",")
	switch name {
	case "-":
		return "", false
	case "":
		return strings.ToLower(f.Name()), true
	}
	return name, true
}

// mongoModels names the fields of structs with bson tags, for the
// inserts of a caller's struct that a helper makes (a summary's fields):
// a struct is no table of its own in MongoDB (the collection it is
// inserted into is), so its model names no table.
var mongoModels = &schema.ModelReader{Lib: "mongo", Claims: bsonClaims, Read: namingFixed(bsonReadModel)}

// bsonClaims reports whether a field of obj has a bson tag.
func bsonClaims(obj *types.TypeName) bool {
	st, ok := obj.Type().Underlying().(*types.Struct)
	if !ok {
		return false
	}
	for i := 0; i < st.NumFields(); i++ {
		if strings.Contains(st.Tag(i), `bson:"`) {
			return true
		}
	}
	return false
}

func bsonReadModel(obj *types.TypeName, _ schema.TableNameLookup) *schema.Model {
	st, ok := obj.Type().Underlying().(*types.Struct)
	if !ok {
		return nil
	}
	m := &schema.Model{Type: schema.TypeKey(obj), KeysOnly: true}
	var add func(st *types.Struct, depth int)
	add = func(st *types.Struct, depth int) {
		for i := 0; i < st.NumFields() && depth < 4; i++ {
			f := st.Field(i)
			if f.Embedded() {
				if inner, ok := f.Type().Underlying().(*types.Struct); ok && strings.Contains(","+reflect.StructTag(st.Tag(i)).Get("bson")+",", ",inline,") {
					add(inner, depth+1)
				}
				continue
			}
			if name, ok := bsonTagName(f, st.Tag(i)); ok {
				m.Fields = append(m.Fields, schema.ModelField{Name: f.Name(), Column: name})
			}
		}
	}
	add(st, 0)
	return m
}
