package knowledge

// libraries is every library's rows. Each file of this package holds one
// library family's table; keep this list in the order of those files.
var libraries = []library{
	// Databases.
	databaseSQL,
	sqlx,
	pgx,
	gorm,
	gormV1,
	bun,
	gopg,
	entRuntime, // ent.go: the runtime; generated code is recognised by EntCall, sqlc's by SQLC (sqlc.go)
	dbErrors,
	squirrel,
	gorp,
	xorm,
	goqu,
	mongo,
	// Network.
	netHTTP,
	resty,
	retryableHTTP,
	grpc,
	stripe,
	aws,
	// Retries, locks, schedules, values.
	retryLibs,
	redisLocks,
	schedulers,
	freshValues,
	contextValues,
	// Request handlers.
	gin,
	// Codecs.
	codecs,
}
