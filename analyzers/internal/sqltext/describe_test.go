package sqltext

import (
	"fmt"
	"strings"
)

// describe renders a Statement compactly for table tests. Facets are
// separated by " | " and omitted when empty:
//
//	update accounts as a           kind, target table, alias
//	from=[t u]                     other tables
//	cols=(a,b) rows=[($1,lit)]     INSERT columns and rows
//	query=<statement>              INSERT … SELECT
//	set=[n=f(n;$1)! m=$2]          SET list; ! marks a self-referential value
//	where=[id = $1 ~x = lit ?]     comparisons; ~ marks a non-conjunct, a trailing ? an unknown term
//	conflict=…                     see describeConflict
//	returning=[id *]
//	lock=[for update of t nowait]
//	tablelock=[t:write]
//	adv=[pg_advisory_xact_lock($1) xact try shared release]
//	tx=begin iso=serializable ro sqlite=immediate sp=name
//	with=[name:update]
//	sub=[select users]             subqueries: kind and table
//	sqlc=Name:one
//	unknown=[reason; reason]
//
// Values (see describeExpr): $1 ?1 :name @name placeholders, lit, null,
// default, col:c, excl:c, * (star), subq, f(columns;placeholders) for
// computed values, ?? for unknown.
func describe(st *Statement) string {
	var parts []string
	head := st.Kind.String()
	if st.Table.Name != "" {
		head += " " + st.Table.String()
		if st.Table.Alias != "" {
			head += " as " + st.Table.Alias
		}
	}
	parts = append(parts, head)
	if len(st.From) > 0 {
		var names []string
		for _, t := range st.From {
			names = append(names, t.String())
		}
		parts = append(parts, "from=["+strings.Join(names, " ")+"]")
	}
	if st.InsertColumns != nil {
		parts = append(parts, "cols=("+strings.Join(st.InsertColumns, ",")+")")
	}
	if len(st.InsertRows) > 0 {
		var rows []string
		for _, r := range st.InsertRows {
			var vals []string
			for _, v := range r {
				vals = append(vals, describeExpr(v))
			}
			rows = append(rows, "("+strings.Join(vals, ",")+")")
		}
		parts = append(parts, "rows=["+strings.Join(rows, " ")+"]")
	}
	if st.InsertQuery != nil {
		parts = append(parts, "query=<"+describe(st.InsertQuery)+">")
	}
	if len(st.Set) > 0 {
		parts = append(parts, "set=["+describeAssignments(st.Set)+"]")
	}
	if st.Where != nil {
		parts = append(parts, "where=["+describeCondition(st.Where)+"]")
	}
	if st.Conflict != nil {
		parts = append(parts, "conflict="+describeConflict(st.Conflict))
	}
	if len(st.Returning) > 0 {
		parts = append(parts, "returning=["+describeResultColumns(st.Returning)+"]")
	}
	if len(st.RowLocks) > 0 {
		var locks []string
		for _, l := range st.RowLocks {
			locks = append(locks, describeRowLock(l))
		}
		parts = append(parts, "lock=["+strings.Join(locks, ", ")+"]")
	}
	if len(st.TableLocks) > 0 {
		var locks []string
		for _, l := range st.TableLocks {
			s := l.Table.String() + ":" + l.Mode
			if l.NoWait {
				s += " nowait"
			}
			locks = append(locks, s)
		}
		parts = append(parts, "tablelock=["+strings.Join(locks, ", ")+"]")
	}
	if len(st.AdvisoryLocks) > 0 {
		var locks []string
		for _, l := range st.AdvisoryLocks {
			locks = append(locks, describeAdvisory(l))
		}
		parts = append(parts, "adv=["+strings.Join(locks, ", ")+"]")
	}
	if tx := st.Transaction; tx != nil {
		s := "tx=" + tx.Op.String()
		if tx.IsolationLevel != "" {
			s += " iso=" + tx.IsolationLevel
		}
		if tx.ReadOnly {
			s += " ro"
		}
		if tx.SQLiteMode != "" {
			s += " sqlite=" + tx.SQLiteMode
		}
		if tx.Savepoint != "" {
			s += " sp=" + tx.Savepoint
		}
		parts = append(parts, s)
	}
	if len(st.With) > 0 {
		var ctes []string
		for _, c := range st.With {
			ctes = append(ctes, c.Name+":"+c.Statement.Kind.String())
		}
		parts = append(parts, "with=["+strings.Join(ctes, " ")+"]")
	}
	if len(st.Subqueries) > 0 {
		var subs []string
		for _, q := range st.Subqueries {
			subs = append(subs, strings.TrimSpace(q.Kind.String()+" "+q.Table.String()))
		}
		parts = append(parts, "sub=["+strings.Join(subs, ", ")+"]")
	}
	if st.Sqlc != nil {
		parts = append(parts, "sqlc="+st.Sqlc.Name+st.Sqlc.Command)
	}
	if len(st.Unknown) > 0 {
		parts = append(parts, "unknown=["+strings.Join(st.Unknown, "; ")+"]")
	}
	return strings.Join(parts, " | ")
}

func describeExpr(e Expr) string {
	switch e.Kind {
	case ExprPlaceholder:
		return e.Placeholders[0].String()
	case ExprLiteral:
		return "lit"
	case ExprNull:
		return "null"
	case ExprDefault:
		return "default"
	case ExprColumn:
		return "col:" + e.Columns[0].String()
	case ExprExcluded:
		return "excl:" + e.Excluded[0]
	case ExprStar:
		return "*"
	case ExprSubquery:
		return "subq"
	case ExprComputed:
		var items []string
		for _, c := range e.Columns {
			items = append(items, c.String())
		}
		for _, c := range e.Excluded {
			items = append(items, "excl:"+c)
		}
		var phs []string
		for _, p := range e.Placeholders {
			phs = append(phs, p.String())
		}
		s := "f(" + strings.Join(items, ",")
		if len(phs) > 0 {
			s += ";" + strings.Join(phs, ",")
		}
		return s + ")"
	}
	return "??"
}

func describeAssignments(set []Assignment) string {
	var out []string
	for _, a := range set {
		s := a.Column + "=" + describeExpr(a.Value)
		if a.SelfReferential {
			s += "!"
		}
		out = append(out, s)
	}
	return strings.Join(out, " ")
}

func describeCondition(c *Condition) string {
	var out []string
	for _, cmp := range c.Comparisons {
		s := cmp.Column.String() + " " + cmp.Op + " " + describeOperand(cmp.Operand)
		if !cmp.Conjunct {
			s = "~" + s
		}
		out = append(out, s)
	}
	if c.Unknown {
		out = append(out, "?")
	}
	return strings.Join(out, ", ")
}

func describeOperand(o Operand) string {
	switch o.Kind {
	case OperandPlaceholder:
		var phs []string
		for _, p := range o.Placeholders {
			phs = append(phs, p.String())
		}
		return strings.Join(phs, ",")
	case OperandLiteral:
		return "lit"
	case OperandNull:
		return "null"
	case OperandColumn:
		return "col:" + o.Column.String()
	case OperandSubquery:
		return "subq"
	case OperandExpr:
		return "expr"
	}
	return "??"
}

func describeConflict(c *Conflict) string {
	var s string
	switch c.Syntax {
	case ConflictOnConflict:
		s = "on-conflict"
	case ConflictOnDuplicateKey:
		s = "on-duplicate-key"
	case ConflictIgnore:
		s = "ignore"
	case ConflictReplace:
		s = "replace"
	}
	if c.TargetColumns != nil {
		s += "(" + strings.Join(c.TargetColumns, ",") + ")"
	}
	if c.TargetConstraint != "" {
		s += " constraint " + c.TargetConstraint
	}
	if c.TargetWhere != nil {
		s += " target-where[" + describeCondition(c.TargetWhere) + "]"
	}
	s += " " + c.Action.String()
	if len(c.Set) > 0 {
		s += " set[" + describeAssignments(c.Set) + "]"
	}
	if c.Where != nil {
		s += " where[" + describeCondition(c.Where) + "]"
	}
	if c.Unknown {
		s += " ?"
	}
	return s
}

func describeResultColumns(cols []ResultColumn) string {
	var out []string
	for _, c := range cols {
		if c.Name != "" {
			out = append(out, c.Name)
		} else {
			out = append(out, describeExpr(c.Expr))
		}
	}
	return strings.Join(out, " ")
}

func describeRowLock(l RowLock) string {
	s := l.Strength.String()
	if len(l.Of) > 0 {
		s += " of " + strings.Join(l.Of, ",")
	}
	switch l.Wait {
	case LockNoWait:
		s += " nowait"
	case LockSkipLocked:
		s += " skip locked"
	}
	return s
}

func describeAdvisory(l AdvisoryLock) string {
	var args []string
	for _, a := range l.Args {
		args = append(args, describeExpr(a))
	}
	s := fmt.Sprintf("%s(%s)", l.Func, strings.Join(args, ","))
	if l.TransactionScoped {
		s += " xact"
	}
	if l.Try {
		s += " try"
	}
	if l.Shared {
		s += " shared"
	}
	if l.Release {
		s += " release"
	}
	return s
}
