package knowledge

const (
	goRedisPkg = "github.com/redis/go-redis/v9"
	goRedisV8  = "github.com/go-redis/redis/v8"
	redsyncPkg = "github.com/go-redsync/redsync/v4"
)

// redisLocks: go-redis v9 and redsync v4, the calls that make a TTL lock.
//
// go-redis commands are methods of the unexported func type cmdable,
// embedded by value in Client, ClusterClient, Ring, Conn, Pipeline and Tx:
// rdb.SetNX on a *redis.Client is a static call of
// (go-redis/v9.cmdable).SetNX whose receiver is the embedded field (a
// promoted call). Through redis.UniversalClient or redis.Cmdable it is an
// invoke of the interface that declares the method, embedded in those:
// StringCmdable (SetNX, SetArgs, DelExArgs, Incr, IncrBy), GenericCmdable
// (Del, Expire, PExpire), ScriptingFunctionsCmdable (Eval...), and Scripter
// for (*Script).Run's argument. Each command has a row for cmdable and one
// for its declaring interface.
//
// An acquire is SetNX, or SetArgs whose SetArgs value (Options) has Mode
// "NX" (and TTL or ExpireAt for the expiry; any other Mode is a plain or
// compare-and-set SET, not an acquire). Del releases whoever holds the
// key; DelExArgs releases only while its DelExArgs value has Mode "IFEQ"
// and MatchValue the holder's value (IFNE or no Mode is no owner check).
// A script (Eval, EvalSha, (*Script).Run) is what its source says: the
// source is the ScriptSrc argument of Eval or of the redis.NewScript that
// made the *Script; EvalSha names a script loaded earlier.
//
// go-redis v8 (github.com/go-redis/redis/v8) has the same commands on its
// cmdable, all declared by one interface, Cmdable; it has no DelExArgs,
// EvalRO, EvalShaRO or Script.RunRO.
var redisLocks = library{
	name: "redis",
	pkgs: []string{goRedisPkg, goRedisV8, redsyncPkg},
	calls: append(append(append(goRedisCalls(goRedisPkg), goRedisValueCalls(goRedisPkg)...),
		append(goRedisCalls(goRedisV8), goRedisValueCalls(goRedisV8)...)...), redsyncCalls...),
	// GET of a missing key fails with Nil, a constant of the internal
	// proto.RedisError type (const Nil = proto.Nil) that callers compare
	// (err == redis.Nil, errors.Is(err, redis.Nil)).
	sentinels: []Sentinel{
		{Pkg: goRedisPkg, Name: "Nil", Const: "redis: nil", Meaning: NotFound},
		{Pkg: goRedisV8, Name: "Nil", Const: "redis: nil", Meaning: NotFound},
	},
}

// goRedisIface is the interface of go-redis at pkg that declares a
// command (v9's StringCmdable, GenericCmdable...; v8's Cmdable), or ""
// when that version has no such command.
func goRedisIface(pkg, v9iface, name string) string {
	if pkg == goRedisPkg {
		return v9iface
	}
	switch name {
	case "DelExArgs", "EvalRO", "EvalShaRO", "RunRO":
		return ""
	}
	return "Cmdable"
}

// goRedisValueCalls: the commands that read and write a key's value, as
// a lookup and an upsert of one row (the dialect makes the key the row:
// its constant parts the table, its variable parts the key columns).
//
// Get(ctx, key) returns a *StringCmd whose Result, Err, Bytes, Int,
// Int64, Float64, Bool and Scan return Nil when the key does not exist
// (its Val is "" then, which says nothing). Set(ctx, key, value, ttl)
// writes the value whether or not the key exists: an insert that never
// fails, and a whole write of the value (SetNX, SetArgs{Mode: "NX"} are
// the inserts that fail when it exists; they are rows above).
func goRedisValueCalls(pkg string) []Call {
	var calls []Call
	for _, c := range []struct {
		iface, name string
		kind        Kind
		params      []Param
		result      Result
	}{
		{"StringCmdable", "Get", Find, []Param{p(1, Key)}, RowResult},
		{"StringCmdable", "Set", Save, []Param{p(1, Key), p(2, Value), p(3, TTL)}, NoResult},
	} {
		calls = append(calls,
			Call{Func: method(pkg, "cmdable", c.name), Kind: c.kind, Params: c.params, Result: c.result},
			Call{Func: method(pkg, goRedisIface(pkg, c.iface, c.name), c.name), Kind: c.kind, Params: c.params, Result: c.result})
	}
	for _, name := range []string{"Result", "Val", "Bytes", "Int", "Int64", "Float64", "Bool"} {
		calls = append(calls, Call{Func: method(pkg, "StringCmd", name), Kind: Scan})
	}
	// Err is every command's, promoted from the baseCmd it embeds: the
	// command's error (Nil for a GET of a missing key).
	calls = append(calls, Call{Func: method(pkg, "baseCmd", "Err"), Kind: Scan})
	return append(calls, Call{Func: method(pkg, "StringCmd", "Scan"), Kind: Scan, Params: []Param{p(0, Dest)}})
}

func goRedisCalls(pkg string) []Call {
	var calls []Call
	for _, c := range []struct {
		iface, name string
		kind        Kind
		params      []Param
	}{
		{"StringCmdable", "SetNX", TTLLockAcquire, []Param{p(1, Key), p(2, Value), p(3, TTL)}},
		{"StringCmdable", "SetArgs", TTLLockAcquire, []Param{p(1, Key), p(2, Value), p(3, Options)}},
		{"StringCmdable", "DelExArgs", TTLLockReleaseOwned, []Param{p(1, Key), p(2, Options)}},
		{"StringCmdable", "Incr", FenceToken, []Param{p(1, Key)}},
		{"StringCmdable", "IncrBy", FenceToken, []Param{p(1, Key)}},
		{"GenericCmdable", "Del", TTLLockRelease, []Param{p(1, Key)}},
		{"GenericCmdable", "Expire", TTLLockExtend, []Param{p(1, Key), p(2, TTL)}},
		{"GenericCmdable", "PExpire", TTLLockExtend, []Param{p(1, Key), p(2, TTL)}},
		{"ScriptingFunctionsCmdable", "Eval", Eval, []Param{p(1, ScriptSrc), p(2, Key), p(3, Binds)}},
		{"ScriptingFunctionsCmdable", "EvalRO", Eval, []Param{p(1, ScriptSrc), p(2, Key), p(3, Binds)}},
		{"ScriptingFunctionsCmdable", "EvalSha", Eval, []Param{p(2, Key), p(3, Binds)}},
		{"ScriptingFunctionsCmdable", "EvalShaRO", Eval, []Param{p(2, Key), p(3, Binds)}},
	} {
		iface := goRedisIface(pkg, c.iface, c.name)
		if iface == "" {
			continue
		}
		calls = append(calls,
			Call{Func: method(pkg, "cmdable", c.name), Kind: c.kind, Params: c.params},
			Call{Func: method(pkg, iface, c.name), Kind: c.kind, Params: c.params})
		if c.kind == Eval {
			// Scripter, the interface (*Script).Run takes, declares them
			// again.
			calls = append(calls, Call{Func: method(pkg, "Scripter", c.name), Kind: c.kind, Params: c.params})
		}
	}
	calls = append(calls, Call{Func: fn(pkg, "NewScript"), Kind: NewHandle, Params: []Param{p(0, ScriptSrc)}})
	// (*Script).Run(ctx, c Scripter, keys, args...): EVALSHA, then EVAL of
	// the source when the server does not have it.
	for _, name := range []string{"Run", "RunRO", "Eval", "EvalSha"} {
		if goRedisIface(pkg, "Script", name) != "" {
			calls = append(calls, Call{Func: method(pkg, "Script", name), Kind: Eval, Params: []Param{p(2, Key), p(3, Binds)}})
		}
	}
	return calls
}

// redsync: a Mutex is named at NewMutex (its key) and acquired with SET NX
// PX on every pool; its Unlock and Extend compare the mutex's random value
// in a Lua script, so they are owner-checked. Mutex.Value() is that random
// value: unique, not monotonic, so no fencing token.
var redsyncCalls = []Call{
	{Func: fn(redsyncPkg, "New"), Kind: NewHandle, Result: ClientResult},
	{Func: method(redsyncPkg, "Redsync", "NewMutex"), Kind: NewHandle, Params: []Param{p(0, Key)}, Result: LockResult},
	{Func: method(redsyncPkg, "Mutex", "Lock"), Kind: TTLLockAcquire},
	{Func: method(redsyncPkg, "Mutex", "LockContext"), Kind: TTLLockAcquire},
	{Func: method(redsyncPkg, "Mutex", "TryLock"), Kind: TTLLockAcquire},
	{Func: method(redsyncPkg, "Mutex", "TryLockContext"), Kind: TTLLockAcquire},
	{Func: method(redsyncPkg, "Mutex", "Unlock"), Kind: TTLLockReleaseOwned},
	{Func: method(redsyncPkg, "Mutex", "UnlockContext"), Kind: TTLLockReleaseOwned},
	{Func: method(redsyncPkg, "Mutex", "Extend"), Kind: TTLLockExtend},
	{Func: method(redsyncPkg, "Mutex", "ExtendContext"), Kind: TTLLockExtend},
}
