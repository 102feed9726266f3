package checkinsert

import (
	"context"

	"example.com/fixturesent010/ent"
	"example.com/fixturesent010/store"
)

// Repos mirrors remote repositories, keyed by the remote's id.
type Repos struct{ store *store.Store }

// Sync creates the repository the first time it is seen: the finder
// wraps the miss in a composite literal of the service's error, and the
// id is the primary key.
func (r *Repos) Sync(ctx context.Context, id int64, name string) (*ent.Repo, error) {
	repo, err := r.store.FindRepoByID(ctx, id)
	if ent.IsNotFound(err) {
		return r.store.SyncRepo(ctx, id, name) // want `insert into repos after the ent Get of repos in store.\(\*Store\).FindRepoByID found no row with that id .*a unique key on repos \(id\) makes the second caller get an error`
	}
	return repo, err
}

// Lookalikes.

// SyncOpaque tests ent.IsNotFound of an error that does not unwrap to
// ent's: it is never true, the create never runs after the miss. Silent.
func (r *Repos) SyncOpaque(ctx context.Context, id int64, name string) (*ent.Repo, error) {
	repo, err := r.store.FindRepoOpaque(ctx, id)
	if ent.IsNotFound(err) {
		return r.store.SyncRepo(ctx, id, name)
	}
	return repo, err
}
