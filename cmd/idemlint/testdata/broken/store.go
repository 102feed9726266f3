// Package store does not compile: idemlint must report the type error and
// exit non-zero, never panic.
package store

import "database/sql"

func Balance(db *sql.DB, id int64) (int64, error) {
	var cents int64
	err := db.QueryRow("SELECT balance FROM accounts WHERE id = $1", id).Scan(&cents)
	return cents, err, nil
}
