package knowledge

const restyPkg = "github.com/go-resty/resty/v2"

// resty: resty v2. Every call is static on *resty.Client or
// *resty.Request, usually chained: client.R().SetHeader(...).Post(url).
// R, NewRequest and the setters return their request or client, so the ops
// layer follows a send's receiver back through them (Result says which).
//
// A resty client retries only when its RetryCount is above zero, set by
// SetRetryCount(n) (or a Store to the RetryCount field); the retry
// conditions added by AddRetryCondition only widen what is retried. With
// RetryCount > 0, (*Request).Execute, and so every verb, retries on any
// transport error whatever the method: a POST is re-sent. resty.Backoff is
// the package's own retry helper around a func.
var resty = library{
	name: "resty",
	pkgs: []string{restyPkg},
	types: []Type{
		{Pkg: restyPkg, Name: "Request", Role: ClientRequest},
	},
	calls: []Call{
		{Func: fn(restyPkg, "New"), Kind: NewHandle, Result: ClientResult},
		{Func: fn(restyPkg, "NewWithClient"), Kind: NewHandle, Result: ClientResult},
		{Func: method(restyPkg, "Client", "R"), Kind: NewRequest, Result: RequestResult},
		{Func: method(restyPkg, "Client", "NewRequest"), Kind: NewRequest, Result: RequestResult},

		// Sending: the verb methods fix the method; Execute takes it; Send
		// uses the request's Method field.
		{Func: method(restyPkg, "Request", "Get"), Kind: Request, SendsReceiver: true, Params: []Param{p(0, URL)}, Method: "GET"},
		{Func: method(restyPkg, "Request", "Head"), Kind: Request, SendsReceiver: true, Params: []Param{p(0, URL)}, Method: "HEAD"},
		{Func: method(restyPkg, "Request", "Options"), Kind: Request, SendsReceiver: true, Params: []Param{p(0, URL)}, Method: "OPTIONS"},
		{Func: method(restyPkg, "Request", "Post"), Kind: Request, SendsReceiver: true, Params: []Param{p(0, URL)}, Method: "POST"},
		{Func: method(restyPkg, "Request", "Put"), Kind: Request, SendsReceiver: true, Params: []Param{p(0, URL)}, Method: "PUT"},
		{Func: method(restyPkg, "Request", "Patch"), Kind: Request, SendsReceiver: true, Params: []Param{p(0, URL)}, Method: "PATCH"},
		{Func: method(restyPkg, "Request", "Delete"), Kind: Request, SendsReceiver: true, Params: []Param{p(0, URL)}, Method: "DELETE"},
		{Func: method(restyPkg, "Request", "Execute"), Kind: Request, SendsReceiver: true, Params: []Param{p(0, HTTPMethod), p(1, URL)}},
		{Func: method(restyPkg, "Request", "Send"), Kind: Request, SendsReceiver: true},

		// Headers, per request or client-wide (a constant client-wide
		// idempotency key is shared by every request). SetHeaders takes a
		// map from names to values.
		{Func: method(restyPkg, "Request", "SetHeader"), Kind: SetHeader, Params: []Param{p(0, HeaderName), p(1, HeaderValue)}, Result: RequestResult},
		{Func: method(restyPkg, "Request", "SetHeaderVerbatim"), Kind: SetHeader, Params: []Param{p(0, HeaderName), p(1, HeaderValue)}, Result: RequestResult},
		{Func: method(restyPkg, "Request", "SetHeaders"), Kind: SetHeader, Params: []Param{p(0, Values)}, Result: RequestResult},
		{Func: method(restyPkg, "Request", "SetHeaderMultiValues"), Kind: SetHeader, Params: []Param{p(0, Values)}, Result: RequestResult},
		{Func: method(restyPkg, "Client", "SetHeader"), Kind: SetHeader, Params: []Param{p(0, HeaderName), p(1, HeaderValue)}, Result: ClientResult},
		{Func: method(restyPkg, "Client", "SetHeaderVerbatim"), Kind: SetHeader, Params: []Param{p(0, HeaderName), p(1, HeaderValue)}, Result: ClientResult},
		{Func: method(restyPkg, "Client", "SetHeaders"), Kind: SetHeader, Params: []Param{p(0, Values)}, Result: ClientResult},

		// Retries. Only SetRetryCount turns them on (Count > 0).
		{Func: method(restyPkg, "Client", "SetRetryCount"), Kind: RetryConfig, Params: []Param{p(0, Count)}, Result: ClientResult},
		{Func: method(restyPkg, "Client", "AddRetryCondition"), Kind: RetryConfig, Result: ClientResult},
		{Func: method(restyPkg, "Client", "AddRetryAfterErrorCondition"), Kind: RetryConfig, Result: ClientResult},
		{Func: method(restyPkg, "Request", "AddRetryCondition"), Kind: RetryConfig, Result: RequestResult},
		{Func: fn(restyPkg, "Backoff"), Kind: Retry, Params: []Param{p(0, Callback)}},
	},
}
