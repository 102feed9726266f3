package noversion

import (
	_ "embed"
	"fmt"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/config"
	"github.com/idemlint/idemlint/analyzers/internal/dialect"
	"github.com/idemlint/idemlint/analyzers/internal/ops"
	"github.com/idemlint/idemlint/analyzers/internal/report"
	"github.com/idemlint/idemlint/analyzers/internal/schema"
	"github.com/idemlint/idemlint/analyzers/internal/sqltext"
)

//go:embed doc.go
var doc string

// Analyzer reports updates of versioned rows that break optimistic
// concurrency.
var Analyzer = &analysis.Analyzer{
	Name:     "noversion",
	Doc:      report.Doc(doc, "noversion"),
	URL:      report.URL("noversion"),
	Requires: []*analysis.Analyzer{config.Analyzer, ops.Analyzer, schema.Analyzer},
	Run:      report.Guard(run),
	// The package's own type errors are the driver's to report; with
	// RunDespiteErrors its importers still get this package's facts.
	RunDespiteErrors: true,
}

// write is an update together with the version of the table it writes.
type write struct {
	fn      *ssa.Function
	u       *ops.Update
	table   string
	version schema.Version
	// desc names the update with its table.
	desc string
	// inferred: no schema source knows the table; an update of this
	// package compares or bumps its version column.
	inferred bool
}

func run(pass *analysis.Pass) (any, error) {
	sch, _ := pass.ResultOf[schema.Analyzer].(*schema.Schema)
	cfg, _ := pass.ResultOf[config.Analyzer].(*config.Config)
	return ops.Analyze(pass, func(r *report.Reporter, res *ops.Result) func(*ssa.Function) {
		if sch == nil {
			return nil
		}
		vs := res.Versioning(sch, cfg)
		guarded := guardedColumns(res, vs)
		return func(fn *ssa.Function) {
			for _, u := range res.Updates(fn) {
				if w := resolve(vs, fn, u); w != nil && !blind(res, vs, guarded, w) {
					check(r, res, w)
				}
			}
		}
	})
}

// resolve names the table of an update and its version column; nil when
// the package does not treat the row as versioned (ops.Versioning) or the
// table is not known.
func resolve(vs *ops.Versioning, fn *ssa.Function, u *ops.Update) *write {
	w := &write{fn: fn, u: u, table: u.Table, desc: u.Desc}
	var ok bool
	if u.Model != nil {
		if w.version, ok = vs.Model(u.Model); !ok {
			return nil
		}
		w.table, _ = vs.Schema().Table(u.Model)
		w.desc = u.Desc + " of " + w.table
	} else if w.version, w.inferred, ok = vs.Table(u.Table); !ok {
		return nil
	}
	if w.version.Field == "" && u.Model != nil {
		// A version column known from DDL: the model's field for it.
		if m, ok := vs.Schema().Model(u.Model); ok {
			for _, f := range m.Fields {
				if strings.EqualFold(f.Column, w.version.Column) {
					w.version.Field = f.Name
				}
			}
		}
		if w.version.Field == "" {
			return nil // the model does not map the version column
		}
	}
	return w
}

func check(r *report.Reporter, res *ops.Result, w *write) {
	u, v := w.u, w.version
	if u.WhereUnknown || !u.Keyed {
		return
	}
	if v.Kind == schema.VersionPlugin {
		checkPlugin(r, w)
		return
	}
	if !compares(w) {
		if !u.WritesValue(v.Column) {
			return // only atomic changes and constants, or only the version itself
		}
		if u.BumpsColumn(v.Column) && locked(res, w, nil) {
			return // the row is locked, and the bump tells optimistic writers
		}
		msg := predicateMessage(w)
		if locked(res, w, (*ops.Op).ReadLock) {
			// Locked by a SELECT ... FOR UPDATE, which bumps nothing.
			msg = lockedMessage(w)
		}
		r.Report(report.Finding{
			Pos:     u.Pos(),
			Rule:    "predicate",
			Message: fmt.Sprintf("%s can overwrite a concurrent edit: its WHERE does not compare %s", w.desc, v.Column),
			Detail:  msg,
		})
		return
	}
	if !u.WritesValue(v.Column) && len(u.Constants) == 0 {
		return
	}
	if u.Count == ops.CountIgnored || u.Count == ops.CountUnobservable {
		r.Report(report.Finding{
			Pos:     u.Pos(),
			Rule:    "unchecked",
			Message: fmt.Sprintf("%s misses a version conflict: 0 rows updated is not treated as one", w.desc),
			Detail:  uncheckedMessage(w),
		})
	}
}

// checkPlugin checks an update of a model with an optimisticlock.Version
// field: the plugin adds the predicate by itself, except under Unscoped
// and when the model's version is zero.
func checkPlugin(r *report.Reporter, w *write) {
	u, v := w.u, w.version
	d := dialect.For(u.Lib)
	if d.PluginBypass == nil || !u.WritesValue(v.Column) || compares(w) {
		return
	}
	plugin, why, fix := d.PluginBypass(u, v.Column, v.Field)
	if plugin == "" {
		return // not a statement the plugin versions
	}
	if why != "" {
		r.Report(report.Finding{
			Pos:     u.Pos(),
			Rule:    "bypass",
			Message: fmt.Sprintf("%s bypasses %s of %s.%s: a concurrent edit is silently overwritten", w.desc, plugin, u.ModelName(), v.Field),
			Detail: fmt.Sprintf("%s bypasses %s of %s.%s: %s, so a concurrent edit is silently overwritten; %s",
				w.desc, plugin, u.ModelName(), v.Field, why, fix),
		})
		return
	}
	if u.Count == ops.CountIgnored {
		r.Report(report.Finding{
			Pos:     u.Pos(),
			Rule:    "unchecked",
			Message: fmt.Sprintf("%s misses a version conflict: 0 rows updated is not treated as one", w.desc),
			Detail:  uncheckedMessage(w),
		})
	}
}

// why says what makes the table versioned.
func why(w *write) string {
	v := w.version
	switch v.Kind {
	case schema.VersionPlugin, schema.VersionField:
		holder := v.Field
		if w.u.Model != nil {
			holder = w.u.ModelName() + "." + v.Field
		} else {
			// SQL text updating a table a GORM model with a version
			// field maps.
			holder = fmt.Sprintf("%s.%s, the model's %s field,", w.table, v.Column, v.Field)
		}
		if v.Kind == schema.VersionPlugin {
			return holder + " is an optimisticlock.Version"
		}
		return holder + " is its version, compared or bumped by other updates"
	}
	if w.inferred {
		return fmt.Sprintf("another update of this package compares or bumps %s.%s", w.table, v.Column)
	}
	src := v.Source.From()
	switch v.Source.Kind {
	case schema.FromDDL:
		src = "the DDL"
	case schema.FromMigration:
		// Discovered, not configured: say where, so that the finding
		// is never there for a reason the user cannot see.
		return fmt.Sprintf("the migrations in %s/ declare %s.%s", v.Source.Name, w.table, v.Column)
	default:
		src = "the " + src + " schema"
	}
	return fmt.Sprintf("%s declares %s.%s", src, w.table, v.Column)
}

// lockedMessage is predicateMessage for an update after a row lock: the
// lock keeps concurrent lockers out, but a writer that read the row
// before and compares the version still matches, since this update does
// not bump it.
func lockedMessage(w *write) string {
	v := w.version
	return fmt.Sprintf("%s runs after a row lock but does not bump %s.%s, though %s is versioned (%s): a writer that read the row before the lock still finds its version and overwrites this change; %s",
		w.desc, w.table, v.Column, w.table, why(w), predicateFix(w, v.Column))
}

func predicateMessage(w *write) string {
	v := w.version
	return fmt.Sprintf("%s does not compare the version in its WHERE, though %s is versioned (%s): it silently overwrites a change another writer made since this one read the row; %s",
		w.desc, w.table, why(w), predicateFix(w, v.Column))
}

func predicateFix(w *write, col string) string {
	return dialect.For(w.u.Lib).VersionPredicate(w.u, col, w.version.Field)
}

func uncheckedMessage(w *write) string {
	u, v := w.u, w.version
	d := dialect.For(u.Lib)
	what, fix := d.UnobservableCount(u)
	if what == "" {
		what, fix = "its affected-row count is never checked", d.CheckCount
	}
	return fmt.Sprintf("%s compares %s.%s but %s: when another writer changed the row first nothing is updated and the caller carries on as if it succeeded; %s",
		w.desc, w.table, v.Column, what, fix)
}

func containsFold(list []string, s string) bool {
	for _, x := range list {
		if strings.EqualFold(x, s) {
			return true
		}
	}
	return false
}

// locked reports whether the update runs in a transaction after a lock
// taken on the same handle in the same function (SELECT ... FOR UPDATE,
// a locking helper), or in a SERIALIZABLE transaction; only, when kind is
// not nil, after locks it accepts.
func locked(res *ops.Result, w *write, kind func(*ops.Op) bool) bool {
	return res.Protection(w.fn, w.u.Handle, w.u.Instr, func(op *ops.Op) bool {
		if op.Instr == w.u.Instr || (kind != nil && !kind(op)) {
			return false
		}
		// The row locks of a write of another table do not count.
		return op.SQL == nil || op.SQL.Kind == sqltext.KindSelect || strings.EqualFold(op.SQL.Table.Name, w.table)
	}) != ops.Unprotected
}

// compares reports whether the update's WHERE pins the version: its
// column in SQL or a fragment, or its field in a GORM struct condition.
func compares(w *write) bool {
	v := w.version
	return w.u.ComparesColumn(v.Column) || (v.Field != "" && containsFold(w.u.WhereFields, v.Field))
}

// guardedColumns returns, by table, the columns the package's versioned
// writers assign: the updates that compare the version column.
func guardedColumns(res *ops.Result, vs *ops.Versioning) map[string]map[string]bool {
	out := map[string]map[string]bool{}
	for _, fn := range res.Funcs {
		for _, u := range res.Updates(fn) {
			w := resolve(vs, fn, u)
			if w == nil || !compares(w) {
				continue
			}
			t := strings.ToLower(w.table)
			if out[t] == nil {
				out[t] = map[string]bool{}
			}
			for _, c := range u.Assigns {
				out[t][strings.ToLower(c)] = true
			}
		}
	}
	return out
}

// blind reports whether w overwrites nothing a versioned writer changed:
// the function reads nothing of the row before it, and it sets only
// columns, named, that none of the package's updates comparing the
// version assigns, when the package has such updates of the table (their
// columns are then known) (an owner reference set from the request, where the edits that
// compare the version change the title and the body). Without the
// predicate such a write loses nothing: it neither writes back values
// read earlier nor overwrites the versioned writers' columns.
func blind(res *ops.Result, vs *ops.Versioning, guarded map[string]map[string]bool, w *write) bool {
	u := w.u
	cols := guarded[strings.ToLower(w.table)]
	if len(u.Assigns) == 0 || len(cols) == 0 || cols["*"] {
		// No versioned writer seen here, or one writing every column:
		// what it changes is not known to be apart.
		return false
	}
	for _, c := range u.Assigns {
		if c == "*" || cols[strings.ToLower(c)] || strings.EqualFold(c, w.version.Column) {
			return false
		}
	}
	for _, rd := range res.ColumnReads(w.fn) {
		t := rd.Table
		if t == "" && rd.Model != nil {
			t, _ = vs.Schema().Table(rd.Model)
		}
		if strings.EqualFold(t, w.table) && ops.Reaches(rd.Instr, u.Instr, nil) {
			return false
		}
	}
	for _, op := range res.Rows(w.fn) {
		if op.Kind == ops.Lookup && strings.EqualFold(op.Table, w.table) && ops.Reaches(op.Instr, u.Instr, nil) {
			return false
		}
	}
	return true
}
