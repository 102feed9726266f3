package ops

import (
	"go/token"
	"net/http"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/knowledge"
	"github.com/idemlint/idemlint/analyzers/internal/ssaval"
)

// This file finds what in the client code shows that a request creates
// something on the server, so that a repeat after a lost response does
// harm: the code expects 201 Created of the response, or reads the
// Location header a create answers with, or the request is a payment
// SDK's create (stripe-go). A POST is also how reads are sent (a
// validation, a search, a token exchange, a link the server makes): the
// method alone does not say which, and the server's handling of a repeat
// cannot be seen, so retrypost's default rule asks for this evidence.

// createdBy returns what shows that the request call sends creates
// something ("" when nothing does): a test of its response's status code
// against 201 (also of the code a helper returns, or the code handed
// with the response to a function that checks it), or a read of its
// Location header.
func (e *extractor) createdBy(call ssa.CallInstruction) string {
	v := call.Value()
	if v == nil {
		return ""
	}
	_, resps := resultValues(v)
	codes, _ := e.statusValues(call, resps)
	for _, c := range carriers(codes) {
		for _, ref := range *c.Referrers() {
			switch r := ref.(type) {
			case *ssa.BinOp:
				if (r.Op == token.EQL || r.Op == token.NEQ) && (isConstInt(r.X, http.StatusCreated) || isConstInt(r.Y, http.StatusCreated)) {
					return "it expects 201 Created"
				}
			case ssa.CallInstruction:
				if passesCreated(r) {
					return "it expects 201 Created"
				}
			}
		}
	}
	for _, r := range carriers(resps) {
		for _, ref := range *r.Referrers() {
			switch x := ref.(type) {
			case ssa.CallInstruction:
				if passesCreated(x) {
					return "it expects 201 Created"
				}
				if site, ok := knowledge.Resolve(x.Common()); ok && site.Row != nil && site.Row.Kind == knowledge.Location {
					return "it reads the Location header"
				}
			case *ssa.FieldAddr:
				if selects(x, knowledge.HTTPResponse, "Header") && readsLocation(x) {
					return "it reads the Location header"
				}
			}
		}
	}
	return ""
}

// passesCreated reports whether call is handed 201 beside the response
// or its code (expectStatus(resp, http.StatusCreated)): the callee checks
// the one against the other.
func passesCreated(call ssa.CallInstruction) bool {
	for _, a := range call.Common().Args {
		if isConstInt(a, http.StatusCreated) {
			return true
		}
	}
	return false
}

// readsLocation reports whether the response's Header field, at fa, is
// asked for Location (resp.Header.Get("Location")). Header's methods have
// value receivers: the call takes the loaded map.
func readsLocation(fa *ssa.FieldAddr) bool {
	for _, use := range *fa.Referrers() {
		load, ok := use.(*ssa.UnOp)
		if !ok || load.Op != token.MUL {
			continue
		}
		for _, ref := range *load.Referrers() {
			call, ok := ref.(ssa.CallInstruction)
			if !ok {
				continue
			}
			site, ok := knowledge.Resolve(call.Common())
			if !ok || site.Row == nil || site.Row.Kind != knowledge.GetHeader {
				continue
			}
			if name, ok := ssaval.ConstString(site.RoleArg(knowledge.HeaderName)); ok && http.CanonicalHeaderKey(name) == "Location" {
				return true
			}
		}
	}
	return false
}
