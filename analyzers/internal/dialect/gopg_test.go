package dialect

import (
	"go/types"
	"testing"
)

// TestGopgUnderscore pins go-pg's internal.Underscore, which differs from
// bun's: a capital at the end of the name starts no word.
func TestGopgUnderscore(t *testing.T) {
	for in, want := range map[string]string{
		"ID": "id", "UserID": "user_id", "HTTPServer": "http_server",
		"CreditCount": "credit_count", "UserA": "usera", "Balance": "balance",
	} {
		if got := gopgUnderscore(in); got != want {
			t.Errorf("gopgUnderscore(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestGopgNaming checks the table, columns and primary keys read from a
// model's pg tags.
func TestGopgNaming(t *testing.T) {
	field := func(name string, embedded bool) *types.Var {
		return types.NewField(0, nil, name, types.Typ[types.Int64], embedded)
	}
	st := types.NewStruct([]*types.Var{
		types.NewField(0, nil, "tableName", types.NewStruct(nil, nil), false),
		field("ID", false), field("UserID", false), field("Email", false), field("Secret", false), field("Code", false),
	}, []string{`pg:"app.users,alias:u"`, ``, ``, `pg:"mail,unique"`, `pg:"-"`, `pg:",pk"`})
	named := types.NewNamed(types.NewTypeName(0, nil, "User", nil), st, nil)

	table, columnOf := gopgModelColumns(named)
	if table != "users" {
		t.Errorf("table = %q, want users", table)
	}
	for f, want := range map[string]string{"ID": "id", "UserID": "user_id", "Email": "mail", "Secret": "", "tableName": ""} {
		if got, _ := columnOf(f); got != want {
			t.Errorf("column of %s = %q, want %q", f, got, want)
		}
	}
	// ID comes first, when no field is a key yet: both are keys.
	if pks := gopgPKs(named); len(pks) != 2 || pks[0] != "id" || pks[1] != "code" {
		t.Errorf("primary keys = %v, want [id code]", pks)
	}
}

// TestGopgDefaultTable checks the table of a model without a tableName
// field: the plural of its underscored name, as go-pg's newTable gives;
// a tableName naming no table leaves it unknown.
func TestGopgDefaultTable(t *testing.T) {
	named := func(name string, fields []*types.Var, tags []string) *types.Named {
		return types.NewNamed(types.NewTypeName(0, nil, name, nil), types.NewStruct(fields, tags), nil)
	}
	code := types.NewField(0, nil, "Code", types.Typ[types.String], false)
	if table, _ := gopgModelColumns(named("InviteCode", []*types.Var{code}, []string{`pg:",unique"`})); table != "invite_codes" {
		t.Errorf("table = %q, want invite_codes", table)
	}
	none := types.NewField(0, nil, "tableName", types.NewStruct(nil, nil), false)
	if table, columnOf := gopgModelColumns(named("Row", []*types.Var{none, code}, []string{`pg:"_"`, ``})); table != "" || columnOf != nil {
		t.Errorf("table = %q, want none for pg:\"_\"", table)
	}
}
