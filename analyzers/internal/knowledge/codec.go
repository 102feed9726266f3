package knowledge

const (
	jsonPkg      = "encoding/json"
	goccyJSONPkg = "github.com/goccy/go-json"
)

// codecs: encoding and decoding values (encoding/json and the drop-in
// replacements that mirror its API).
//
// A value decoded from bytes read from a column, changed in Go and
// encoded again is still the column's value computed in Go: a JSON
// document read, a key of it changed, and the document written back is a
// read-modify-write of the column. The rows say which argument carries
// the encoding (Encoded; a Decoder's is its reader, the receiver), which
// is filled (Dest) and which is encoded (Value, the encoding the
// ValueResult), so that the ops layer follows the value through them.
var codecs = library{
	name:  "codec",
	calls: codecCalls(),
}

func codecCalls() []Call {
	var calls []Call
	for _, pkg := range []string{jsonPkg, goccyJSONPkg} {
		calls = append(calls,
			Call{Func: fn(pkg, "Unmarshal"), Kind: Decode, Params: []Param{p(0, Encoded), p(1, Dest)}},
			Call{Func: method(pkg, "Decoder", "Decode"), Kind: Decode, Params: []Param{p(0, Dest)}},
			Call{Func: fn(pkg, "Marshal"), Kind: Encode, Params: []Param{p(0, Value)}, Result: ValueResult},
			Call{Func: fn(pkg, "MarshalIndent"), Kind: Encode, Params: []Param{p(0, Value)}, Result: ValueResult},
		)
	}
	return calls
}
