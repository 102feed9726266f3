package knowledge

const (
	httpPkg = "net/http"
	smtpPkg = "net/smtp"
	netPkg  = "net"
)

// netHTTP: net/http, net/smtp and net.Dial.
//
// Every call is static except (http.RoundTripper).RoundTrip, an invoke.
// http.DefaultClient.Do is (*http.Client).Do. A request's headers are set
// with (http.Header).Set/Add on req.Header, or by a map write
// req.Header["Idempotency-Key"] = ... (an *ssa.MapUpdate, not a call).
// Whether an *http.Client retries depends on its Transport: one from
// retryablehttp's StandardClient, a *retryablehttp.RoundTripper or
// failsafehttp.NewRoundTripper does (see those tables); the default
// Transport only replays a request on a dead reused connection.
var netHTTP = library{
	name: "nethttp",
	types: []Type{
		{Pkg: httpPkg, Name: "Request", Role: HTTPRequest},
		{Pkg: httpPkg, Name: "Header", Role: HeaderMap},
		{Pkg: httpPkg, Name: "Response", Role: HTTPResponse},
		{Pkg: httpPkg, Name: "Client", Role: HTTPClient},
	},
	calls: []Call{
		// Requests. Method is set where the call fixes it; Do and RoundTrip
		// send a request built by NewRequest*, which names the method.
		{Func: method(httpPkg, "Client", "Do"), Kind: Request, Params: []Param{p(0, Req)}},
		{Func: method(httpPkg, "Client", "Get"), Kind: Request, Params: []Param{p(0, URL)}, Method: "GET"},
		{Func: method(httpPkg, "Client", "Head"), Kind: Request, Params: []Param{p(0, URL)}, Method: "HEAD"},
		{Func: method(httpPkg, "Client", "Post"), Kind: Request, Params: []Param{p(0, URL), p(2, Body)}, Method: "POST"},
		{Func: method(httpPkg, "Client", "PostForm"), Kind: Request, Params: []Param{p(0, URL), p(1, Body)}, Method: "POST"},
		{Func: fn(httpPkg, "Get"), Kind: Request, Params: []Param{p(0, URL)}, Method: "GET"},
		{Func: fn(httpPkg, "Head"), Kind: Request, Params: []Param{p(0, URL)}, Method: "HEAD"},
		{Func: fn(httpPkg, "Post"), Kind: Request, Params: []Param{p(0, URL), p(2, Body)}, Method: "POST"},
		{Func: fn(httpPkg, "PostForm"), Kind: Request, Params: []Param{p(0, URL), p(1, Body)}, Method: "POST"},
		{Func: method(httpPkg, "Transport", "RoundTrip"), Kind: Request, Params: []Param{p(0, Req)}},
		{Func: method(httpPkg, "RoundTripper", "RoundTrip"), Kind: Request, Params: []Param{p(0, Req)}},

		// Building a request, and its headers.
		{Func: fn(httpPkg, "NewRequest"), Kind: NewRequest, Params: []Param{p(0, HTTPMethod), p(1, URL), p(2, Body)}, Result: RequestResult},
		{Func: fn(httpPkg, "NewRequestWithContext"), Kind: NewRequest, Params: []Param{p(1, HTTPMethod), p(2, URL), p(3, Body)}, Result: RequestResult},
		{Func: method(httpPkg, "Header", "Set"), Kind: SetHeader, Params: []Param{p(0, HeaderName), p(1, HeaderValue)}},
		{Func: method(httpPkg, "Header", "Add"), Kind: SetHeader, Params: []Param{p(0, HeaderName), p(1, HeaderValue)}},

		// What a response says: a create answers 201 with the Location of
		// what it made.
		{Func: method(httpPkg, "Header", "Get"), Kind: GetHeader, Params: []Param{p(0, HeaderName)}},
		{Func: method(httpPkg, "Header", "Values"), Kind: GetHeader, Params: []Param{p(0, HeaderName)}},
		{Func: method(httpPkg, "Response", "Location"), Kind: Location},

		// Mail: every command of an SMTP session is a round trip to the
		// server. NewClient reads the server's greeting from conn.
		{Func: fn(smtpPkg, "SendMail"), Kind: Request, Params: []Param{p(0, URL), p(4, Body)}},
		{Func: fn(smtpPkg, "Dial"), Kind: Dial, Params: []Param{p(0, URL)}, Result: ClientResult},
		{Func: fn(smtpPkg, "NewClient"), Kind: Dial, Result: ClientResult},
		{Func: method(smtpPkg, "Client", "Hello"), Kind: Request},
		{Func: method(smtpPkg, "Client", "StartTLS"), Kind: Request},
		{Func: method(smtpPkg, "Client", "Auth"), Kind: Request},
		{Func: method(smtpPkg, "Client", "Mail"), Kind: Request},
		{Func: method(smtpPkg, "Client", "Rcpt"), Kind: Request},
		{Func: method(smtpPkg, "Client", "Data"), Kind: Request},
		{Func: method(smtpPkg, "Client", "Verify"), Kind: Request},
		{Func: method(smtpPkg, "Client", "Reset"), Kind: Request},
		{Func: method(smtpPkg, "Client", "Noop"), Kind: Request},
		{Func: method(smtpPkg, "Client", "Quit"), Kind: Request},

		// Raw connections: the address is the URL.
		{Func: fn(netPkg, "Dial"), Kind: Dial, Params: []Param{p(1, URL)}},
		{Func: fn(netPkg, "DialTimeout"), Kind: Dial, Params: []Param{p(1, URL)}},
		{Func: method(netPkg, "Dialer", "Dial"), Kind: Dial, Params: []Param{p(1, URL)}},
		{Func: method(netPkg, "Dialer", "DialContext"), Kind: Dial, Params: []Param{p(2, URL)}},
	},
}

// BodyKeyFields are the JSON fields through which APIs take an
// idempotency key in the request body rather than in a header: a
// retried request that carries the same value there is deduplicated by
// the receiver.
var BodyKeyFields = map[string]string{
	"dedup_key":       "PagerDuty Events API v2",
	"idempotency_key": "Square and others",
	"idempotencyKey":  "camelCase APIs",
	"ClientToken":     "AWS JSON APIs",
	"client_token":    "AWS and others",
}
