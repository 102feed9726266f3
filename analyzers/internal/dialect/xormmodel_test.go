package dialect

import (
	"go/types"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/idemlint/idemlint/analyzers/internal/knowledge"
)

// TestXormMappers checks the names SnakeMapper, GonicMapper and
// SameMapper give (Obj2Table of xorm.io/xorm v1.4.3's names, run on these
// names), and the agreement rule when the mapper is not known.
func TestXormMappers(t *testing.T) {
	for name, want := range map[string][4]string{ // snake, gonic, same, agreed
		"ID":             {"i_d", "id", "ID", ""},
		"TaskID":         {"task_i_d", "task_id", "TaskID", ""},
		"ProjectViewID":  {"project_view_i_d", "project_view_id", "ProjectViewID", ""},
		"MyUID":          {"my_u_i_d", "my_uid", "MyUID", ""},
		"HTTPServer":     {"h_t_t_p_server", "http_server", "HTTPServer", ""},
		"HTTPSProxy":     {"h_t_t_p_s_proxy", "https_proxy", "HTTPSProxy", ""},
		"XMLHttpRequest": {"x_m_l_http_request", "xml_http_request", "XMLHttpRequest", ""},
		"UUIDv4":         {"u_u_i_dv4", "uui_dv4", "UUIDv4", ""},
		"AB":             {"a_b", "ab", "AB", ""},
		"ABc":            {"a_bc", "a_bc", "ABc", ""},
		"Name":           {"name", "name", "Name", "name"},
		"OrgId":          {"org_id", "org_id", "OrgId", "org_id"},
		"A":              {"a", "a", "A", "a"},
	} {
		for i, m := range []xormMapper{xormSnake, xormGonic, xormSame, xormAgreed} {
			assert.Equal(t, want[i], m.name(name), "%s by %s", name, xormMapperWords[m])
		}
	}
}

// TestXormNaming checks what the settings a package sees make of the
// mappers: one known mapper names, anything else is the agreement rule.
func TestXormNaming(t *testing.T) {
	for _, c := range []struct {
		settings []string
		want     xormNaming
	}{
		{nil, xormNaming{}},
		{[]string{"column=gonic", "table=gonic"}, xormNaming{table: xormGonic, column: xormGonic}},
		{[]string{"column=snake"}, xormNaming{column: xormSnake}},
		{[]string{"column=same", "table=gonic"}, xormNaming{table: xormGonic, column: xormSame}},
		{[]string{"column=gonic", "column=snake", "table=gonic"}, xormNaming{table: xormGonic}},
		{[]string{"column=?", "table=?"}, xormNaming{}},
		{[]string{"column=?", "column=gonic"}, xormNaming{}},
	} {
		assert.Equal(t, c.want, xormNamingOf(c.settings), "%v", c.settings)
	}
}

// TestXormNames checks what each setter call says it sets.
func TestXormNames(t *testing.T) {
	pkg := types.NewPackage(xormNamesPkg, "names")
	mapper := func(name string) types.Type {
		return types.NewNamed(types.NewTypeName(0, pkg, name, nil), types.NewStruct(nil, nil), nil)
	}
	row := func(name string) *knowledge.Call {
		return &knowledge.Call{Func: knowledge.Func{Pkg: xormPkg, Recv: "Engine", Name: name}, Kind: knowledge.Naming}
	}
	assert.Equal(t, []string{"table=gonic", "column=gonic"}, xormNames(row("SetMapper"), mapper("GonicMapper")))
	assert.Equal(t, []string{"table=same"}, xormNames(row("SetTableMapper"), types.NewPointer(mapper("SameMapper"))))
	assert.Equal(t, []string{"column=snake"}, xormNames(row("SetColumnMapper"), mapper("SnakeMapper")))
	assert.Equal(t, []string{"column=?"}, xormNames(row("SetColumnMapper"), mapper("PrefixMapper")))
	assert.Equal(t, []string{"table=?", "column=?"}, xormNames(row("SetMapper"), nil))
}
