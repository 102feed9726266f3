package config

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"

	"gopkg.in/yaml.v3"
)

// An Error is a bad configuration: the file and line it is at (none for a
// flag or a plugin setting), the setting, and what is wrong with it.
type Error struct {
	File    string // the configuration file, or a description of the source ("the -schema flag")
	Line    int    // in File; 0 when unknown
	Setting string // "" when the problem is the file as a whole
	Err     error
}

func (e *Error) Error() string {
	var b strings.Builder
	if e.File != "" {
		b.WriteString(e.File)
		if e.Line > 0 {
			fmt.Fprintf(&b, ":%d", e.Line)
		}
		b.WriteString(": ")
	}
	if e.Setting != "" {
		b.WriteString(e.Setting + ": ")
	}
	b.WriteString(e.Err.Error())
	return b.String()
}

func (e *Error) Unwrap() error { return e.Err }

// A setting is one entry of the configuration: its name in every source
// and where its value goes in Settings.
type setting struct {
	name string
	str  func(*Settings) *string   // a string setting
	list func(*Settings) *[]string // a list setting
	flag func(*Settings) **bool    // a boolean setting
}

var settings = []setting{
	{name: "schema", list: func(s *Settings) *[]string { return &s.Schema }},
	{name: "schema-discover", flag: func(s *Settings) **bool { return &s.SchemaDiscover }},
	{name: "version-column", str: func(s *Settings) *string { return &s.VersionColumn }},
	{name: "version-field", str: func(s *Settings) *string { return &s.VersionField }},
	{name: "idempotency-headers", list: func(s *Settings) *[]string { return &s.IdempotencyHeaders }},
	{name: "network-funcs", list: func(s *Settings) *[]string { return &s.NetworkFuncs }},
	{name: "retry-funcs", list: func(s *Settings) *[]string { return &s.RetryFuncs }},
	{name: "idempotent-funcs", list: func(s *Settings) *[]string { return &s.IdempotentFuncs }},
	{name: "enable", list: func(s *Settings) *[]string { return &s.Enable }},
}

// Names lists the settings, in the order of the Settings fields.
func Names() []string {
	var out []string
	for _, st := range settings {
		out = append(out, st.name)
	}
	return out
}

// IsBool reports whether the named setting is a boolean, which a flag
// may give without a value (-schema-discover).
func IsBool(name string) bool {
	for _, st := range settings {
		if st.name == name {
			return st.flag != nil
		}
	}
	return false
}

// Set sets the named setting of s from a decoded value, as a YAML or JSON
// decoder gives it (a string, or a list of strings), and validates it. The
// error names the setting and never a Go type.
func (s *Settings) Set(name string, value any) error {
	i := -1
	for j, st := range settings {
		if st.name == name {
			i = j
		}
	}
	if i < 0 {
		return &Error{Err: fmt.Errorf("unknown setting %s (known: %s)", name, strings.Join(Names(), ", "))}
	}
	st := settings[i]
	bad := func(format string, args ...any) error {
		return &Error{Setting: name, Err: fmt.Errorf(format, args...)}
	}
	switch {
	case st.flag != nil:
		v, ok := value.(bool)
		if !ok {
			return bad("want true or false, got %s", kindOf(value))
		}
		*st.flag(s) = &v
		return nil // nothing to validate beyond the kind
	case st.str != nil:
		v, ok := value.(string)
		if !ok {
			return bad("want a string, got %s", kindOf(value))
		}
		*st.str(s) = v
	default:
		var items []string
		switch v := value.(type) {
		case string: // one item, written without brackets
			items = []string{v}
		case []string:
			items = v
		case []any:
			for k, item := range v {
				str, ok := item.(string)
				if !ok {
					return bad("want a list of strings, but item %d is %s", k+1, kindOf(item))
				}
				items = append(items, str)
			}
		default:
			return bad("want a list of strings, got %s", kindOf(value))
		}
		*st.list(s) = items
	}
	var one Settings
	if st.str != nil {
		*st.str(&one) = *st.str(s)
	} else {
		*st.list(&one) = *st.list(s)
	}
	if err := one.Validate(); err != nil {
		var ce *Error
		if errors.As(err, &ce) {
			return ce
		}
		return bad("%v", err)
	}
	return nil
}

// kindOf names the kind of a decoded value for an error message.
func kindOf(v any) string {
	switch v.(type) {
	case nil:
		return "nothing"
	case string:
		return "a string"
	case bool:
		return "a boolean"
	case int, int64, uint64, float64:
		return "a number"
	case []any, []string:
		return "a list"
	case map[string]any, map[any]any:
		return "a mapping"
	}
	return fmt.Sprintf("a %T", v)
}

// Parse decodes and validates the contents of a configuration file. Unknown
// settings are errors, so that a misspelt one is not silently ignored. The
// error is an *Error with the line of the setting (File is the caller's to
// fill in).
func Parse(data []byte) (Settings, error) {
	s, _, err := parse(data)
	return s, err
}

// parse is Parse, also returning the line of each setting.
func parse(data []byte) (Settings, map[string]int, error) {
	var s Settings
	lines := map[string]int{}
	var doc yaml.Node
	if err := yaml.NewDecoder(bytes.NewReader(data)).Decode(&doc); err != nil {
		if err == io.EOF {
			return s, lines, nil // an empty file sets nothing
		}
		return Settings{}, nil, yamlError(err)
	}
	root := &doc
	if root.Kind == yaml.DocumentNode && len(root.Content) == 1 {
		root = root.Content[0]
	}
	if root.Kind == yaml.ScalarNode && root.Tag == "!!null" {
		return s, lines, nil
	}
	if root.Kind != yaml.MappingNode {
		return Settings{}, nil, &Error{Line: root.Line, Err: errors.New("want a mapping of settings (version-column: rev)")}
	}
	for i := 0; i+1 < len(root.Content); i += 2 {
		key, val := root.Content[i], root.Content[i+1]
		name := key.Value
		if line, dup := lines[name]; dup {
			return Settings{}, nil, &Error{Line: key.Line, Setting: name, Err: fmt.Errorf("set twice (first on line %d)", line)}
		}
		lines[name] = key.Line
		if name == disableSetting {
			rules, err := parseDisable(val)
			if err != nil {
				return Settings{}, nil, err
			}
			s.Disable = rules
			continue
		}
		var v any
		if err := val.Decode(&v); err != nil {
			return Settings{}, nil, &Error{Line: val.Line, Setting: name, Err: yamlError(err)}
		}
		if err := s.Set(name, v); err != nil {
			ce := err.(*Error)
			ce.Line = key.Line
			if ce.Setting == "" { // unknown: the file has one setting more than the drivers
				ce.Err = fmt.Errorf("unknown setting %s (known: %s, %s)", name, strings.Join(Names(), ", "), disableSetting)
			}
			return Settings{}, nil, ce
		}
	}
	return s, lines, nil
}

// yamlError rewords a syntax error of the YAML decoder as an *Error with
// its line: "yaml: line 3: mapping values are not allowed in this context".
func yamlError(err error) error {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	line := 0
	if rest, ok := strings.CutPrefix(msg, "line "); ok {
		if n, after, ok := strings.Cut(rest, ": "); ok {
			if _, scanErr := fmt.Sscanf(n, "%d", &line); scanErr == nil {
				msg = after
			}
		}
	}
	return &Error{Line: line, Err: errors.New(msg)}
}
