package checkinsert

import (
	_ "embed"
	"fmt"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/dialect"
	"github.com/idemlint/idemlint/analyzers/internal/knowledge"
	"github.com/idemlint/idemlint/analyzers/internal/ops"
	"github.com/idemlint/idemlint/analyzers/internal/report"
	"github.com/idemlint/idemlint/analyzers/internal/schema"
	"github.com/idemlint/idemlint/analyzers/internal/ssaval"
)

//go:embed doc.go
var doc string

// Analyzer reports lookup-then-insert races.
var Analyzer = &analysis.Analyzer{
	Name:     "checkinsert",
	Doc:      report.Doc(doc, "checkinsert"),
	URL:      report.URL("checkinsert"),
	Requires: []*analysis.Analyzer{ops.Analyzer, schema.Analyzer},
	Run:      report.Guard(run),
	// The package's own type errors are the driver's to report; with
	// RunDespiteErrors its importers still get this package's facts.
	RunDespiteErrors: true,
}

func run(pass *analysis.Pass) (any, error) {
	sch, _ := pass.ResultOf[schema.Analyzer].(*schema.Schema)
	return ops.Analyze(pass, func(r *report.Reporter, res *ops.Result) func(*ssa.Function) {
		return func(fn *ssa.Function) { check(r, res, sch, fn) }
	})
}

// check reports, in fn, each insert that runs on the path where a lookup
// of the same table and key found nothing, with nothing making the pair
// atomic; and each GORM FirstOrCreate whose error path does not handle a
// unique violation.
func check(r *report.Reporter, res *ops.Result, sch *schema.Schema, fn *ssa.Function) {
	var lookups, inserts []*ops.RowOp
	for _, op := range res.Rows(fn) {
		switch op.Kind {
		case ops.Lookup:
			if op = resolve(sch, op); op != nil {
				lookups = append(lookups, op)
			}
		case ops.Insert:
			if op.IfNew {
				continue // an insert only for a caller giving a new model
			}
			if op = resolve(sch, op); op != nil {
				inserts = append(inserts, op)
			}
		case ops.LookupOrInsert:
			checkFirstOrCreate(r, res, sch, fn, op)
		}
	}
	if len(lookups) == 0 || len(inserts) == 0 {
		return
	}
	fnOps := res.Ops(fn)
	lookups = slices.DeleteFunc(lookups, seeding)
	for _, in := range inserts {
		for _, lk := range lookups {
			if lk.Instr == in.Instr || lk.Table == "" || !strings.EqualFold(lk.Table, in.Table) {
				continue
			}
			key := sharedKey(lk, in)
			if len(key) == 0 {
				continue
			}
			branch := notFoundBranch(res, lk, in)
			if branch == nil {
				continue
			}
			if in.Conflict.Covers(key) || in.HandlesUnique {
				continue
			}
			// Catching the unique violation, or reading the row again
			// on the insert's error, handles the race; after an update
			// that found nothing, only when the row is then updated
			// again: the second caller meant to write it.
			handled := res.ChecksUnique(fn, ops.ErrOf(in.Instr)) || rereadsOnError(res, sch, fn, in)
			if handled && (!lk.ByUpdate || updatesAgain(lookups, in, key)) {
				continue
			}
			if protected(res, fn, lk) {
				continue
			}
			if effect := sideEffect(fnOps, lk, in, branch); effect != nil {
				r.Report(report.Finding{
					Pos:     effect.Pos(),
					Rule:    "effect-before-claim",
					Message: effectHeadline(effect, lk, in, key),
					Detail:  effectMessage(effect, lk, in, key),
					Related: related(lk, in),
				})
			} else {
				r.Report(report.Finding{
					Pos:     in.Pos(),
					Rule:    "race",
					Message: raceHeadline(lk, in, key, handled),
					Detail:  raceMessage(sch, lk, in, key, handled),
					Related: related(lk, nil),
				})
			}
			break
		}
	}
}

// resolve names the table and key columns of a GORM operation from its
// model, through the schema layer; nil when they are not known.
func resolve(sch *schema.Schema, op *ops.RowOp) *ops.RowOp {
	if op.Model == nil {
		return op
	}
	table := op.Table // named by the operation itself (GORM's Table("t"))
	if table == "" {
		var ok bool
		if table, ok = sch.Table(op.Model); !ok || table == "" {
			return nil
		}
	}
	out := *op
	out.Table = table
	out.Keys = nil
	for _, k := range op.Keys {
		if k.Column == "" {
			col, ok := sch.Column(op.Model, k.Field)
			if !ok {
				continue
			}
			k.Column = col
		}
		out.Keys = append(out.Keys, k)
	}
	return &out
}

// updatesAgain reports whether an update-then-insert runs an update of
// the inserted row's key after the insert (the lookup's own, in a loop,
// or another): what answers the unique violation of a concurrent insert
// by writing the row it made.
func updatesAgain(lookups []*ops.RowOp, in *ops.RowOp, key []string) bool {
	for _, u := range lookups {
		if !u.ByUpdate || !strings.EqualFold(u.Table, in.Table) || !ops.Reaches(in.Instr, u.Instr, nil) {
			continue
		}
		if shared := sharedKey(u, in); len(shared) >= len(key) {
			return true
		}
	}
	return false
}

// sharedKey returns the columns that the lookup pins and the insert writes
// with the same value (or the same field of one value).
func sharedKey(lk, in *ops.RowOp) []string {
	var cols []string
	for _, a := range lk.Keys {
		for _, b := range in.Keys {
			if strings.EqualFold(a.Column, b.Column) && ops.SameKey(a.Value, b.Value) {
				cols = append(cols, a.Column)
				break
			}
		}
	}
	return cols
}

// notFoundBranch returns the found-nothing block of lk that the insert
// runs in (that dominates it), or nil.
func notFoundBranch(res *ops.Result, lk, in *ops.RowOp) *ssa.BasicBlock {
	b := in.Instr.Block()
	if b == nil {
		return nil
	}
	for _, s := range res.NotFound(lk) {
		if s.Dominates(b) && ops.Reaches(lk.Instr, in.Instr, nil) {
			return s
		}
	}
	// The checks written apart: the insert is reached only through
	// found-nothing edges, none of whose blocks holds it alone.
	if s, ok := res.OnlyWhenNotFound(lk, in.Instr); ok && s != nil {
		return s
	}
	return nil
}

// protected reports whether the lookup runs in a SERIALIZABLE
// transaction, or after a lock taken in its transaction.
func protected(res *ops.Result, fn *ssa.Function, lk *ops.RowOp) bool {
	// The lookup's own FOR UPDATE does not count: it locks no row when
	// there is none, and that is the case that inserts.
	return res.Protection(fn, lk.Handle, lk.Instr, func(op *ops.Op) bool { return op.Instr != lk.Instr }) != ops.Unprotected
}

// sideEffect returns a network call made on the found-nothing branch
// between the lookup and the insert, or nil. A call that changes nothing
// at the other end (a GET, such as a WebFinger lookup of the user about
// to be stored; a dial) is no effect a second caller duplicates.
func sideEffect(fnOps []*ops.Op, lk, in *ops.RowOp, branch *ssa.BasicBlock) *ops.Op {
	for _, op := range fnOps {
		if op.Kind != ops.Network || op.Harmless() || op.Deferred || op.Instr == in.Instr || op.Instr == lk.Instr {
			continue
		}
		b := op.Instr.Block()
		if b == nil || !branch.Dominates(b) {
			continue
		}
		if ops.Reaches(op.Instr, in.Instr, nil) {
			return op
		}
	}
	return nil
}

// related gives the lookup and, for an effect before the claim, the
// insert, in that order (report's interleavings rely on it). An
// operation's description that already says what it is ("the lookup of
// users by email", "the INSERT into users") is not prefixed again.
func related(lk, in *ops.RowOp) []analysis.RelatedInformation {
	rel := []analysis.RelatedInformation{{Pos: lk.Pos(), Message: role("the lookup", lk)}}
	if in != nil {
		rel = append(rel, analysis.RelatedInformation{Pos: in.Pos(), Message: role("the insert", in)})
	}
	return rel
}

func role(name string, op *ops.RowOp) string {
	if len(op.Desc) >= len(name) && strings.EqualFold(op.Desc[:len(name)], name) {
		return op.Evidence()
	}
	return name + ": " + op.Evidence()
}

// raceHeadline says what races with what, naming the lookup's function
// when it is a helper.
func raceHeadline(lk, in *ops.RowOp, key []string, handled bool) string {
	by := ""
	if len(key) > 0 {
		by = " by " + strings.Join(key, ", ")
	}
	if handled {
		return fmt.Sprintf("two callers can both insert into %s: each updates no row%s%s first, and the second's update is lost", in.Table, by, inHelper(lk))
	}
	return fmt.Sprintf("two callers can both insert into %s: each finds no row%s%s first", in.Table, by, inHelper(lk))
}

func effectHeadline(effect *ops.Op, lk, in *ops.RowOp, key []string) string {
	what := effect.Via
	if what == "" {
		what = lowerFirst(effect.Desc)
	}
	by := ""
	if len(key) > 0 {
		by = " by " + strings.Join(key, ", ")
	}
	return fmt.Sprintf("%s can run twice: two callers find no %s row%s%s first", what, in.Table, by, inHelper(lk))
}

// inHelper names the helper an operation runs in (" in store.(*Users).ByEmail"),
// or nothing when it runs in the reported function.
func inHelper(op *ops.RowOp) string {
	if op.Via == "" {
		return ""
	}
	return " in " + op.Via
}

func raceMessage(sch *schema.Schema, lk, in *ops.RowOp, key []string, handled bool) string {
	cols := strings.Join(key, ", ")
	if handled {
		// An update-then-insert that handles the failed insert but
		// does not write the row.
		return fmt.Sprintf("insert into %s after %s found no row with that %s (%s): two concurrent callers both update nothing and both insert; "+
			"the second caller's failed insert (its unique violation) is handled without updating the row the first one inserted, so its update is not made; "+
			"write the row in one statement (INSERT ... ON CONFLICT (%s) DO UPDATE, or ON DUPLICATE KEY UPDATE), or run the update again when the insert's unique violation is caught",
			in.Table, lk.Evidence(), cols, in.Evidence(), cols)
	}
	if lk.Narrowed {
		// The lookup also filters by a term not summarised (lower(title)
		// = lower($2)): the unique key it checks is more than these
		// columns, so neither the schema's answer for them nor an ON
		// CONFLICT on them is the one to give.
		return fmt.Sprintf("insert into %s after %s found no row with that %s and the rest of its condition (%s): two concurrent callers both find nothing and both insert; %s",
			in.Table, lk.Evidence(), cols, in.Evidence(), dialect.For(in.Lib).ClaimInsert("the unique key the lookup checks"))
	}
	unique := sch.Unique(in.Table, key...)
	var consequence string
	switch unique {
	case schema.Yes:
		consequence = fmt.Sprintf("; a unique key on %s (%s) makes the second caller get an error instead of the existing row", in.Table, cols)
	case schema.No:
		consequence = fmt.Sprintf("; %s has no unique key on (%s), so both rows are stored", in.Table, cols)
	case schema.Partial:
		consequence = fmt.Sprintf("; only a partial unique index covers %s (%s), so rows outside it are stored twice", in.Table, cols)
	}
	return fmt.Sprintf("insert into %s after %s found no row with that %s (%s): two concurrent callers both find nothing and both insert%s; %s",
		in.Table, lk.Evidence(), cols, in.Evidence(), consequence, fix(in, key, unique))
}

func effectMessage(effect *ops.Op, lk, in *ops.RowOp, key []string) string {
	what := effect.Desc
	if effect.Via != "" {
		what = fmt.Sprintf("%s (%s)", effect.Via, effect.Desc)
	}
	cols := strings.Join(key, ", ")
	return fmt.Sprintf("%s runs after %s found no row and before %s records it: two concurrent callers both find nothing and both perform it; %s",
		lowerFirst(what), lk.Evidence(), in.Evidence(), dialect.For(in.Lib).Claim(in.Table, cols))
}

// fix returns the fix for the library of the insert.
func fix(in *ops.RowOp, key []string, unique schema.Answer) string {
	cols := strings.Join(key, ", ")
	prefix := ""
	if unique == schema.No || unique == schema.Partial {
		prefix = fmt.Sprintf("add a unique index on %s (%s), then ", in.Table, cols)
	}
	return prefix + dialect.For(in.Lib).ClaimInsert(cols)
}

// checkFirstOrCreate reports a GORM FirstOrCreate whose error is not
// checked for a unique violation.
// seeding reports whether every key of a lookup is fixed by the program
// (ops.ProgramConstant): reference rows seeded at startup, which two
// requests cannot race on. Two instances starting together can; that is
// a hazard of more than one replica, not of concurrent requests.
func seeding(lk *ops.RowOp) bool {
	if len(lk.Keys) == 0 {
		return false
	}
	for _, k := range lk.Keys {
		if !ops.ProgramConstant(k.Value) {
			return false
		}
	}
	return true
}

func checkFirstOrCreate(r *report.Reporter, res *ops.Result, sch *schema.Schema, fn *ssa.Function, op *ops.RowOp) {
	if res.ChecksUnique(fn, ops.ErrOf(op.Instr)) || seeding(op) || rereadsOnError(res, sch, fn, op) {
		return
	}
	table, into := "", ""
	var dest ssa.Value
	if site, ok := knowledge.Resolve(op.Instr.Common()); ok {
		if dest = site.RoleArg(knowledge.Dest); dest != nil {
			dest = ssaval.Unwrap(dest)
			if ptr, ok := dest.Type().Underlying().(*types.Pointer); ok {
				if t, ok := sch.Table(ptr.Elem()); ok {
					table, into = " on "+t, " into "+t
					if keyed := resolve(sch, op); keyed != nil && len(keyed.Keys) > 0 && sch.Unique(t, keyed.KeyColumns()...) == schema.Yes && savedAfter(op, dest) {
						return
					}
				}
			}
		}
	}
	r.Report(report.Finding{
		Pos:     op.Pos(),
		Rule:    "firstorcreate",
		Message: fmt.Sprintf("two callers can both insert%s: %s looks the row up and inserts it in two statements", into, op.Desc),
		Detail:  dialect.For(op.Lib).LookupOrInsert(table),
	})
}

// rereadsOnError reports whether, where op's error is not nil, the
// function looks a row of op's table up again: the row a concurrent caller
// inserted first is read back, the broad form of catching the unique
// violation (any error of the insert answered by reading the row).
func rereadsOnError(res *ops.Result, sch *schema.Schema, fn *ssa.Function, op *ops.RowOp) bool {
	failed := errorBranches(fn, ops.ErrOf(op.Instr))
	if len(failed) == 0 {
		return false
	}
	table := tableOf(sch, op)
	if table == "" {
		return false
	}
	inFailed := func(instr ssa.Instruction) bool {
		for _, b := range failed {
			if b.Dominates(instr.Block()) {
				return true
			}
		}
		return false
	}
	for _, lk := range res.Rows(fn) {
		if lk.Kind == ops.Lookup && lk.Instr != op.Instr && strings.EqualFold(tableOf(sch, lk), table) && inFailed(lk.Instr) {
			return true
		}
	}
	// A read of the model the lookup keys are not understood for
	// (First(folder, *folder)): the library's finder, into the table's
	// model.
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(ssa.CallInstruction)
			if !ok || call == op.Instr || !inFailed(instr) {
				continue
			}
			site, ok := knowledge.Resolve(call.Common())
			if !ok || site.Row == nil || site.Row.Kind != knowledge.Find {
				continue
			}
			if m := ops.ModelType(site.RoleArg(knowledge.Dest)); m != nil {
				if t, ok := sch.Table(m); ok && strings.EqualFold(t, table) {
					return true
				}
			}
		}
	}
	return false
}

// tableOf names the table op reads or writes, "" when not known.
func tableOf(sch *schema.Schema, op *ops.RowOp) string {
	if op.Table != "" || op.Model == nil {
		return op.Table
	}
	t, _ := sch.Table(op.Model)
	return t
}

// errorBranches returns the blocks entered only when err is not nil.
func errorBranches(fn *ssa.Function, err ssa.Value) []*ssa.BasicBlock {
	if err == nil {
		return nil
	}
	var out []*ssa.BasicBlock
	for _, b := range fn.Blocks {
		if len(b.Instrs) == 0 || len(b.Succs) != 2 {
			continue
		}
		ifi, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If)
		if !ok {
			continue
		}
		cmp, ok := ifi.Cond.(*ssa.BinOp)
		if !ok || (cmp.Op != token.EQL && cmp.Op != token.NEQ) {
			continue
		}
		for _, pair := range [2][2]ssa.Value{{cmp.X, cmp.Y}, {cmp.Y, cmp.X}} {
			c, isConst := pair[1].(*ssa.Const)
			if !isConst || !c.IsNil() || ssaval.Unwrap(pair[0]) != ssaval.Unwrap(err) {
				continue
			}
			succ := b.Succs[0] // err != nil
			if cmp.Op == token.EQL {
				succ = b.Succs[1]
			}
			if len(succ.Preds) == 1 {
				out = append(out, succ)
			}
		}
	}
	return out
}

// savedAfter reports whether the outcome of a FirstOrCreate into dest is
// discarded and dest is then written whole with Save. With a unique key,
// the caller that loses the race gets a duplicate-key error it never
// reads, and its Save writes the row either way (an upsert in two steps):
// the race changes nothing.
func savedAfter(op *ops.RowOp, dest ssa.Value) bool {
	call, ok := op.Instr.(*ssa.Call)
	if !ok || (call.Referrers() != nil && len(*call.Referrers()) > 0) {
		return false
	}
	for _, b := range call.Parent().Blocks {
		for _, instr := range b.Instrs {
			c, ok := instr.(ssa.CallInstruction)
			if !ok || c == op.Instr {
				continue
			}
			site, ok := knowledge.Resolve(c.Common())
			if !ok || site.Row == nil || site.Row.Kind != knowledge.Save {
				continue
			}
			if m := site.RoleArg(knowledge.Model); m != nil && ssaval.Unwrap(m) == dest && ops.Reaches(op.Instr, c, nil) {
				return true
			}
		}
	}
	return false
}

// lowerFirst lowercases the first letter of s unless a word in capitals
// (an acronym: POST, SQL) leads.
func lowerFirst(s string) string {
	if len(s) < 2 || (s[1] >= 'A' && s[1] <= 'Z') {
		return s
	}
	return strings.ToLower(s[:1]) + s[1:]
}
