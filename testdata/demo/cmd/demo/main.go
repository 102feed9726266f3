// Command demo runs the demo service: the HTTP API and the outbox worker.
package main

import (
	"context"
	"errors"
	"flag"
	"log/slog"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	_ "github.com/jackc/pgx/v5/stdlib" // database/sql driver "pgx" for sqlx
	"github.com/jmoiron/sqlx"
	"gorm.io/driver/postgres"
	"gorm.io/gorm"

	"example.com/demo/internal/api"
	"example.com/demo/internal/billing"
	"example.com/demo/internal/db"
	"example.com/demo/internal/payments"
	"example.com/demo/internal/store"
	"example.com/demo/internal/worker"
)

type config struct {
	addr           string
	databaseURL    string
	paymentsURL    string
	paymentsKey    string
	fulfillmentURL string
	mailURL        string
	pollInterval   time.Duration
}

func main() {
	var cfg config
	flag.StringVar(&cfg.addr, "addr", ":8080", "listen address")
	flag.StringVar(&cfg.databaseURL, "database-url", os.Getenv("DATABASE_URL"), "PostgreSQL connection string")
	flag.StringVar(&cfg.paymentsURL, "payments-url", "https://api.payments.example.com", "payment provider API")
	flag.StringVar(&cfg.fulfillmentURL, "fulfillment-url", "http://fulfillment.internal", "fulfillment service")
	flag.StringVar(&cfg.mailURL, "mail-url", "https://api.mail.example.com", "transactional e-mail API")
	flag.DurationVar(&cfg.pollInterval, "poll-interval", 2*time.Second, "outbox poll interval")
	flag.Parse()
	cfg.paymentsKey = os.Getenv("PAYMENTS_API_KEY")

	log := slog.New(slog.NewJSONHandler(os.Stderr, nil))
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	if err := run(ctx, cfg, log); err != nil {
		log.Error("demo stopped", "err", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, cfg config, log *slog.Logger) error {
	pool, err := pgxpool.New(ctx, cfg.databaseURL)
	if err != nil {
		return err
	}
	defer pool.Close()

	sqlxDB, err := sqlx.Open("pgx", cfg.databaseURL)
	if err != nil {
		return err
	}
	defer sqlxDB.Close()

	gormDB, err := gorm.Open(postgres.Open(cfg.databaseURL), &gorm.Config{TranslateError: true})
	if err != nil {
		return err
	}

	httpClient := &http.Client{Timeout: 10 * time.Second}
	pay := payments.New(cfg.paymentsURL, cfg.paymentsKey, httpClient)
	orders := store.NewOrderStore(pool)

	srv := api.New(api.Deps{
		Users:      store.NewUserStore(sqlxDB),
		Articles:   store.NewArticleStore(gormDB),
		Workspaces: store.NewWorkspaceStore(gormDB),
		Documents:  store.NewDocumentStore(pool),
		Orders:     orders,
		Queries:    db.New(pool),
		Billing:    billing.NewService(pool, orders, store.NewRewardStore(pool), pay),
		Log:        log,
	})

	w := worker.New(pool, pay, httpClient, worker.Config{
		FulfillmentURL: cfg.fulfillmentURL,
		MailURL:        cfg.mailURL,
		PollInterval:   cfg.pollInterval,
	}, log)
	go w.Run(ctx)

	httpServer := &http.Server{
		Addr:              cfg.addr,
		Handler:           srv.Handler(),
		ReadHeaderTimeout: 5 * time.Second,
	}
	go func() {
		<-ctx.Done()
		shutdownCtx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_ = httpServer.Shutdown(shutdownCtx)
	}()

	log.Info("listening", "addr", cfg.addr)
	if err := httpServer.ListenAndServe(); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
