package knowledge

const uuidPkg = "github.com/google/uuid"

// freshValues: fresh values (uuid, crypto/rand, math/rand, time.Now) and
// waits (time.Sleep, time.After...).
//
// A Fresh call returns a value that differs on every call (ValueResult),
// or, for the Read functions, writes one into its Dest argument: an
// idempotency key made from one inside a retried region is a new key per
// attempt. All calls are static, math/rand/v2's N an instance. Values that
// pass through a covered function without a row lose their freshness to
// the ops layer: uuid.Must(uuid.NewV7()) is fresh by its argument.
//
// Waits are what a hand-written retry loop sleeps on: time.Sleep, a
// receive from time.After or time.Tick, a timer.
var freshValues = library{
	name:  "fresh",
	pkgs:  []string{uuidPkg},
	calls: freshCalls(),
}

func freshCalls() []Call {
	calls := []Call{
		{Func: fn(uuidPkg, "New"), Kind: Fresh, Result: ValueResult},
		{Func: fn(uuidPkg, "NewString"), Kind: Fresh, Result: ValueResult},
		{Func: fn(uuidPkg, "NewRandom"), Kind: Fresh, Result: ValueResult},
		{Func: fn(uuidPkg, "NewRandomFromReader"), Kind: Fresh, Result: ValueResult},
		{Func: fn(uuidPkg, "NewUUID"), Kind: Fresh, Result: ValueResult},
		{Func: fn(uuidPkg, "NewV6"), Kind: Fresh, Result: ValueResult},
		{Func: fn(uuidPkg, "NewV7"), Kind: Fresh, Result: ValueResult},
		{Func: fn(uuidPkg, "NewV7FromReader"), Kind: Fresh, Result: ValueResult},

		{Func: fn("crypto/rand", "Read"), Kind: Fresh, Params: []Param{p(0, Dest)}},
		{Func: fn("crypto/rand", "Text"), Kind: Fresh, Result: ValueResult},
		{Func: fn("crypto/rand", "Int"), Kind: Fresh, Result: ValueResult},

		{Func: fn("math/rand", "Read"), Kind: Fresh, Params: []Param{p(0, Dest)}},
		{Func: method("math/rand", "Rand", "Read"), Kind: Fresh, Params: []Param{p(0, Dest)}},
		{Func: fn("math/rand/v2", "N"), Kind: Fresh, Result: ValueResult},

		{Func: fn("time", "Now"), Kind: Fresh, Result: ValueResult},

		{Func: fn("time", "Sleep"), Kind: Wait},
		{Func: fn("time", "After"), Kind: Wait},
		{Func: fn("time", "Tick"), Kind: Wait},
		{Func: fn("time", "NewTimer"), Kind: Wait},
		{Func: method("time", "Timer", "Reset"), Kind: Wait},
	}
	// math/rand's and math/rand/v2's number functions, and the same
	// methods of their *Rand.
	for _, r := range []struct {
		pkg   string
		names []string
	}{
		{"math/rand", []string{"Int", "Intn", "Int31", "Int31n", "Int63", "Int63n", "Uint32", "Uint64",
			"Float32", "Float64", "ExpFloat64", "NormFloat64", "Perm"}},
		{"math/rand/v2", []string{"Int", "IntN", "Int32", "Int32N", "Int64", "Int64N", "Uint", "UintN",
			"Uint32", "Uint32N", "Uint64", "Uint64N", "Float32", "Float64", "ExpFloat64", "NormFloat64", "Perm"}},
	} {
		for _, name := range r.names {
			calls = append(calls,
				Call{Func: fn(r.pkg, name), Kind: Fresh, Result: ValueResult},
				Call{Func: method(r.pkg, "Rand", name), Kind: Fresh, Result: ValueResult})
		}
	}
	return calls
}

// contextValues: context.WithValue, through which services hand a
// transaction to the callbacks of their own transaction helpers
// (fn(context.WithValue(ctx, txKey{}, tx))).
var contextValues = library{
	name: "context",
	calls: []Call{
		{Func: fn("context", "WithValue"), Kind: CtxValue, Params: []Param{p(2, Value)}, Result: ValueResult},
	},
}
