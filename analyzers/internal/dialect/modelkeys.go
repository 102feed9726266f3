package dialect

import "github.com/idemlint/idemlint/analyzers/internal/schema"

// modelKeys collects a model's unique keys as tag-named libraries declare
// them: primary-key columns, columns unique alone, and named groups of
// columns unique together (bun's and go-pg's unique:name, xorm's
// unique(name)).
type modelKeys struct {
	pk, alone []string
	names     []string            // groups, in the order first met
	groups    map[string][]string // group name -> its columns
}

// group adds col to the unique group name.
func (k *modelKeys) group(name, col string) {
	if k.groups == nil {
		k.groups = map[string][]string{}
	}
	if _, seen := k.groups[name]; !seen {
		k.names = append(k.names, name)
	}
	k.groups[name] = append(k.groups[name], col)
}

// keys returns the keys (the schema layer sets their Source: the model).
func (k *modelKeys) keys() []schema.Key {
	var out []schema.Key
	if len(k.pk) > 0 {
		out = append(out, schema.Key{Columns: k.pk, Parts: k.pk, Primary: true})
	}
	for _, col := range k.alone {
		out = append(out, schema.Key{Columns: []string{col}, Parts: []string{col}})
	}
	for _, name := range k.names {
		cols := k.groups[name]
		out = append(out, schema.Key{Name: name, Columns: cols, Parts: cols})
	}
	return out
}
