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
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"slices"
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
// setting, an unknown analyzer, or a schema file that cannot be read is an
// error naming it, as the binary's are; golangci-lint stops with it before
// analysing anything.
func New(raw any) (register.LinterPlugin, error) {
	s, err := decode(raw)
	if err != nil {
		return nil, fmt.Errorf("%s settings: %v", Name, err)
	}
	for _, name := range append(append([]string{}, s.Enable...), s.Disable...) {
		if analyzers.Lookup(name) == nil {
			return nil, fmt.Errorf("%s settings: no analyzer %q (known: %s)", Name, name, strings.Join(names(analyzers.All()), ", "))
		}
	}
	config.SetDriverSetting(Name + " setting %s")
	if err := config.SetDriver(s.Settings); err != nil {
		return nil, fmt.Errorf("%s settings: %v", Name, err)
	}
	// golangci-lint runs in the module it lints: its configuration files,
	// and the schema files the settings name, are checked once here.
	if wd, err := os.Getwd(); err == nil {
		if err := config.ValidateTree(wd); err != nil {
			return nil, fmt.Errorf("bad %s configuration: %v", Name, err)
		}
	}
	return &plugin{selected: analyzers.Select(s.Enable, s.Disable)}, nil
}

// decode reads the settings golangci-lint decoded from .golangci.yml, by
// the names users write: an error names the setting, never a Go type.
func decode(raw any) (Settings, error) {
	var s Settings
	if raw == nil {
		return s, nil
	}
	// Whatever map type golangci-lint hands over, its JSON is the
	// settings' plain values.
	data, err := json.Marshal(raw)
	if err != nil {
		return s, err
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		return s, errors.New("want a mapping of settings (version-column: rev)")
	}
	for _, name := range slices.Sorted(maps.Keys(m)) {
		switch name {
		case "enable", "disable":
			names, err := analyzerNames(m[name])
			if err != nil {
				return s, fmt.Errorf("%s: %v", name, err)
			}
			if name == "enable" {
				s.Enable = names
			} else {
				s.Disable = names
			}
		default:
			if err := s.Settings.Set(name, m[name]); err != nil {
				if !slices.Contains(config.Names(), name) {
					return s, fmt.Errorf("unknown setting %s (known: enable, disable, %s)", name, strings.Join(config.Names(), ", "))
				}
				return s, err
			}
		}
	}
	return s, nil
}

func analyzerNames(v any) ([]string, error) {
	list, ok := v.([]any)
	if !ok {
		if str, ok := v.(string); ok {
			return []string{str}, nil
		}
		return nil, errors.New("want a list of analyzer names")
	}
	var out []string
	for _, item := range list {
		str, ok := item.(string)
		if !ok {
			return nil, errors.New("want a list of analyzer names")
		}
		out = append(out, str)
	}
	return out, nil
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
