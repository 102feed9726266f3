package knowledge

const retryableHTTPPkg = "github.com/hashicorp/go-retryablehttp"

// retryableHTTP: hashicorp/go-retryablehttp. Every call is static.
//
// Its requests are retried: a *retryablehttp.Client (from NewClient or a
// composite literal; its RetryMax defaults to 4) re-sends on connection
// errors, 429 and 5xx whatever the method, and the package functions send
// through a default Client. The Retrying type rows say so, and
// RetriesItself answers it for a call. StandardClient, and a
// *retryablehttp.RoundTripper put in an http.Client's Transport, make a
// plain *http.Client whose (*http.Client).Do is retried. A Request embeds
// *http.Request, so req.Header.Set is (http.Header).Set.
var retryableHTTP = library{
	name: "retryablehttp",
	pkgs: []string{retryableHTTPPkg},
	types: []Type{
		{Pkg: retryableHTTPPkg, Name: "Client", Role: Retrying},
		{Pkg: retryableHTTPPkg, Name: "RoundTripper", Role: Retrying},
		{Pkg: retryableHTTPPkg, Name: "Request", Role: ClientRequest},
	},
	calls: []Call{
		{Func: fn(retryableHTTPPkg, "NewClient"), Kind: RetryClient, Result: ClientResult},
		{Func: method(retryableHTTPPkg, "Client", "StandardClient"), Kind: RetryClient, Result: ClientResult},

		{Func: method(retryableHTTPPkg, "Client", "Do"), Kind: Request, Params: []Param{p(0, Req)}},
		{Func: method(retryableHTTPPkg, "Client", "Get"), Kind: Request, Params: []Param{p(0, URL)}, Method: "GET"},
		{Func: method(retryableHTTPPkg, "Client", "Head"), Kind: Request, Params: []Param{p(0, URL)}, Method: "HEAD"},
		{Func: method(retryableHTTPPkg, "Client", "Post"), Kind: Request, Params: []Param{p(0, URL), p(2, Body)}, Method: "POST"},
		{Func: method(retryableHTTPPkg, "Client", "PostForm"), Kind: Request, Params: []Param{p(0, URL), p(1, Body)}, Method: "POST"},
		{Func: fn(retryableHTTPPkg, "Get"), Kind: Request, Params: []Param{p(0, URL)}, Method: "GET"},
		{Func: fn(retryableHTTPPkg, "Head"), Kind: Request, Params: []Param{p(0, URL)}, Method: "HEAD"},
		{Func: fn(retryableHTTPPkg, "Post"), Kind: Request, Params: []Param{p(0, URL), p(2, Body)}, Method: "POST"},
		{Func: fn(retryableHTTPPkg, "PostForm"), Kind: Request, Params: []Param{p(0, URL), p(1, Body)}, Method: "POST"},

		{Func: fn(retryableHTTPPkg, "NewRequest"), Kind: NewRequest, Params: []Param{p(0, HTTPMethod), p(1, URL), p(2, Body)}, Result: RequestResult},
		{Func: fn(retryableHTTPPkg, "NewRequestWithContext"), Kind: NewRequest, Params: []Param{p(1, HTTPMethod), p(2, URL), p(3, Body)}, Result: RequestResult},
		// FromRequest wraps an *http.Request: its method and headers are
		// those of the request passed.
		{Func: fn(retryableHTTPPkg, "FromRequest"), Kind: NewRequest, Params: []Param{p(0, Req)}, Result: RequestResult},
	},
}

// RetriesItself reports whether a Request row's call is retried by the
// library whatever the caller configures: a method of a type with the
// Retrying role, or a package function of a package declaring one (which
// sends through that package's default retrying client). Requests whose
// retries depend on configuration (resty's RetryCount, failsafe policies,
// an *http.Client's Transport) are the ops layer's to follow.
func RetriesItself(c *Call) bool {
	if c == nil || c.Kind != Request {
		return false
	}
	if c.Func.Recv != "" {
		t := typeTable[[2]string{c.Func.Pkg, c.Func.Recv}]
		return t != nil && t.Role == Retrying
	}
	for _, t := range typeTable {
		if t.Pkg == c.Func.Pkg && t.Role == Retrying {
			return true
		}
	}
	return false
}
