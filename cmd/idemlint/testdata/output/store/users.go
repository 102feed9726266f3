// Package store is the repository layer of a small service: each function
// is one use case's access to the database.
package store

import (
	"context"
	"database/sql"
	"errors"
)

// Users stores the service's users.
type Users struct{ db *sql.DB }

// SignUp looks the user up and inserts when none is found: two concurrent
// sign-ups with one email both insert.
func (u *Users) SignUp(ctx context.Context, email string) error {
	var id int64
	err := u.db.QueryRowContext(ctx, `SELECT id FROM users WHERE email = $1`, email).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		_, err = u.db.ExecContext(ctx, `INSERT INTO users (email) VALUES ($1)`, email)
	}
	return err
}

// SignUpClaimed claims the email first: the database arbitrates.
func (u *Users) SignUpClaimed(ctx context.Context, email string) error {
	_, err := u.db.ExecContext(ctx, `INSERT INTO users (email) VALUES ($1) ON CONFLICT (email) DO NOTHING`, email)
	return err
}
