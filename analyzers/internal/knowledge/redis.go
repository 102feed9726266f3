package knowledge

// redisLocks: go-redis v9 and redsync v4.
// Rows to come.
var redisLocks = library{name: "redis"}
