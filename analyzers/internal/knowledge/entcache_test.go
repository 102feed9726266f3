package knowledge

import (
	"fmt"
	"go/types"
	"testing"
)

// TestRecentPackagesBound: the EntPkg cache keeps the packages put last,
// at most max of them, so a long-lived process does not hold every
// version of a package it type-checked again.
func TestRecentPackagesBound(t *testing.T) {
	r := &recentPackages{max: 2}
	pkgs := make([]*types.Package, 3)
	for i := range pkgs {
		pkgs[i] = types.NewPackage(fmt.Sprintf("example.com/ent%d", i), "ent")
		r.put(pkgs[i], &EntPkg{Pkg: pkgs[i]})
	}
	if _, ok := r.get(pkgs[0]); ok {
		t.Error("the oldest package is still remembered")
	}
	for _, p := range pkgs[1:] {
		if ep, ok := r.get(p); !ok || ep.Pkg != p {
			t.Errorf("%s: got %v, %v", p.Path(), ep, ok)
		}
	}
	r.put(pkgs[2], &EntPkg{})
	if ep, _ := r.get(pkgs[2]); ep.Pkg != pkgs[2] {
		t.Error("a second put of a remembered package replaced it")
	}
	if len(r.order) != 2 || len(r.m) != 2 {
		t.Errorf("%d ordered, %d in the map; want 2 and 2", len(r.order), len(r.m))
	}
}
