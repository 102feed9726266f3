package knowledge

// dbErrors: driver error types and codes (lib/pq, go-sql-driver/mysql, go-sqlite3, pgerrcode).
// Rows to come.
var dbErrors = library{name: "dberrors"}
