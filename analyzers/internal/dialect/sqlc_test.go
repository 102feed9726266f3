package dialect

import (
	"bytes"
	"encoding/gob"
	"reflect"
	"testing"

	"github.com/idemlint/idemlint/analyzers/internal/ops"
)

// TestSQLCFactEncodes round-trips a summary carrying a sqlc query through
// encoding/gob, as go vet and gopls serialise facts: the query's type is
// registered with the library (ops.Library.Fact), and what the hooks read
// in other packages survives.
func TestSQLCFactEncodes(t *testing.T) {
	in := &ops.Summary{
		Locks: []ops.ParamLock{{Param: 0, Desc: "UPDATE on accounts (sqlc SetBalance)"}},
		Generated: &sqlcQuery{
			Name: "GetAccount", Cmd: ":one", SQL: "-- name: GetAccount :one\nSELECT id, balance FROM accounts WHERE id = $1",
			Affected: false, Handle: -1,
			Binds: []sqlcBind{{Param: 1, Field: "ID"}},
			Cols:  []sqlcCol{{Column: "id", Field: 0}, {Column: "balance", Field: 1}},
		},
	}
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(in); err != nil {
		t.Fatal(err)
	}
	out := new(ops.Summary)
	if err := gob.NewDecoder(&buf).Decode(out); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(in, out) {
		t.Errorf("decoded %+v, want %+v", out, in)
	}
	if got := out.Generated.Lib(); got != sqlcDialect.Lib {
		t.Errorf("Lib() = %q, want %q", got, sqlcDialect.Lib)
	}
}
