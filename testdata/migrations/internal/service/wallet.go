// Package service holds the wallet use cases; it declares the repository
// it needs.
package service

import (
	"context"
	"errors"
)

// Wallets is what the service needs of the wallet repository.
type Wallets interface {
	UpdateBalance(ctx context.Context, userID, balance int64) error
	MarkPayoutSent(ctx context.Context, id int64) error
}

// Service runs the wallet use cases.
type Service struct {
	wallets Wallets
}

// New returns a Service on wallets.
func New(wallets Wallets) *Service { return &Service{wallets: wallets} }

// ErrInvalidAmount is returned for a non-positive amount.
var ErrInvalidAmount = errors.New("service: invalid amount")

// SetBalance stores a balance the handler computed.
func (s *Service) SetBalance(ctx context.Context, userID, balance int64) error {
	if balance < 0 {
		return ErrInvalidAmount
	}
	return s.wallets.UpdateBalance(ctx, userID, balance)
}

// SendPayout marks a payout as sent.
func (s *Service) SendPayout(ctx context.Context, id int64) error {
	return s.wallets.MarkPayoutSent(ctx, id)
}
