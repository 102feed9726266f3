package checkinsert

import (
	"context"

	"example.com/fixturesent010/ent"
	"example.com/fixturesent010/ent/perm"
	"example.com/fixturesent010/ent/repo"
	"example.com/fixturesent010/ent/user"
	"example.com/fixturesent010/store"
)

// Perms syncs users' permissions on repositories: the perm is keyed by its
// edges to the user and the repository (user_id, repo_id, fields of the
// edges), whose index is not unique.
type Perms struct {
	client *ent.Client
	store  *store.Store
}

// Grant gives the user a permission on the repository unless it has one.
func (p *Perms) Grant(ctx context.Context, uid, rid int64, role string) error {
	_, err := p.client.Perm.Query().
		Where(perm.HasUserWith(user.IDEQ(uid)), perm.HasRepoWith(repo.IDEQ(rid))).
		Only(ctx)
	if !ent.IsNotFound(err) {
		return err
	}
	return p.client.Perm.Create().SetRole(role).SetUserID(uid).SetRepoID(rid).Exec(ctx) // want `insert into perms after the ent Only of perms found no row with that user_id, repo_id \(the ent create of perms\): two concurrent callers both find nothing and both insert; perms has no unique key on \(user_id, repo_id\), so both rows are stored`
}

// Sync is Grant through the store, whose finder wraps ent's NotFoundError.
func (p *Perms) Sync(ctx context.Context, r *ent.Repo, u *ent.User, role string) error {
	_, err := p.store.FindPermOfRepo(ctx, r, u)
	if ent.IsNotFound(err) {
		_, err = p.store.CreatePerm(ctx, &ent.Perm{Role: role, UserID: u.ID, RepoID: r.ID}) // want `insert into perms after the ent Only of perms in store.\(\*Store\).FindPermOfRepo found no row with that user_id, repo_id`
	}
	return err
}

// Lookalikes.

// Share gives a guest the role the user has on the repository: the
// create runs when the lookup found the user's row. Silent.
func (p *Perms) Share(ctx context.Context, uid, guest, rid int64) error {
	pm, err := p.client.Perm.Query().
		Where(perm.HasUserWith(user.IDEQ(uid)), perm.HasRepoWith(repo.IDEQ(rid))).
		Only(ctx)
	if err != nil {
		return err
	}
	return p.client.Perm.Create().SetRole(pm.Role).SetUserID(guest).SetRepoID(rid).Exec(ctx)
}

// Any looks for any permission of any user: HasUser() pins no key.
// Silent.
func (p *Perms) Any(ctx context.Context, uid, rid int64) error {
	ok, err := p.client.Perm.Query().Where(perm.HasUser()).Exist(ctx)
	if err != nil || ok {
		return err
	}
	return p.client.Perm.Create().SetUserID(uid).SetRepoID(rid).Exec(ctx)
}
