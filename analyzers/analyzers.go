// Package analyzers is idemlint's one registry: the binary, the
// golangci-lint plugin, the documentation generator and the gopls build all
// take their analyzers from here.
package analyzers

//go:generate go run ./internal/docgen/cmd -out ../docs/analyzers

import (
	"golang.org/x/tools/go/analysis"

	"github.com/idemlint/idemlint/analyzers/ignoredirective"
	"github.com/idemlint/idemlint/analyzers/internal/docgen"
)

// All returns every idemlint analyzer, in documentation order.
func All() []*analysis.Analyzer {
	return []*analysis.Analyzer{
		ignoredirective.Analyzer,
	}
}

// optIn names the analyzers that are off unless enabled by name: nolease
// reports a bug only when a service runs more than one replica.
var optIn = map[string]bool{
	"nolease": true,
}

// Default returns the analyzers that run when none is enabled by name: All
// less the opt-in ones.
func Default() []*analysis.Analyzer {
	var out []*analysis.Analyzer
	for _, a := range All() {
		if !optIn[a.Name] {
			out = append(out, a)
		}
	}
	return out
}

// AlwaysOn names the analyzer that stays on whichever analyzers are enabled
// by name, unless it is itself turned off by name.
const AlwaysOn = "ignoredirective"

// Select returns the analyzers to run given the ones enabled and disabled by
// name, with the semantics of the binary's -NAME flags and the plugin's
// enable and disable settings: when any is enabled, exactly those run;
// otherwise the Default set less the disabled ones runs. AlwaysOn is added
// unless disabled. Unknown names are the caller's to reject (see Lookup).
func Select(enabled, disabled []string) []*analysis.Analyzer {
	on := map[string]bool{}
	for _, name := range enabled {
		on[name] = true
	}
	off := map[string]bool{}
	for _, name := range disabled {
		off[name] = true
	}
	var out []*analysis.Analyzer
	for _, a := range All() {
		var run bool
		switch {
		case len(enabled) > 0:
			run = on[a.Name]
		default:
			run = !optIn[a.Name] && !off[a.Name]
		}
		if a.Name == AlwaysOn && !off[a.Name] {
			run = true
		}
		if run {
			out = append(out, a)
		}
	}
	return out
}

// Lookup returns the analyzer named name, or nil.
func Lookup(name string) *analysis.Analyzer {
	for _, a := range All() {
		if a.Name == name {
			return a
		}
	}
	return nil
}

// Markdown returns the documentation page of a: the text of
// docs/analyzers/NAME.md and of `idemlint help NAME`.
func Markdown(a *analysis.Analyzer) []byte { return docgen.Markdown(a) }
