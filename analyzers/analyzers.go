// Package analyzers is idemlint's one registry: the binary, the
// golangci-lint plugin, the documentation generator and the gopls build all
// take their analyzers from here.
package analyzers

//go:generate go run ./internal/docgen/cmd -out ../docs/analyzers

import (
	"io"

	"golang.org/x/tools/go/analysis"

	"github.com/idemlint/idemlint/analyzers/checkinsert"
	"github.com/idemlint/idemlint/analyzers/ignoredirective"
	"github.com/idemlint/idemlint/analyzers/internal/docgen"
	"github.com/idemlint/idemlint/analyzers/internal/schema"
	"github.com/idemlint/idemlint/analyzers/lockacrosscall"
	"github.com/idemlint/idemlint/analyzers/lostupdate"
	"github.com/idemlint/idemlint/analyzers/noversion"
	"github.com/idemlint/idemlint/analyzers/retrypost"
)

// All returns every idemlint analyzer, in documentation order.
func All() []*analysis.Analyzer {
	return []*analysis.Analyzer{
		checkinsert.Analyzer,
		lostupdate.Analyzer,
		noversion.Analyzer,
		lockacrosscall.Analyzer,
		retrypost.Analyzer,
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
// docs/analyzers/NAME.md.
func Markdown(a *analysis.Analyzer) []byte { return docgen.Markdown(a) }

// Text returns the documentation page of a for a terminal, the output of
// `idemlint help NAME`: the Markdown page's text without its markup.
func Text(a *analysis.Analyzer) []byte { return docgen.Text(a) }

// BuildInputs returns the files the analysis of the module containing dir
// reads besides Go source: its .idemlint.yml, the DDL files the
// configuration names, every sqlc configuration in the module and the
// schema files each names. No build cache knows them, so the binary hashes
// them into the tool ID it prints for -V=full, which keys go vet's cache.
func BuildInputs(dir string) []string { return schema.BuildInputs(dir) }

// SetWarnings sends the warnings about schema files (a malformed DDL
// statement, skipped; an unreadable sqlc configuration) to w, once each.
// Only the standalone binary sets it: under go vet, gopls and
// golangci-lint they stay silent, and the parts not understood are left
// out of the analysis.
func SetWarnings(w io.Writer) { schema.SetWarnings(w) }
