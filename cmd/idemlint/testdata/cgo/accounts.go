// Package accounts imports "C": the analyzers see cmd/cgo's translation of
// this file, whose first line says it is generated, but the code in it is
// the user's and is reported like any other.
package accounts

/*
#include <stdlib.h>
static int checksum(int x) { return abs(x) % 97; }
*/
import "C"

import (
	"context"
	"database/sql"
	"errors"
)

// Checksum is why the package uses cgo.
func Checksum(x int) int { return int(C.checksum(C.int(x))) }

// SignUp looks the user up and inserts when none is found: two concurrent
// sign-ups both find nothing and both insert.
func SignUp(ctx context.Context, db *sql.DB, email string) error {
	var id int64
	err := db.QueryRowContext(ctx, `SELECT id FROM users WHERE email = $1`, email).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		_, err = db.ExecContext(ctx, `INSERT INTO users (email) VALUES ($1)`, email)
	}
	return err
}

// Invite claims the email first: the unique index decides.
func Invite(ctx context.Context, db *sql.DB, email string) error {
	_, err := db.ExecContext(ctx, `INSERT INTO users (email) VALUES ($1) ON CONFLICT (email) DO NOTHING`, email)
	return err
}
