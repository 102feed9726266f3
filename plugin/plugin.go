// Package plugin registers idemlint as a golangci-lint v2 module plugin.
//
// Build golangci-lint with it (`golangci-lint custom` and a .custom-gcl.yml
// naming github.com/idemlint/idemlint/plugin), then enable it in
// .golangci.yml:
//
//	linters:
//	  enable: [idemlint]
//	  settings:
//	    custom:
//	      idemlint:
//	        type: module
//	        settings:
//	          disable: [lostupdate]
//	          version-column: rev
//
// The settings have the same names as the idemlint binary's flags; enable
// and disable name analyzers and behave as the binary's -NAME flags do.
package plugin

import (
	"fmt"
	"strings"

	"github.com/golangci/plugin-module-register/register"
	"golang.org/x/tools/go/analysis"

	"github.com/idemlint/idemlint/analyzers"
	"github.com/idemlint/idemlint/analyzers/config"
)

// Name is the linter's name in .golangci.yml (linters.settings.custom.NAME).
const Name = "idemlint"

func init() {
	register.Plugin(Name, New)
}

// Settings are the plugin's settings: the analyzers to enable or disable
// and the shared configuration, under the binary's flag names.
type Settings struct {
	// Enable runs only the named analyzers (and ignoredirective).
	Enable []string `json:"enable,omitempty"`
	// Disable turns the named analyzers off.
	Disable []string `json:"disable,omitempty"`

	config.Settings
}

// New decodes the settings and returns the plugin. An unknown or ill-typed
// setting is an error naming it.
func New(raw any) (register.LinterPlugin, error) {
	s, err := register.DecodeSettings[Settings](raw)
	if err != nil {
		return nil, fmt.Errorf("%s settings: %v", Name, err)
	}
	for _, name := range append(append([]string{}, s.Enable...), s.Disable...) {
		if analyzers.Lookup(name) == nil {
			return nil, fmt.Errorf("%s settings: no analyzer %q (known: %s)", Name, name, strings.Join(names(analyzers.All()), ", "))
		}
	}
	if err := config.SetDriver(s.Settings); err != nil {
		return nil, fmt.Errorf("%s settings: %v", Name, err)
	}
	return &plugin{selected: analyzers.Select(s.Enable, s.Disable)}, nil
}

type plugin struct {
	selected []*analysis.Analyzer
}

func (p *plugin) BuildAnalyzers() ([]*analysis.Analyzer, error) { return p.selected, nil }

// GetLoadMode asks for type information: the analyzers need types and SSA.
func (p *plugin) GetLoadMode() string { return register.LoadModeTypesInfo }

func names(as []*analysis.Analyzer) []string {
	var out []string
	for _, a := range as {
		out = append(out, a.Name)
	}
	return out
}
