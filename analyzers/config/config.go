// Package config resolves idemlint's one configuration.
//
// A setting has the same name in its three sources:
//
//   - the binary's top-level flags (-version-column=rev), which go vet
//     forwards because `idemlint -flags` lists them;
//   - the golangci-lint plugin's settings (version-column: rev);
//   - an .idemlint.yml file, the nearest one from the package directory up
//     to the module root, which is the only source a gopls or nogo build has.
//
// For each setting the driver's value (flag or plugin setting) wins over the
// file's, which wins over the default. Lists replace, they do not merge.
// Every value is validated once, where it enters, and an error names the
// setting and its source.
//
// One setting, disable (analyzers off under a path; see DisableRule), is
// the file's only: its paths are relative to the file. The report layer
// applies it to each finding by the configuration of the finding's file.
package config

import (
	"errors"
	"fmt"
	"net/http"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// FileName is the name of the configuration file (".idemlint.yaml" is
// accepted too).
const FileName = ".idemlint.yml"

// Defaults for the settings that have one.
const (
	DefaultVersionColumn = "version"
	DefaultVersionField  = "Version"
)

// DefaultIdempotencyHeaders are the request headers that always carry an
// idempotency key; the idempotency-headers setting adds to them.
var DefaultIdempotencyHeaders = []string{"Idempotency-Key", "X-Idempotency-Key"}

// Settings are the values one source sets. The zero value of a field means
// "not set here".
type Settings struct {
	// Schema lists DDL files (CREATE TABLE, CREATE UNIQUE INDEX, ...),
	// relative to the module root, that declare unique keys and version
	// columns beyond what GORM tags, sqlc and ent already say.
	Schema []string `json:"schema,omitempty" yaml:"schema"`
	// SchemaDiscover, when false, turns off the discovery of the module's
	// DDL migrations (nil: not set here; the default is on). A configured
	// Schema replaces discovery anyway.
	SchemaDiscover *bool `json:"schema-discover,omitempty" yaml:"schema-discover"`
	// VersionColumn is the column that makes a table versioned.
	VersionColumn string `json:"version-column,omitempty" yaml:"version-column"`
	// VersionField is the Go struct field that makes a model versioned.
	VersionField string `json:"version-field,omitempty" yaml:"version-field"`
	// IdempotencyHeaders are request headers, besides Idempotency-Key and
	// X-Idempotency-Key, whose value is an idempotency key.
	IdempotencyHeaders []string `json:"idempotency-headers,omitempty" yaml:"idempotency-headers"`
	// NetworkFuncs are functions, besides those idemlint knows, that call
	// another service, written as types.Func.FullName prints them:
	// "example.com/notify.Send" or "(*example.com/notify.Client).Send".
	NetworkFuncs []string `json:"network-funcs,omitempty" yaml:"network-funcs"`
	// RetryFuncs are functions, besides those idemlint knows or infers,
	// that run their func argument repeatedly until it succeeds, in the
	// same form as NetworkFuncs.
	RetryFuncs []string `json:"retry-funcs,omitempty" yaml:"retry-funcs"`
	// IdempotentFuncs are functions whose requests change nothing when
	// repeated though sent with POST or PATCH (a search, a validation,
	// a link or token the server makes anew each time), in the same form
	// as NetworkFuncs: the requests they make, themselves or through
	// helpers, are not reported as retried.
	IdempotentFuncs []string `json:"idempotent-funcs,omitempty" yaml:"idempotent-funcs"`
	// Enable lists opt-in sub-rules to report (OptInRules), which the
	// analyzers leave out by default because their findings are right
	// less often than the default rules'.
	Enable []string `json:"enable,omitempty" yaml:"enable"`
	// Disable turns analyzers off under paths (see DisableRule). Only a
	// configuration file sets it: its paths are relative to the file.
	Disable []DisableRule `json:"-" yaml:"disable"`
}

// OptInRules are the sub-rules reported only when Enable names them.
var OptInRules = []string{"retrypost/unknown-effect"}

// Config is the configuration in force for one package.
type Config struct {
	// ModuleRoot is the directory of the package's go.mod ("" if none).
	ModuleRoot string
	// File is the .idemlint.yml that applied ("" if none).
	File string

	Schema []string // absolute paths
	// SchemaDiscover says whether the schema layer discovers the module's
	// DDL migrations: true unless a source turned it off. It applies only
	// when Schema is empty.
	SchemaDiscover     bool
	VersionColumn      string
	VersionField       string
	IdempotencyHeaders []string // canonical header keys, defaults first
	NetworkFuncs       []string
	RetryFuncs         []string
	IdempotentFuncs    []string
	Enable             []string // opt-in sub-rules
	// disabled is the file's disable setting, resolved against the
	// file's directory (see Disables).
	disabled []disabled

	// Err is the configuration problem of the package, an *Error; the
	// other fields are then the defaults and the driver's settings, and
	// nothing is analysed (a wrong setting would make wrong findings).
	// The drivers stop on it before analysing; where one cannot (gopls),
	// ignoredirective reports it on the package.
	Err error
}

// Inputs returns the files the configuration was read from, which are
// inputs of the analysis that no build cache tracks.
func (c *Config) Inputs() []string {
	var files []string
	if c.File != "" {
		files = append(files, c.File)
	}
	return append(files, c.Schema...)
}

// Analyzer resolves the configuration for each package. Every idemlint
// analyzer that reads configuration requires it; its result is a *Config.
var Analyzer = &analysis.Analyzer{
	Name:       "idemlintconfig",
	Doc:        "resolve idemlint's configuration (flags, plugin settings, .idemlint.yml) for a package",
	Run:        run,
	ResultType: reflect.TypeFor[*Config](),
	// It reads files, not the package's code.
	RunDespiteErrors: true,
}

// run never fails: a failed prerequisite would only say "failed
// prerequisites: idemlintconfig" to the user of every analyzer; the
// problem travels in Config.Err instead.
func run(pass *analysis.Pass) (any, error) {
	dir := ""
	if len(pass.Files) > 0 {
		dir = packageDir(pass.Fset.Position(pass.Files[0].Package).Filename)
	}
	if err := Validate(dir); err != nil {
		root, _ := locate(dir)
		c := resolve(root, "", Settings{}, driver())
		c.Err = err
		return c, nil
	}
	return For(dir)
}

// Patterns for configured names (not for source code, which idemlint never
// matches by text).
var (
	identRE  = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)
	goNameRE = regexp.MustCompile(`^[\pL_][\pL\pN_]*$`)
)

// Validate checks every value s sets and returns an error naming the first
// bad setting.
func (s *Settings) Validate() error {
	for _, check := range []struct {
		name string
		err  error
	}{
		{"schema", validateEach(s.Schema, validateSchemaPath)},
		{"version-column", validateOptional(s.VersionColumn, validateColumn)},
		{"version-field", validateOptional(s.VersionField, validateField)},
		{"idempotency-headers", validateEach(s.IdempotencyHeaders, validateHeader)},
		{"network-funcs", validateEach(s.NetworkFuncs, validateFuncName)},
		{"retry-funcs", validateEach(s.RetryFuncs, validateFuncName)},
		{"idempotent-funcs", validateEach(s.IdempotentFuncs, validateFuncName)},
		{"enable", validateEach(s.Enable, validateOptIn)},
	} {
		if check.err != nil {
			return &Error{Setting: check.name, Err: check.err}
		}
	}
	return nil
}

func validateOptIn(rule string) error {
	if !slices.Contains(OptInRules, rule) {
		return fmt.Errorf("%q is not an opt-in rule (known: %s)", rule, strings.Join(OptInRules, ", "))
	}
	return nil
}

func validateOptional(v string, check func(string) error) error {
	if v == "" {
		return nil
	}
	return check(v)
}

func validateEach(vs []string, check func(string) error) error {
	for _, v := range vs {
		if err := check(v); err != nil {
			return err
		}
	}
	return nil
}

func validateSchemaPath(p string) error {
	if strings.TrimSpace(p) == "" {
		return errors.New("empty file name")
	}
	return nil
}

func validateColumn(c string) error {
	if !identRE.MatchString(c) {
		return fmt.Errorf("%q is not a SQL column name (letters, digits and _, not starting with a digit)", c)
	}
	return nil
}

func validateField(f string) error {
	if !goNameRE.MatchString(f) {
		return fmt.Errorf("%q is not a Go field name", f)
	}
	return nil
}

func validateHeader(h string) error {
	if h == "" || strings.ContainsFunc(h, func(r rune) bool { return !isTokenRune(r) }) {
		return fmt.Errorf("%q is not an HTTP header name", h)
	}
	return nil
}

// isTokenRune reports whether r may appear in an HTTP header name (RFC 9110
// token).
func isTokenRune(r rune) bool {
	if r >= 0x80 || r <= ' ' {
		return false
	}
	return !strings.ContainsRune(`"(),/:;<=>?@[\]{}`, r)
}

// validateFuncName accepts the forms types.Func.FullName produces:
// "path/pkg.Func", "(path/pkg.Type).Method" and "(*path/pkg.Type).Method".
func validateFuncName(name string) error {
	bad := fmt.Errorf("%q is not a function name like example.com/pkg.Func or (*example.com/pkg.Type).Method", name)
	recv, method, isMethod := strings.Cut(name, ").")
	if isMethod {
		recv, ok := strings.CutPrefix(recv, "(")
		if !ok {
			return bad
		}
		recv = strings.TrimPrefix(recv, "*")
		if !goNameRE.MatchString(method) || validateQualified(recv) != nil {
			return bad
		}
		return nil
	}
	if strings.ContainsAny(name, "()* ") || validateQualified(name) != nil {
		return bad
	}
	return nil
}

// validateQualified checks "path/pkg.Name".
func validateQualified(q string) error {
	dot := strings.LastIndex(q, ".")
	if dot <= 0 || strings.Contains(q[dot:], "/") {
		return errors.New("no package path")
	}
	path, name := q[:dot], q[dot+1:]
	if !goNameRE.MatchString(name) || strings.ContainsAny(path, " \t") {
		return errors.New("bad name")
	}
	return nil
}

// resolve combines the layers (driver over file over defaults) for a package
// whose module root is root.
func resolve(root, file string, fromFile, fromDriver Settings) *Config {
	pick := func(driver, file, def string) string {
		switch {
		case driver != "":
			return driver
		case file != "":
			return file
		}
		return def
	}
	pickList := func(driver, file []string) []string {
		if driver != nil {
			return driver
		}
		return file
	}
	pickBool := func(driver, file *bool, def bool) bool {
		switch {
		case driver != nil:
			return *driver
		case file != nil:
			return *file
		}
		return def
	}
	c := &Config{
		ModuleRoot:      root,
		File:            file,
		SchemaDiscover:  pickBool(fromDriver.SchemaDiscover, fromFile.SchemaDiscover, true),
		VersionColumn:   pick(fromDriver.VersionColumn, fromFile.VersionColumn, DefaultVersionColumn),
		VersionField:    pick(fromDriver.VersionField, fromFile.VersionField, DefaultVersionField),
		NetworkFuncs:    pickList(fromDriver.NetworkFuncs, fromFile.NetworkFuncs),
		RetryFuncs:      pickList(fromDriver.RetryFuncs, fromFile.RetryFuncs),
		IdempotentFuncs: pickList(fromDriver.IdempotentFuncs, fromFile.IdempotentFuncs),
		Enable:          pickList(fromDriver.Enable, fromFile.Enable),
	}
	if file != "" {
		c.disabled = resolveDisable(filepath.Dir(file), fromFile.Disable)
	}
	for _, p := range pickList(fromDriver.Schema, fromFile.Schema) {
		c.Schema = append(c.Schema, absFrom(root, p))
	}
	seen := map[string]bool{}
	for _, h := range append(append([]string(nil), DefaultIdempotencyHeaders...), pickList(fromDriver.IdempotencyHeaders, fromFile.IdempotencyHeaders)...) {
		h = http.CanonicalHeaderKey(h)
		if !seen[h] {
			seen[h] = true
			c.IdempotencyHeaders = append(c.IdempotencyHeaders, h)
		}
	}
	return c
}
