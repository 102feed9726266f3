// Package store is the repository layer of the service. Each store owns the
// tables of one part of the domain and uses the database library that part
// of the service was written with.
package store

import (
	"errors"

	"github.com/jackc/pgx/v5/pgconn"
)

var (
	// ErrNotFound is returned when the requested row does not exist.
	ErrNotFound = errors.New("store: not found")
	// ErrConflict is returned when a row changed since the caller read it.
	ErrConflict = errors.New("store: row was modified concurrently")
)

// uniqueViolation is PostgreSQL's SQLSTATE for unique_violation.
const uniqueViolation = "23505"

// IsUniqueViolation reports whether err comes from an INSERT or UPDATE that
// hit a unique constraint.
func IsUniqueViolation(err error) bool {
	var pgErr *pgconn.PgError
	return errors.As(err, &pgErr) && pgErr.Code == uniqueViolation
}
