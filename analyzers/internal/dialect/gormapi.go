package dialect

import (
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/knowledge"
	"github.com/idemlint/idemlint/analyzers/internal/ops"
	"github.com/idemlint/idemlint/analyzers/internal/sqltext"
	"github.com/idemlint/idemlint/analyzers/internal/ssaval"
)

// A gormAPI is one major version of GORM. v2 (gorm.io/gorm) and v1
// (github.com/jinzhu/gorm) share the chained API's shape, methods of *DB
// returning a *DB whose Error and RowsAffected fields carry the outcome,
// so one set of hooks (gorm*.go) serves both, told apart by the package
// of the call; the fields say where they differ.
type gormAPI struct {
	// lib is the family recorded on the operations, which picks the
	// dialect whose wording the fixes use.
	lib, pkg string
	// variadicUpdate: Update and UpdateColumn take (attrs ...interface{}),
	// so Update("c", v) passes the column and its value in one slice (v1).
	variadicUpdate bool
	// insertOption is the setting whose value ends the INSERT
	// (Set("gorm:insert_option", "ON CONFLICT (email) DO NOTHING"), v1's
	// createCallback); "" when the API has none.
	insertOption string
	// findRaises: Find into a struct returns ErrRecordNotFound when no
	// row matched, as First does (v1's queryCallback); v2's Find never
	// does.
	findRaises bool
}

var (
	gormV2 = &gormAPI{lib: "gorm", pkg: "gorm.io/gorm"}
	gormV1 = &gormAPI{lib: "gormv1", pkg: "github.com/jinzhu/gorm", variadicUpdate: true, insertOption: "gorm:insert_option", findRaises: true}
)

// library is the API's ops hooks: the same for both versions, which
// read the version's differences from the call's package (gormOf).
func (api *gormAPI) library() *ops.Library {
	return &ops.Library{
		Name:     api.lib,
		Pkg:      api.pkg,
		Row:      gormRowOp,
		ChainRow: gormChainRow,
		NewModel: gormSaveInserts,
		PrimaryFields: func(t types.Type) []string {
			if named, ok := types.Unalias(t).(*types.Named); ok {
				return gormPrimaryFields(named.Obj())
			}
			return nil
		},
		Read:       gormReadOf,
		Writes:     gormWritesOf,
		Update:     gormUpdate,
		WholeModel: gormWholeModel,
		Stamped:    gormStamped,
		Count:      gormExecCount,
	}
}

// gormOf returns the GORM API whose package path is, or nil.
func gormOf(path string) *gormAPI {
	for _, api := range []*gormAPI{gormV2, gormV1} {
		if path == api.pkg {
			return api
		}
	}
	return nil
}

// columnValue returns the column and value arguments of Update("c", v)
// or UpdateColumn("c", v), nil when the call passes them otherwise.
func (api *gormAPI) columnValue(site knowledge.Site) (col, val ssa.Value) {
	if !api.variadicUpdate {
		return site.RoleArg(knowledge.Column), ssaval.Unwrap(site.RoleArg(knowledge.Value))
	}
	i, ok := site.Row.Param(knowledge.Column)
	if !ok {
		return nil, nil
	}
	attrs, ok := site.Variadic(i)
	if !ok || len(attrs) != 2 {
		return nil, nil
	}
	return attrs[0], attrs[1]
}

// gormInsertOption reads a Set step naming the API's insert option: the
// conflict clause it adds to the INSERT, Unknown when its value is not
// one understood. ok is false for any other step.
func gormInsertOption(step knowledge.Site) (*ops.RowConflict, bool) {
	api := gormOf(step.Row.Func.Pkg)
	if api == nil || api.insertOption == "" {
		return nil, false
	}
	if key, _ := ssaval.ConstString(step.RoleArg(knowledge.Key)); key != api.insertOption {
		return nil, false
	}
	text, ok := ssaval.ConstString(step.RoleArg(knowledge.SQL))
	c := sqltext.ParseConflict(text)
	if !ok || c.Unknown {
		return &ops.RowConflict{Unknown: true}, true
	}
	return &ops.RowConflict{Columns: c.TargetColumns}, true
}
