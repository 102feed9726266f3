package schema

import (
	"bufio"
	"fmt"
	"go/build"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"

	"gopkg.in/yaml.v3"

	"github.com/idemlint/idemlint/analyzers/config"
	"github.com/idemlint/idemlint/analyzers/internal/sqltext"
)

// The file sources: DDL files named by the configuration and the schema
// files of sqlc configurations. They are read with os.ReadFile, parsed
// once per version (path, size and modification time) per process, and
// are not inputs any build cache knows of: BuildInputs lists them for the
// binary's -V=full.

// sqlcConfigNames are the names sqlc looks for, in its order.
var sqlcConfigNames = []string{"sqlc.yaml", "sqlc.yml", "sqlc.json"}

// warnings receives the problems found in schema files (malformed DDL
// statements, unreadable sqlc configurations); nil discards them.
var (
	warnMu   sync.Mutex
	warnings io.Writer
	warned   = map[string]bool{}
)

// SetWarnings sets where warnings about schema files go. The standalone
// binary sets its standard error; drivers that own the terminal or the
// editor (go vet's tool mode, gopls, golangci-lint) leave them discarded.
// Each warning is written once per process.
func SetWarnings(w io.Writer) {
	warnMu.Lock()
	defer warnMu.Unlock()
	warnings = w
}

func warn(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	warnMu.Lock()
	defer warnMu.Unlock()
	if warnings == nil || warned[msg] {
		return
	}
	if len(warned) > 10_000 {
		warned = map[string]bool{}
	}
	warned[msg] = true
	fmt.Fprintf(warnings, "idemlint: warning: %s\n", msg)
}

// stamp is a file's version: its size and modification time.
func stamp(path string) (string, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return "", err
	}
	if fi.IsDir() {
		return "", fmt.Errorf("is a directory")
	}
	return fmt.Sprint(fi.Size(), " ", fi.ModTime().UnixNano()), nil
}

// groupCache holds parsed DDL groups: the files one source applies in
// order (the configuration's schema list, or one sqlc entry's schema).
var (
	groupMu    sync.Mutex
	groupCache = map[string][]*desc{}
)

// maxCached bounds the caches of a long-lived process (gopls), where
// every edit of a schema file makes a new version.
const maxCached = 256

// loadGroup parses files in order into one catalog. required makes a file
// that cannot be read an error (files the configuration names); otherwise
// it is a warning and is skipped. name names the source ("": the files,
// comma-separated). A statement not understood is a warning, except in
// discovered migrations, which nobody named.
func loadGroup(kind SourceKind, files []string, required bool, namedIn, name string) ([]*desc, error) {
	var key strings.Builder
	fmt.Fprintf(&key, "%d\x00%s", kind, name)
	var readable []string
	for _, f := range files {
		st, err := stamp(f)
		if err != nil {
			if required {
				return nil, fmt.Errorf("schema: %s (named in %s): %v", f, namedIn, unwrapPathError(err))
			}
			warn("%s: cannot read %s (named in %s): %v", kind, f, namedIn, unwrapPathError(err))
			continue
		}
		readable = append(readable, f)
		fmt.Fprintf(&key, "\x00%s\x00%s", f, st)
	}
	groupMu.Lock()
	tables, ok := groupCache[key.String()]
	groupMu.Unlock()
	if ok {
		return tables, nil
	}
	var c sqltext.Catalog
	for _, f := range readable {
		data, err := os.ReadFile(f)
		if err != nil {
			if required {
				return nil, fmt.Errorf("schema: %s (named in %s): %v", f, namedIn, unwrapPathError(err))
			}
			warn("%s: cannot read %s (named in %s): %v", kind, f, namedIn, unwrapPathError(err))
			continue
		}
		for _, p := range c.Exec(stripRollback(string(data))) {
			if kind != FromMigration {
				warn("%s:%d: %s", f, p.Line, p.Msg)
			}
		}
	}
	if name == "" {
		name = strings.Join(readable, ", ")
	}
	source := Source{Kind: kind, Name: name}
	for _, t := range c.Tables() {
		tables = append(tables, ddlTable(t, source))
	}
	groupMu.Lock()
	if len(groupCache) >= maxCached {
		groupCache = map[string][]*desc{}
	}
	groupCache[key.String()] = tables
	groupMu.Unlock()
	return tables, nil
}

func unwrapPathError(err error) error {
	if pe, ok := err.(*fs.PathError); ok {
		return pe.Err
	}
	return err
}

// counterType reports whether a column of this declared type can count
// changes: an integer or numeric type, or a type not written (SQLite).
// A version column of another type (text, an enum, a timestamp) is a
// label ("v2", 'V1'), not a number an update bumps.
func counterType(typ string) bool {
	typ = strings.TrimSpace(strings.ToLower(typ))
	if typ == "" {
		return true
	}
	base, _, _ := strings.Cut(typ, "(")
	switch strings.TrimSpace(base) {
	case "smallint", "integer", "int", "bigint", "int2", "int4", "int8", "smallserial", "serial", "bigserial",
		"serial2", "serial4", "serial8", "tinyint", "mediumint", "numeric", "decimal", "number",
		"int unsigned", "bigint unsigned", "integer unsigned", "smallint unsigned", "tinyint unsigned", "mediumint unsigned":
		return true
	}
	return false
}

// ddlTable converts a catalog table.
func ddlTable(t *sqltext.TableDef, source Source) *desc {
	out := &desc{Source: source, Schema: t.Schema, Name: t.Name, Describes: t.Created && t.Complete}
	for _, c := range t.Columns {
		out.Columns = append(out.Columns, column{Name: c.Name, NotCounter: !counterType(c.Type) ||
			slices.ContainsFunc(t.LiteralSet, func(s string) bool { return strings.EqualFold(s, c.Name) })})
	}
	for _, k := range t.Keys {
		out.Keys = append(out.Keys, Key{
			Name: k.Name, Columns: k.Columns, Parts: k.Parts, Expression: k.Expression,
			Primary: k.Primary, Where: k.Where, Source: source,
		})
	}
	return out
}

// stripRollback drops the down half of a migration file, as sqlc does
// (goose's "-- +goose Down", sql-migrate's "-- +migrate Down", dbmate's
// "-- migrate:down", tern's "---- create above / drop below ----"). Lines
// before it keep their numbers.
func stripRollback(text string) string {
	s := bufio.NewScanner(strings.NewReader(text))
	s.Buffer(nil, len(text)+1)
	var lines []string
	for s.Scan() {
		l := strings.ToLower(s.Text())
		if strings.HasPrefix(l, "-- +goose down") || strings.HasPrefix(l, "-- +migrate down") ||
			strings.HasPrefix(l, "-- migrate:down") || strings.HasPrefix(l, "---- create above / drop below ----") {
			return strings.Join(lines, "\n")
		}
		lines = append(lines, s.Text())
	}
	return text
}

// sqlcConfig is what idemlint reads of a sqlc configuration, version 1
// (packages) or 2 (sql).
type sqlcConfig struct {
	Version  string      `yaml:"version"`
	Packages []sqlcEntry `yaml:"packages"`
	SQL      []sqlcEntry `yaml:"sql"`
}

type sqlcEntry struct {
	Schema pathList `yaml:"schema"`
}

// pathList is a path or a list of paths.
type pathList []string

func (p *pathList) UnmarshalYAML(n *yaml.Node) error {
	switch n.Kind {
	case yaml.ScalarNode:
		*p = pathList{n.Value}
		return nil
	case yaml.SequenceNode:
		var list []string
		if err := n.Decode(&list); err != nil {
			return err
		}
		*p = list
		return nil
	}
	return fmt.Errorf("line %d: schema is neither a path nor a list of paths", n.Line)
}

// sqlcCache holds parsed sqlc configurations by path and version.
var (
	sqlcMu    sync.Mutex
	sqlcCache = map[string]sqlcParsed{}
)

type sqlcParsed struct {
	stamp   string
	entries [][]string // each entry's schema paths, absolute, unexpanded
	err     error
}

// readSqlcConfig returns the schema paths of each entry of a sqlc
// configuration.
func readSqlcConfig(path string) ([][]string, error) {
	st, err := stamp(path)
	if err != nil {
		return nil, err
	}
	sqlcMu.Lock()
	if c, ok := sqlcCache[path]; ok && c.stamp == st {
		sqlcMu.Unlock()
		return c.entries, c.err
	}
	sqlcMu.Unlock()
	entries, err := parseSqlcConfig(path)
	sqlcMu.Lock()
	if len(sqlcCache) >= maxCached {
		sqlcCache = map[string]sqlcParsed{}
	}
	sqlcCache[path] = sqlcParsed{stamp: st, entries: entries, err: err}
	sqlcMu.Unlock()
	return entries, err
}

func parseSqlcConfig(path string) ([][]string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var c sqlcConfig
	// YAML reads sqlc.json too: JSON is YAML.
	if err := yaml.Unmarshal(data, &c); err != nil {
		return nil, fmt.Errorf("%s", strings.TrimPrefix(err.Error(), "yaml: "))
	}
	dir := filepath.Dir(path)
	var entries [][]string
	for _, e := range append(c.Packages, c.SQL...) {
		var paths []string
		for _, p := range e.Schema {
			if p = strings.TrimSpace(p); p == "" {
				continue
			}
			if !filepath.IsAbs(p) {
				p = filepath.Join(dir, p)
			}
			paths = append(paths, filepath.Clean(p))
		}
		if len(paths) > 0 {
			entries = append(entries, paths)
		}
	}
	return entries, nil
}

// expandSchemaPaths lists the files sqlc reads for a schema list, by
// sqlc's rules (internal/sql/sqlpath.Glob): a path with *, ?, [ or ] is a
// glob; a directory stands for its entries; of all these, only files
// ending in .sql, not hidden and not golang-migrate's .down.sql, in the
// order listed (a directory's in name order). A path that does not exist
// is reported; a glob matching nothing is not (sqlc accepts it).
func expandSchemaPaths(patterns []string) (files []string, missing []string) {
	var paths []string
	for _, p := range patterns {
		if strings.ContainsAny(p, "*?[]") {
			m, _ := filepath.Glob(p)
			paths = append(paths, m...)
			continue
		}
		paths = append(paths, p)
	}
	for _, p := range paths {
		fi, err := os.Stat(p)
		if err != nil {
			missing = append(missing, p)
			continue
		}
		if !fi.IsDir() {
			if schemaFileName(p) {
				files = append(files, filepath.Clean(p))
			}
			continue
		}
		entries, err := os.ReadDir(p)
		if err != nil {
			missing = append(missing, p)
			continue
		}
		for _, e := range entries {
			if f := filepath.Join(p, e.Name()); !e.IsDir() && schemaFileName(f) {
				files = append(files, f)
			}
		}
	}
	return files, missing
}

// schemaFileName reports whether sqlc reads a schema file of this name.
func schemaFileName(path string) bool {
	base := filepath.Base(path)
	return strings.HasSuffix(base, ".sql") && !strings.HasPrefix(base, ".") && !strings.HasSuffix(base, ".down.sql")
}

// sqlcConfigsFrom returns the sqlc configurations in dir and its parents
// up to the module root, nearest first.
func sqlcConfigsFrom(dir, root string) []string {
	if root == "" || dir == "" {
		return nil
	}
	rel, err := filepath.Rel(root, dir)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return nil
	}
	var out []string
	for d := dir; ; d = filepath.Dir(d) {
		for _, name := range sqlcConfigNames {
			p := filepath.Join(d, name)
			if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() {
				out = append(out, p)
			}
		}
		if d == root || filepath.Dir(d) == d {
			return out
		}
	}
}

// loadFiles returns the descriptions the file sources give for the package
// in dir under configuration cfg: the DDL files cfg names (an error when
// one cannot be read), or when it names none the module's discovered
// migrations (unless schema-discover is false), and the schema of every
// sqlc configuration from dir up to the module root (a warning when
// something cannot be read).
func loadFiles(cfg *config.Config, dir string) ([]*desc, error) {
	if dependencyModule(cfg.ModuleRoot) {
		return nil, nil
	}
	var out []*desc
	if len(cfg.Schema) > 0 {
		namedIn := cfg.File
		if namedIn == "" {
			namedIn = "the schema flag or setting"
		}
		tables, err := loadGroup(FromDDL, cfg.Schema, true, namedIn, "")
		if err != nil {
			return nil, err
		}
		out = append(out, tables...)
	} else if cfg.SchemaDiscover {
		out = append(out, loadDiscovered(cfg.ModuleRoot)...)
	}
	return append(out, loadSqlc(sqlcConfigsFrom(dir, cfg.ModuleRoot))...), nil
}

// loadSqlc returns the tables of sqlc configurations (a warning when
// something cannot be read).
func loadSqlc(configs []string) []*desc {
	var out []*desc
	for _, sc := range configs {
		entries, err := readSqlcConfig(sc)
		if err != nil {
			warn("%s: %v", sc, err)
			continue
		}
		for _, paths := range entries {
			files, missing := expandSchemaPaths(paths)
			for _, m := range missing {
				warn("sqlc: schema %s (named in %s) does not exist", m, sc)
			}
			tables, _ := loadGroup(FromSqlc, files, false, sc, "")
			out = append(out, tables...)
		}
	}
	return out
}

// dependencyModule reports whether a module root is another module's: the
// standard library or a module in the module cache, whose packages the
// configuration (which names the analysed module's files) does not
// describe.
func dependencyModule(root string) bool {
	if root == "" {
		return true
	}
	if within(root, build.Default.GOROOT) {
		return true
	}
	return strings.Contains(filepath.Base(root), "@")
}

func within(path, dir string) bool {
	if dir == "" {
		return false
	}
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// Walk bounds for BuildInputs.
const (
	maxWalkDirs  = 20_000
	maxWalkDepth = 32
)

// BuildInputs returns the schema and configuration files the analysis of
// the module containing dir may read: its .idemlint.yml and the DDL files
// the configuration names, every other .idemlint.yml in the module and the
// DDL files each names, every sqlc.yaml, sqlc.yml and sqlc.json in the
// module (vendor, testdata, node_modules, dot-directories and nested
// modules skipped; at most 20,000 directories, 32 deep) and the schema
// files each names, and the migrations schema discovery reads
// (discover.go). The binary's -V=full hashes them, so that go vet's
// cache turns over when one changes. Files that cannot be read are listed
// anyway (their names are hashed); the analysis reports them.
func BuildInputs(dir string) []string {
	inputs := config.BuildInputs(dir)
	cfg, err := config.For(dir)
	if err != nil || cfg.ModuleRoot == "" {
		return inputs
	}
	var configs, nested []string
	walkModule(cfg.ModuleRoot, nil, func(path string, d fs.DirEntry) {
		switch name := d.Name(); {
		case slices.Contains(sqlcConfigNames, name):
			configs = append(configs, path)
		case name == config.FileName || name == ".idemlint.yaml":
			nested = append(nested, filepath.Dir(path))
		}
	})
	sort.Strings(configs)
	sort.Strings(nested)
	seen := map[string]bool{}
	for _, f := range inputs {
		seen[f] = true
	}
	add := func(f string) {
		if !seen[f] {
			seen[f] = true
			inputs = append(inputs, f)
		}
	}
	// The .idemlint.yml files of the module's other directories and the
	// DDL files each names: go vet runs -V=full once, in its working
	// directory, whose configuration is not that of the packages below
	// it that have their own.
	for _, d := range nested {
		for _, f := range config.BuildInputs(d) {
			add(f)
		}
	}
	for _, sc := range configs {
		add(sc)
		entries, err := readSqlcConfig(sc)
		if err != nil {
			continue
		}
		for _, paths := range entries {
			files, missing := expandSchemaPaths(paths)
			for _, f := range append(files, missing...) {
				add(f)
			}
		}
	}
	// The discovered migrations, whatever the configuration says of
	// discovery: a nested .idemlint.yml may turn it on for some packages,
	// and hashing a file no package reads only costs a re-analysis.
	for _, f := range discoveredFiles(cfg.ModuleRoot) {
		add(f)
	}
	return inputs
}
