package knowledge

import (
	"go/types"
	"strings"
)

// A TypeRole is what a library type means to the analyzers.
type TypeRole uint8

const (
	NoTypeRole     TypeRole = iota
	TxHandle                // a transaction (*sql.Tx, pgx.Tx, bun.Tx)
	DBHandle                // a pool or connection outside any transaction (*sql.DB, *pgxpool.Pool)
	EitherHandle            // a handle that is a transaction or not depending on where it came from (*gorm.DB)
	LockingClause           // a clause that locks the rows read (GORM clause.Locking)
	ConflictClause          // a clause that makes an insert an upsert or a no-op (GORM clause.OnConflict)
	ExprValue               // an SQL expression used as a value (GORM clause.Expr): atomic in an update
	VersionField            // a field type that makes a model versioned (optimisticlock.Version)
	DBError                 // an error type that carries the database's error code
	NullValue               // a scan destination for a column that may be NULL (sql.NullString): its ValidField is false when no value was read

	// Network and retries.
	Retrying       // a client or transport that retries every request sent through it (retryablehttp.Client, RoundTripper)
	RetryPolicy    // a failsafe-go retry policy: an executor, request or transport built with one retries
	IdemKeyHolder  // a struct whose key field (IdemKeyField) is the idempotency key of the request it is passed to (stripe.Params)
	HTTPRequest    // net/http's Request: its Header field holds the request's headers
	ClientRequest  // a client library's request that carries its own headers (resty.Request, retryablehttp.Request)
	HeaderMap      // net/http's Header: Set and Add write a request's headers
	HTTPResponse   // net/http's Response: its StatusCode says whether the server performed the request
	HTTPClient     // net/http's Client: it retries nothing unless its transport does
	PolicyExecutor // failsafe-go's Executor: it retries what it runs only when built with a retry policy
	PolicyRequest  // failsafehttp's Request: sent with the policies of the NewRequest that made it
)

// HasRole reports whether t is (a pointer to) the library type whose row
// has role r.
func HasRole(t types.Type, r TypeRole) bool {
	row := TypeOf(t)
	return row != nil && row.Role == r
}

// A Type is one row of the type table.
type Type struct {
	Pkg, Name string
	Role      TypeRole
	// CodeField is, for a DBError, the field holding the code that
	// Codes lists ("Code" for *pgconn.PgError, "Number" for MySQL).
	CodeField string
	// ValidField is, for a NullValue, the bool field set when a value
	// was read ("Valid").
	ValidField string
}

// An ErrMeaning is what an error value or code says happened.
type ErrMeaning uint8

const (
	NoMeaning            ErrMeaning = iota
	NotFound                        // the lookup found no row (sql.ErrNoRows, gorm.ErrRecordNotFound)
	UniqueViolation                 // an insert or update hit a unique key (SQLSTATE 23505, MySQL 1062)
	SerializationFailure            // a serializable transaction must be retried (SQLSTATE 40001)
)

func (m ErrMeaning) String() string {
	switch m {
	case NotFound:
		return "not-found"
	case UniqueViolation:
		return "unique-violation"
	case SerializationFailure:
		return "serialization-failure"
	}
	return "none"
}

// A Sentinel is an exported error variable with a meaning, or an error
// constant (Const is its string value: go-redis's Nil).
type Sentinel struct {
	Pkg, Name string
	Const     string
	Meaning   ErrMeaning
}

// A Code is a database error code with a meaning, as a DBError's CodeField
// holds it (a string SQLSTATE, or a number for MySQL and SQLite).
type Code struct {
	Value   string
	Meaning ErrMeaning
}

// Codes are the error codes every DBError is compared against.
var Codes = []Code{
	{"23505", UniqueViolation},      // PostgreSQL unique_violation
	{"1062", UniqueViolation},       // MySQL ER_DUP_ENTRY
	{"2067", UniqueViolation},       // SQLite SQLITE_CONSTRAINT_UNIQUE (extended code)
	{"1555", UniqueViolation},       // SQLite SQLITE_CONSTRAINT_PRIMARYKEY
	{"40001", SerializationFailure}, // PostgreSQL serialization_failure
	{"40P01", SerializationFailure}, // PostgreSQL deadlock_detected
}

// CodeMeaning returns the meaning of an error code, or NoMeaning.
func CodeMeaning(value string) ErrMeaning {
	for _, c := range Codes {
		if c.Value == value {
			return c.Meaning
		}
	}
	return NoMeaning
}

// A Message is a fragment of the text a driver's error formats for an
// error with a meaning: code that compares err.Error() with it, or looks
// for it in the text, tests for that error.
type Message struct {
	Fragment string
	Meaning  ErrMeaning
}

// Messages are the driver error texts every err.Error() is compared against.
var Messages = []Message{
	{"duplicate key value violates unique constraint", UniqueViolation}, // PostgreSQL (lib/pq, pgx)
	{"Duplicate entry", UniqueViolation},                                // MySQL ER_DUP_ENTRY
	{"UNIQUE constraint failed", UniqueViolation},                       // SQLite
	{"SQLSTATE 23505", UniqueViolation},                                 // pgx's PgError.Error()
	{"could not serialize access", SerializationFailure},                // PostgreSQL 40001
}

// MessageMeaning returns the meaning of a constant compared with an
// error's text: the meaning of the fragment it contains (an exact
// comparison with a whole message) or is part of (strings.Contains with
// a part of one), when that part is long enough to say which error it
// is; NoMeaning otherwise.
func MessageMeaning(text string) ErrMeaning {
	text = strings.ToLower(text)
	for _, m := range Messages {
		f := strings.ToLower(m.Fragment)
		if strings.Contains(text, f) || (len(text) >= 9 && strings.Contains(f, text)) {
			return m.Meaning
		}
	}
	return NoMeaning
}

var (
	typeTable = func() map[[2]string]*Type {
		m := make(map[[2]string]*Type)
		for _, lib := range libraries {
			for i := range lib.types {
				t := &lib.types[i]
				m[[2]string{t.Pkg, t.Name}] = t
			}
		}
		return m
	}()
	sentinelTable = func() map[[2]string]*Sentinel {
		m := make(map[[2]string]*Sentinel)
		for _, lib := range libraries {
			for i := range lib.sentinels {
				s := &lib.sentinels[i]
				m[[2]string{s.Pkg, s.Name}] = s
			}
		}
		return m
	}()
)

// TypeOf returns the row of a (pointer to a) named library type, or nil.
func TypeOf(t types.Type) *Type {
	named := namedOf(t)
	if named == nil || named.Obj().Pkg() == nil {
		return nil
	}
	return typeTable[[2]string{named.Obj().Pkg().Path(), named.Obj().Name()}]
}

// SentinelOf returns the row of a package-level error variable, or nil.
func SentinelOf(v *types.Var) *Sentinel {
	if v == nil || v.Pkg() == nil || v.Parent() != v.Pkg().Scope() {
		return nil
	}
	return sentinelTable[[2]string{v.Pkg().Path(), v.Name()}]
}

// ConstSentinelOf returns the row of an error constant: a constant of a
// string type declared in a library's package (or one under it) with the
// row's value, or nil. go/ssa keeps no name for a constant, only its type
// and value.
func ConstSentinelOf(t types.Type, value string) *Sentinel {
	named := namedOf(t)
	if named == nil || named.Obj().Pkg() == nil {
		return nil
	}
	path := named.Obj().Pkg().Path()
	for _, s := range constSentinels {
		if s.Const == value && (path == s.Pkg || strings.HasPrefix(path, s.Pkg+"/")) {
			return s
		}
	}
	return nil
}

var constSentinels = func() []*Sentinel {
	var out []*Sentinel
	for _, s := range Sentinels() {
		if s.Const != "" {
			out = append(out, s)
		}
	}
	return out
}()

// Types returns every type row, for tests and documentation.
func Types() []*Type {
	var out []*Type
	for _, lib := range libraries {
		for i := range lib.types {
			out = append(out, &lib.types[i])
		}
	}
	return out
}

// Sentinels returns every sentinel row, for tests and documentation.
func Sentinels() []*Sentinel {
	var out []*Sentinel
	for _, lib := range libraries {
		for i := range lib.sentinels {
			out = append(out, &lib.sentinels[i])
		}
	}
	return out
}
