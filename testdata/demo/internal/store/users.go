package store

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/jmoiron/sqlx"
)

// User is a customer account.
type User struct {
	ID         int64         `db:"id" json:"id"`
	Email      string        `db:"email" json:"email"`
	Name       string        `db:"name" json:"name"`
	ReferredBy sql.NullInt64 `db:"referred_by" json:"-"`
	CreatedAt  time.Time     `db:"created_at" json:"created_at"`
}

const userColumns = `id, email, name, referred_by, created_at`

// UserStore keeps user accounts.
type UserStore struct {
	db *sqlx.DB
}

// NewUserStore returns a UserStore on db.
func NewUserStore(db *sqlx.DB) *UserStore {
	return &UserStore{db: db}
}

// ByEmail returns the user registered with email, or nil if there is none.
func (s *UserStore) ByEmail(ctx context.Context, email string) (*User, error) {
	var u User
	err := s.db.GetContext(ctx, &u, `SELECT `+userColumns+` FROM users WHERE email = $1`, email)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return &u, nil
}

// Create registers a new user. referredBy is the id of the user who invited
// them, if any.
func (s *UserStore) Create(ctx context.Context, email, name string, referredBy *int64) (*User, error) {
	var u User
	err := s.db.GetContext(ctx, &u,
		`INSERT INTO users (email, name, referred_by) VALUES ($1, $2, $3) RETURNING `+userColumns,
		email, name, referredBy)
	if err != nil {
		return nil, err
	}
	return &u, nil
}
