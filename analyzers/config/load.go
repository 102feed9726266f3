package config

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
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
		c, err := readFile(file)
		if err != nil {
			return nil, err
		}
		fromFile = c.settings
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
// every file it names can be read. Drivers call it before analysing (with
// ValidateTree), so that a bad configuration is one clear error rather than
// one per package. The error is an *Error.
func Validate(dir string) error {
	c, err := For(dir)
	if err != nil {
		return err
	}
	if c.File != "" {
		if cf, err := readFile(c.File); err == nil {
			if err := validateDisablePaths(c.File, cf.settings.Disable); err != nil {
				return err
			}
		}
	}
	for _, f := range c.Schema {
		if _, err := os.Stat(f); err != nil {
			e := &Error{Setting: DriverSetting("schema"), Err: fmt.Errorf("%s: %v (schema files are named relative to the module root)", f, errors.Unwrap(err))}
			if driver().Schema == nil && c.File != "" {
				cf, _ := readFile(c.File)
				e.File, e.Line, e.Setting = c.File, cf.lines["schema"], "schema"
			}
			return e
		}
	}
	return nil
}

// ValidateTree validates the configuration of every package in dir and
// below it, as `./...` from dir would find them: dir's own, and each
// configuration file in the directories below it, up to nested modules.
func ValidateTree(dir string) error {
	if err := Validate(dir); err != nil {
		return err
	}
	var found error
	filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || found != nil {
			return filepath.SkipDir
		}
		if d.IsDir() {
			name := d.Name()
			if path != dir && (name == "vendor" || name == "testdata" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
				return filepath.SkipDir
			}
			if path != dir {
				if _, err := os.Stat(filepath.Join(path, "go.mod")); err == nil {
					return filepath.SkipDir // another module: ./... does not enter it
				}
			}
			return nil
		}
		if (d.Name() == FileName || d.Name() == ".idemlint.yaml") && filepath.Dir(path) != dir {
			found = Validate(filepath.Dir(path))
		}
		return nil
	})
	return found
}

// driverSetting is how errors name a setting of the driver: a flag of the
// binary unless a plugin says otherwise (SetDriverSetting).
var driverSetting = "flag -%s"

// DriverSetting returns how errors name the driver's setting name.
func DriverSetting(name string) string {
	driverMu.Lock()
	defer driverMu.Unlock()
	return fmt.Sprintf(driverSetting, name)
}

// SetDriverSetting sets how errors name a setting of the driver, as a
// format for the setting's name ("idemlint setting %s").
func SetDriverSetting(format string) {
	driverMu.Lock()
	driverSetting = format
	driverMu.Unlock()
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
	lines    map[string]int // the line of each setting
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
// it. Its error is an *Error naming the file.
func readFile(path string) (cachedFile, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return cachedFile{}, &Error{File: path, Err: errors.Unwrap(err)}
	}
	stamp := fmt.Sprint(fi.Size(), fi.ModTime().UnixNano())
	filesMu.Lock()
	defer filesMu.Unlock()
	if c, ok := filesCache[path]; ok && c.stamp == stamp {
		return c, c.err
	}
	c := cachedFile{stamp: stamp}
	data, err := os.ReadFile(path)
	if err != nil {
		c.err = &Error{File: path, Err: errors.Unwrap(err)}
	} else if c.settings, c.lines, err = parse(data); err != nil {
		ce := err.(*Error)
		ce.File = path
		c.err = ce
	}
	filesCache[path] = c
	return c, c.err
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
