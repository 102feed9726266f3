package store

import (
	"context"
	"errors"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// ReferralReward is the bonus paid to a user who referred a new customer.
type ReferralReward struct {
	RefereeID  int64  `json:"referee_id"`
	ReferrerID int64  `json:"referrer_id"`
	PayoutID   string `json:"payout_id"`
}

// RewardStore keeps referral rewards and order cashbacks.
type RewardStore struct {
	pool *pgxpool.Pool
}

// NewRewardStore returns a RewardStore on pool.
func NewRewardStore(pool *pgxpool.Pool) *RewardStore {
	return &RewardStore{pool: pool}
}

// ReferralReward returns the reward paid for referring refereeID, or nil if
// none was paid.
func (s *RewardStore) ReferralReward(ctx context.Context, refereeID int64) (*ReferralReward, error) {
	var r ReferralReward
	err := s.pool.QueryRow(ctx, `
		SELECT referee_id, referrer_id, payout_id
		FROM referral_rewards WHERE referee_id = $1`, refereeID).
		Scan(&r.RefereeID, &r.ReferrerID, &r.PayoutID)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return &r, nil
}

// Referrer returns the user who referred userID and the account their
// rewards are paid to.
func (s *RewardStore) Referrer(ctx context.Context, userID int64) (referrerID int64, account string, err error) {
	err = s.pool.QueryRow(ctx, `
		SELECT r.id, r.payout_account
		FROM users u JOIN users r ON r.id = u.referred_by
		WHERE u.id = $1 AND r.payout_account IS NOT NULL`, userID).
		Scan(&referrerID, &account)
	if errors.Is(err, pgx.ErrNoRows) {
		return 0, "", ErrNotFound
	}
	return referrerID, account, err
}

// AddReferralReward records the payout made for referring refereeID.
func (s *RewardStore) AddReferralReward(ctx context.Context, refereeID, referrerID int64, payoutID string) error {
	_, err := s.pool.Exec(ctx, `
		INSERT INTO referral_rewards (referee_id, referrer_id, payout_id)
		VALUES ($1, $2, $3)`, refereeID, referrerID, payoutID)
	return err
}

// CashbackBase returns the amount of a paid order and the account of the
// customer who paid it.
func (s *RewardStore) CashbackBase(ctx context.Context, orderID int64) (amountCents int64, account string, err error) {
	err = s.pool.QueryRow(ctx, `
		SELECT o.amount_cents, u.payout_account
		FROM orders o JOIN users u ON u.id = o.user_id
		WHERE o.id = $1 AND o.status = 'paid' AND u.payout_account IS NOT NULL`, orderID).
		Scan(&amountCents, &account)
	if errors.Is(err, pgx.ErrNoRows) {
		return 0, "", ErrNotFound
	}
	return amountCents, account, err
}

// ClaimCashback reserves the cashback of an order. It reports false when
// the cashback was already claimed.
func (s *RewardStore) ClaimCashback(ctx context.Context, orderID, amountCents int64) (bool, error) {
	tag, err := s.pool.Exec(ctx, `
		INSERT INTO cashbacks (order_id, amount_cents) VALUES ($1, $2)
		ON CONFLICT (order_id) DO NOTHING`, orderID, amountCents)
	if err != nil {
		return false, err
	}
	return tag.RowsAffected() == 1, nil
}

// ReleaseCashback drops a claim whose payout failed so that it can be
// claimed again.
func (s *RewardStore) ReleaseCashback(ctx context.Context, orderID int64) error {
	_, err := s.pool.Exec(ctx, `DELETE FROM cashbacks WHERE order_id = $1 AND payout_id IS NULL`, orderID)
	return err
}

// CompleteCashback records the payout of a claimed cashback.
func (s *RewardStore) CompleteCashback(ctx context.Context, orderID int64, payoutID string) error {
	_, err := s.pool.Exec(ctx, `UPDATE cashbacks SET payout_id = $2 WHERE order_id = $1`, orderID, payoutID)
	return err
}
