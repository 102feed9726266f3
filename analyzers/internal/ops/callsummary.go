package ops

import (
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/ssaval"
)

// A calleeSummary is what a call runs, as far as a summary says: the
// summary, the callee's name for messages, the call's arguments laid out
// as summaries count them (the receiver first), and the package whose
// model types the summary names.
type calleeSummary struct {
	s    *Summary
	name string
	args []ssa.Value
	pkg  *types.Package
}

// callSummary returns the summary of what call runs, or nil: for a static
// call, its callee's (this package's, or an imported fact); for a call of
// an interface method, its implementation's, when one is known. That is
// the package's own interface with one implementation in the package
// (soleImpls), an interface whose package exported the fact, or an
// interface bound in the program to one implementation (wiring.go).
func (e *extractor) callSummary(call ssa.CallInstruction) *calleeSummary {
	common := call.Common()
	if !common.IsInvoke() {
		callee := common.StaticCallee()
		if callee == nil {
			return nil
		}
		if callee.Origin() != nil {
			callee = callee.Origin()
		}
		s := e.summary(callee)
		if s == nil {
			return nil
		}
		cs := &calleeSummary{s: s, args: common.Args}
		if obj, ok := callee.Object().(*types.Func); ok {
			cs.name, cs.pkg = funcName(obj), obj.Pkg()
		}
		if cs.pkg == nil {
			cs.pkg = ssaval.Pkg(callee)
		}
		return cs
	}
	m := common.Method
	// Summaries count the receiver as parameter 0.
	args := append([]ssa.Value{common.Value}, common.Args...)
	if fn := e.impls[m]; fn != nil {
		s := e.summary(fn)
		if s == nil {
			return nil
		}
		cs := &calleeSummary{s: s, name: funcName(m), args: args, pkg: m.Pkg()}
		if obj, ok := fn.Object().(*types.Func); ok {
			cs.name = funcName(obj)
		}
		return cs
	}
	if e.imported != nil && m.Pkg() != nil {
		if s := e.imported(m); s != nil {
			return &calleeSummary{s: s, name: funcName(m), args: args, pkg: m.Pkg()}
		}
	}
	key := methodKey(m)
	if key == "" {
		return nil
	}
	if b := e.bound[key]; b != nil {
		s := b.summary()
		if s.empty() {
			return nil
		}
		e.boundCalls[call] = true
		return &calleeSummary{s: s, name: b.name, args: args, pkg: b.pkg}
	}
	return nil
}

// methodKey names an interface method by the interface that declares it
// ("example.com/app/usecase.UserRepository.ByEmail"), the same in every
// package of the program; "" for a method of an unnamed interface.
func methodKey(m *types.Func) string {
	iface := ifaceOf(m)
	if iface == "" {
		return ""
	}
	return iface + "." + m.Name()
}

// ifaceOf returns the path-qualified name of the named interface
// declaring method m, or "".
func ifaceOf(m *types.Func) string {
	sig, ok := m.Type().(*types.Signature)
	if !ok || sig.Recv() == nil {
		return ""
	}
	named, ok := types.Unalias(sig.Recv().Type()).(*types.Named)
	if !ok || named.Obj().Pkg() == nil || named.TypeArgs().Len() > 0 {
		return ""
	}
	return named.Obj().Pkg().Path() + "." + named.Obj().Name()
}
