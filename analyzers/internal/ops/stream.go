package ops

import (
	"net/textproto"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/knowledge"
	"github.com/idemlint/idemlint/analyzers/internal/ssaval"
)

// asksEventStream reports whether fn sets Accept: text/event-stream on a
// request with one of the given roots: the request subscribes to a
// server-sent event stream, whatever its method, and reconnecting to a
// stream is what its clients do, not a repeated operation.
func (e *extractor) asksEventStream(fn *ssa.Function, roots []ssa.Value) bool {
	owned := map[ssa.Value]bool{}
	for _, r := range roots {
		owned[r] = true
	}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(ssa.CallInstruction)
			if !ok {
				continue
			}
			site, ok := knowledge.Resolve(call.Common())
			if !ok || site.Row == nil || site.Row.Kind != knowledge.SetHeader || site.Receiver() == nil || !isHeader(site.Receiver().Type()) {
				continue
			}
			nameArg, valueArg := site.RoleArg(knowledge.HeaderName), site.RoleArg(knowledge.HeaderValue)
			if nameArg == nil || valueArg == nil {
				continue
			}
			name, ok1 := ssaval.ConstString(nameArg)
			value, ok2 := ssaval.ConstString(valueArg)
			if !ok1 || !ok2 || textproto.CanonicalMIMEHeaderKey(name) != "Accept" || !strings.Contains(value, "text/event-stream") {
				continue
			}
			for _, o := range e.headerOwners(site.Receiver()) {
				if owned[o] {
					return true
				}
			}
		}
	}
	return false
}
