package ops

import (
	"go/types"
	"testing"

	"golang.org/x/tools/go/analysis"
)

// TestImportsFirst: a consumer comes after every consumer it imports,
// directly or through packages that are no consumers; otherwise the
// given order stands.
func TestImportsFirst(t *testing.T) {
	pkg := func(path string, imports ...*types.Package) *types.Package {
		p := types.NewPackage(path, path)
		p.SetImports(imports)
		return p
	}
	// store <- service (through model) <- api; util stands alone.
	store := pkg("store")
	model := pkg("model", store)
	service := pkg("service", model)
	api := pkg("api", service)
	util := pkg("util")
	var consumers []analysis.PackageFact
	for _, p := range []*types.Package{api, util, service, store} {
		consumers = append(consumers, analysis.PackageFact{Package: p})
	}
	var got []string
	for _, c := range importsFirst(consumers) {
		got = append(got, c.Package.Path())
	}
	want := []string{"util", "store", "service", "api"}
	if len(got) != len(want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("got %v, want %v", got, want)
		}
	}
}
