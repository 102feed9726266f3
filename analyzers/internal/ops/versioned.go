package ops

import (
	"fmt"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/knowledge"
	"github.com/idemlint/idemlint/analyzers/internal/sqltext"
)

// A CountUse is what the caller of an UPDATE does with its affected-row
// count.
type CountUse uint8

const (
	// CountUnknown: the count (or the value carrying it) goes somewhere
	// not followed: returned, passed to a function, stored.
	CountUnknown CountUse = iota
	// CountChecked: the count is read (RowsAffected called or loaded, a
	// sqlc :execrows result used).
	CountChecked
	// CountIgnored: the value carrying the count is discarded.
	CountIgnored
	// CountUnobservable: the call cannot report it (a sqlc :exec query).
	CountUnobservable
)

// An Update is an UPDATE a function runs, at the call that runs it: SQL
// text run by database/sql, sqlx or pgx, a call of a sqlc-generated
// UPDATE method, or a GORM Update, Updates, UpdateColumn(s) or Save.
type Update struct {
	Instr ssa.CallInstruction
	// Lib is the library family, whose dialect words the fix.
	Lib string
	// Table is the table written; "" when Model names it.
	Table string
	// Model is the GORM model written, whose table the schema layer names.
	Model types.Type
	// Method is the GORM finisher ("Update", "Save") or the sqlc query's
	// name.
	Method string
	// Compares are the columns the WHERE pins by equality (conjuncts
	// only); WhereUnknown is set when part of the WHERE (or of a GORM
	// chain) is not understood.
	Compares     []string
	WhereUnknown bool
	// WhereFields are the Go fields a GORM struct condition pins
	// (Where(&T{ID: id, Version: v})); the schema layer names their
	// columns.
	WhereFields []string
	// Keyed is set when the WHERE pins some column to a bound value (a
	// single-row update by key), or a GORM model names the row.
	Keyed bool
	// Assigns are the columns set to a value not computed from their own
	// current value; "*" stands for columns not known (GORM Updates with
	// a struct or map, Save). Bumps are the self-referential ones
	// (version = version + 1).
	Assigns, Bumps []string
	// Constants are the columns set to constants or to expressions of
	// no bound value (status = 'archived', updated_at = now()).
	Constants []string
	// GORM: Unscoped in the chain; ZeroModel when Model is given a fresh
	// composite literal (&T{...}) nothing else reads into, ModelFields the
	// fields its literal sets; LoadedModel when the model was read by a
	// GORM finder in the same function.
	Unscoped, ZeroModel, LoadedModel bool
	ModelFields                      []string
	// Count is what happens to the affected-row count; SQLCCmd is the
	// sqlc command (":exec", ":execrows", ...).
	Count   CountUse
	SQLCCmd string
	// EntPkg is the ent entity's package name ("account"), for the fix.
	EntPkg string
	// Handle is the root of the handle the statement runs on (see Root),
	// when known: SQL text and GORM.
	Handle ssa.Value
	// Desc names the statement for messages.
	Desc string
}

// Pos returns the position of the call.
func (u *Update) Pos() token.Pos { return u.Instr.Pos() }

// ComparesColumn reports whether the WHERE pins col by equality.
func (u *Update) ComparesColumn(col string) bool { return containsFoldStr(u.Compares, col) }

// BumpsColumn reports whether the SET computes col from its current value.
func (u *Update) BumpsColumn(col string) bool { return containsFoldStr(u.Bumps, col) }

// ModelSets reports whether the model literal given the update sets field.
func (u *Update) ModelSets(field string) bool { return containsFoldStr(u.ModelFields, field) }

// ModelName names the model's type for messages ("Workspace").
func (u *Update) ModelName() string {
	if n, ok := types.Unalias(u.Model).(*types.Named); ok {
		return n.Obj().Name()
	}
	if u.Model == nil {
		return "?"
	}
	return u.Model.String()
}

// WritesValue reports whether the update sets some column other than
// skip to a value computed in Go (or an unknown set of columns): an
// overwrite rather than only atomic changes.
func (u *Update) WritesValue(skip ...string) bool {
	for _, a := range u.Assigns {
		if a == "*" || !containsFoldStr(skip, a) {
			return true
		}
	}
	return false
}

func containsFoldStr(list []string, s string) bool {
	for _, x := range list {
		if strings.EqualFold(x, s) {
			return true
		}
	}
	return false
}

// Updates returns the UPDATEs fn runs itself (not those of helpers), in
// block and instruction order.
func (r *Result) Updates(fn *ssa.Function) []*Update {
	var out []*Update
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(ssa.CallInstruction)
			if !ok {
				continue
			}
			switch instr.(type) {
			case *ssa.Go, *ssa.Defer:
				continue
			}
			if u := r.e.updateOf(call); u != nil {
				u.Instr = call
				out = append(out, u)
			}
		}
	}
	return out
}

func (e *extractor) updateOf(call ssa.CallInstruction) *Update {
	common := call.Common()
	site, resolved := knowledge.Resolve(common)
	if resolved && site.Row != nil {
		switch site.Row.Kind {
		case knowledge.Exec, knowledge.Query:
			stmt, h := StatementOf(site)
			u := sqlUpdate(stmt)
			if u == nil {
				return nil
			}
			u.Handle = h
			u.Lib = sqlLib(site)
			u.Desc = "the UPDATE of " + u.Table + " (" + CalleeName(site) + ")"
			if site.Row.Kind == knowledge.Query {
				u.Count = CountUnknown // UPDATE ... RETURNING: no row is the miss
			} else if l := libraryAt(site); l != nil && l.Count != nil {
				var ok bool
				if u.Count, ok = l.Count(call, site); !ok {
					u.Count = CountUseOf(call)
				}
			} else {
				u.Count = CountUseOf(call)
			}
			return u
		case knowledge.Update, knowledge.Save:
			if l := libraryAt(site); l != nil && l.Update != nil {
				return l.Update(call, site)
			}
			return nil
		}
		return nil
	}
	callee := common.StaticCallee()
	if callee == nil {
		return nil
	}
	if obj, ok := callee.Object().(*types.Func); ok {
		if l := claimant(obj); l != nil {
			if l.ClientUpdate == nil {
				return nil
			}
			return l.ClientUpdate(call, obj)
		}
	}
	var q *SQLCUpdateFact
	if sq := knowledge.SQLC(callee); sq != nil && !sq.Dynamic {
		q = &SQLCUpdateFact{Name: sq.Name, Cmd: sq.Cmd, SQL: sq.SQL, Affected: sq.Affected, Handle: sq.Handle}
	} else if len(callee.Blocks) == 0 {
		fn := callee
		if fn.Origin() != nil {
			fn = fn.Origin()
		}
		if s := e.summary(fn); s != nil {
			q = s.SQLCUpdate
		}
	}
	if q != nil {
		u := sqlUpdate(sqltext.Parse(q.SQL))
		if u == nil {
			return nil
		}
		u.Lib, u.Method, u.SQLCCmd = "sqlc", q.Name, q.Cmd
		u.Desc = "the UPDATE of " + u.Table + " (sqlc " + q.Name + ")"
		// It runs on the handle its Queries was bound to (New, WithTx),
		// or on its handle argument: where its transaction's locks are.
		if args, i := common.Args, q.Handle+1; q.Handle >= 0 && i < len(args) {
			u.Handle = Root(args[i])
		} else if q.Handle < 0 && callee.Signature.Recv() != nil && len(args) > 0 {
			u.Handle = Root(args[0])
		}
		switch {
		case q.Cmd == ":exec":
			u.Count = CountUnobservable
		case q.Affected:
			u.Count = CountUseOf(call)
		default:
			u.Count = CountUnknown // :one / :many with RETURNING: no row is the miss
		}
		return u
	}
	return nil
}

// sqlUpdate summarises an UPDATE statement; nil for anything else, or
// one whose target or WHERE is not known.
func sqlUpdate(stmt *sqltext.Statement) *Update {
	if stmt == nil || stmt.Kind != sqltext.KindUpdate || stmt.Table.Name == "" || len(stmt.From) > 0 {
		return nil
	}
	u := &Update{Table: stmt.Table.Name}
	if stmt.Where == nil {
		return nil
	}
	u.WhereUnknown = stmt.Where.Unknown
	for _, c := range stmt.Where.Comparisons {
		if !c.Conjunct || !c.Equality() || !stmt.TargetColumn(c.Column) {
			continue
		}
		u.Compares = append(u.Compares, c.Column.Name)
		if c.Operand.Kind == sqltext.OperandPlaceholder {
			u.Keyed = true
		}
	}
	for _, a := range stmt.Set {
		switch {
		case a.SelfReferential:
			u.Bumps = append(u.Bumps, a.Column)
		case a.Value.Kind == sqltext.ExprPlaceholder || a.Value.Kind == sqltext.ExprUnknown || len(a.Value.Placeholders) > 0:
			u.Assigns = append(u.Assigns, a.Column)
		default:
			u.Constants = append(u.Constants, a.Column)
		}
	}
	return u
}

// CountUseOf follows result 0 of a call returning (count-carrier, error):
// a sql.Result, a pgconn.CommandTag, a sqlc :execrows int64, GORM
// generics' rows-affected int.
func CountUseOf(call ssa.CallInstruction) CountUse {
	v := call.Value()
	if v == nil {
		return CountUnknown
	}
	if _, ok := v.Type().(*types.Tuple); !ok {
		return CountUnknown
	}
	use := CountIgnored
	for _, ref := range *v.Referrers() {
		ex, ok := ref.(*ssa.Extract)
		if !ok || ex.Index != 0 {
			continue
		}
		if u := valueUse(ex, 0); u != CountIgnored {
			use = u
		}
	}
	return use
}

// valueUse says whether v (a count or a value carrying it) is read.
func valueUse(v ssa.Value, depth int) CountUse {
	refs := v.Referrers()
	if refs == nil {
		return CountIgnored
	}
	use := CountIgnored
	for _, ref := range *refs {
		switch x := ref.(type) {
		case *ssa.DebugRef:
			continue
		case ssa.CallInstruction:
			if site, ok := knowledge.Resolve(x.Common()); ok && site.Row != nil && site.Row.Kind == knowledge.RowsAffected {
				return CountChecked
			}
			use = CountUnknown
		case *ssa.BinOp, *ssa.If:
			return CountChecked
		case *ssa.ChangeType, *ssa.Convert, *ssa.MakeInterface:
			if depth < 4 {
				if u := valueUse(x.(ssa.Value), depth+1); u != CountIgnored {
					use = u
				}
			}
		default:
			use = CountUnknown
		}
		if use == CountChecked {
			return use
		}
	}
	return use
}

// An SQLCUpdateFact is the UPDATE query of a sqlc-generated method, for
// its callers in other packages.
type SQLCUpdateFact struct {
	Name, Cmd, SQL string
	Affected       bool
	// Handle is the parameter holding the handle the query runs on
	// (emit_methods_with_db_argument), or -1: the Queries' own.
	Handle int
}

// sqlcUpdateSummary adds to the summary of a sqlc-generated UPDATE method
// its query.
func sqlcUpdateSummary(fn *ssa.Function, s *Summary) *Summary {
	q := knowledge.SQLC(fn)
	if q == nil || q.Dynamic || sqlUpdate(sqltext.Parse(q.SQL)) == nil {
		return s
	}
	if s == nil {
		s = &Summary{}
	}
	s.SQLCUpdate = &SQLCUpdateFact{Name: q.Name, Cmd: q.Cmd, SQL: q.SQL, Affected: q.Affected, Handle: q.Handle}
	return s
}

// sqlcLockSummary adds to the summary of a sqlc-generated method whose
// query locks rows (SELECT ... FOR UPDATE, an UPDATE) a lock on its
// receiver: the Queries is bound to the caller's handle (New(tx),
// q.WithTx(tx)), which is where the lock is taken. In the method's own
// body the handle is a field of the receiver, which no summary keeps.
func sqlcLockSummary(fn *ssa.Function, s *Summary) *Summary {
	q := knowledge.SQLC(fn)
	if q == nil || q.Dynamic || fn.Signature.Recv() == nil {
		return s
	}
	stmt := sqltext.Parse(q.SQL)
	desc, ok := lockOf(stmt)
	if !ok {
		return s
	}
	// The lock is on the Queries' handle (the receiver), or on the
	// handle argument of emit_methods_with_db_argument's methods.
	param := 0
	if q.Handle >= 0 {
		param = q.Handle + 1
	}
	if s == nil {
		s = &Summary{}
	}
	for _, l := range s.Locks {
		if l.Param == param {
			return s
		}
	}
	s.Locks = append(s.Locks, ParamLock{Param: param, Desc: fmt.Sprintf("%s (sqlc %s)", desc, q.Name), ReadOnly: stmt.Kind == sqltext.KindSelect})
	return s
}
