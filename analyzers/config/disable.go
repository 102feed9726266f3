package config

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"
)

// AnalyzerNames are the analyzer names users may write in ignore
// directives and in the disable setting. They are fixed by the project's
// design, whether or not the analyzer has landed yet, so that a directive
// or a configuration written today stays valid.
var AnalyzerNames = []string{
	"checkinsert",
	"lostupdate",
	"noversion",
	"lockacrosscall",
	"retrypost",
	"checkupdate",
	"ttllock",
	"nolease",
	"upsertall",
	"nodedup",
	"lockorder",
	"stuckclaim",
	"ignoredirective",
}

// KnownAnalyzer reports whether name is one of AnalyzerNames.
func KnownAnalyzer(name string) bool {
	for _, n := range AnalyzerNames {
		if n == name {
			return true
		}
	}
	return false
}

// CheckRuleName checks a name as directives and the disable setting take
// it: an analyzer ("lostupdate") or one of its sub-rules
// ("retrypost/nokey").
func CheckRuleName(name string) error {
	analyzer, rule, hasRule := strings.Cut(name, "/")
	switch {
	case name == "":
		return errors.New("an empty name")
	case !KnownAnalyzer(analyzer):
		msg := fmt.Sprintf("%s is not an idemlint analyzer", analyzer)
		if near := nearestAnalyzer(analyzer); near != "" {
			msg += " (did you mean " + near + "?)"
		}
		return errors.New(msg)
	case hasRule && (rule == "" || strings.ContainsAny(rule, "/ \t,")):
		return fmt.Errorf("%q is not a sub-rule: write %s or %s/RULE", name, analyzer, analyzer)
	}
	return nil
}

// nearestAnalyzer returns the known analyzer name within two edits of
// name ("" if none), for a did-you-mean.
func nearestAnalyzer(name string) string {
	best, bestDist := "", 3
	for _, n := range AnalyzerNames {
		if d := editDistance(name, n); d < bestDist {
			best, bestDist = n, d
		}
	}
	return best
}

func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}

// A DisableRule turns analyzers, or sub-rules of them, off for the files
// under a path, as .idemlint.yml's disable setting writes it:
//
//	disable:
//	  - path: internal/legacy/...
//	    analyzers: [lostupdate, retrypost/nokey]
//
// The path is relative to the directory of the configuration file, in the
// go command's pattern form: "internal/legacy" is that directory's files,
// "internal/legacy/..." the directory and everything below it, "..." the
// whole tree the file governs, and a path ending in .go one file.
//
// It is a setting of the file only: its paths mean something only
// relative to the file (the golangci-lint plugin's own disable takes
// analyzer names, and golangci-lint's exclusions rules take paths).
type DisableRule struct {
	Path      string   `json:"path" yaml:"path"`
	Analyzers []string `json:"analyzers" yaml:"analyzers"`

	line int // of the entry in the file, for errors
}

// disableSetting is the name of the setting in .idemlint.yml.
const disableSetting = "disable"

// parseDisable decodes the disable setting's node, checking each entry's
// shape, path syntax and names. The error is an *Error with the line of
// the entry at fault.
func parseDisable(val *yaml.Node) ([]DisableRule, error) {
	bad := func(line int, format string, args ...any) error {
		return &Error{Line: line, Setting: disableSetting, Err: fmt.Errorf(format, args...)}
	}
	const shape = "want a list of entries like {path: internal/legacy/..., analyzers: [lostupdate]}"
	if val.Kind == yaml.ScalarNode && val.Tag == "!!null" {
		return nil, nil
	}
	if val.Kind != yaml.SequenceNode {
		return nil, bad(val.Line, "%s, got %s", shape, nodeKind(val))
	}
	var rules []DisableRule
	for i, item := range val.Content {
		n := i + 1
		if item.Kind != yaml.MappingNode {
			return nil, bad(item.Line, "entry %d: %s, got %s", n, shape, nodeKind(item))
		}
		rule := DisableRule{line: item.Line}
		seen := map[string]bool{}
		for k := 0; k+1 < len(item.Content); k += 2 {
			key, v := item.Content[k], item.Content[k+1]
			if seen[key.Value] {
				return nil, bad(key.Line, "entry %d: %s set twice", n, key.Value)
			}
			seen[key.Value] = true
			switch key.Value {
			case "path":
				if v.Kind != yaml.ScalarNode || v.Tag != "!!str" {
					return nil, bad(v.Line, "entry %d: path: want a path like internal/legacy/..., got %s", n, nodeKind(v))
				}
				rule.Path = v.Value
			case "analyzers":
				switch v.Kind {
				case yaml.ScalarNode:
					rule.Analyzers = []string{v.Value}
				case yaml.SequenceNode:
					for j, a := range v.Content {
						if a.Kind != yaml.ScalarNode || a.Tag != "!!str" {
							return nil, bad(a.Line, "entry %d: analyzers: item %d is %s, want an analyzer name", n, j+1, nodeKind(a))
						}
						rule.Analyzers = append(rule.Analyzers, a.Value)
					}
				default:
					return nil, bad(v.Line, "entry %d: analyzers: want a list of analyzer names, got %s", n, nodeKind(v))
				}
			default:
				return nil, bad(key.Line, "entry %d: unknown key %s (an entry has path and analyzers)", n, key.Value)
			}
		}
		switch {
		case !seen["path"]:
			return nil, bad(item.Line, "entry %d has no path (use ... for the whole tree)", n)
		case len(rule.Analyzers) == 0:
			return nil, bad(item.Line, "entry %d names no analyzers", n)
		}
		if err := checkDisablePath(rule.Path); err != nil {
			return nil, bad(item.Line, "entry %d: path %q: %v", n, rule.Path, err)
		}
		for _, a := range rule.Analyzers {
			if err := CheckRuleName(a); err != nil {
				return nil, bad(item.Line, "entry %d: analyzers: %v", n, err)
			}
		}
		rules = append(rules, rule)
	}
	return rules, nil
}

// checkDisablePath checks the syntax of a disable path; whether it exists
// is Validate's to check.
func checkDisablePath(p string) error {
	clean := strings.TrimPrefix(p, "./")
	switch {
	case strings.TrimSpace(p) == "":
		return errors.New("empty")
	case filepath.IsAbs(p) || strings.HasPrefix(p, "/"):
		return errors.New("absolute: write it relative to the directory of the configuration file")
	case strings.Contains(p, `\`):
		return errors.New("write / between directories")
	}
	dir := clean
	if clean == "..." || strings.HasSuffix(clean, "/...") {
		dir = strings.TrimSuffix(strings.TrimSuffix(clean, "..."), "/")
	}
	if strings.Contains(dir, "...") || strings.ContainsAny(dir, "*?[") {
		return errors.New("only a trailing /... is a pattern (internal/legacy/...)")
	}
	for _, elem := range strings.Split(dir, "/") {
		if elem == ".." {
			return errors.New("leaves the directory of the configuration file; put the setting in a file above it")
		}
	}
	return nil
}

func nodeKind(n *yaml.Node) string {
	switch n.Kind {
	case yaml.SequenceNode:
		return "a list"
	case yaml.MappingNode:
		return "a mapping"
	case yaml.ScalarNode:
		switch n.Tag {
		case "!!null":
			return "nothing"
		case "!!bool":
			return "a boolean"
		case "!!int", "!!float":
			return "a number"
		}
		return "a string"
	}
	return "an alias"
}

// A disabled is a DisableRule resolved against the directory of its
// file.
type disabled struct {
	target  string // absolute directory or file
	subtree bool   // target and everything below it
	names   []string
}

func resolveDisable(fileDir string, rules []DisableRule) []disabled {
	var out []disabled
	for _, r := range rules {
		p := strings.TrimPrefix(r.Path, "./")
		d := disabled{names: r.Analyzers}
		if p == "..." || strings.HasSuffix(p, "/...") {
			d.subtree = true
			p = strings.TrimSuffix(strings.TrimSuffix(p, "..."), "/")
		}
		d.target = filepath.Join(fileDir, filepath.FromSlash(p))
		out = append(out, d)
	}
	return out
}

// matches reports whether the rule applies to the file named filename (an
// absolute path).
func (d disabled) matches(filename string) bool {
	if filename == d.target {
		return true
	}
	dir := filepath.Dir(filename)
	if dir == d.target {
		return true
	}
	if !d.subtree {
		return false
	}
	rel, err := filepath.Rel(d.target, dir)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// Disables reports whether the configuration turns name off in the file
// named filename: name is a finding's category ("retrypost/nokey") or a
// directive's name. An opt-in rule (OptInRules) is off unless the enable
// setting names it; otherwise a disable entry naming its analyzer
// ("retrypost") or itself turns it off.
func (c *Config) Disables(filename, name string) bool {
	if slices.Contains(OptInRules, name) && !slices.Contains(c.Enable, name) {
		return true // an opt-in rule the enable setting does not name
	}
	if len(c.disabled) == 0 || name == "" {
		return false
	}
	if !filepath.IsAbs(filename) {
		abs, err := filepath.Abs(filename)
		if err != nil {
			return false
		}
		filename = abs
	}
	analyzer, _, _ := strings.Cut(name, "/")
	for _, d := range c.disabled {
		if !d.matches(filename) {
			continue
		}
		for _, n := range d.names {
			if n == name || n == analyzer {
				return true
			}
		}
	}
	return false
}

// validateDisablePaths checks that each disable entry's path exists, so
// that a misspelt directory is an error rather than a setting that turns
// nothing off.
func validateDisablePaths(file string, rules []DisableRule) error {
	for i, r := range rules {
		d := resolveDisable(filepath.Dir(file), []DisableRule{r})[0]
		fi, err := os.Stat(d.target)
		switch {
		case err != nil:
			err = errors.New("no such file or directory")
		case d.subtree && !fi.IsDir():
			err = errors.New("not a directory, so /... matches nothing")
		}
		if err != nil {
			return &Error{File: file, Line: r.line, Setting: disableSetting,
				Err: fmt.Errorf("entry %d: path %q: %s: %v (paths are relative to the directory of %s)", i+1, r.Path, d.target, err, filepath.Base(file))}
		}
	}
	return nil
}
