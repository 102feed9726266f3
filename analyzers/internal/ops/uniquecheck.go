package ops

import (
	"go/constant"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/knowledge"
	"github.com/idemlint/idemlint/analyzers/internal/ssaval"
)

// Whether code tests an error for a unique violation: the insert's loser
// learns that the row exists.

// ChecksUnique reports whether fn tests the error err for a unique
// violation: errors.Is with a unique-violation sentinel
// (gorm.ErrDuplicatedKey), errors.As into a database error type with its
// code compared to a unique-violation code, an ErrorCheck of the tables
// (ent.IsConstraintError, pgerrcode.IsIntegrityConstraintViolation, bun's
// IntegrityViolation), or a helper whose summary says it checks one.
func (e *extractor) ChecksUnique(fn *ssa.Function, err ssa.Value) bool {
	if err == nil {
		return false
	}
	from := func(v ssa.Value) bool { return sameErr(v, err, 0) }
	asDBError, codeCompared, checked := false, false, false
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			switch x := instr.(type) {
			case *ssa.BinOp:
				if x.Op == token.EQL || x.Op == token.NEQ {
					for _, v := range []ssa.Value{x.X, x.Y} {
						if c, ok := ssaval.Unwrap(v).(*ssa.Const); ok && c.Value != nil {
							s := c.Value.ExactString()
							if c.Value.Kind() == constant.String {
								s = constant.StringVal(c.Value)
							}
							if knowledge.CodeMeaning(s) == knowledge.UniqueViolation {
								codeCompared = true
							}
						}
					}
					if uniqueText(x.X, x.Y, from) || uniqueText(x.Y, x.X, from) {
						checked = true
					}
				}
			case ssa.CallInstruction:
				common := x.Common()
				callee := common.StaticCallee()
				if callee != nil && (ssaval.PkgPath(callee) == "errors" || isErrorsIs(callee)) && len(common.Args) == 2 {
					name := callee.Name()
					if isErrorsIs(callee) {
						name = "Is" // a wrapper of it, whatever its name
					}
					switch name {
					case "Is":
						if from(common.Args[0]) {
							if g := globalOf(common.Args[1]); g != nil {
								if obj, ok := g.Object().(*types.Var); ok {
									if s := knowledge.SentinelOf(obj); s != nil && s.Meaning == knowledge.UniqueViolation {
										checked = true
									}
								}
							}
						}
					case "As":
						if from(common.Args[0]) {
							if t, ok := ssaval.Unwrap(common.Args[1]).Type().(*types.Pointer); ok {
								if row := knowledge.TypeOf(t.Elem()); row != nil && row.Role == knowledge.DBError {
									asDBError = true
								}
							}
						}
					}
					continue
				}
				if callee != nil && ssaval.PkgPath(callee) == "strings" && len(common.Args) == 2 &&
					uniqueText(common.Args[0], common.Args[1], from) {
					// strings.Contains(err.Error(), "duplicate key") and the like.
					checked = true
					continue
				}
				if row := errorCheckRow(common); row != nil && row.Meaning == knowledge.UniqueViolation {
					// An invoke's Args exclude its receiver: a method of
					// an error interface has none.
					if len(common.Args) == 0 && !common.IsInvoke() {
						continue
					}
					if site, ok := knowledge.Resolve(common); ok && site.Receiver() != nil {
						// A method of a database error type (bun's
						// pgdriver.Error.IntegrityViolation, go-pg's
						// pg.Error interface) after errors.As.
						asDBError, codeCompared = true, true
						continue
					}
					if from(common.Args[len(common.Args)-1]) || from(common.Args[0]) {
						checked = true
					}
					continue
				}
				if callee != nil && !common.IsInvoke() {
					f := callee
					if f.Origin() != nil {
						f = f.Origin()
					}
					if f == fn {
						continue
					}
					if s := e.summary(f); s != nil {
						for _, i := range s.UniqueChecks {
							if i < len(common.Args) && from(common.Args[i]) {
								checked = true
							}
						}
					}
				}
			}
		}
	}
	return checked || (asDBError && codeCompared)
}

// uniqueText reports whether text is err's message (err.Error(), perhaps
// case-folded) and c a constant naming the driver's unique-violation
// text: the check a program makes when it has no driver error type to
// test.
func uniqueText(text, c ssa.Value, from func(ssa.Value) bool) bool {
	k, ok := ssaval.Unwrap(c).(*ssa.Const)
	if !ok || k.Value == nil || k.Value.Kind() != constant.String ||
		knowledge.MessageMeaning(constant.StringVal(k.Value)) != knowledge.UniqueViolation {
		return false
	}
	return isErrText(text, from, 0)
}

func isErrText(v ssa.Value, from func(ssa.Value) bool, depth int) bool {
	call, ok := ssaval.Unwrap(v).(*ssa.Call)
	if !ok || depth > 2 {
		return false
	}
	common := call.Common()
	if common.IsInvoke() {
		return common.Method.Name() == "Error" && len(common.Args) == 0 && from(common.Value)
	}
	callee := common.StaticCallee()
	if callee == nil || len(common.Args) != 1 {
		return false
	}
	if ssaval.PkgPath(callee) == "strings" {
		switch callee.Name() {
		case "ToLower", "ToUpper", "TrimSpace":
			return isErrText(common.Args[0], from, depth+1)
		}
		return false
	}
	return callee.Name() == "Error" && callee.Signature.Recv() != nil && from(common.Args[0])
}

// sameErr reports whether v is the error err, through conversions and
// phis (an err variable assigned again on some path).
func sameErr(v, err ssa.Value, depth int) bool {
	if depth > 6 || v == nil {
		return false
	}
	v = ssaval.Unwrap(v)
	if v == err {
		return true
	}
	if phi, ok := v.(*ssa.Phi); ok {
		for _, e := range phi.Edges {
			if sameErr(e, err, depth+1) {
				return true
			}
		}
	}
	if p, ok := err.(*ssa.Parameter); ok {
		_ = p
	}
	return false
}
