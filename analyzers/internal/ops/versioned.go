package ops

import (
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
	// generated query's count result used).
	CountChecked
	// CountIgnored: the value carrying the count is discarded.
	CountIgnored
	// CountUnobservable: the call cannot report it (a generated query
	// declared so that it returns only an error).
	CountUnobservable
)

// An Update is an UPDATE a function runs, at the call that runs it: SQL
// text run by database/sql, sqlx or pgx, a call of a generated UPDATE
// method, or a GORM Update, Updates, UpdateColumn(s) or Save.
type Update struct {
	Instr ssa.CallInstruction
	// Lib is the library family, whose dialect words the fix.
	Lib string
	// Table is the table written; "" when Model names it.
	Table string
	// Model is the GORM model written, whose table the schema layer names.
	Model types.Type
	// Method is the GORM finisher ("Update", "Save") or the generated
	// query's name.
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
	// Count is what happens to the affected-row count; Declared is how
	// a generated query is declared (its command, ":exec"), which the
	// dialect's fix names.
	Count    CountUse
	Declared string
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
	r.e.lazy.Lock()
	defer r.e.lazy.Unlock()
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
			u := StatementUpdate(stmt)
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
	if l, f := e.generated(callee); f != nil && l.GeneratedUpdate != nil {
		return l.GeneratedUpdate(call, callee, f)
	}
	return nil
}

// StatementUpdate summarises an UPDATE statement; nil for anything else,
// or one whose target or WHERE is not known.
func StatementUpdate(stmt *sqltext.Statement) *Update {
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
// a sql.Result, a pgconn.CommandTag, a generated query's int64 count, GORM
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
