package store

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// Order is a customer's purchase.
type Order struct {
	ID          int64   `json:"id"`
	UserID      int64   `json:"user_id"`
	Email       string  `json:"-"`
	AmountCents int64   `json:"amount_cents"`
	Currency    string  `json:"currency"`
	Status      string  `json:"status"`
	ChargeID    *string `json:"charge_id,omitempty"`
}

// Order statuses.
const (
	OrderPending         = "pending"
	OrderPaid            = "paid"
	OrderRefundRequested = "refund_requested"
)

// OrderStore keeps orders and the outbox of events about them. The methods
// that take a pgx.Tx run on that transaction.
type OrderStore struct {
	pool *pgxpool.Pool
}

// NewOrderStore returns an OrderStore on pool.
func NewOrderStore(pool *pgxpool.Pool) *OrderStore {
	return &OrderStore{pool: pool}
}

const orderColumns = `o.id, o.user_id, u.email, o.amount_cents, o.currency, o.status, o.charge_id`

// Get returns an order without locking it.
func (s *OrderStore) Get(ctx context.Context, id int64) (Order, error) {
	var o Order
	err := s.pool.QueryRow(ctx, `
		SELECT `+orderColumns+`
		FROM orders o JOIN users u ON u.id = o.user_id
		WHERE o.id = $1`, id).
		Scan(&o.ID, &o.UserID, &o.Email, &o.AmountCents, &o.Currency, &o.Status, &o.ChargeID)
	if errors.Is(err, pgx.ErrNoRows) {
		return o, ErrNotFound
	}
	return o, err
}

// LockOrder reads an order and locks its row until tx ends.
func (s *OrderStore) LockOrder(ctx context.Context, tx pgx.Tx, id int64) (Order, error) {
	var o Order
	err := tx.QueryRow(ctx, `
		SELECT `+orderColumns+`
		FROM orders o JOIN users u ON u.id = o.user_id
		WHERE o.id = $1
		FOR UPDATE OF o`, id).
		Scan(&o.ID, &o.UserID, &o.Email, &o.AmountCents, &o.Currency, &o.Status, &o.ChargeID)
	if errors.Is(err, pgx.ErrNoRows) {
		return o, ErrNotFound
	}
	return o, err
}

// MarkPaid records the charge that paid the order.
func (s *OrderStore) MarkPaid(ctx context.Context, tx pgx.Tx, id int64, chargeID string) error {
	_, err := tx.Exec(ctx, `
		UPDATE orders SET status = 'paid', charge_id = $2, updated_at = now()
		WHERE id = $1`, id, chargeID)
	return err
}

// SetStatus moves the order to status.
func (s *OrderStore) SetStatus(ctx context.Context, tx pgx.Tx, id int64, status string) error {
	_, err := tx.Exec(ctx, `UPDATE orders SET status = $2, updated_at = now() WHERE id = $1`, id, status)
	return err
}

// Enqueue adds an event to the outbox. It is delivered by the worker once
// tx commits.
func (s *OrderStore) Enqueue(ctx context.Context, tx pgx.Tx, kind string, payload any) error {
	data, err := json.Marshal(payload)
	if err != nil {
		return err
	}
	_, err = tx.Exec(ctx, `INSERT INTO outbox (kind, payload) VALUES ($1, $2)`, kind, data)
	return err
}
