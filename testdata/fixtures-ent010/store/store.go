// Package store is the repository layer of the ent v0.10 fixture: finders
// that wrap ent's errors in the service's own (apperr.Error, which
// unwraps, made by its constructor or by a composite literal), creates and
// updates of the model they are given.
package store

import (
	"context"

	"example.com/fixturesent010/apperr"
	"example.com/fixturesent010/ent"
	"example.com/fixturesent010/ent/perm"
	"example.com/fixturesent010/ent/repo"
	"example.com/fixturesent010/ent/stat"
	"example.com/fixturesent010/ent/user"
)

// Store runs the queries on ent's client.
type Store struct{ c *ent.Client }

// New returns a Store over the client.
func New(c *ent.Client) *Store { return &Store{c: c} }

// FindStatOfRepoByEnv returns the statistics of the repository's
// environment.
func (s *Store) FindStatOfRepoByEnv(ctx context.Context, r *ent.Repo, env string) (*ent.Stat, error) {
	return s.c.Stat.Query().
		Where(stat.RepoIDEQ(r.ID), stat.EnvEQ(env)).
		WithRepo().
		Only(ctx)
}

// CreateStat inserts the statistics it is given.
func (s *Store) CreateStat(ctx context.Context, st *ent.Stat) (*ent.Stat, error) {
	return s.c.Stat.Create().
		SetEnv(st.Env).
		SetCount(st.Count).
		SetRepoID(st.RepoID).
		Save(ctx)
}

// UpdateStat writes the counters of the statistics it is given.
func (s *Store) UpdateStat(ctx context.Context, st *ent.Stat) (*ent.Stat, error) {
	return s.c.Stat.UpdateOne(st).
		SetCount(st.Count).
		SetAdditions(st.Additions).
		Save(ctx)
}

// FindPermOfRepo returns the user's permission on the repository, found by
// the edges to both.
func (s *Store) FindPermOfRepo(ctx context.Context, r *ent.Repo, u *ent.User) (*ent.Perm, error) {
	p, err := s.c.Perm.Query().
		Where(perm.And(
			perm.HasUserWith(user.IDEQ(u.ID)),
			perm.HasRepoWith(repo.IDEQ(r.ID)),
		)).
		WithRepo().
		WithUser().
		Only(ctx)
	if ent.IsNotFound(err) {
		return nil, apperr.New("not_found", err)
	} else if err != nil {
		return nil, apperr.New("internal", err)
	}
	return p, nil
}

// CreatePerm inserts the permission it is given.
func (s *Store) CreatePerm(ctx context.Context, p *ent.Perm) (*ent.Perm, error) {
	pm, err := s.c.Perm.Create().
		SetRole(p.Role).
		SetUserID(p.UserID).
		SetRepoID(p.RepoID).
		Save(ctx)
	if err != nil {
		return nil, apperr.New("internal", err)
	}
	return pm, nil
}

// FindRepoByID returns the repository, its miss wrapped by a composite
// literal of the service's error.
func (s *Store) FindRepoByID(ctx context.Context, id int64) (*ent.Repo, error) {
	r, err := s.c.Repo.Get(ctx, id)
	if err != nil {
		return nil, &apperr.Error{Code: "not_found", Message: "no repository", Wrap: err}
	}
	return r, nil
}

// FindRepoOpaque returns the repository, its miss replaced by an error
// that keeps its text only: ent.IsNotFound of it is false.
func (s *Store) FindRepoOpaque(ctx context.Context, id int64) (*ent.Repo, error) {
	r, err := s.c.Repo.Get(ctx, id)
	if err != nil {
		return nil, &apperr.Opaque{Text: err.Error()}
	}
	return r, nil
}

// SyncRepo inserts the repository with the remote's id.
func (s *Store) SyncRepo(ctx context.Context, id int64, name string) (*ent.Repo, error) {
	return s.c.Repo.Create().SetID(id).SetName(name).Save(ctx)
}
