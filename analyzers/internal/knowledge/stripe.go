package knowledge

import "strings"

const stripePkg = "github.com/stripe/stripe-go/v82"

// stripe: stripe-go v82.
//
// Its API calls are too many for rows: about 530 methods of the unexported
// service types v1…Service and v2…Service (sc.V1PaymentIntents.Create is a
// static call of (stripe-go/v82.v1PaymentIntentService).Create, a value
// receiver loaded from the *v1PaymentIntentService field), and as many
// again in the deprecated per-resource packages (paymentintent.New,
// (customer.Client).Update). stripeCall recognises both by their names and
// gives the HTTP method the library sends; Lookup and Resolve consult it
// after the table (rules.go). Its calls carry no Params: the request's
// params (a *XxxParams embedding stripe.Params) are always the last
// parameter, whose index varies (Create(ctx, params), Update(ctx, id,
// params), v2 Ping(id, params), legacy New(params)).
//
// Idempotency keys: params.SetIdempotencyKey(k) is the promoted
// (*stripe.Params).SetIdempotencyKey; params.IdempotencyKey =
// stripe.String(k) is a Store to the IdempotencyKey field of the embedded
// stripe.Params, whose type row (IdemKeyHolder) and IdemKeyField name it.
// Without one, stripe-go sends a fresh NewIdempotencyKey() on every POST,
// PUT, PATCH or DELETE call: its own network retries reuse it, but an app
// retry around the call sends a new key per attempt.
var stripe = library{
	name: "stripe",
	pkgs: []string{stripePkg},
	types: []Type{
		{Pkg: stripePkg, Name: "Params", Role: IdemKeyHolder},
	},
	calls: []Call{
		{Func: fn(stripePkg, "NewClient"), Kind: NewHandle, Result: ClientResult},
		{Func: fn(stripePkg+"/client", "New"), Kind: NewHandle, Result: ClientResult},
		{Func: method(stripePkg, "Params", "SetIdempotencyKey"), Kind: SetIdemKey, Params: []Param{p(0, Key)}},
		{Func: fn(stripePkg, "NewIdempotencyKey"), Kind: Fresh, Result: ValueResult},
		{Func: method(stripePkg+"/rawrequest", "Client", "RawRequest"), Kind: Request, Params: []Param{p(0, HTTPMethod), p(1, URL), p(2, Body)}},

		// The deprecated resource packages most payment code still uses,
		// as rows with their params (Body); the rule covers the others.
		{Func: fn(stripePkg+"/paymentintent", "New"), Kind: Request, Params: []Param{p(0, Body)}, Method: "POST"},
		{Func: fn(stripePkg+"/paymentintent", "Get"), Kind: Request, Params: []Param{p(1, Body)}, Method: "GET"},
		{Func: fn(stripePkg+"/paymentintent", "Update"), Kind: Request, Params: []Param{p(1, Body)}, Method: "POST"},
		{Func: fn(stripePkg+"/paymentintent", "Confirm"), Kind: Request, Params: []Param{p(1, Body)}, Method: "POST"},
		{Func: fn(stripePkg+"/paymentintent", "Capture"), Kind: Request, Params: []Param{p(1, Body)}, Method: "POST"},
		{Func: fn(stripePkg+"/paymentintent", "Cancel"), Kind: Request, Params: []Param{p(1, Body)}, Method: "POST"},
		{Func: method(stripePkg+"/paymentintent", "Client", "New"), Kind: Request, Params: []Param{p(0, Body)}, Method: "POST"},
		{Func: method(stripePkg+"/paymentintent", "Client", "Get"), Kind: Request, Params: []Param{p(1, Body)}, Method: "GET"},
		{Func: method(stripePkg+"/paymentintent", "Client", "Update"), Kind: Request, Params: []Param{p(1, Body)}, Method: "POST"},
		{Func: method(stripePkg+"/paymentintent", "Client", "Confirm"), Kind: Request, Params: []Param{p(1, Body)}, Method: "POST"},
		{Func: method(stripePkg+"/paymentintent", "Client", "Capture"), Kind: Request, Params: []Param{p(1, Body)}, Method: "POST"},
		{Func: method(stripePkg+"/paymentintent", "Client", "Cancel"), Kind: Request, Params: []Param{p(1, Body)}, Method: "POST"},
		{Func: fn(stripePkg+"/charge", "New"), Kind: Request, Params: []Param{p(0, Body)}, Method: "POST"},
		{Func: fn(stripePkg+"/charge", "Get"), Kind: Request, Params: []Param{p(1, Body)}, Method: "GET"},
		{Func: fn(stripePkg+"/charge", "Update"), Kind: Request, Params: []Param{p(1, Body)}, Method: "POST"},
		{Func: fn(stripePkg+"/charge", "Capture"), Kind: Request, Params: []Param{p(1, Body)}, Method: "POST"},
		{Func: method(stripePkg+"/charge", "Client", "New"), Kind: Request, Params: []Param{p(0, Body)}, Method: "POST"},
		{Func: method(stripePkg+"/charge", "Client", "Get"), Kind: Request, Params: []Param{p(1, Body)}, Method: "GET"},
		{Func: method(stripePkg+"/charge", "Client", "Update"), Kind: Request, Params: []Param{p(1, Body)}, Method: "POST"},
		{Func: method(stripePkg+"/charge", "Client", "Capture"), Kind: Request, Params: []Param{p(1, Body)}, Method: "POST"},
	},
}

// IdemKeyField returns the name of the field of a type with the
// IdemKeyHolder role that holds the idempotency key, or "".
func IdemKeyField(t *Type) string {
	if t != nil && t.Role == IdemKeyHolder && t.Pkg == stripePkg && t.Name == "Params" {
		return "IdempotencyKey"
	}
	return ""
}

// stripeCall is the rule for stripe-go's API calls: a method of an
// unexported service type v1…Service or v2…Service of the root package, or
// a function or Client method of a resource package below it. The HTTP
// method follows from the verb, as stripe-go v82.5.1's generated code
// sends it (checked against every one of its service methods and resource
// functions): reads are GET, Delete and Del are DELETE, every other verb
// (Create, New, Update, Confirm, Capture, Cancel, Refund, Pay, Attach...)
// is POST, less the few exceptions listed.
func stripeCall(f Func) *Call {
	var pkg string
	switch {
	case f.Pkg == stripePkg:
		if !isStripeService(f.Recv) {
			return nil
		}
	case strings.HasPrefix(f.Pkg, stripePkg+"/"):
		pkg = strings.TrimPrefix(f.Pkg, stripePkg+"/")
		if f.Recv != "" && f.Recv != "Client" || stripeNotAPI[pkg] || f.Name == "AuthorizeURL" {
			return nil
		}
	default:
		return nil
	}
	if f.Name == "" || f.Name[0] < 'A' || f.Name[0] > 'Z' {
		return nil
	}
	m, ok := stripeExceptions[pkg+"."+f.Recv+"."+f.Name]
	if !ok && pkg != "" {
		m, ok = stripeExceptions[pkg+".."+f.Name]
	}
	if !ok {
		m = stripeVerbMethod(f.Name)
	}
	return &Call{Func: f, Kind: Request, Method: m, Lib: "stripe"}
}

// isStripeService reports whether recv names a service type of stripe-go's
// root package: v1PaymentIntentService, v2CoreEventService.
func isStripeService(recv string) bool {
	return len(recv) > len("v1Service") && (strings.HasPrefix(recv, "v1") || strings.HasPrefix(recv, "v2")) &&
		recv[2] >= 'A' && recv[2] <= 'Z' && strings.HasSuffix(recv, "Service")
}

// stripeNotAPI are the packages below the root that call no API: form
// encoding, webhook signature checks, the client constructor, test
// servers.
var stripeNotAPI = map[string]bool{
	"form": true, "webhook": true, "client": true, "mock": true, "testing": true,
}

// stripeExceptions are the calls whose HTTP method is not their verb's,
// keyed by resource package (or "" for the root), receiver and name
// ("subscription..Cancel" is the legacy package function).
var stripeExceptions = map[string]string{
	".v1SubscriptionService.Cancel": "DELETE",
	".v1SourceService.Detach":       "DELETE",
	"subscription..Cancel":          "DELETE",
	"source..Detach":                "DELETE",
	"oauth..Del":                    "POST", // deauthorize is a POST
}

// stripeVerbMethod returns the HTTP method stripe-go sends for a call
// named verb.
func stripeVerbMethod(verb string) string {
	switch verb {
	case "Get", "Retrieve", "List", "All", "Search", "Find", "GetByID", "PDF", "Preview", "PreviewLines":
		return "GET"
	case "Delete", "Del", "DeleteDiscount":
		return "DELETE"
	}
	if strings.HasPrefix(verb, "List") || strings.HasPrefix(verb, "Retrieve") {
		return "GET"
	}
	return "POST"
}
