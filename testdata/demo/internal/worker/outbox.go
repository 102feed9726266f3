// Package worker delivers the events the service writes to its outbox.
package worker

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"example.com/demo/internal/billing"
	"example.com/demo/internal/payments"
	"example.com/demo/internal/retry"
)

const batchSize = 20

// Config holds the endpoints the worker delivers to.
type Config struct {
	FulfillmentURL string        // shipping service
	MailURL        string        // transactional e-mail API
	PollInterval   time.Duration // how often the outbox is read
}

// Worker polls the outbox table and delivers its events.
type Worker struct {
	pool     *pgxpool.Pool
	payments *payments.Client
	http     *http.Client
	cfg      Config
	log      *slog.Logger
}

// New returns a Worker.
func New(pool *pgxpool.Pool, pc *payments.Client, hc *http.Client, cfg Config, log *slog.Logger) *Worker {
	return &Worker{pool: pool, payments: pc, http: hc, cfg: cfg, log: log}
}

// Run delivers events until ctx is cancelled.
func (w *Worker) Run(ctx context.Context) {
	ticker := time.NewTicker(w.cfg.PollInterval)
	defer ticker.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-ticker.C:
			if err := w.processBatch(ctx); err != nil {
				w.log.Error("outbox batch failed", "err", err)
			}
		}
	}
}

type event struct {
	ID      int64
	Kind    string
	Payload []byte
}

// processBatch leases a batch of pending events and delivers them. An event
// whose delivery fails is picked up again once its lease runs out.
func (w *Worker) processBatch(ctx context.Context) error {
	rows, err := w.pool.Query(ctx, `
		UPDATE outbox
		SET locked_until = now() + interval '2 minutes', attempts = attempts + 1
		WHERE id IN (
			SELECT id FROM outbox
			WHERE processed_at IS NULL AND locked_until < now()
			ORDER BY id
			LIMIT $1
			FOR UPDATE SKIP LOCKED)
		RETURNING id, kind, payload`, batchSize)
	if err != nil {
		return err
	}
	events, err := pgx.CollectRows(rows, pgx.RowToStructByPos[event])
	if err != nil {
		return err
	}
	for _, ev := range events {
		if err := w.deliver(ctx, ev); err != nil {
			w.log.Warn("outbox event not delivered", "id", ev.ID, "kind", ev.Kind, "err", err)
			continue
		}
		if _, err := w.pool.Exec(ctx, `UPDATE outbox SET processed_at = now() WHERE id = $1`, ev.ID); err != nil {
			return err
		}
	}
	return nil
}

func (w *Worker) deliver(ctx context.Context, ev event) error {
	switch ev.Kind {
	case billing.EventOrderPaid:
		var p billing.OrderPaidEvent
		if err := json.Unmarshal(ev.Payload, &p); err != nil {
			return err
		}
		if err := w.requestShipment(ctx, p); err != nil {
			return err
		}
		return w.sendReceipt(ctx, p)
	case billing.EventRefundRequested:
		var p billing.RefundRequestedEvent
		if err := json.Unmarshal(ev.Payload, &p); err != nil {
			return err
		}
		_, err := w.payments.Refund(ctx, fmt.Sprintf("refund-%d", p.OrderID), p.ChargeID, p.AmountCents)
		return err
	default:
		w.log.Warn("unknown outbox event", "id", ev.ID, "kind", ev.Kind)
		return nil
	}
}

// requestShipment asks the fulfillment service to ship a paid order.
func (w *Worker) requestShipment(ctx context.Context, p billing.OrderPaidEvent) error {
	body, err := json.Marshal(map[string]any{"order_id": p.OrderID, "customer_id": p.UserID})
	if err != nil {
		return err
	}
	return retry.Do(ctx, 5, func(ctx context.Context) error {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, w.cfg.FulfillmentURL+"/v1/shipments", bytes.NewReader(body))
		if err != nil {
			return retry.Permanent(err)
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Idempotency-Key", uuid.NewString())
		resp, err := w.http.Do(req)
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		return checkStatus(resp)
	})
}

// sendReceipt e-mails the customer a receipt for a paid order.
func (w *Worker) sendReceipt(ctx context.Context, p billing.OrderPaidEvent) error {
	body, err := json.Marshal(map[string]any{
		"to":       p.Email,
		"template": "receipt",
		"data":     map[string]any{"order_id": p.OrderID, "amount": p.AmountCents, "currency": p.Currency},
	})
	if err != nil {
		return err
	}
	key := uuid.NewString()
	return retry.Do(ctx, 5, func(ctx context.Context) error {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, w.cfg.MailURL+"/v1/messages", bytes.NewReader(body))
		if err != nil {
			return retry.Permanent(err)
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Idempotency-Key", key)
		resp, err := w.http.Do(req)
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		return checkStatus(resp)
	})
}

// checkStatus turns a non-2xx response into an error; client errors other
// than 429 are not retried.
func checkStatus(resp *http.Response) error {
	if resp.StatusCode < 300 {
		return nil
	}
	err := fmt.Errorf("%s %s: %s", resp.Request.Method, resp.Request.URL, resp.Status)
	if resp.StatusCode < 500 && resp.StatusCode != http.StatusTooManyRequests {
		return retry.Permanent(err)
	}
	return err
}
