// Package knowledge is idemlint's table of what library calls do: which
// call reads rows, inserts, updates, locks, begins or ends a transaction,
// calls another service, retries, sets an idempotency key, takes a TTL lock,
// schedules a job, or makes a fresh value.
//
// It is declarative, in the manner of staticcheck's knowledge package: one
// row per library function or method, naming its Kind and the Role of each
// parameter that matters (the SQL text, the bind arguments, the func run in
// a transaction, the HTTP method...). The ops layer reads the rows; the
// analyzers never match library calls themselves. Adding a library means
// adding rows here and a fixture that shows how its calls look in SSA.
//
// A call is identified by its Func: package path, receiver type name and
// name, the same for a static call, a call through an interface (invoke),
// an instance of a generic function or method, and a method promoted
// through embedding (sqlx.DB embeds *sql.DB, so sqlx's Exec is
// database/sql's row). Database client calls are never network calls: the
// database is not "another service" for lockacrosscall.
//
// Generated code (sqlc, ent) lives in the user's module under the user's
// import path, so it is recognised by shape, in sqlc.go and ent.go, not by
// a row.
package knowledge

import (
	"fmt"
	"go/types"
	"maps"
	"slices"
	"strings"
)

// A Kind is what a call does.
type Kind uint8

const (
	Unknown Kind = iota

	// Database: statements given as SQL text. What they do is in the SQL
	// (sqltext decides: SELECT, INSERT, UPDATE, upsert, FOR UPDATE...).
	Query   // runs SQL that returns rows (QueryRow, Query, sqlx Get/Select)
	Exec    // runs SQL that returns a result (Exec, MustExec, NamedExec)
	Prepare // prepares SQL; the statement's later calls run it
	Queue   // queues SQL in a batch (pgx Batch.Queue)

	// Database: builder and ORM calls.
	Chain         // a builder step that returns the same query (GORM Where, Model; bun Where)
	Predicate     // a condition on a column (ent's generated field predicates, And, Or, Not)
	LockStep      // a builder step that adds a row lock (bun For, ent ForUpdate)
	ConflictStep  // a builder step that adds ON CONFLICT / IGNORE (bun On, Ignore; ent OnConflict)
	SetStep       // a builder step that sets a column, possibly to an expression (bun Set, ent SetX)
	AddStep       // a builder step that adds to a column atomically (ent AddX, sql UpdateSet.Add: c = c + v)
	Find          // reads rows into a destination (GORM First, Take, Find; bun Scan; ent Only)
	Insert        // inserts its model (GORM Create; bun InsertQuery Exec)
	Update        // updates (GORM Update, Updates, UpdateColumn(s); bun UpdateQuery Exec)
	Delete        // deletes (GORM Delete; bun DeleteQuery Exec)
	Save          // GORM Save: an UPDATE of every column, or an INSERT when the key is zero
	FirstOrCreate // GORM FirstOrCreate: a lookup then an insert, not atomic
	Expr          // an SQL expression value (gorm.Expr): atomic when used as an update's value
	Raw           // a raw-SQL builder (GORM Raw, bun NewRaw) whose finisher runs it
	Naming        // sets, for the whole handle, how models' tables or columns are named (xorm SetMapper): its Value is the naming

	// Database: results and errors.
	Scan         // reads a row into destinations; where "no rows" surfaces
	RowsAffected // the affected-row count of a write
	ErrorCheck   // classifies an error (unique violation, not found)
	ErrorCode    // returns a database error's code (bun pgdriver Error.Field('C'), (*pq.Error).SQLState)

	// Database: transactions.
	Begin     // returns a transaction (TxResult), or with no Result makes its receiver one (xorm's Session.Begin returns only an error)
	Commit    // ends a transaction, keeping its writes
	Rollback  // ends a transaction, discarding its writes
	TxFunc    // runs a func argument inside a transaction, committing when it returns nil
	Savepoint // a nested transaction inside one

	// Network.
	Request    // sends a request to another service (with its HTTP method when known)
	NewRequest // builds a request (net/http NewRequest; the method is an argument)
	SetHeader  // sets a request header (an idempotency key when the name says so)
	SetIdemKey // sets an idempotency key by API (stripe Params.SetIdempotencyKey)
	GetHeader  // reads a header of a response (or request): Header.Get, Values
	Location   // reads the Location a create answers with: Response.Location
	Dial       // opens a network connection
	Eval       // runs a server-side script (Redis EVAL, Script.Run): what it does is in its source
	NewHandle  // makes a handle later calls use, doing no I/O: a client (resty.New), lock (redsync NewMutex), script (redis.NewScript) or task (gocron.NewTask)

	// Retries.
	Retry         // runs a func argument again while it fails, with waits
	RetryClient   // returns a client whose requests are retried (retryablehttp.NewClient)
	RetryConfig   // configures a client's retries (resty SetRetryCount)
	MarkRetryable // marks an error retryable; its package's Retry returns any other error at once (sethvargo RetryableError)
	MarkPermanent // marks an error permanent: the Retry around it stops (backoff.Permanent, retry-go Unrecoverable)

	// Distributed locks.
	TTLLockAcquire      // takes a lock that expires (Redis SET NX, redsync Lock)
	TTLLockRelease      // releases one whoever holds it (Del); see TTLLockReleaseOwned
	TTLLockReleaseOwned // releases a TTL lock only while the caller holds it (redsync Unlock; DelExArgs with Mode IFEQ)
	TTLLockExtend       // extends one
	FenceToken          // issues a monotonic number usable as a fencing token (Redis INCR)

	// Scheduling and values.
	Schedule // registers a func to run periodically in-process (cron AddFunc)
	Lease    // makes scheduled jobs run on one replica at a time (gocron WithDistributedLocker)
	Fresh    // returns a value that differs on every call (uuid.New, rand, time.Now)
	Wait     // waits (time.Sleep, time.After): part of a hand-written retry loop
	CtxValue // returns a context carrying its Value argument (context.WithValue): a transaction stored there travels with the context

	// Request handlers and their context (gin).
	CtxStore    // stores its Value argument under its Key in the request context it is called on (gin Context.Set)
	CtxLoad     // returns the value stored under its Key in the request context it is called on (gin Context.Get, MustGet)
	NextHandler // runs the handlers after the calling one in the request's chain (gin Context.Next)
	Route       // registers the handlers of a route, run in order, from its Handlers parameter on (gin RouterGroup.Handle, GET)

	// Codecs.
	Decode // fills its Dest from the Encoded bytes or text, or from its receiver's reader when no parameter is Encoded (json.Unmarshal, (*json.Decoder).Decode)
	Encode // returns its Value encoded (ValueResult; json.Marshal)
)

var kindNames = [...]string{
	Unknown: "unknown", Query: "query", Exec: "exec", Prepare: "prepare", Queue: "queue",
	Chain: "chain", LockStep: "lock-step", ConflictStep: "conflict-step", SetStep: "set-step",
	Find: "find", Insert: "insert", Update: "update", Delete: "delete", Save: "save",
	FirstOrCreate: "first-or-create", Expr: "expr", Raw: "raw", Naming: "naming",
	Scan: "scan", RowsAffected: "rows-affected", ErrorCheck: "error-check",
	Begin: "begin", Commit: "commit", Rollback: "rollback", TxFunc: "tx-func", Savepoint: "savepoint",
	Request: "request", NewRequest: "new-request", SetHeader: "set-header", SetIdemKey: "set-idempotency-key",
	GetHeader: "get-header", Location: "location",
	Retry: "retry", RetryClient: "retry-client", RetryConfig: "retry-config", Dial: "dial",
	TTLLockAcquire: "ttl-lock-acquire", TTLLockRelease: "ttl-lock-release", TTLLockExtend: "ttl-lock-extend",
	FenceToken: "fence-token", Schedule: "schedule", Fresh: "fresh", Wait: "wait", CtxValue: "context-value",
	ErrorCode: "error-code",
	NewHandle: "new-handle", Eval: "eval", TTLLockReleaseOwned: "ttl-lock-release-owned",
	MarkRetryable: "mark-retryable", MarkPermanent: "mark-permanent", Lease: "lease",
	AddStep: "add-step", Predicate: "predicate",
	CtxStore: "context-store", CtxLoad: "context-load", NextHandler: "next-handler", Route: "route",
	Decode: "decode", Encode: "encode",
}

func (k Kind) String() string {
	if int(k) < len(kindNames) && kindNames[k] != "" {
		return kindNames[k]
	}
	return fmt.Sprintf("Kind(%d)", k)
}

// IsDatabase reports whether k is something a database client does.
func (k Kind) IsDatabase() bool { return k >= Query && k <= Savepoint }

// LocksRows reports whether a call of kind k, run in a transaction,
// takes row locks that last until the transaction ends: an UPDATE or a
// DELETE locks every row it writes (GORM Update, Updates, UpdateColumn,
// UpdateColumns, Delete, and Save, an UPDATE of the whole row or an
// upsert; bun's, go-pg's, gorp's and xorm's updates and deletes), and every other
// writer of those rows waits for the commit.
//
// An INSERT (GORM Create, bun's and go-pg's Insert) does not count. The
// row it adds is locked too, but no other transaction can see it before
// the commit; the writers that do wait on an INSERT are a concurrent
// INSERT of the same unique key, which would fail with a duplicate once
// the first commits (the wait delays a failure, it blocks no write that
// could succeed), and, for a row whose foreign key references a parent,
// a DELETE of the parent (PostgreSQL's FOR KEY SHARE on it; InnoDB's
// shared lock also holds back updates of the parent row). An INSERT then
// a remote call in one transaction is the dual write the outbox
// pattern fixes, not a lock held hostage; an upsert that updates, and
// an INSERT ... SELECT ... FOR UPDATE, count by what they update and
// lock.
func (k Kind) LocksRows() bool { return k == Update || k == Delete || k == Save }

// A Role is what a parameter of a call is for.
type Role uint8

const (
	NoRole      Role = iota
	SQL              // SQL text: a statement, or a fragment for a builder
	Binds            // bind arguments, from this parameter on (variadic)
	Dest             // where a read puts rows (Scan destinations, GORM dest)
	Model            // the model written (GORM Create/Save value, Model(m))
	Cond             // a condition: SQL fragment, struct or map (GORM Where, inline conds)
	Column           // a column name (GORM Update's first argument)
	Value            // a column's new value (GORM Update's second argument)
	Values           // new values as a struct or map (GORM Updates)
	Clauses          // GORM clause expressions (clause.Locking, clause.OnConflict)
	Callback         // a func argument run in a transaction or retried
	TxOptions        // transaction options (isolation level)
	Handle           // the database handle a helper begins a transaction on (pgx.BeginFunc's db)
	HTTPMethod       // an HTTP method name
	URL              // a request URL
	Body             // a request body
	Req              // the request sent
	HeaderName       // a header's name
	HeaderValue      // a header's value
	Key              // a lock key, an idempotency key, or the key of a value in a request context (gin Context.Set)
	TTL              // a lock's expiry
	Count            // a retry count
	ErrArg           // the error an ErrorCheck classifies

	// Network, locks and retries, continued.
	ScriptSrc // a server-side script's source (Redis EVAL, redis.NewScript)
	Options   // an options struct whose fields say what the call does (go-redis SetArgs, DelExArgs: Mode, TTL, MatchValue)
	Policies  // failsafe-go policies, from this parameter on, or an Executor holding them

	// NamedBinds is one struct or map whose fields bind the SQL's :name
	// placeholders (sqlx's Named*: a field by its db tag, else its name
	// lower-cased; a map by its key).
	NamedBinds
	// Handlers are the handlers of a route, from this parameter on
	// (variadic), run in that order.
	Handlers

	// Encoded is the encoded bytes or text a Decode reads.
	Encoded
)

var roleNames = [...]string{
	NoRole: "none", SQL: "sql", Binds: "binds", Dest: "dest", Model: "model", Cond: "cond",
	Column: "column", Value: "value", Values: "values", Clauses: "clauses", Callback: "callback",
	TxOptions: "tx-options", Handle: "handle", HTTPMethod: "http-method", URL: "url", Body: "body",
	Req: "request", HeaderName: "header-name", HeaderValue: "header-value", Key: "key", TTL: "ttl",
	Count: "count", ErrArg: "error",
	ScriptSrc: "script", Options: "options", Policies: "policies", NamedBinds: "named-binds", Handlers: "handlers",
	Encoded: "encoded",
}

func (r Role) String() string {
	if int(r) < len(roleNames) && roleNames[r] != "" {
		return roleNames[r]
	}
	return fmt.Sprintf("Role(%d)", r)
}

// Func identifies a library function or method: package path, receiver type
// name (without pointer or type arguments; "" for a function) and name.
type Func struct {
	Pkg, Recv, Name string
}

func (f Func) String() string {
	if f.Recv == "" {
		return f.Pkg + "." + f.Name
	}
	return "(" + f.Pkg + "." + f.Recv + ")." + f.Name
}

// FuncOf returns the Func of a function or method object, resolving
// instances of generic functions and methods to their origin.
func FuncOf(fn *types.Func) Func {
	fn = fn.Origin()
	f := Func{Name: fn.Name()}
	if fn.Pkg() != nil {
		f.Pkg = fn.Pkg().Path()
	}
	sig, ok := fn.Type().(*types.Signature)
	if !ok || sig.Recv() == nil {
		return f
	}
	// For an interface method this is the interface that declares it,
	// which for an embedded interface is not the one the caller holds
	// (go-redis's UniversalClient embeds StringCmdable, which declares
	// SetNX).
	f.Recv = typeName(sig.Recv().Type())
	return f
}

// typeName returns the name of a (pointer to a) named type, without type
// arguments, or "" for an unnamed type.
func typeName(t types.Type) string {
	if named := namedOf(t); named != nil {
		return named.Obj().Name()
	}
	return ""
}

func namedOf(t types.Type) *types.Named {
	t = types.Unalias(t)
	if ptr, ok := t.(*types.Pointer); ok {
		t = types.Unalias(ptr.Elem())
	}
	named, _ := t.(*types.Named)
	return named
}

// A Param is a parameter of a call with a role. Index counts the Go
// signature's parameters from 0, the receiver excluded.
type Param struct {
	Index int
	Role  Role
}

// Result says what a call's result is, for calls that return a handle the
// ops layer follows.
type Result uint8

const (
	NoResult      Result = iota
	TxResult             // a transaction (result 0)
	ChainResult          // the same query or builder, extended (result 0)
	RowResult            // a row to Scan (result 0)
	RowsResult           // rows to iterate (result 0)
	ExecResult           // a result with RowsAffected (result 0)
	RequestResult        // a request (result 0)
	ClientResult         // a client (result 0)
	StmtResult           // a prepared statement (result 0)
	LockResult           // a lock handle (redsync Mutex)
	ValueResult          // a value computed by the call (result 0): a Fresh one, an Encode's encoding
	ScalarResult         // the first column of the first row, the zero value when no row matched (result 0; gorp SelectInt)
)

// A Call is one row of the tables: what calling Func does.
type Call struct {
	Func   Func
	Kind   Kind
	Params []Param
	Result Result
	// Method is the HTTP method a Request sends when the call fixes it
	// (http.Post sends POST); "" when an argument or the request says.
	Method string
	// CallbackTx is, for a TxFunc, the parameter of the Callback that
	// receives the transaction.
	CallbackTx int
	// Meaning is, for an ErrorCheck, what a true result says happened
	// (pgerrcode.IsIntegrityConstraintViolation: a unique violation among
	// others); NoMeaning when the call's arguments say (pq.As's codes).
	Meaning ErrMeaning
	// Lib names the library, for messages and documentation.
	Lib string
	// SendsReceiver is set for a Request whose receiver is the request it
	// sends (resty's verbs, failsafehttp's Do), with the headers and the
	// client it was made with.
	SendsReceiver bool
	// Setting is, for a row that does what its Kind says for one setting
	// only, the constant its Key argument names then: jinzhu/gorm's
	// Set("gorm:query_option", "FOR UPDATE") locks, Set of any other
	// setting is a plain step.
	Setting string
	// ErrNoRow is set for a read of one row whose error is not nil when
	// no row matched: sqlx's Get and gorp's SelectOne (sql.ErrNoRows),
	// GORM's First, Take and Last (ErrRecordNotFound), xorm's GetOrError
	// (ErrNotExist), ent's Only and First (NotFoundError). A read whose
	// "nothing matched" is no error (GORM Find, xorm Get, sqlx Select,
	// counts) leaves it unset. See NoRowIsError.
	ErrNoRow bool
}

// NoRowIsError reports whether the call's error, or for a row it returns
// the error of that row's Scan, is not nil when no row matched
// (ErrNoRow); every RowResult's Scan returns its library's ErrNoRows.
// The error is then not nil on every path where the call found nothing
// (and also on other failures).
func (c *Call) NoRowIsError() bool { return c.ErrNoRow || c.Result == RowResult }

// Param returns the index of the parameter with role r.
func (c *Call) Param(r Role) (int, bool) {
	for _, p := range c.Params {
		if p.Role == r {
			return p.Index, true
		}
	}
	return 0, false
}

func (c *Call) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s", c.Func, c.Kind)
	for _, p := range c.Params {
		fmt.Fprintf(&b, " %s=%d", p.Role, p.Index)
	}
	if c.Method != "" {
		fmt.Fprintf(&b, " method=%s", c.Method)
	}
	return b.String()
}

// table is every row, by Func. It is built once from the per-library
// tables, which must not repeat a Func.
var table = func() map[Func]*Call {
	m := make(map[Func]*Call)
	for _, lib := range libraries {
		for i := range lib.calls {
			c := &lib.calls[i]
			c.Lib = lib.name
			if _, dup := m[c.Func]; dup {
				panic("knowledge: two rows for " + c.Func.String())
			}
			m[c.Func] = c
		}
	}
	return m
}()

// A library is one library's rows.
type library struct {
	name string
	// pkgs are the import paths whose behaviour the rows describe fully:
	// the ops layer computes no facts for them.
	pkgs      []string
	calls     []Call
	types     []Type
	sentinels []Sentinel
}

// Lookup returns the row for f, from the table or else from a rule
// (rules.go), or nil.
func Lookup(f Func) *Call { return lookup(f) }

// Rows returns every row, for tests and documentation.
func Rows() []*Call {
	var out []*Call
	for _, lib := range libraries {
		for i := range lib.calls {
			out = append(out, &lib.calls[i])
		}
	}
	return out
}

// Packages returns, sorted, the import paths the tables name: the
// libraries' packages and those of their rows. Nothing outside the tables
// and the libraries' dialects may spell one (the layering test).
func Packages() []string {
	seen := map[string]bool{}
	for _, lib := range libraries {
		for _, p := range lib.pkgs {
			seen[p] = true
		}
		for _, c := range lib.calls {
			seen[c.Func.Pkg] = true
		}
	}
	return slices.Sorted(maps.Keys(seen))
}

// Operates reports whether the package with this import path is one of
// the standard library's whose calls the tables describe as operations
// (queries, transactions, requests, connections): a package importing one
// may do something a summary records.
func Operates(path string) bool {
	switch path {
	case sqlPkg, httpPkg, netPkg, smtpPkg:
		return true
	}
	return false
}

// Covered reports whether the package with this import path is a library
// whose behaviour the tables describe, so that no summary needs to be
// computed from its bodies. The standard library is covered too, but
// whether a package is std is for the origin layer to say, from where the
// package comes from (ops asks both).
func Covered(path string) bool {
	for _, lib := range libraries {
		for _, p := range lib.pkgs {
			if path == p || strings.HasPrefix(path, p+"/") {
				return true
			}
		}
	}
	return false
}

// Row construction helpers, to keep the tables one line a row.

func fn(pkg, name string) Func           { return Func{Pkg: pkg, Name: name} }
func method(pkg, recv, name string) Func { return Func{Pkg: pkg, Recv: recv, Name: name} }
func p(index int, role Role) Param       { return Param{Index: index, Role: role} }
