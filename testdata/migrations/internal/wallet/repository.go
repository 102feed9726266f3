// Package wallet is the repository of wallets, payouts and ledger
// entries. Nothing in it reads or compares a version: that wallets is
// versioned is known only from the migrations in db/migrations, which no
// configuration names.
package wallet

import (
	"context"
	"database/sql"
	"errors"
)

// ErrNotFound is returned when no row matched.
var ErrNotFound = errors.New("wallet: not found")

// Repository runs the wallet queries on a database/sql pool.
type Repository struct {
	db *sql.DB
}

// NewRepository returns a Repository on db.
func NewRepository(db *sql.DB) *Repository { return &Repository{db: db} }

// UpdateBalance writes a balance computed by the caller from an earlier
// read, without the version the wallets table carries.
func (r *Repository) UpdateBalance(ctx context.Context, userID, balance int64) error {
	res, err := r.db.ExecContext(ctx, `UPDATE wallets SET balance = $2, updated_at = now() WHERE user_id = $1`, userID, balance) // want `the UPDATE of wallets .* does not compare the version in its WHERE, though wallets is versioned \(the migrations in db/migrations/ declare wallets.version\)`
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return ErrNotFound
	}
	return nil
}

// MarkPayoutSent is the same update on payouts, which has no version
// column (the copies under testdata/ and .scratch/ that add one are not
// read).
func (r *Repository) MarkPayoutSent(ctx context.Context, id int64) error {
	res, err := r.db.ExecContext(ctx, `UPDATE payouts SET status = 'sent' WHERE id = $1`, id)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return ErrNotFound
	}
	return nil
}

// AdjustEntry is the same update on ledger_entries, whose version column
// migration 10 dropped after migration 2 made it.
func (r *Repository) AdjustEntry(ctx context.Context, id, amount int64) error {
	res, err := r.db.ExecContext(ctx, `UPDATE ledger_entries SET amount = $2 WHERE id = $1`, id, amount)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return ErrNotFound
	}
	return nil
}
