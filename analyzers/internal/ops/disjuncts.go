package ops

import (
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/sqltext"
)

// Lookups whose condition is an OR of terms: WHERE username = $1 OR
// email = $2 found nothing only when no row holds that username and no
// row holds that email, so each term is a lookup of its own key, and an
// insert of either races with it.

// addAlternatives records the keys of each term of the one OR at the top
// of a lookup's condition (sqltext.Comparison.Disjunct), bound by bind;
// target, when not nil, says which columns are the looked-up table's. A
// second condition with an OR (two Where fragments) leaves no
// alternative: no term is a key on its own then.
func addAlternatives(op *RowOp, cmps []sqltext.Comparison, target func(sqltext.ColumnRef) bool, bind func(sqltext.Placeholder) ssa.Value) {
	terms := map[int][]KeyValue{}
	n := 0
	for _, c := range cmps {
		if c.Disjunct == 0 {
			continue
		}
		n = max(n, c.Disjunct)
		if !c.Equality() || c.Operand.Kind != sqltext.OperandPlaceholder || len(c.Operand.Placeholders) != 1 || (target != nil && !target(c.Column)) {
			continue
		}
		if v := bind(c.Operand.Placeholders[0]); v != nil {
			terms[c.Disjunct] = append(terms[c.Disjunct], KeyValue{Column: c.Column.Name, Value: v})
		}
	}
	if n == 0 {
		return
	}
	if op.orGroups++; op.orGroups > 1 {
		op.Alternatives = nil
		return
	}
	for k := 1; k <= n; k++ {
		if len(terms[k]) > 0 {
			op.Alternatives = append(op.Alternatives, terms[k])
		}
	}
}

// KeyDesc names a lookup's key columns for messages: the AND-ed ones,
// and the terms of an OR joined by "or".
func (op *RowOp) KeyDesc() string {
	desc := strings.Join(op.KeyColumns(), ", ")
	if len(op.Alternatives) == 0 {
		return desc
	}
	var terms []string
	for _, alt := range op.Alternatives {
		var cols []string
		for _, k := range alt {
			cols = append(cols, k.Column)
		}
		terms = append(terms, strings.Join(cols, " and "))
	}
	if desc != "" {
		desc += " and "
	}
	return desc + strings.Join(terms, " or ")
}

// splitAlternatives replaces each lookup with Alternatives by one lookup
// per term, its keys the AND-ed ones and the term's, all sharing the
// call and its description.
func splitAlternatives(ops []*RowOp) []*RowOp {
	var out []*RowOp
	for _, op := range ops {
		if len(op.Alternatives) == 0 {
			out = append(out, op)
			continue
		}
		for _, alt := range op.Alternatives {
			term := *op
			term.Keys = append(append([]KeyValue(nil), op.Keys...), alt...)
			term.Alternatives = nil
			out = append(out, &term)
		}
	}
	return out
}
