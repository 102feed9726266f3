// Package api imports the package that does not compile: it is still
// analysed, with what can be known.
package api

import (
	"context"
	"database/sql"
	"errors"

	store "example.com/broken"
)

// Balance is the import's use.
func Balance(db *sql.DB) (int64, error) { return store.Balance(db, 1) }

// SignUp looks the user up and inserts when none is found.
func SignUp(ctx context.Context, db *sql.DB, email string) error {
	var id int64
	err := db.QueryRowContext(ctx, `SELECT id FROM users WHERE email = $1`, email).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		_, err = db.ExecContext(ctx, `INSERT INTO users (email) VALUES ($1)`, email)
	}
	return err
}
