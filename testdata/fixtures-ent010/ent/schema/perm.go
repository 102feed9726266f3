package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// Perm is a user's permission on a repository: edges to both with fields
// of their own (user_id, repo_id) and an index on them that is not
// unique.
type Perm struct{ ent.Schema }

// Fields of the Perm.
func (Perm) Fields() []ent.Field {
	return []ent.Field{
		field.String("role").Default("read"),
		field.Int64("user_id"),
		field.Int64("repo_id"),
	}
}

// Edges of the Perm.
func (Perm) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("user", User.Type).Ref("perms").Field("user_id").Unique().Required(),
		edge.From("repo", Repo.Type).Ref("perms").Field("repo_id").Unique().Required(),
	}
}

// Indexes of the Perm.
func (Perm) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("repo_id", "user_id"),
	}
}
