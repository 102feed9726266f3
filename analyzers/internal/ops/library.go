package ops

import (
	"encoding/gob"
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
	// Also are the import paths of its other major versions, when they
	// are not under Pkg (go-redis v8's github.com/go-redis/redis/v8).
	Pkg  string
	Also []string

	// Row classifies a finder or insert call (knowledge.Find,
	// knowledge.Insert) as a lookup or an insert with its keys, and an
	// update (knowledge.Update) whose returned count says it touched no
	// row as a lookup (RowOp.ByUpdate).
	Row func(site knowledge.Site) *RowOp
	// ChainRow fills in a lookup's model, table and keys from the query
	// a caller built and gave to a helper that runs the finder on it
	// (RowOp.ChainParam); false when the query is not understood.
	ChainRow func(chain ssa.Value, op *RowOp) bool
	// NewModel reports whether the model a caller gives to an insert
	// that happens only for a new row (RowOp.IfNew) certainly has no
	// primary key.
	NewModel func(model ssa.Value) bool
	// PrimaryFields names the fields of a model type that hold its
	// primary key (by their promoted names), or nil: zero after a read
	// into the model, they say it found no row.
	PrimaryFields func(t types.Type) []string
	// Read makes the read of the row a finder call scans into its model.
	Read func(call *ssa.Call, site knowledge.Site) *ColumnRead
	// Writes makes the column writes of a save or update call.
	Writes func(fn *ssa.Function, call *ssa.Call, site knowledge.Site) []*ColumnWrite
	// Update summarises the UPDATE statement a save or update call runs.
	Update func(call ssa.CallInstruction, site knowledge.Site) *Update
	// WholeModel returns the model a save or update call writes whole
	// (every column from the model's fields), for summaries.
	WholeModel func(site knowledge.Site) (model ssa.Value, ok bool)
	// Stamped reports whether the library sets the column of a field of
	// model t itself on every update (GORM's UpdatedAt), so that a whole
	// write does not write it back as read.
	Stamped func(t types.Type, field string) bool
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
	// in the library's name; "" and nil when the library cannot tell. fn
	// is the function making the call, whose package's naming settings
	// apply (Naming).
	ModelColumns func(fn *ssa.Function, t types.Type) (table string, columnOf func(field string) (string, bool))

	// Generated and the hooks after it serve a library whose API is
	// generated into the user's module as functions whose bodies say
	// what they run (a query method running one constant SQL statement):
	// what a call does is read from the callee itself, in its own
	// package, and from its summary in others.
	//
	// Generated returns what the library says of fn, a function with a
	// body in the package under analysis, or nil when the library did
	// not generate it. Fact is a value of the type it returns, registered
	// for the encoding of the summaries that carry one.
	Generated func(fn *ssa.Function) GeneratedFact
	Fact      GeneratedFact
	// Summarize adds to the summary of a function the library generated,
	// f being what Generated said of it, what its callers in other
	// packages see: the locks it takes on the handle it runs on, and f
	// itself (Summary.Generated) when the hooks below read it there.
	Summarize func(fn *ssa.Function, f GeneratedFact, s *Summary) *Summary
	// OwnRows makes the lookups and inserts a generated function runs
	// itself, for its summary: the value bound to each key stands for
	// the parameter, or the field of one, that refs maps it to.
	OwnRows func(fn *ssa.Function, f GeneratedFact, refs map[ssa.Value]ParamRef) []*RowOp
	// GeneratedOps and GeneratedRow classify a call of a generated
	// function of the package under analysis (in other packages its
	// summary's locks, lookups and inserts are the call's);
	// GeneratedRead, GeneratedWrites and GeneratedUpdate make the read,
	// the writes and the update of a call of one in any package, f being
	// Generated's in the callee's package and its summary's elsewhere.
	GeneratedOps    func(call ssa.CallInstruction, callee *ssa.Function, f GeneratedFact) []*Op
	GeneratedRow    func(call ssa.CallInstruction, callee *ssa.Function, f GeneratedFact) []*RowOp
	GeneratedRead   func(call *ssa.Call, callee *ssa.Function, f GeneratedFact) *ColumnRead
	GeneratedWrites func(call *ssa.Call, callee *ssa.Function, f GeneratedFact) []*ColumnWrite
	GeneratedUpdate func(call ssa.CallInstruction, callee *ssa.Function, f GeneratedFact) *Update
	// Binds returns, for a generated function with a body whose result
	// runs on a handle it is given (a constructor New(db), a method
	// WithTx(tx)), the argument holding that handle (receiver counted),
	// or -1. Root follows it in the function's package; in others the
	// function's summary says it (Summary.BindsHandle).
	Binds func(fn *ssa.Function) int
}

// A GeneratedFact is what a library says of a function it generated
// (Library.Generated), in a type of its own that only its hooks read. Its
// exported fields travel in the function's summary to other packages.
type GeneratedFact interface {
	// Lib is the Name of the library that generated the function.
	Lib() string
	String() string
}

// libraries are the registered libraries. RegisterLibrary is called from
// package initialisation only, so they are read without a lock.
var libraries []*Library

// RegisterLibrary adds a library's hooks; a dialect's init calls it. The
// type of its generated functions' facts is registered with encoding/gob,
// through which the drivers that serialise facts (go vet, gopls) encode
// the summaries holding one.
func RegisterLibrary(l *Library) {
	libraries = append(libraries, l)
	if l.Fact != nil {
		gob.Register(l.Fact)
	}
}

// libraryOf returns the library of the package with this import path, or
// nil.
func libraryOf(path string) *Library {
	for _, l := range libraries {
		for _, pkg := range append([]string{l.Pkg}, l.Also...) {
			if path == pkg || strings.HasPrefix(path, pkg+"/") {
				return l
			}
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

// generatedFunc is a function a library generated, with what the library
// says of it.
type generatedFunc struct {
	lib  *Library
	fact GeneratedFact
}

// generatedHere returns the library that generated fn, a function with a
// body in the package under analysis, and what it says of fn; nil when no
// library did. The answer is kept: every analyzer asks it at every call
// of fn, and their passes over the package may run at once.
func (e *extractor) generatedHere(fn *ssa.Function) (*Library, GeneratedFact) {
	if fn == nil || len(fn.Blocks) == 0 {
		return nil, nil
	}
	e.genMu.Lock()
	g, ok := e.gen[fn]
	e.genMu.Unlock()
	if !ok {
		for _, l := range libraries {
			if l.Generated != nil {
				if f := l.Generated(fn); f != nil {
					g = generatedFunc{lib: l, fact: f}
					break
				}
			}
		}
		e.genMu.Lock()
		e.gen[fn] = g
		e.genMu.Unlock()
	}
	return g.lib, g.fact
}

// generated returns the library that generated callee and what it says
// of it: computed for a function of this package, else its summary's.
func (e *extractor) generated(callee *ssa.Function) (*Library, GeneratedFact) {
	if callee == nil {
		return nil, nil
	}
	if len(callee.Blocks) > 0 {
		return e.generatedHere(callee)
	}
	fn := callee
	if fn.Origin() != nil {
		fn = fn.Origin()
	}
	if s := e.summary(fn); s != nil && s.Generated != nil {
		if l := libraryNamed(s.Generated.Lib()); l != nil {
			return l, s.Generated
		}
	}
	return nil, nil
}

// boundArg returns the argument (receiver counted) holding the handle
// that the result of a call of fn runs on, when a library generated fn
// so (Library.Binds); -1 otherwise.
func boundArg(fn *ssa.Function) int {
	for _, l := range libraries {
		if l.Binds != nil {
			if i := l.Binds(fn); i >= 0 {
				return i
			}
		}
	}
	return -1
}
