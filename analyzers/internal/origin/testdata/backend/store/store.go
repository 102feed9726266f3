package store // want `module code: backend/model backend/store`

import (
	"context"
	"database/sql"

	"backend/model"
)

func ByEmail(ctx context.Context, db *sql.DB, email string) (*model.User, error) {
	u := &model.User{}
	return u, db.QueryRowContext(ctx, `SELECT email FROM users WHERE email = $1`, email).Scan(&u.Email)
}
