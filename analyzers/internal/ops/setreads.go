package ops

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/knowledge"
	"github.com/idemlint/idemlint/analyzers/internal/sqltext"
	"github.com/idemlint/idemlint/analyzers/internal/ssaval"
)

// Several rows read at once by a set of keys (SELECT id, wallet FROM
// users WHERE id = ANY($1)), each scanned in the rows loop and kept in a
// Go map by its key, then written back one UPDATE per key: each write is
// a read-modify-write of the row whose key it pins, as a one-row read
// would be. Which row a write's value came from is told by the map keys
// on the way: the UPDATE pins id to k, its value is the entry of k in a
// map, that entry was stored under the key scanned from the row
// (KeyedBy). ColumnReads keeps to one-row reads, which the other
// analyzers use as lookups.

// SetReads returns the reads of fn that scan several rows chosen by a set
// of keys, with Set naming the key columns.
func (r *Result) SetReads(fn *ssa.Function) []*ColumnRead {
	r.e.lazy.Lock()
	defer r.e.lazy.Unlock()
	var out []*ColumnRead
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(*ssa.Call)
			if !ok {
				continue
			}
			site, ok := knowledge.Resolve(call.Common())
			if !ok || site.Row == nil || site.Row.Kind != knowledge.Query || site.Row.Result != knowledge.RowsResult {
				continue
			}
			if rd := setRead(call, site); rd != nil {
				out = append(out, rd)
			}
		}
	}
	return out
}

// setRead makes the read of a SELECT of one table whose WHERE pins a
// column to a set of placeholders, with the columns its rows' Scan
// receives.
func setRead(call *ssa.Call, site knowledge.Site) *ColumnRead {
	stmt, h := StatementOf(site)
	if stmt == nil || stmt.Kind != sqltext.KindSelect || !stmt.Understood() || stmt.Table.Name == "" || len(stmt.From) > 0 || stmt.Where == nil {
		return nil
	}
	bind, ok := Binder(site)
	if !ok {
		return nil
	}
	rd := &ColumnRead{Instr: call, Table: stmt.Table.Name, Handle: h, Lib: sqlLib(site),
		Desc: "the SELECT of " + stmt.Table.Name + " (" + CalleeName(site) + ")"}
	for _, c := range stmt.Where.Comparisons {
		if !c.Conjunct || (c.Op != "= any" && c.Op != "in") || c.Operand.Kind != sqltext.OperandPlaceholder ||
			len(c.Operand.Placeholders) == 0 || !stmt.TargetColumn(c.Column) {
			continue
		}
		if v := bind(c.Operand.Placeholders[0]); v != nil {
			rd.Set = append(rd.Set, KeyValue{Column: c.Column.Name, Value: v})
		}
	}
	if len(rd.Set) == 0 {
		return nil
	}
	for _, rows := range rowsOf(call) {
		for _, ref := range *rows.Referrers() {
			scan := scanOn(ref, rows)
			if scan == nil {
				continue
			}
			ssite, _ := knowledge.Resolve(scan.Common())
			i, ok := ssite.Row.Param(knowledge.Dest)
			if !ok {
				continue
			}
			dests, ok := ssite.Variadic(i)
			if !ok || len(dests) != len(stmt.SelectList) {
				continue
			}
			for j, d := range dests {
				if col, ok := SelectColumn(stmt, stmt.SelectList[j]); ok && d != nil {
					rd.Cols = append(rd.Cols, ReadCol{Column: col, Addr: d})
				}
			}
		}
	}
	if len(rd.Cols) == 0 {
		return nil
	}
	return rd
}

// rowsOf returns the values that are the rows a query call returned: the
// call, or the first result of its tuple.
func rowsOf(call *ssa.Call) []ssa.Value {
	if _, isTuple := call.Type().(*types.Tuple); !isTuple {
		return []ssa.Value{call}
	}
	var out []ssa.Value
	for _, ref := range *call.Referrers() {
		if ex, ok := ref.(*ssa.Extract); ok && ex.Index == 0 {
			out = append(out, ex)
		}
	}
	return out
}

// scanOn returns ref when it is a Scan call on rows.
func scanOn(ref ssa.Instruction, rows ssa.Value) *ssa.Call {
	c, ok := ref.(*ssa.Call)
	if !ok {
		return nil
	}
	site, ok := knowledge.Resolve(c.Common())
	if !ok || site.Row == nil || site.Row.Kind != knowledge.Scan {
		return nil
	}
	if recv := site.Receiver(); recv == nil || ssaval.Unwrap(recv) != rows {
		return nil
	}
	return c
}

// KeyedBy reports whether the derivation d keeps to one row, the one
// whose key the write pins to key: every map entry on its path is looked
// up by the key the entry was then stored under (m[k] read where m[k] =
// v was written, or the value of a range over m whose key is key), back
// to a key that scanned says is the row's own (the Scan's destination of
// the key column). A path through a slice's elements, or a map entry
// whose key is not followed, loses the row.
func (d Derivation) KeyedBy(key ssa.Value, scanned func(ssa.Value) bool) bool {
	k := key
	for i := 0; i < len(d.Path); i++ {
		switch x := d.Path[i].(type) {
		case *ssa.Lookup:
			if i+1 >= len(d.Path) || !sameMapKey(x.Index, k) {
				return false
			}
			up := updateOf(x.X, d.Path[i+1])
			if up == nil {
				return false
			}
			k = up.Key
			i++
		case *ssa.Next:
			// The value of a range over m: the write's key must be the
			// same iteration's key.
			ex, ok := ssaval.Unwrap(k).(*ssa.Extract)
			if !ok || ex.Tuple != x || ex.Index != 1 || i+2 >= len(d.Path) {
				return false
			}
			rng, ok := d.Path[i+1].(*ssa.Range)
			if !ok {
				return false
			}
			up := updateOf(rng.X, d.Path[i+2])
			if up == nil {
				return false
			}
			k = up.Key
			i += 2
		case *ssa.Range, *ssa.Index, *ssa.IndexAddr, *ssa.Slice:
			return false
		}
	}
	if from := LoadedFrom(k); from != nil && scanned(from) {
		return true
	}
	return scanned(ssaval.Unwrap(k))
}

// sameMapKey reports whether two map keys are the same value: one SSA
// value, or loads of one local or field path.
func sameMapKey(a, b ssa.Value) bool {
	a, b = ssaval.Unwrap(a), ssaval.Unwrap(b)
	if a == b || SameKey(a, b) {
		return true
	}
	la, ok1 := a.(*ssa.UnOp)
	lb, ok2 := b.(*ssa.UnOp)
	return ok1 && ok2 && la.Op == token.MUL && lb.Op == token.MUL && SameAddr(la.X, lb.X) && la.Block() == lb.Block()
}

// updateOf returns the store into the map m (or a map that is the same)
// of the value v.
func updateOf(m, v ssa.Value) *ssa.MapUpdate {
	for _, same := range sameMaps(m) {
		if refs := same.Referrers(); refs != nil {
			for _, ref := range *refs {
				if up, ok := ref.(*ssa.MapUpdate); ok && up.Map == same && up.Value == v {
					return up
				}
			}
		}
	}
	return nil
}
