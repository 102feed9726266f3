package store

import (
	"context"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// DocumentStore holds the document operations that are not plain sqlc
// queries: status changes, which also append to the document's history.
type DocumentStore struct {
	pool *pgxpool.Pool
}

// NewDocumentStore returns a DocumentStore on pool.
func NewDocumentStore(pool *pgxpool.Pool) *DocumentStore {
	return &DocumentStore{pool: pool}
}

// Archive hides a document from its workspace. version is the version the
// caller last read.
func (s *DocumentStore) Archive(ctx context.Context, id int64, version int32) error {
	return pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		_, err := tx.Exec(ctx, `
			UPDATE documents
			SET status = 'archived', version = version + 1, updated_at = now()
			WHERE id = $1 AND version = $2`, id, version)
		if err != nil {
			return err
		}
		return addDocumentEvent(ctx, tx, id, "archived")
	})
}

// Restore brings an archived document back as a draft. version is the
// version the caller last read.
func (s *DocumentStore) Restore(ctx context.Context, id int64, version int32) error {
	return pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `
			UPDATE documents
			SET status = 'draft', version = version + 1, updated_at = now()
			WHERE id = $1 AND version = $2 AND status = 'archived'`, id, version)
		if err != nil {
			return err
		}
		if tag.RowsAffected() == 0 {
			return ErrConflict
		}
		return addDocumentEvent(ctx, tx, id, "restored")
	})
}

func addDocumentEvent(ctx context.Context, tx pgx.Tx, documentID int64, kind string) error {
	_, err := tx.Exec(ctx, `INSERT INTO document_events (document_id, kind) VALUES ($1, $2)`, documentID, kind)
	return err
}
