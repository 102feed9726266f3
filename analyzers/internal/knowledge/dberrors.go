package knowledge

const (
	pqPkg        = "github.com/lib/pq"
	pqerrorPkg   = "github.com/lib/pq/pqerror"
	mysqlPkg     = "github.com/go-sql-driver/mysql"
	sqlite3Pkg   = "github.com/mattn/go-sqlite3"
	pgerrcodePkg = "github.com/jackc/pgerrcode"
)

// dbErrors are the database drivers' error types, the error codes they
// carry, and the functions that classify them, for the drivers used under
// database/sql, sqlx and GORM. pgx's *pgconn.PgError is in pgx.go, bun's
// pgdriver.Error in bun.go, ent's classifiers in ent.go.
//
// How a code comparison reaches SSA:
//   - pgerrcode's codes are untyped string constants, folded where used:
//     pgErr.Code == pgerrcode.UniqueViolation is a comparison with the
//     constant "23505", which Codes knows; no row is needed.
//   - lib/pq's pqerror codes are package variables (Code("23505")), so a
//     comparison with pqerror.UniqueViolation loads a global: they are
//     sentinel rows, with the meaning of their code.
//   - MySQL's Number is a uint16 compared with the constant 1062 (the driver
//     names no codes); Codes holds it as "1062".
//   - go-sqlite3's extended codes are package variables too
//     (ErrConstraintUnique = ErrConstraint.Extend(8)): sentinel rows.
var dbErrors = library{
	name: "dberrors",
	// Drivers: the ops layer computes no facts for them.
	pkgs: []string{pqPkg, mysqlPkg, sqlite3Pkg, pgerrcodePkg},
	types: []Type{
		// *pq.Error{Code pqerror.Code} (type Code string; pq.ErrorCode is a
		// deprecated alias of it): errors.As(err, &pqErr) with
		// var pqErr *pq.Error, then pqErr.Code == "23505" or
		// pqErr.SQLState() == "23505".
		{Pkg: pqPkg, Name: "Error", Role: DBError, CodeField: "Code"},
		// *mysql.MySQLError{Number uint16; SQLState [5]byte; Message string}:
		// duplicate key is Number == 1062.
		{Pkg: mysqlPkg, Name: "MySQLError", Role: DBError, CodeField: "Number"},
		// sqlite3.Error is a value type (var e sqlite3.Error; errors.As(err,
		// &e)) with Code ErrNo (19 for any constraint) and ExtendedCode
		// ErrNoExtended (2067 unique, 1555 primary key): the extended code
		// is the one that tells a unique violation.
		{Pkg: sqlite3Pkg, Name: "Error", Role: DBError, CodeField: "ExtendedCode"},
	},
	sentinels: []Sentinel{
		{Pkg: pqerrorPkg, Name: "UniqueViolation", Meaning: UniqueViolation},             // Code("23505")
		{Pkg: pqerrorPkg, Name: "TRSerializationFailure", Meaning: SerializationFailure}, // Code("40001")
		{Pkg: pqerrorPkg, Name: "TRDeadlockDetected", Meaning: SerializationFailure},     // Code("40P01")
		{Pkg: sqlite3Pkg, Name: "ErrConstraintUnique", Meaning: UniqueViolation},         // 2067
		{Pkg: sqlite3Pkg, Name: "ErrConstraintPrimaryKey", Meaning: UniqueViolation},     // 1555
	},
	calls: []Call{
		// pq.As(err, codes...) returns err as a *pq.Error when it is one and
		// has one of the codes (any code when none is given), else nil: its
		// meaning is the codes' (pqerror sentinels, from parameter 1 on).
		{Func: fn(pqPkg, "As"), Kind: ErrorCheck, Params: []Param{p(0, ErrArg)}},
		// (*pq.Error).SQLState() is string(e.Code).
		{Func: method(pqPkg, "Error", "SQLState"), Kind: ErrorCode},
		// pgerrcode's classifiers take the code string (pgErr.Code), not the
		// error, as their ErrArg. Class 23 includes the unique violation;
		// class 40 is serialization failure and deadlock, both retryable.
		{Func: fn(pgerrcodePkg, "IsIntegrityConstraintViolation"), Kind: ErrorCheck, Params: []Param{p(0, ErrArg)}, Meaning: UniqueViolation},
		{Func: fn(pgerrcodePkg, "IsTransactionRollback"), Kind: ErrorCheck, Params: []Param{p(0, ErrArg)}, Meaning: SerializationFailure},
	},
}
