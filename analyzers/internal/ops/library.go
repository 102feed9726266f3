package ops

import (
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/knowledge"
	"github.com/idemlint/idemlint/analyzers/internal/ssaval"
)

// A Library is how the calls of one database library become operations:
// what its finishers look up and insert, read and write, and update. Each
// library's dialect (package dialect) registers its Library; the core of
// ops hands every call of the library's packages to it and knows no
// library by name. A nil hook is a kind of operation the library does not
// express, or that its knowledge rows alone describe.
type Library struct {
	// Name is the family recorded on the operations (RowOp.Lib,
	// ColumnRead.Lib, ColumnWrite.Lib, Update.Lib) and in summaries.
	Name string
	// Pkg is the library's import path; its subpackages are its too.
	Pkg string

	// Row classifies a finder or insert call (knowledge.Find,
	// knowledge.Insert) as a lookup or an insert with its keys.
	Row func(site knowledge.Site) *RowOp
	// Read makes the read of the row a finder call scans into its model.
	Read func(call *ssa.Call, site knowledge.Site) *ColumnRead
	// Writes makes the column writes of a save or update call.
	Writes func(fn *ssa.Function, call *ssa.Call, site knowledge.Site) []*ColumnWrite
	// Update summarises the UPDATE statement a save or update call runs.
	Update func(call ssa.CallInstruction, site knowledge.Site) *Update
	// WholeModel returns the model a save or update call writes whole
	// (every column from the model's fields), for summaries.
	WholeModel func(site knowledge.Site) (model ssa.Value, ok bool)
	// Count says how the caller uses the affected-row count of a raw
	// statement the library runs at site (GORM's db.Exec returns a
	// *gorm.DB whose RowsAffected says it); ok is false where the result
	// carries it as database/sql's does.
	Count func(call ssa.CallInstruction, site knowledge.Site) (use CountUse, ok bool)
	// BuildSQL reads the SQL text a query builder of the library made at
	// run time (squirrel's ToSql) from the value passed as a database
	// call's SQL argument, with the values bound to its placeholders in
	// order ($1 is binds[0]); binds, when not nil, is the value passed as
	// the call's variadic binds, which must then be the builder's own. ok
	// is false when the value is not the library's or what it builds
	// cannot be known.
	BuildSQL func(sql, binds ssa.Value) (text string, values []ssa.Value, ok bool)
	// Runner returns the handle (the *sql.DB or *sql.Tx) a builder of the
	// library that runs its own SQL was given (squirrel's RunWith), or
	// nil; BuildSQL then reads the builder itself, the receiver of the
	// library's finisher (QueryRowContext, ExecContext).
	Runner func(builder ssa.Value) ssa.Value
	// Claims reports whether a function belongs to the library's API
	// generated into the user's module (ent's client), which the library's
	// knowledge recognises by its shape: the Client hooks then say what a
	// call of it does, and nothing else looks at the call.
	Claims func(callee *types.Func) bool
	// ClientOps, ClientRow, ClientRead, ClientWrites and ClientUpdate are
	// Row, Read, Writes and Update for a call of the generated API, with
	// the transaction and lock operations it performs.
	ClientOps    func(call ssa.CallInstruction, callee *types.Func) []*Op
	ClientRow    func(call ssa.CallInstruction, callee *types.Func) *RowOp
	ClientRead   func(call *ssa.Call, callee *types.Func) *ColumnRead
	ClientWrites func(call ssa.CallInstruction, callee *types.Func) []*ColumnWrite
	ClientUpdate func(call ssa.CallInstruction, callee *types.Func) *Update
	// ModelColumns names the table of a model type and the column of each
	// of its fields, for the reads and writes a helper's summary reports
	// in the library's name; "" and nil when the library cannot tell.
	ModelColumns func(t types.Type) (table string, columnOf func(field string) (string, bool))
}

// libraries are the registered libraries. RegisterLibrary is called from
// package initialisation only, so they are read without a lock.
var libraries []*Library

// RegisterLibrary adds a library's hooks; a dialect's init calls it.
func RegisterLibrary(l *Library) { libraries = append(libraries, l) }

// libraryOf returns the library of the package with this import path, or
// nil.
func libraryOf(path string) *Library {
	for _, l := range libraries {
		if path == l.Pkg || strings.HasPrefix(path, l.Pkg+"/") {
			return l
		}
	}
	return nil
}

// libraryAt returns the library of the call at site: that of the
// knowledge row it matched.
func libraryAt(site knowledge.Site) *Library {
	if site.Row != nil {
		return libraryOf(site.Row.Func.Pkg)
	}
	return libraryOf(site.Func.Pkg)
}

// libraryNamed returns the library recorded as name on operations, or nil.
func libraryNamed(name string) *Library {
	for _, l := range libraries {
		if l.Name == name {
			return l
		}
	}
	return nil
}

// libraryRead is the Read hook of the call's library, or nil.
func libraryRead(call *ssa.Call, site knowledge.Site) *ColumnRead {
	if l := libraryAt(site); l != nil && l.Read != nil {
		return l.Read(call, site)
	}
	return nil
}

// builtSQL asks the libraries for the SQL text a builder made and the
// values it binds, for the SQL argument of a database call.
func builtSQL(sqlArg, binds ssa.Value) (string, []ssa.Value, bool) {
	for _, l := range libraries {
		if l.BuildSQL != nil {
			if text, vals, ok := l.BuildSQL(sqlArg, binds); ok {
				return text, vals, true
			}
		}
	}
	return "", nil, false
}

// builderOf returns the library whose query builder made the SQL
// argument, or nil.
func builderOf(sqlArg, binds ssa.Value) *Library {
	for _, l := range libraries {
		if l.BuildSQL != nil {
			if _, _, ok := l.BuildSQL(sqlArg, binds); ok {
				return l
			}
		}
	}
	return nil
}

// sqlLib names the library family of the SQL a database call runs: that
// of the query builder that made it, so that fixes are written in the
// builder's API, or plain SQL.
func sqlLib(site knowledge.Site) string {
	if sqlArg := site.RoleArg(knowledge.SQL); sqlArg != nil {
		if _, isConst := ssaval.ConstString(sqlArg); !isConst {
			if l := builderOf(sqlArg, nil); l != nil {
				return l.Name
			}
		}
	} else if l := selfRunning(site); l != nil {
		return l.Name
	}
	return "sql"
}

// selfRunning returns the library of a finisher that runs the SQL its
// builder receiver made (squirrel's RunWith(db).QueryRowContext(ctx)),
// or nil.
func selfRunning(site knowledge.Site) *Library {
	if l := libraryAt(site); l != nil && l.BuildSQL != nil && l.Runner != nil && site.Receiver() != nil {
		return l
	}
	return nil
}

// claimant returns the library whose generated API callee belongs to, or
// nil.
func claimant(callee *types.Func) *Library {
	for _, l := range libraries {
		if l.Claims != nil && l.Claims(callee) {
			return l
		}
	}
	return nil
}
