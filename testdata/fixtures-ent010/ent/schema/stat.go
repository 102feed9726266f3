package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// Stat counts a repository's deployments to one environment: unique on
// (repo_id, env).
type Stat struct{ ent.Schema }

// Fields of the Stat.
func (Stat) Fields() []ent.Field {
	return []ent.Field{
		field.String("env"),
		field.Int("count").Default(0),
		field.Int("additions").Default(0),
		field.Int64("repo_id"),
	}
}

// Edges of the Stat.
func (Stat) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("repo", Repo.Type).Ref("stats").Field("repo_id").Unique().Required(),
	}
}

// Indexes of the Stat.
func (Stat) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("repo_id", "env").Unique(),
	}
}
