// Package retrypost defines an Analyzer that reports non-idempotent
// requests retried without an idempotency key fixed before the first
// attempt.
//
// # Analyzer retrypost
//
// retrypost: report non-idempotent requests retried without an idempotency key fixed before the first attempt
//
// A POST times out. The server may well have processed it: only the
// response was lost. A retry sends it again, and the second order, charge
// or transfer is created. Under load this is not rare: timeouts come in
// bursts, and every one of them is a duplicate. Retrying is safe for an
// idempotent request (GET, HEAD, OPTIONS, PUT, DELETE), or when the
// request carries an idempotency key that is the same on every attempt, so
// that the server recognises the repeat and answers it with the first
// result. A key generated inside the retried code is a new key per
// attempt and protects nothing.
//
// Three sub-rules:
//
//   - retrypost/nokey: the retried request carries no idempotency key,
//     and the code shows that it creates something on the server: it
//     expects 201 Created of the response (resp.StatusCode !=
//     http.StatusCreated, a switch case, the code a helper returns, or
//     201 handed with the response to a check such as expect(resp,
//     http.StatusCreated)), it reads the Location header, or it is a
//     stripe-go create, confirm or capture.
//
//   - retrypost/freshkey: its key is made inside the retried code, on
//     every attempt, from a fresh value (uuid, crypto/rand, math/rand,
//     time.Now, stripe.NewIdempotencyKey), directly or through a helper.
//     A key says the author knows a repeat matters, so this is reported
//     whatever the request does.
//
//   - retrypost/unknown-effect (opt-in): the retried request carries no
//     idempotency key, and nothing in the code shows whether it creates
//     anything. POST is also how reads are sent (a validation, a search,
//     a token exchange, a link the server makes anew), and a server may
//     deduplicate by something in the body; only the server knows. On
//     real services about half of these findings were right (see
//     Precision). Turn it on with the enable setting:
//
//     enable: [retrypost/unknown-effect]
//
// A request is non-idempotent when it is a POST or a PATCH, as a constant
// says: http.NewRequest's method, http.Post and PostForm, the resty
// verb or Execute's method, retryablehttp's; and stripe-go's create,
// confirm and capture calls. A request whose method is not a constant is
// not reported. A helper that sends a request (in this package or
// another) counts where it is called, with what its summary says: the
// method (or the parameter that names it), and whether its key is none,
// made on every call, or taken from a parameter. So does a function that
// makes a request and returns it (an API client's newRequest(ctx,
// method, path, body)): the caller that sends it knows its method and
// URL, and a key the caller sets on it counts; one that sets a key
// itself makes the key unknown.
//
// The key is a header named Idempotency-Key, X-Idempotency-Key or one
// listed in the idempotency-headers setting, set with Header.Set or Add,
// a write to the header map, resty's SetHeader or SetHeaders, or a helper
// that sets it on the request it is given; or stripe-go's
// Params.SetIdempotencyKey or Params.IdempotencyKey. A key computed from
// stable inputs (the order id, a parameter, a constant) is the same on
// every attempt wherever it is computed. A header of any other name whose
// value is an id (a fresh value, or its text: uuid.NewString(), "evt_" +
// id.String(); or a helper's parameter that its caller gives one) is a key
// too, as receivers deduplicate a webhook's delivery id
// (X-Acme-Delivery): made once before the first attempt the retry is
// safe, made on every attempt it is freshkey. A header whose value is
// anything else (a token, a signature, a content type) is not a key.
// When a request is handed to code
// that cannot be seen (a function value, an interface), or a header name
// is not constant, the key is unknown and nothing is reported.
//
// A retry is one of:
//
//   - a hand-written loop whose back edge, which sends the request again,
//     is reachable from the request's failure (its error compared with
//     nil, or a status check outside 2xx: of the response, or of the
//     status a helper that sends it returns, as a number or as its
//     decimal text, strings.HasPrefix(status, "2")), and whose success
//     leaves the loop. A wait alone does not make a retry; a loop over the items of
//     a slice, map, string, channel or iterator sends one request per
//     item and is not one, with a wait or without;
//   - a retry wrapper whose callback sends the request and returns its
//     failure: backoff.Retry and friends (v4 and v5), retry-go's Do and
//     DoWithData, sethvargo/go-retry (only when the failure is returned
//     through RetryableError), failsafe-go executors with a retry policy,
//     resty.Backoff, a transaction runner that runs its callback again on
//     a transient failure (the MongoDB driver's Session.WithTransaction:
//     send the request after the commit, or with a key), a user-written
//     helper that calls its func parameter
//     again while it fails (in this package or another, through facts),
//     or a function named in the retry-funcs setting. A failure returned
//     as backoff.Permanent or retry.Unrecoverable is not retried;
//   - a retrying client: go-retryablehttp's Client (Do, Post, PostForm;
//     RetryMax defaults to 4) and the *http.Client of its StandardClient
//     or RoundTripper, a resty client with SetRetryCount(n) for a constant
//     n > 0 (a count that is not constant is unknown and not reported),
//     failsafehttp with a retry policy, and an http.Client whose
//     Transport is a round tripper of the program's own that sends the
//     request it is given again after a failure (its RoundTrip, in this
//     package or another, through facts), also when a function (of a
//     shared package, say) makes it and returns it. A retrying client sends the same
//     request again, so a key set on it before the call, even a fresh
//     one, is the same on every attempt.
//
// The finding is reported at the request, or at the call that leads to
// it (a helper's), in the lowest function where both the retry and the
// request are visible; its related position is the retry. A helper that
// retries its own request without a key is reported inside the helper,
// and its callers stay silent; a helper that retries a request whose
// method its caller names is reported at the caller.
//
// # Example
//
// A hand-written loop with net/http, reported (nokey):
//
//	for attempt := 0; attempt < 3; attempt++ {
//		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, base+"/v1/payouts", body(p))
//		resp, err := client.Do(req) // a payout whose response was lost is paid twice
//		if err == nil && resp.StatusCode == http.StatusCreated {
//			return decode(resp)
//		}
//		time.Sleep(backoff(attempt))
//	}
//
// Reported (freshkey): the key changes on every attempt.
//
//	for attempt := 0; attempt < 3; attempt++ {
//		req.Header.Set("Idempotency-Key", uuid.NewString())
//		if resp, err = client.Do(req); err == nil {
//			break
//		}
//	}
//
// Silent: one key, derived from the business operation (or made once
// before the first attempt) and sent on every attempt.
//
//	key := fmt.Sprintf("payout-%d", p.ID)
//	for attempt := 0; attempt < 3; attempt++ {
//		req.Header.Set("Idempotency-Key", key)
//		if resp, err = client.Do(req); err == nil {
//			break
//		}
//	}
//
// A retry wrapper (backoff, retry-go, sethvargo/go-retry, failsafe-go, a
// helper of your own), reported (freshkey):
//
//	return backoff.Retry(func() error {
//		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, url, body)
//		req.Header.Set("Idempotency-Key", uuid.NewString()) // made per attempt
//		_, err := client.Do(req)
//		return err
//	}, backoff.NewExponentialBackOff())
//
// Silent: the key is made once, outside the callback.
//
//	key := uuid.NewString()
//	return backoff.Retry(func() error {
//		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, url, body)
//		req.Header.Set("Idempotency-Key", key)
//		_, err := client.Do(req)
//		return err
//	}, backoff.NewExponentialBackOff())
//
// A retrying client (go-retryablehttp, resty with SetRetryCount),
// reported: the first by nokey (it expects 201 Created), the second by
// the opt-in unknown-effect (nothing shows what it does):
//
//	rc := retryablehttp.NewClient()
//	resp, err := rc.Post(url, "application/json", body)
//	if err == nil && resp.StatusCode != http.StatusCreated { ... }
//
//	api := resty.New().SetRetryCount(3)
//	_, err := api.R().SetBody(ev).Post(url)
//
// Silent: the same request, and so the same key, on every attempt.
//
//	req, _ := retryablehttp.NewRequestWithContext(ctx, http.MethodPost, url, body)
//	req.Header.Set("Idempotency-Key", ev.ID)
//	resp, err := rc.Do(req)
//
//	_, err := api.R().SetHeader("Idempotency-Key", ev.ID).SetBody(ev).Post(url)
//
// stripe-go, reported (nokey): without a key of its own, stripe-go makes
// a new one on every call, which its own network retries reuse but an
// app-level retry around the call does not.
//
//	backoff.Retry(func() error {
//		_, err := sc.V1PaymentIntents.Create(ctx, params)
//		return err
//	}, b)
//
// Silent:
//
//	params.SetIdempotencyKey("order-" + orderID)
//	backoff.Retry(func() error {
//		_, err := sc.V1PaymentIntents.Create(ctx, params)
//		return err
//	}, b)
//
// # What is not a retry of a lost response
//
// Silent, because the client code shows the request is safe to repeat or
// is not repeated after a lost response: a key in the JSON body
// (PagerDuty's dedup_key, an idempotency_key field) fixed before the
// loop; a loop that goes round again only when the server answered 409,
// 423, 425, 429 or 503 (it did not perform the request), or only when a
// check of the program's own answer errors holds (errors.Is with its
// sentinel, errors.As into its error type: a token refresh, say); a loop
// that sends again after a success (polling until a job is done); a
// request asking for text/event-stream (reconnecting to a stream).
// Timeouts and context.DeadlineExceeded are exactly the lost responses,
// so a retry on them is reported.
//
// # What it cannot know
//
// What the server does with a repeat. The default rules report a retry
// without a key only where the client code itself shows a create, so a
// create whose code checks only for 2xx, or decodes the answer without
// looking at the status, is not reported by them (it is by
// retrypost/unknown-effect). A create behind an SDK the knowledge tables
// do not know is not either.
//
// # Precision
//
// Measured on real services as they are, with no configuration (see
// docs/precision.md). retrypost/unknown-effect: 13 findings on six
// services were 6 right, 5 wrong and 2 unclear, and 10 on nine services
// picked blind for their retried POSTs 3 right, 3 wrong and 4 unclear:
// about 0.3 to 0.5. The default rules: no finding on any of those
// fifteen services (none of the real retried POSTs showed a create in
// its code), so no wrong one, and no measured precision either; the
// fixtures are where they are exercised.
//
// # Suppressing
//
// The analyzer knows a request's method, not what the endpoint does: with
// retrypost/unknown-effect on, a POST that only reads (a validation, a
// search, a token check) is reported like one that creates. Name the
// functions that make such requests in the idempotent-funcs setting
// (flag, plugin setting or .idemlint.yml), as types.Func.FullName prints
// them:
//
//	idempotent-funcs:
//	  - (*example.com/billing.Client).ValidateLicense
//	  - (*example.com/sso.Client).RedirectURL
//
// Requests a listed function makes, itself or through helpers (a shared
// doRequest that retries), are then not reported, and a retry of a call to
// it is not either; the same helper called from an unlisted function
// still is. When the server deduplicates by some other means (a unique
// client reference in the body that it rejects twice, say), silence the
// finding on the reported line:
//
//	//idemlint:ignore retrypost the ledger rejects a second entry with the same reference
//
// or only one sub-rule, with retrypost/nokey, retrypost/freshkey or
// retrypost/unknown-effect.
package retrypost
