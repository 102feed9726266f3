package ops

import (
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// Lookups and inserts across calls: a helper's rows, as its summary says
// them to its callers.

// helperRows applies the lookups and inserts of a callee's summary to the
// call's arguments.
func (e *extractor) helperRows(call ssa.CallInstruction) []*RowOp {
	cs := e.callSummary(call)
	if cs == nil || (len(cs.s.Lookups) == 0 && len(cs.s.Inserts) == 0) {
		return nil
	}
	s, name, args := cs.s, cs.name, cs.args
	arg := func(r ParamRef) ssa.Value {
		if r.Param < 0 || r.Param >= len(args) {
			return nil
		}
		if r.Field == "" {
			return args[r.Param]
		}
		return fieldKey(args[r.Param], r.Field)
	}
	keys := func(cols, fields []string, params []ParamRef) []KeyValue {
		var out []KeyValue
		for i, c := range cols {
			if v := arg(params[i]); v != nil {
				kv := KeyValue{Column: c, Value: v}
				if i < len(fields) {
					kv.Field = fields[i]
				}
				out = append(out, kv)
			}
		}
		return out
	}
	model := func(name string) types.Type {
		if name == "" || cs.pkg == nil {
			return nil
		}
		return lookupType(cs.pkg, name)
	}
	handle := func(i int) ssa.Value {
		if i >= 0 && i < len(args) {
			return Root(args[i])
		}
		return nil
	}
	var ops []*RowOp
	for _, l := range s.Lookups {
		ks := keys(l.Columns, l.Fields, l.Params)
		op := &RowOp{Kind: Lookup, Table: l.Table, Model: model(l.Model), Keys: ks, Lib: l.Lib, Handle: handle(l.Handle),
			Desc: l.Desc, Via: name, NilResult: l.NilResult, Sentinel: l.Sentinel, Propagates: l.Propagates,
			FoundResult: l.FoundResult, HasFound: l.HasFound, NilErrNotFound: l.NilErrNotFound, Narrowed: l.Narrowed,
			ErrWhenNotFound: l.ErrWhenNotFound}
		if l.ChainParam > 0 && l.ChainParam <= len(args) {
			// The helper runs the finder on the query we give it.
			lib := libraryNamed(l.Lib)
			if lib == nil || lib.ChainRow == nil || !lib.ChainRow(args[l.ChainParam-1], op) {
				continue
			}
			ops = append(ops, splitAlternatives([]*RowOp{op})...)
			continue
		}
		if len(ks) == 0 || (l.Model != "" && model(l.Model) == nil) {
			continue
		}
		ops = append(ops, op)
	}
	for _, in := range s.Inserts {
		ks := keys(in.Columns, in.Fields, in.Params)
		var inserted ssa.Value
		if in.WholeParam >= 0 && in.WholeParam < len(args) && in.Model != "" {
			// The argument inserted as it is: keyed by what the caller
			// reads from it, as an insert of its own would be.
			inserted = args[in.WholeParam]
			ks = addGivenKeys(ks, inserted, in.Overwritten)
		}
		if (len(ks) == 0 && inserted == nil) || (in.Model != "" && model(in.Model) == nil) {
			continue
		}
		ops = append(ops, &RowOp{Kind: Insert, Table: in.Table, Model: model(in.Model), Keys: ks, Lib: in.Lib, Handle: handle(in.Handle),
			Desc: in.Desc, Via: name, Conflict: in.Conflict, HandlesUnique: in.HandlesUnique, NilResult: -1, Inserted: inserted})
	}
	return ops
}

// rowSummary adds to fn's summary the lookups and inserts keyed by its
// parameters that its callers see: a lookup whose found-nothing answer
// reaches the caller (a nil result, a sentinel error, the library's
// error), an insert, and the error parameters it checks for a unique
// violation.
func (e *extractor) rowSummary(fn *ssa.Function, s *Summary) *Summary {
	if fn.Signature.Recv() == nil && fn.Parent() != nil {
		return s
	}
	if s == nil {
		s = &Summary{}
	}
	rows := e.Rows(fn)
	refs := map[ssa.Value]ParamRef{}
	if l, f := e.generatedHere(fn); f != nil && l.OwnRows != nil {
		rows = append(rows, l.OwnRows(fn, f, refs)...)
	}
	for _, op := range rows {
		params, ok := keyParams(fn, op.Keys)
		if len(refs) > 0 {
			params, ok = nil, false
			for _, k := range op.Keys {
				ref, found := refs[k.Value]
				if !found {
					ref = ParamRef{Param: -1}
				}
				ok = ok || found
				params = append(params, ref)
			}
		}
		whole, overwritten := -1, []string(nil)
		if op.Kind == Insert && op.Inserted != nil && op.Model != nil {
			whole, overwritten = wholeParam(fn, op.Inserted)
		}
		chain := 0
		if op.Kind == Lookup && op.ChainParam != nil && op.ChainParam.Parent() == fn {
			chain = paramIndex(fn, op.ChainParam) + 1
		}
		if !ok && whole < 0 && chain == 0 {
			continue
		}
		handle := -1
		if p, isParam := op.Handle.(*ssa.Parameter); isParam {
			handle = paramIndex(fn, p)
		}
		cols := op.KeyColumns()
		var fields []string
		for _, k := range op.Keys {
			fields = append(fields, k.Field)
		}
		modelName := ""
		if op.Model != nil {
			if modelName = qualifiedType(op.Model); modelName == "" {
				continue
			}
		}
		switch op.Kind {
		case Lookup:
			if op.ByUpdate {
				continue
			}
			nilRes, sentinel, propagates := -1, "", op.Propagates
			// A validator's nil error says that nothing was found; the
			// library's error it passes on is then never the not-found one.
			nilErr := !propagates && nilErrWhenNotFound(fn, op)
			if !propagates && !nilErr {
				nilRes, sentinel, propagates = e.lookupResult(fn, op)
				if propagates && !op.FromLibrary && !op.Propagates {
					// The error passed on is a helper's: its sentinel, if any.
					propagates, sentinel = false, op.Sentinel
				}
			}
			// Its error is not nil whenever nothing was found: the caller's
			// err == nil has found nothing on its other side.
			errNF := op.ErrWhenNotFound && !nilErr && (op.Instr == nil || errWhenNotFound(fn, op))
			found, hasFound := -1, false
			if nilRes < 0 && sentinel == "" && !nilErr {
				found, hasFound = foundResult(fn, op)
				if !hasFound && !propagates && !errNF {
					continue
				}
			}
			s.Lookups = append(s.Lookups, LookupFact{FoundResult: found, HasFound: hasFound, Table: op.Table, Model: modelName, Columns: cols, Fields: fields, Params: params, Handle: handle,
				Lib: op.Lib, Desc: op.Evidence(), NilResult: nilRes, Sentinel: sentinel, Propagates: propagates, NilErrNotFound: nilErr, Narrowed: op.Narrowed,
				ErrWhenNotFound: errNF, ChainParam: chain})
		case Insert:
			s.Inserts = append(s.Inserts, InsertFact{Table: op.Table, Model: modelName, Columns: cols, Fields: fields, Params: params, Handle: handle,
				Lib: op.Lib, Desc: op.Evidence(), Conflict: op.Conflict,
				HandlesUnique: op.HandlesUnique || e.ChecksUnique(fn, errOf(op.Instr)), WholeParam: whole, Overwritten: overwritten})
		}
	}
	for i, p := range fn.Params {
		if isErrorType(p.Type()) && e.ChecksUnique(fn, p) {
			s.UniqueChecks = append(s.UniqueChecks, i)
		}
	}
	if s.empty() {
		return nil
	}
	return s
}
