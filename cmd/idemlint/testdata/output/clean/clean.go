// Package clean claims every key before it uses it: idemlint is silent.
package clean

import (
	"context"
	"database/sql"
)

// Subscribe claims the subscription; a second call inserts nothing.
func Subscribe(ctx context.Context, db *sql.DB, user, plan int64) error {
	_, err := db.ExecContext(ctx, `INSERT INTO subscriptions (user_id, plan_id) VALUES ($1, $2) ON CONFLICT (user_id, plan_id) DO NOTHING`, user, plan)
	return err
}
