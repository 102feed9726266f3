// Package billing takes payments for orders and pays out rewards.
package billing

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5/pgxpool"

	"example.com/demo/internal/payments"
	"example.com/demo/internal/store"
)

var (
	// ErrNotPayable is returned for an order that is not awaiting payment.
	ErrNotPayable = errors.New("billing: order is not awaiting payment")
	// ErrNotRefundable is returned for an order that was not paid.
	ErrNotRefundable = errors.New("billing: order cannot be refunded")
)

const (
	referralBonusCents = 1000
	cashbackPercent    = 2
)

// Outbox event kinds.
const (
	EventOrderPaid       = "order.paid"
	EventRefundRequested = "refund.requested"
)

// OrderPaidEvent is the payload of EventOrderPaid.
type OrderPaidEvent struct {
	OrderID     int64  `json:"order_id"`
	UserID      int64  `json:"user_id"`
	Email       string `json:"email"`
	AmountCents int64  `json:"amount_cents"`
	Currency    string `json:"currency"`
}

// RefundRequestedEvent is the payload of EventRefundRequested.
type RefundRequestedEvent struct {
	OrderID     int64  `json:"order_id"`
	ChargeID    string `json:"charge_id"`
	AmountCents int64  `json:"amount_cents"`
	Reason      string `json:"reason"`
}

// Service takes payments for orders and pays out rewards.
type Service struct {
	pool     *pgxpool.Pool
	orders   *store.OrderStore
	rewards  *store.RewardStore
	payments *payments.Client
}

// NewService returns a Service.
func NewService(pool *pgxpool.Pool, orders *store.OrderStore, rewards *store.RewardStore, pc *payments.Client) *Service {
	return &Service{pool: pool, orders: orders, rewards: rewards, payments: pc}
}

// PayOrder charges paymentMethod for a pending order and marks the order
// paid.
func (s *Service) PayOrder(ctx context.Context, orderID int64, paymentMethod string) (store.Order, error) {
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return store.Order{}, err
	}
	defer tx.Rollback(ctx)

	order, err := s.orders.LockOrder(ctx, tx, orderID)
	if err != nil {
		return store.Order{}, err
	}
	if order.Status != store.OrderPending {
		return order, ErrNotPayable
	}

	charge, err := s.payments.Charge(ctx, fmt.Sprintf("order-%d", order.ID), payments.ChargeRequest{
		AmountCents:   order.AmountCents,
		Currency:      order.Currency,
		PaymentMethod: paymentMethod,
		Description:   fmt.Sprintf("Order #%d", order.ID),
	})
	if err != nil {
		return order, fmt.Errorf("charge order %d: %w", order.ID, err)
	}

	if err := s.orders.MarkPaid(ctx, tx, order.ID, charge.ID); err != nil {
		return order, err
	}
	err = s.orders.Enqueue(ctx, tx, EventOrderPaid, OrderPaidEvent{
		OrderID:     order.ID,
		UserID:      order.UserID,
		Email:       order.Email,
		AmountCents: order.AmountCents,
		Currency:    order.Currency,
	})
	if err != nil {
		return order, err
	}
	if err := tx.Commit(ctx); err != nil {
		return order, err
	}
	order.Status = store.OrderPaid
	order.ChargeID = &charge.ID
	return order, nil
}

// RequestRefund marks a paid order for refund. The worker issues the refund
// once the outbox event is committed.
func (s *Service) RequestRefund(ctx context.Context, orderID int64, reason string) error {
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(ctx)

	order, err := s.orders.LockOrder(ctx, tx, orderID)
	if err != nil {
		return err
	}
	if order.Status != store.OrderPaid || order.ChargeID == nil {
		return ErrNotRefundable
	}

	if err := s.orders.SetStatus(ctx, tx, order.ID, store.OrderRefundRequested); err != nil {
		return err
	}
	err = s.orders.Enqueue(ctx, tx, EventRefundRequested, RefundRequestedEvent{
		OrderID:     order.ID,
		ChargeID:    *order.ChargeID,
		AmountCents: order.AmountCents,
		Reason:      reason,
	})
	if err != nil {
		return err
	}
	return tx.Commit(ctx)
}

// GrantReferralBonus pays the bonus to whoever referred userID. Paying it
// again for the same user returns the reward already paid.
func (s *Service) GrantReferralBonus(ctx context.Context, userID int64) (*store.ReferralReward, error) {
	paid, err := s.rewards.ReferralReward(ctx, userID)
	if err != nil {
		return nil, err
	}
	if paid != nil {
		return paid, nil
	}

	referrerID, account, err := s.rewards.Referrer(ctx, userID)
	if err != nil {
		return nil, err
	}
	payout, err := s.payments.CreatePayout(ctx, payments.PayoutRequest{
		Destination: account,
		AmountCents: referralBonusCents,
		Currency:    "usd",
		Description: fmt.Sprintf("Referral bonus for user %d", userID),
	})
	if err != nil {
		return nil, fmt.Errorf("pay referral bonus: %w", err)
	}

	if err := s.rewards.AddReferralReward(ctx, userID, referrerID, payout.ID); err != nil {
		return nil, err
	}
	return &store.ReferralReward{RefereeID: userID, ReferrerID: referrerID, PayoutID: payout.ID}, nil
}

// PayCashback pays the customer of a paid order their cashback, once per
// order.
func (s *Service) PayCashback(ctx context.Context, orderID int64) error {
	amount, account, err := s.rewards.CashbackBase(ctx, orderID)
	if err != nil {
		return err
	}
	cashback := amount * cashbackPercent / 100

	claimed, err := s.rewards.ClaimCashback(ctx, orderID, cashback)
	if err != nil {
		return err
	}
	if !claimed {
		return nil
	}

	payout, err := s.payments.CreatePayout(ctx, payments.PayoutRequest{
		Destination: account,
		AmountCents: cashback,
		Currency:    "usd",
		Description: fmt.Sprintf("Cashback for order #%d", orderID),
	})
	if err != nil {
		if rerr := s.rewards.ReleaseCashback(ctx, orderID); rerr != nil {
			return errors.Join(err, rerr)
		}
		return fmt.Errorf("pay cashback: %w", err)
	}
	return s.rewards.CompleteCashback(ctx, orderID, payout.ID)
}
