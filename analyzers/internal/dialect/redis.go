package dialect

import (
	"fmt"

	"github.com/idemlint/idemlint/analyzers/internal/ops"
)

// redisDialect is go-redis v9 and v8. A key is a row: its constant parts name
// the table ("user:*" for "user:"+id), its variable parts are the key
// columns (redisKey). Redis has no lock a read can take: a read is made
// safe for the write after it by WATCH (Client.Watch, whose callback's
// Tx fails the EXEC when a watched key changed), by one command that
// computes in the server (INCRBY, HINCRBY) or by a Lua script; a key is
// claimed by SET NX, whose loser is told by the result.
var redisDialect = &Dialect{
	Lib: "redis",
	ClaimInsert: func(cols string) string {
		return "set the key only if it does not exist (SetNX, or SetArgs with Mode \"NX\") and treat a false result as the key being taken, instead of reading it first"
	},
	ClaimFirst: func(table, cols string) string {
		return fmt.Sprintf("claim the %s key first with SetNX (or SetArgs with Mode \"NX\") and perform the call only when it returned true: another caller holds the claim otherwise", table)
	},
	LockRead:     "read and write in one step: Watch the key and write in the callback's TxPipelined (the EXEC fails when the key changed), or a Lua script; a Redis GET takes no lock",
	PartialWrite: "",
	AtomicUpdate: func(_ *ops.ColumnWrite, _, _ string) string {
		return "update it in Redis with IncrBy (or DecrBy, IncrByFloat, HIncrBy) instead of a SET of a value computed from the GET"
	},
	InPlace: func(string) string {
		return "compute the new value in Redis: a Lua script (redis.NewScript) that reads and writes the key, or Watch with the write in TxPipelined"
	},
	VersionPredicate: func(_ *ops.Update, col, _ string) string {
		return fmt.Sprintf("compare %s in a Lua script or under Watch before writing", col)
	},
	CheckCount:        "treat a failed EXEC (redis.TxFailedErr) as a conflict",
	UnobservableCount: func(*ops.Update) (string, string) { return "", "" },
	Ops: &ops.Library{
		Name:   "redis",
		Pkg:    goRedisV9,
		Also:   []string{goRedisV8},
		Row:    redisRow,
		Read:   redisRead,
		Writes: redisWrites,
	},
}
