// Package payments is a client for the payment provider's REST API.
package payments

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"
)

// Client calls the payment provider. Requests that fail with a network
// error or a 5xx/429 response are retried up to maxAttempts times.
type Client struct {
	baseURL     string
	apiKey      string
	http        *http.Client
	maxAttempts int
}

// New returns a Client for the API at baseURL.
func New(baseURL, apiKey string, hc *http.Client) *Client {
	return &Client{baseURL: baseURL, apiKey: apiKey, http: hc, maxAttempts: 3}
}

// ChargeRequest describes a card charge.
type ChargeRequest struct {
	AmountCents   int64  `json:"amount"`
	Currency      string `json:"currency"`
	PaymentMethod string `json:"payment_method"`
	Description   string `json:"description,omitempty"`
}

// Charge is a charge as the provider returns it.
type Charge struct {
	ID     string `json:"id"`
	Status string `json:"status"`
}

// PayoutRequest describes a transfer to a connected account.
type PayoutRequest struct {
	Destination string `json:"destination"`
	AmountCents int64  `json:"amount"`
	Currency    string `json:"currency"`
	Description string `json:"description,omitempty"`
}

// Payout is a payout as the provider returns it.
type Payout struct {
	ID     string `json:"id"`
	Status string `json:"status"`
}

// Refund is a refund as the provider returns it.
type Refund struct {
	ID     string `json:"id"`
	Status string `json:"status"`
}

// APIError is an error response of the provider.
type APIError struct {
	StatusCode int
	Code       string `json:"code"`
	Message    string `json:"message"`
}

func (e *APIError) Error() string {
	return fmt.Sprintf("payments: %d %s: %s", e.StatusCode, e.Code, e.Message)
}

// Charge charges a payment method. key names the business operation: the
// provider answers a repeated key with the charge it already made.
func (c *Client) Charge(ctx context.Context, key string, cr ChargeRequest) (*Charge, error) {
	body, err := json.Marshal(cr)
	if err != nil {
		return nil, err
	}
	var lastErr error
	for attempt := 1; attempt <= c.maxAttempts; attempt++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.baseURL+"/v1/charges", bytes.NewReader(body))
		if err != nil {
			return nil, err
		}
		c.setHeaders(req)
		req.Header.Set("Idempotency-Key", key)
		resp, err := c.http.Do(req)
		if err == nil {
			var ch Charge
			if err = decode(resp, http.StatusCreated, &ch); err == nil {
				return &ch, nil
			}
			if !temporary(err) {
				return nil, err
			}
		}
		lastErr = err
		if err := pause(ctx, attempt); err != nil {
			return nil, err
		}
	}
	return nil, fmt.Errorf("payments: charge failed after %d attempts: %w", c.maxAttempts, lastErr)
}

// CreatePayout sends money to a connected account.
func (c *Client) CreatePayout(ctx context.Context, pr PayoutRequest) (*Payout, error) {
	body, err := json.Marshal(pr)
	if err != nil {
		return nil, err
	}
	var lastErr error
	for attempt := 1; attempt <= c.maxAttempts; attempt++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.baseURL+"/v1/payouts", bytes.NewReader(body))
		if err != nil {
			return nil, err
		}
		c.setHeaders(req)
		resp, err := c.http.Do(req)
		if err == nil {
			var p Payout
			if err = decode(resp, http.StatusCreated, &p); err == nil {
				return &p, nil
			}
			if !temporary(err) {
				return nil, err
			}
		}
		lastErr = err
		if err := pause(ctx, attempt); err != nil {
			return nil, err
		}
	}
	return nil, fmt.Errorf("payments: payout failed after %d attempts: %w", c.maxAttempts, lastErr)
}

// Refund refunds amountCents of a charge. key names the business operation.
func (c *Client) Refund(ctx context.Context, key, chargeID string, amountCents int64) (*Refund, error) {
	body, err := json.Marshal(map[string]any{"charge": chargeID, "amount": amountCents})
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.baseURL+"/v1/refunds", bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	c.setHeaders(req)
	req.Header.Set("Idempotency-Key", key)
	resp, err := c.http.Do(req)
	if err != nil {
		return nil, err
	}
	var r Refund
	if err := decode(resp, http.StatusCreated, &r); err != nil {
		return nil, err
	}
	return &r, nil
}

func (c *Client) setHeaders(req *http.Request) {
	req.Header.Set("Authorization", "Bearer "+c.apiKey)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
}

// decode reads a response into out when its status is want (201 for the
// provider's creates), or into an *APIError. It closes the body.
func decode(resp *http.Response, want int, out any) error {
	defer resp.Body.Close()
	if resp.StatusCode != want {
		apiErr := &APIError{StatusCode: resp.StatusCode}
		data, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
		_ = json.Unmarshal(data, apiErr)
		return apiErr
	}
	return json.NewDecoder(resp.Body).Decode(out)
}

// temporary reports whether a request that failed with err may succeed
// when sent again.
func temporary(err error) bool {
	var apiErr *APIError
	if errors.As(err, &apiErr) {
		return apiErr.StatusCode == http.StatusTooManyRequests || apiErr.StatusCode >= 500
	}
	return false
}

// pause waits before the next attempt: 200ms, 400ms, 800ms, ...
func pause(ctx context.Context, attempt int) error {
	t := time.NewTimer(100 * time.Millisecond << attempt)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
