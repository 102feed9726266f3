package config

import (
	"flag"
	"fmt"
	"strconv"
	"strings"
)

// RegisterFlags registers the settings as top-level flags of a driver
// binary. Each flag validates its value as it is parsed, so a bad value is
// rejected with the flag's name before any package is loaded. List flags take
// a comma-separated list and may be repeated.
func RegisterFlags(fs *flag.FlagSet) {
	fs.Var(&listFlag{set: func(s *Settings) *[]string { return &s.Schema }},
		"schema", "comma-separated DDL files, relative to the module root, declaring unique keys and version columns")
	fs.Var(&boolFlag{set: func(s *Settings) **bool { return &s.SchemaDiscover }},
		"schema-discover", "discover the module's DDL migrations (.sql files with CREATE or ALTER TABLE) when no -schema is named (default true)")
	fs.Var(&stringFlag{set: func(s *Settings) *string { return &s.VersionColumn }},
		"version-column", "the column that makes a table versioned (default "+DefaultVersionColumn+")")
	fs.Var(&stringFlag{set: func(s *Settings) *string { return &s.VersionField }},
		"version-field", "the Go struct field that makes a model versioned (default "+DefaultVersionField+")")
	fs.Var(&listFlag{set: func(s *Settings) *[]string { return &s.IdempotencyHeaders }},
		"idempotency-headers", "comma-separated request headers that carry an idempotency key, besides "+strings.Join(DefaultIdempotencyHeaders, " and "))
	fs.Var(&listFlag{set: func(s *Settings) *[]string { return &s.NetworkFuncs }},
		"network-funcs", "comma-separated functions that call another service, e.g. (*example.com/notify.Client).Send")
	fs.Var(&listFlag{set: func(s *Settings) *[]string { return &s.RetryFuncs }},
		"retry-funcs", "comma-separated functions that retry their func argument, e.g. example.com/retry.Do")
	fs.Var(&listFlag{set: func(s *Settings) *[]string { return &s.IdempotentFuncs }},
		"idempotent-funcs", "comma-separated functions whose POST or PATCH requests change nothing when repeated, e.g. (*example.com/sso.Client).RedirectURL")
	fs.Var(&listFlag{set: func(s *Settings) *[]string { return &s.Enable }},
		"enable", "comma-separated opt-in sub-rules to report: "+strings.Join(OptInRules, ", "))
}

// setDriverField applies one flag to the driver settings, validating the
// result.
func setDriverField(apply func(*Settings)) error {
	driverMu.Lock()
	s := driverSettings
	driverMu.Unlock()
	apply(&s)
	if err := s.Validate(); err != nil {
		// The flag package prefixes the flag's name.
		_, reason, _ := strings.Cut(err.Error(), ": ")
		return fmt.Errorf("%s", reason)
	}
	driverMu.Lock()
	driverSettings = s
	driverMu.Unlock()
	clearCache()
	return nil
}

type stringFlag struct {
	set   func(*Settings) *string
	value string
}

func (f *stringFlag) String() string { return f.value }

func (f *stringFlag) Set(v string) error {
	if err := setDriverField(func(s *Settings) { *f.set(s) = v }); err != nil {
		return err
	}
	f.value = v
	return nil
}

// boolFlag is a boolean setting: -schema-discover=false (a bare
// -schema-discover is true, as for the flag package's own booleans).
type boolFlag struct {
	set   func(*Settings) **bool
	value string
}

func (f *boolFlag) String() string { return f.value }

func (f *boolFlag) IsBoolFlag() bool { return true }

func (f *boolFlag) Set(v string) error {
	b, err := strconv.ParseBool(v)
	if err != nil {
		return fmt.Errorf("%q is not true or false", v)
	}
	if err := setDriverField(func(s *Settings) { *f.set(s) = &b }); err != nil {
		return err
	}
	f.value = strconv.FormatBool(b)
	return nil
}

type listFlag struct {
	set    func(*Settings) *[]string
	values []string
}

func (f *listFlag) String() string { return strings.Join(f.values, ",") }

func (f *listFlag) Set(v string) error {
	var items []string
	for _, item := range strings.Split(v, ",") {
		if item = strings.TrimSpace(item); item != "" {
			items = append(items, item)
		}
	}
	values := append(append([]string{}, f.values...), items...)
	if err := setDriverField(func(s *Settings) { *f.set(s) = values }); err != nil {
		return err
	}
	f.values = values
	return nil
}
