package ops_test

import (
	"bytes"
	"encoding/gob"
	"fmt"
	"reflect"
	"testing"

	"golang.org/x/tools/go/analysis"

	"github.com/idemlint/idemlint/analyzers"
	"github.com/idemlint/idemlint/analyzers/internal/ops"
)

// TestFactsTravel round-trips a value of every fact type of the registry's
// analyzers and the analyzers they require, with every exported field set,
// through encoding/gob as go vet, gopls and Bazel's nogo carry facts from
// one package's process to its importers' (x/tools' facts package encodes
// them behind an analysis.Fact interface, registered by type): what is
// decoded must be what was encoded. A field gob cannot carry (a func, a
// channel, an interface without a registered type), or one it drops (an
// unexported field), fails here instead of going missing in the drivers
// that serialise facts while the standalone one, which does not, works.
// A Summary's Generated field is tried with each library's fact type.
func TestFactsTravel(t *testing.T) {
	types := map[reflect.Type]bool{}
	var visit func(a *analysis.Analyzer)
	visit = func(a *analysis.Analyzer) {
		for _, f := range a.FactTypes {
			types[reflect.TypeOf(f)] = true
		}
		for _, r := range a.Requires {
			visit(r)
		}
	}
	for _, a := range analyzers.All() {
		visit(a)
	}
	if len(types) == 0 {
		t.Fatal("no fact types: the registry is empty?")
	}
	generated := ops.GeneratedFacts()
	if len(generated) == 0 {
		t.Fatal("no library registers a generated-function fact")
	}
	for typ := range types {
		gob.Register(reflect.New(typ.Elem()).Interface())
		for i := range max(1, len(generated)) {
			f := filler{iface: map[reflect.Type]reflect.Value{
				reflect.TypeFor[ops.GeneratedFact](): reflect.ValueOf(generated[i%len(generated)]),
			}}
			in := reflect.New(typ.Elem())
			if err := f.fill(in.Elem(), typ.Elem().String(), 0); err != nil {
				t.Errorf("%v: %v", typ, err)
				break
			}
			// As the facts package encodes them: behind the interface.
			type gobFact struct{ Fact analysis.Fact }
			var buf bytes.Buffer
			if err := gob.NewEncoder(&buf).Encode(gobFact{in.Interface().(analysis.Fact)}); err != nil {
				t.Errorf("%v: encode: %v", typ, err)
				break
			}
			var out gobFact
			if err := gob.NewDecoder(&buf).Decode(&out); err != nil {
				t.Errorf("%v: decode: %v", typ, err)
				break
			}
			if !reflect.DeepEqual(in.Interface(), out.Fact) {
				t.Errorf("%v does not survive encoding/gob:\n got %#v\nwant %#v", typ, out.Fact, in.Interface())
			}
		}
	}
}

// A filler sets every exported field of a value to something other than
// its zero value (gob leaves zero values out, so a zero field would pass
// unchecked), down to maxDepth levels of pointers, slices, maps and
// interfaces.
type filler struct {
	// iface gives the concrete value to put in a field of each interface
	// type.
	iface map[reflect.Type]reflect.Value
}

const maxDepth = 8

// transient are the unexported fields that a fact keeps only in memory,
// by design, for the drivers that run every package in one process.
var transient = map[string]bool{
	"ops.ColumnWriter.pos": true, // a token.Pos of the writer's file set; see its comment
}

func (f filler) fill(v reflect.Value, path string, depth int) error {
	if depth > maxDepth {
		return nil // a recursive type: the zero value ends it
	}
	switch v.Kind() {
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(int64(3 + depth))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		v.SetUint(uint64(3 + depth))
	case reflect.Float32, reflect.Float64:
		v.SetFloat(1.5)
	case reflect.String:
		v.SetString(path)
	case reflect.Pointer:
		p := reflect.New(v.Type().Elem())
		if err := f.fill(p.Elem(), path, depth+1); err != nil {
			return err
		}
		v.Set(p)
	case reflect.Slice:
		s := reflect.MakeSlice(v.Type(), 1, 1)
		for i := range 1 {
			if err := f.fill(s.Index(i), fmt.Sprintf("%s[%d]", path, i), depth+1); err != nil {
				return err
			}
		}
		v.Set(s)
	case reflect.Array:
		for i := range v.Len() {
			if err := f.fill(v.Index(i), fmt.Sprintf("%s[%d]", path, i), depth+1); err != nil {
				return err
			}
		}
	case reflect.Map:
		m := reflect.MakeMap(v.Type())
		k, e := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
		if err := f.fill(k, path+".key", depth+1); err != nil {
			return err
		}
		if err := f.fill(e, path+".elem", depth+1); err != nil {
			return err
		}
		m.SetMapIndex(k, e)
		v.Set(m)
	case reflect.Struct:
		for i := range v.NumField() {
			field := v.Type().Field(i)
			if !field.IsExported() {
				if transient[v.Type().String()+"."+field.Name] {
					continue
				}
				return fmt.Errorf("%s.%s is unexported: encoding/gob drops it", path, field.Name)
			}
			if err := f.fill(v.Field(i), path+"."+field.Name, depth); err != nil {
				return err
			}
		}
	case reflect.Interface:
		c, ok := f.iface[v.Type()]
		if !ok {
			return fmt.Errorf("%s is a %v, which no registered type fills", path, v.Type())
		}
		concrete := reflect.New(c.Type()).Elem()
		if err := f.fill(concrete, path, depth+1); err != nil {
			return err
		}
		v.Set(concrete)
	default:
		return fmt.Errorf("%s is a %v, which encoding/gob cannot carry", path, v.Kind())
	}
	return nil
}
