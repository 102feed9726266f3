// Package schema is the ent schema of the ent v0.10 fixture: repositories,
// users, the users' permissions on repositories (edges to both, an index
// that is not unique) and per-environment statistics of a repository (a
// unique index on the repository's edge column and the environment).
package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
)

// Repo is a repository, keyed by the id of the remote it mirrors.
type Repo struct{ ent.Schema }

// Fields of the Repo.
func (Repo) Fields() []ent.Field {
	return []ent.Field{
		field.Int64("id"),
		field.String("name"),
	}
}

// Edges of the Repo.
func (Repo) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("perms", Perm.Type),
		edge.To("stats", Stat.Type),
	}
}
