package store

import (
	"context"
	"database/sql"
	"errors"
)

// OpenAccount opens the account numbered n unless it exists.
func OpenAccount(ctx context.Context, db *sql.DB, n string) error {
	var id int64
	err := db.QueryRowContext(ctx, `SELECT id FROM accounts WHERE number = $1`, n).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		_, err = db.ExecContext(ctx, `INSERT INTO accounts (number) VALUES ($1)`, n)
	}
	return err
}

// OpenAccountClaimed claims the number first.
func OpenAccountClaimed(ctx context.Context, db *sql.DB, n string) error {
	_, err := db.ExecContext(ctx, `INSERT INTO accounts (number) VALUES ($1) ON CONFLICT (number) DO NOTHING`, n)
	return err
}
