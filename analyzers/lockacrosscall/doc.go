// Package lockacrosscall defines an Analyzer that reports network calls
// made while a transaction holds a row lock.
//
// # Analyzer lockacrosscall
//
// lockacrosscall: report calls to other services made while a transaction holds a row lock
//
// A transaction that locks rows and then calls another service before
// committing makes the lock hostage to that service's latency: every other
// writer of the rows waits, connection pools drain, and a slow payment
// provider becomes a database outage. The call belongs before the lock, or
// after the commit: write an outbox row in the transaction and send the
// request once the transaction has committed.
//
// A lock is SELECT ... FOR UPDATE, FOR NO KEY UPDATE, FOR SHARE or FOR KEY
// SHARE, LOCK IN SHARE MODE, LOCK TABLE, a transaction-scoped advisory lock
// (pg_advisory_xact_lock), GORM's clause.Locking, bun's and go-pg's
// For, ent's ForUpdate and ForShare, xorm's ForUpdate, and any UPDATE,
// DELETE or updating upsert run in
// the transaction, since those lock the rows they write until the end
// (SQL text run by database/sql, sqlx, pgx, gorp, or GORM's Raw and
// Exec; GORM's Update, Updates, UpdateColumn(s), Delete and Save of a
// model, bun's, go-pg's and xorm's updates and deletes, and gorp's
// Update and Delete of a struct too; SQL built by squirrel or goqu,
// ForUpdate(exp.Wait) included). A
// plain INSERT (GORM Create included) is not a lock: the row it adds is
// locked, but no other transaction sees it before the commit; what waits
// on it is a concurrent INSERT of the same unique key, which fails with
// a duplicate once the first commits, or a DELETE of the parent its
// foreign key references. A helper that locks the transaction it is
// given (in this package or another) counts where it is called, and so
// does a method that locks the handle a field of its receiver holds,
// when the caller made that struct around the transaction
// (&Servers{DB: tx}), and one that begins a transaction, locks rows in
// it and returns it (a claim of the jobs to process): the caller holds
// the lock from the call until it commits.
//
// The transaction may reach a gin handler through the request context: a
// middleware that begins it (or runs in GORM's Transaction callback),
// stores it (c.Set(key, tx)) and runs the handlers after it (c.Next())
// before it commits makes every handler that reads the key back (c.Get
// or c.MustGet and a type assertion, or a helper returning it) write in
// that transaction, committed only after the handler returns. When the
// same key also carries the pool (another middleware stores it there for
// the routes without a transaction), a handler is taken to run in the
// transaction only when a route of its own package lists it after that
// middleware; a write on the pool commits by itself and holds nothing.
//
// A network call is a request through net/http, resty, retryablehttp,
// gRPC, net/smtp, stripe-go, an aws-sdk-go-v2 service client (S3, SQS,
// SNS, ... operations) or net.Dial, a call of a function whose body
// makes one (in this package or another, through facts), a retry wrapper
// whose callback makes one, or a function named in the network-funcs
// setting. Database calls are never network calls; a call in a go
// statement does not hold the transaction open.
//
// Flow matters: a call after Commit or an explicit Rollback on every path
// is not reported; a deferred Rollback runs only at return, so a call on
// an error path before it still holds the lock; a call on one branch of the
// locked region is reported. In a transaction callback (GORM Transaction,
// pgx.BeginFunc, bun RunInTx, go-pg RunInTransaction, xorm's
// engine.Transaction, a user-written WithTx) the lock lasts until the
// callback returns. An xorm session is a transaction when Begin is
// called on it; a session never begun commits each statement by itself,
// so its ForUpdate ends with the SELECT.
//
// One finding per lock: at the first call made while it is held, naming
// the request rather than the connection it is made over (a pool's dial
// on a cache miss). Moving that call out of the transaction usually moves
// the ones after it too.
//
// # Example
//
// Reported:
//
//	tx, err := db.BeginTx(ctx, nil)
//	...
//	defer tx.Rollback()
//	var status string
//	err = tx.QueryRowContext(ctx, `SELECT status FROM orders WHERE id = $1 FOR UPDATE`, id).Scan(&status)
//	...
//	if err := payments.Charge(ctx, id, cents); err != nil { // the lock waits on the provider
//		return err
//	}
//	return tx.Commit()
//
// Silent: charge after the commit, with an outbox row recording the intent.
//
//	_, err = tx.ExecContext(ctx, `INSERT INTO outbox (kind, order_id) VALUES ('charge', $1)`, id)
//	...
//	if err := tx.Commit(); err != nil {
//		return err
//	}
//	return payments.Charge(ctx, id, cents)
//
// # Suppressing
//
// When the remote call is known to be fast and local (a sidecar on the
// same host, say), silence the finding on the reported line:
//
//	//idemlint:ignore lockacrosscall the sidecar answers from memory in microseconds
package lockacrosscall
