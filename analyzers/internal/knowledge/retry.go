package knowledge

const (
	backoffV4Pkg   = "github.com/cenkalti/backoff/v4"
	backoffV5Pkg   = "github.com/cenkalti/backoff/v5"
	retryGoPkg     = "github.com/avast/retry-go/v4"
	goRetryPkg     = "github.com/sethvargo/go-retry"
	failsafePkg    = "github.com/failsafe-go/failsafe-go"
	retryPolicyPkg = failsafePkg + "/retrypolicy"
	failsafeHTTP   = failsafePkg + "/failsafehttp"
)

// retryLibs: backoff v4 and v5, retry-go v4, sethvargo/go-retry,
// failsafe-go. The retried operation is a func argument (Callback),
// usually a closure converted to the library's func type
// (backoff.Operation, retry.RetryableFunc, retry.RetryFunc): strip the
// ChangeType to reach the MakeClosure.
//
// The calls are static, except the generic ones (backoff v4's *WithData,
// v5's Retry, retry-go's DoWithData, go-retry's DoValue, retrypolicy's
// constructors), which are instances, and failsafe-go's executor methods,
// invokes of the failsafe.Executor[R] interface.
//
// Not every Retry retries every failure:
//   - sethvargo/go-retry retries only errors wrapped by RetryableError (a
//     MarkRetryable row; RetriesOnlyMarked says so for its Retry rows) and
//     returns any other error at once;
//   - backoff.Permanent and retry-go's Unrecoverable (MarkPermanent) stop
//     a retry;
//   - a failsafe-go executor retries only if a retry policy is among its
//     policies: follow the receiver of Run/Get back to failsafe.With (or
//     Compose) and look for a value of type retrypolicy.RetryPolicy[R]
//     (the RetryPolicy type row) among the Policies, before they are boxed
//     into failsafe.Policy[R]. retrypolicy.NewWithDefaults and the
//     builders' Build() return that type; NewBuilder and failsafehttp's
//     NewRetryPolicyBuilder start the builders.
var retryLibs = library{
	name: "retry",
	pkgs: []string{backoffV4Pkg, backoffV5Pkg, retryGoPkg, goRetryPkg, failsafePkg},
	types: []Type{
		{Pkg: retryPolicyPkg, Name: "RetryPolicy", Role: RetryPolicy},
		{Pkg: failsafePkg, Name: "Executor", Role: PolicyExecutor},
		{Pkg: failsafeHTTP, Name: "Request", Role: PolicyRequest},
	},
	calls: []Call{
		// backoff v4: (operation, b BackOff, ...).
		{Func: fn(backoffV4Pkg, "Retry"), Kind: Retry, Params: []Param{p(0, Callback)}},
		{Func: fn(backoffV4Pkg, "RetryNotify"), Kind: Retry, Params: []Param{p(0, Callback)}},
		{Func: fn(backoffV4Pkg, "RetryNotifyWithTimer"), Kind: Retry, Params: []Param{p(0, Callback)}},
		{Func: fn(backoffV4Pkg, "RetryWithData"), Kind: Retry, Params: []Param{p(0, Callback)}},
		{Func: fn(backoffV4Pkg, "RetryNotifyWithData"), Kind: Retry, Params: []Param{p(0, Callback)}},
		{Func: fn(backoffV4Pkg, "RetryNotifyWithTimerAndData"), Kind: Retry, Params: []Param{p(0, Callback)}},
		{Func: fn(backoffV4Pkg, "Permanent"), Kind: MarkPermanent, Params: []Param{p(0, ErrArg)}},

		// backoff v5: Retry[T](ctx, operation, opts...).
		{Func: fn(backoffV5Pkg, "Retry"), Kind: Retry, Params: []Param{p(1, Callback)}},
		{Func: fn(backoffV5Pkg, "Permanent"), Kind: MarkPermanent, Params: []Param{p(0, ErrArg)}},

		// avast/retry-go v4: (retryableFunc, opts...).
		{Func: fn(retryGoPkg, "Do"), Kind: Retry, Params: []Param{p(0, Callback)}},
		{Func: fn(retryGoPkg, "DoWithData"), Kind: Retry, Params: []Param{p(0, Callback)}},
		{Func: fn(retryGoPkg, "Unrecoverable"), Kind: MarkPermanent, Params: []Param{p(0, ErrArg)}},

		// sethvargo/go-retry: (ctx, backoff or base duration, f).
		{Func: fn(goRetryPkg, "Do"), Kind: Retry, Params: []Param{p(2, Callback)}},
		{Func: fn(goRetryPkg, "DoValue"), Kind: Retry, Params: []Param{p(2, Callback)}},
		{Func: fn(goRetryPkg, "Constant"), Kind: Retry, Params: []Param{p(2, Callback)}},
		{Func: fn(goRetryPkg, "Exponential"), Kind: Retry, Params: []Param{p(2, Callback)}},
		{Func: fn(goRetryPkg, "Fibonacci"), Kind: Retry, Params: []Param{p(2, Callback)}},
		{Func: fn(goRetryPkg, "RetryableError"), Kind: MarkRetryable, Params: []Param{p(0, ErrArg)}},

		// failsafe-go: executors, retry only with a retry policy.
		{Func: fn(failsafePkg, "With"), Kind: RetryConfig, Params: []Param{p(0, Policies)}, Result: ClientResult},
		{Func: fn(failsafePkg, "WithAny"), Kind: RetryConfig, Params: []Param{p(0, Policies)}, Result: ClientResult},
		{Func: method(failsafePkg, "Executor", "Compose"), Kind: RetryConfig, Params: []Param{p(0, Policies)}, Result: ClientResult},
		{Func: method(failsafePkg, "Executor", "WithContext"), Kind: RetryConfig, Result: ClientResult},
		{Func: method(failsafePkg, "Executor", "Run"), Kind: Retry, Params: []Param{p(0, Callback)}},
		{Func: method(failsafePkg, "Executor", "RunWithExecution"), Kind: Retry, Params: []Param{p(0, Callback)}},
		{Func: method(failsafePkg, "Executor", "Get"), Kind: Retry, Params: []Param{p(0, Callback)}},
		{Func: method(failsafePkg, "Executor", "GetWithExecution"), Kind: Retry, Params: []Param{p(0, Callback)}},
		{Func: method(failsafePkg, "Executor", "RunAsync"), Kind: Retry, Params: []Param{p(0, Callback)}},
		{Func: method(failsafePkg, "Executor", "RunAsyncWithExecution"), Kind: Retry, Params: []Param{p(0, Callback)}},
		{Func: method(failsafePkg, "Executor", "GetAsync"), Kind: Retry, Params: []Param{p(0, Callback)}},
		{Func: method(failsafePkg, "Executor", "GetAsyncWithExecution"), Kind: Retry, Params: []Param{p(0, Callback)}},
		{Func: fn(retryPolicyPkg, "NewBuilder"), Kind: RetryConfig},
		{Func: fn(retryPolicyPkg, "NewWithDefaults"), Kind: RetryConfig},
		{Func: fn(failsafeHTTP, "NewRetryPolicyBuilder"), Kind: RetryConfig},

		// failsafehttp: a request or transport run through policies.
		{Func: fn(failsafeHTTP, "NewRequest"), Kind: NewRequest, Params: []Param{p(0, Req), p(2, Policies)}, Result: RequestResult},
		{Func: fn(failsafeHTTP, "NewRequestWithExecutor"), Kind: NewRequest, Params: []Param{p(0, Req), p(2, Policies)}, Result: RequestResult},
		{Func: method(failsafeHTTP, "Request", "Do"), Kind: Request, SendsReceiver: true},
		{Func: fn(failsafeHTTP, "NewRoundTripper"), Kind: RetryClient, Params: []Param{p(1, Policies)}, Result: ClientResult},
		{Func: fn(failsafeHTTP, "NewRoundTripperWithExecutor"), Kind: RetryClient, Params: []Param{p(1, Policies)}, Result: ClientResult},
	},
}

// RetriesOnlyMarked reports whether a Retry row retries only the errors
// wrapped by a MarkRetryable call of its own package (sethvargo/go-retry),
// returning every other error at once.
func RetriesOnlyMarked(c *Call) bool {
	if c == nil || c.Kind != Retry {
		return false
	}
	for _, lib := range libraries {
		for i := range lib.calls {
			if m := &lib.calls[i]; m.Kind == MarkRetryable && m.Func.Pkg == c.Func.Pkg {
				return true
			}
		}
	}
	return false
}
