//go:build ignore

// entc.go runs ent v0.10.1's code generator with the sql/upsert and
// sql/lock features (see generate.go for how).
package main

import (
	"log"

	"entgo.io/ent/entc"
	"entgo.io/ent/entc/gen"
)

func main() {
	err := entc.Generate("./schema", &gen.Config{
		Features: []gen.Feature{gen.FeatureUpsert, gen.FeatureLock},
	})
	if err != nil {
		log.Fatal(err)
	}
}
