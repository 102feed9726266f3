package config

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"gopkg.in/yaml.v3"
)

// driverSettings are the values the driver set: the binary's flags or the
// golangci-lint plugin's settings. They are set before any analysis runs.
var (
	driverMu       sync.Mutex
	driverSettings Settings
)

// SetDriver installs the settings of the driver (the golangci-lint plugin's
// decoded settings), after validating them.
func SetDriver(s Settings) error {
	if err := s.Validate(); err != nil {
		return err
	}
	driverMu.Lock()
	driverSettings = s
	driverMu.Unlock()
	clearCache()
	return nil
}

func driver() Settings {
	driverMu.Lock()
	defer driverMu.Unlock()
	return driverSettings
}

// For returns the configuration for the package in dir ("" for none: the
// defaults and the driver's settings). Results are cached per directory for
// the life of the process, and a changed .idemlint.yml is read again.
func For(dir string) (*Config, error) {
	root, file := "", ""
	if dir != "" {
		root, file = locate(dir)
	}
	var fromFile Settings
	if file != "" {
		s, err := readFile(file)
		if err != nil {
			return nil, err
		}
		fromFile = s
	}
	return resolve(root, file, fromFile, driver()), nil
}

// BuildInputs returns the files the configuration for the package in dir is
// read from: the .idemlint.yml and the schema files it and the driver name.
// The vet tool ID hashes them so that go vet's cache turns over when they
// change. A file that cannot be read is skipped here; the analysis reports
// it.
func BuildInputs(dir string) []string {
	c, err := For(dir)
	if err != nil {
		root, file := locate(dir)
		c = &Config{ModuleRoot: root, File: file}
	}
	return c.Inputs()
}

// Validate reads the configuration for the package in dir and checks that
// every file it names can be read. Drivers call it once before analysing, so
// that a bad configuration is one clear error rather than one per package.
func Validate(dir string) error {
	c, err := For(dir)
	if err != nil {
		return err
	}
	for _, f := range c.Schema {
		if _, err := os.Stat(f); err != nil {
			where := "the schema flag or setting"
			if c.File != "" && driver().Schema == nil {
				where = c.File
			}
			return fmt.Errorf("schema: %s (named in %s): %v", f, where, errors.Unwrap(err))
		}
	}
	return nil
}

// locate returns the module root of dir (the nearest directory at or above
// it holding a go.mod) and the nearest configuration file between dir and
// that root.
func locate(dir string) (root, file string) {
	locateMu.Lock()
	defer locateMu.Unlock()
	if l, ok := locateCache[dir]; ok {
		return l[0], l[1]
	}
	for d := dir; ; {
		if file == "" {
			for _, name := range []string{FileName, ".idemlint.yaml"} {
				if fi, err := os.Stat(filepath.Join(d, name)); err == nil && fi.Mode().IsRegular() {
					file = filepath.Join(d, name)
					break
				}
			}
		}
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			root = d
			break
		}
		parent := filepath.Dir(d)
		if parent == d {
			break
		}
		d = parent
	}
	if root == "" {
		file = "" // outside a module, there is no module root to stop at
	}
	locateCache[dir] = [2]string{root, file}
	return root, file
}

var (
	locateMu    sync.Mutex
	locateCache = map[string][2]string{}

	filesMu    sync.Mutex
	filesCache = map[string]cachedFile{}
)

type cachedFile struct {
	stamp    string // size and modification time when read
	settings Settings
	err      error
}

func clearCache() {
	locateMu.Lock()
	locateCache = map[string][2]string{}
	locateMu.Unlock()
	filesMu.Lock()
	filesCache = map[string]cachedFile{}
	filesMu.Unlock()
}

// readFile parses and validates a configuration file, once per version of
// it.
func readFile(path string) (Settings, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return Settings{}, fmt.Errorf("%s: %v", path, err)
	}
	stamp := fmt.Sprint(fi.Size(), fi.ModTime().UnixNano())
	filesMu.Lock()
	defer filesMu.Unlock()
	if c, ok := filesCache[path]; ok && c.stamp == stamp {
		return c.settings, c.err
	}
	data, err := os.ReadFile(path)
	var s Settings
	if err == nil {
		s, err = Parse(data)
	}
	if err != nil {
		err = fmt.Errorf("%s: %v", path, err)
	}
	filesCache[path] = cachedFile{stamp: stamp, settings: s, err: err}
	return s, err
}

// Parse decodes and validates the contents of a configuration file. Unknown
// settings are errors, so that a misspelt one is not silently ignored.
func Parse(data []byte) (Settings, error) {
	var s Settings
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&s); err != nil && err != io.EOF {
		return Settings{}, yamlError(err)
	}
	if err := s.Validate(); err != nil {
		return Settings{}, err
	}
	return s, nil
}

// yamlError rewords the decoder's errors so that they name the setting:
// "line 3: field version-colum not found in type config.Settings" becomes
// "line 3: unknown setting version-colum".
func yamlError(err error) error {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	msg = strings.ReplaceAll(msg, "unmarshal errors:\n  ", "")
	if before, after, ok := strings.Cut(msg, "field "); ok {
		if name, _, ok := strings.Cut(after, " not found in type"); ok {
			msg = before + "unknown setting " + name + " (known: " + strings.Join(Names(), ", ") + ")"
		}
	}
	return errors.New(msg)
}

// Names lists the settings, in the order of the Settings fields.
func Names() []string {
	return []string{"schema", "version-column", "version-field", "idempotency-headers", "network-funcs", "retry-funcs", "idempotent-funcs"}
}

// absFrom resolves a configured path against the module root, never the
// working directory: go vet runs the tool in each package's directory.
func absFrom(root, p string) string {
	if filepath.IsAbs(p) || root == "" {
		return filepath.Clean(p)
	}
	return filepath.Join(root, p)
}

// packageDir returns the directory of a package's source file name.
func packageDir(filename string) string {
	if filename == "" {
		return ""
	}
	return filepath.Dir(filename)
}
