package main

import (
	"fmt"
	"reflect"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/buildssa"
	"golang.org/x/tools/go/analysis/suite/vet"

	"github.com/idemlint/idemlint/analyzers"
)

// A config is one set of analyzers run over a workload in a fresh process.
type config struct {
	name string // short key used on the command line and in the tables
	desc string
	set  func() []*analysis.Analyzer
}

// configs lists every configuration the harness knows, in table order.
var configs = []config{
	{"a", "idemlint suite: analyzers.All()", analyzers.All},
	{"b0", "no-op analyzer, no fact type", func() []*analysis.Analyzer { return []*analysis.Analyzer{noop} }},
	{"b", "no-op analyzer declaring a fact type", func() []*analysis.Analyzer { return []*analysis.Analyzer{noopFacts} }},
	{"c", "(b) + a no-fact analyzer requiring buildssa", func() []*analysis.Analyzer { return []*analysis.Analyzer{noopFacts, ssaUser} }},
	{"d", "go vet's suite (suite/vet.Suite)", func() []*analysis.Analyzer { return vet.Suite }},
	{"A", "shape A: fact analyzer building its own SSA where needed + no-fact result analyzer requiring buildssa", func() []*analysis.Analyzer { return []*analysis.Analyzer{factsA, resultA} }},
	{"A2", "shape A2: as A, but the result analyzer reuses the fact analyzer's SSA instead of requiring buildssa", func() []*analysis.Analyzer { return []*analysis.Analyzer{factsA2, resultA2} }},
	{"B", "shape B: one fact analyzer requiring buildssa", func() []*analysis.Analyzer { return []*analysis.Analyzer{factsB} }},
}

func lookupConfig(name string) (config, error) {
	for _, c := range configs {
		if c.name == name {
			return c, nil
		}
	}
	var names []string
	for _, c := range configs {
		names = append(names, c.name)
	}
	return config{}, fmt.Errorf("unknown configuration %q (known: %s)", name, strings.Join(names, ", "))
}

// noopFact is the fact type whose mere declaration makes every driver load
// the whole program from source and run the analyzer on every dependency.
type noopFact struct{}

func (*noopFact) AFact()         {}
func (*noopFact) String() string { return "noop" }

func runNothing(*analysis.Pass) (any, error) { return nil, nil }

var noop = &analysis.Analyzer{
	Name: "noop",
	Doc:  "does nothing; declares no fact type",
	Run:  runNothing,
}

var noopFacts = &analysis.Analyzer{
	Name:      "noopfacts",
	Doc:       "does nothing; declares a fact type",
	Run:       runNothing,
	FactTypes: []analysis.Fact{new(noopFact)},
}

// ssaUser requires buildssa and touches every block of every source
// function, so the SSA is really built and walked (for the analysed
// packages only: it declares no facts).
var ssaUser = &analysis.Analyzer{
	Name:       "ssauser",
	Doc:        "requires buildssa; declares no fact type",
	Requires:   []*analysis.Analyzer{buildssa.Analyzer},
	ResultType: reflect.TypeFor[int](),
	Run: func(pass *analysis.Pass) (any, error) {
		n := 0
		for _, fn := range pass.ResultOf[buildssa.Analyzer].(*buildssa.SSA).SrcFuncs {
			for _, b := range fn.Blocks {
				n += len(b.Instrs)
			}
		}
		return n, nil
	},
}

// needFacts reports whether any analyzer required by the set declares
// facts: the same test as x/tools' go/analysis/internal/checker (the driver
// behind singlechecker and multichecker), which then loads the whole
// program from source instead of using export data for dependencies.
func needFacts(as []*analysis.Analyzer) bool {
	seen := map[*analysis.Analyzer]bool{}
	q := append([]*analysis.Analyzer(nil), as...)
	for len(q) > 0 {
		a := q[0]
		q = q[1:]
		if seen[a] {
			continue
		}
		seen[a] = true
		if len(a.FactTypes) > 0 {
			return true
		}
		q = append(q, a.Requires...)
	}
	return false
}
