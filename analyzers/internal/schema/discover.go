package schema

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/idemlint/idemlint/analyzers/config"
)

// Discovery of the module's DDL migrations: when the configuration names
// no schema (and schema-discover is not false), the .sql files of the
// module that create or alter tables are read, as sqlc and atlas find the
// schema a service already has. The rule:
//
//   - the module is walked from its root as BuildInputs walks it (vendor,
//     testdata, node_modules, directories starting with . or _, and nested
//     modules skipped; at most maxWalkDirs directories, maxWalkDepth deep),
//     and directories named down or rollback are skipped too;
//   - a file counts when its name ends in .sql, is not hidden, is not a
//     down migration (.down.sql, _down.sql, -down.sql), is at most
//     maxDiscoverFileSize bytes, is not named by a sqlc configuration of
//     the module (sqlc's reading of it stands), and holds a CREATE TABLE,
//     ALTER TABLE or CREATE INDEX statement (query and seed files do not);
//   - the files of one directory are one migration history, applied in the
//     order migration tools apply them: files whose name starts with a
//     version number (golang-migrate's 000001_x.up.sql, goose's and
//     dbmate's timestamps, tern's 001_x.sql, Flyway's V1__x.sql) by that
//     number, then the others by name; the down half of a goose,
//     sql-migrate, dbmate or tern file is dropped (stripRollback);
//   - each directory is a source of its own (FromMigration), and sources
//     merge by union: per-dialect copies of one schema (postgres/,
//     sqlite/) answer alike, and a table only altered in one directory
//     contributes its keys only;
//   - at most maxDiscoverFiles files and maxDiscoverBytes bytes in all;
//     past a bound the rest is left out with one warning.
//
// The walk is done once per process per module root (under go vet, once
// per package); the files are parsed through loadGroup's cache, by path,
// size and modification time. Statements not understood are skipped
// without a warning: nobody named these files, and a migration history
// holds much besides tables (functions, triggers, grants).

// Bounds of the discovery (variables for the tests). A .sql file larger
// than maxDiscoverFileSize is taken for a data dump and skipped without a
// word; a schema that large is named in the configuration.
var (
	maxDiscoverFiles    = 2_000
	maxDiscoverBytes    = int64(64 << 20)
	maxDiscoverFileSize = int64(4 << 20)
)

// ddlStatement finds a statement that creates or alters a table or makes
// an index, in SQL text (never Go source): CREATE [TEMP|UNLOGGED|...]
// TABLE, ALTER TABLE, CREATE [UNIQUE] INDEX.
var ddlStatement = regexp.MustCompile(`(?i)\b(create\s+(\w+\s+){0,2}table|alter\s+table|create\s+(unique\s+)?index)\b`)

// A migrationDir is one directory's discovered files, in apply order.
type migrationDir struct {
	Dir   string   // absolute
	Rel   string   // relative to the module root, slash-separated ("." for the root)
	Files []string // absolute, in apply order
}

// discovered is the result of one module's discovery.
type discovered struct {
	dirs    []migrationDir
	bounded string // the bound that left files out ("" when none did)
}

var (
	discoverMu    sync.Mutex
	discoverCache = map[string]*discovered{}
)

// discoverMigrations returns the migration directories of the module at
// root, walking it once per process.
func discoverMigrations(root string) *discovered {
	discoverMu.Lock()
	defer discoverMu.Unlock()
	if d, ok := discoverCache[root]; ok {
		return d
	}
	d := walkMigrations(root)
	if len(discoverCache) >= maxCached {
		discoverCache = map[string]*discovered{}
	}
	discoverCache[root] = d
	if d.bounded != "" {
		warn("schema discovery in %s stopped at %s; name the schema files in %s (schema: [...]) or set schema-discover: false", root, d.bounded, config.FileName)
	}
	return d
}

// walkModule walks the module at root, skipping what `./...` skips
// (vendor, testdata, node_modules, directories starting with . or _,
// nested modules), within maxWalkDirs directories and maxWalkDepth
// levels. skipDir may skip more directories; file is called for every
// entry that is not a directory (a symbolic link too: the callers decide).
// It reports whether a bound was reached.
func walkModule(root string, skipDir func(name string) bool, file func(path string, d fs.DirEntry)) (bounded bool) {
	dirs := 0
	_ = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			if d != nil && d.IsDir() && path != root {
				return filepath.SkipDir
			}
			return nil
		}
		if d.IsDir() {
			if path == root {
				dirs++
				return nil
			}
			name := d.Name()
			if name == "vendor" || name == "testdata" || name == "node_modules" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") ||
				skipDir != nil && skipDir(name) {
				return filepath.SkipDir
			}
			if dirs++; dirs > maxWalkDirs || strings.Count(path[len(root):], string(filepath.Separator)) > maxWalkDepth {
				bounded = true
				return filepath.SkipDir
			}
			if _, err := os.Stat(filepath.Join(path, "go.mod")); err == nil {
				return filepath.SkipDir // another module
			}
			return nil
		}
		file(path, d)
		return nil
	})
	return bounded
}

// rollbackDir reports whether a directory holds down migrations only.
func rollbackDir(name string) bool {
	name = strings.ToLower(name)
	return name == "down" || name == "rollback" || name == "rollbacks"
}

// migrationFileName reports whether a file of this name may be an up
// migration or a schema file.
func migrationFileName(path string) bool {
	base := strings.ToLower(filepath.Base(path))
	if !strings.HasSuffix(base, ".sql") || strings.HasPrefix(base, ".") {
		return false
	}
	for _, down := range []string{".down.sql", "_down.sql", "-down.sql"} {
		if strings.HasSuffix(base, down) {
			return false
		}
	}
	return true
}

func walkMigrations(root string) *discovered {
	d := &discovered{}
	var candidates, sqlcConfigs []string
	sizes := map[string]int64{}
	if walkModule(root, rollbackDir, func(path string, e fs.DirEntry) {
		switch {
		case slices.Contains(sqlcConfigNames, e.Name()):
			sqlcConfigs = append(sqlcConfigs, path)
		case migrationFileName(path):
			// os.Stat follows a symbolic link to the file it names.
			if fi, err := os.Stat(path); err == nil && fi.Mode().IsRegular() {
				candidates = append(candidates, path)
				sizes[path] = fi.Size()
			}
		}
	}) {
		d.bounded = fmt.Sprintf("%d directories or %d levels", maxWalkDirs, maxWalkDepth)
	}
	// sqlc's schema files are read as sqlc's, from the packages below its
	// configuration.
	bySqlc := map[string]bool{}
	for _, sc := range sqlcConfigs {
		entries, err := readSqlcConfig(sc)
		if err != nil {
			continue
		}
		for _, paths := range entries {
			files, _ := expandSchemaPaths(paths)
			for _, f := range files {
				bySqlc[f] = true
			}
		}
	}
	byDir := map[string][]string{}
	var total int64
	kept := 0
	for _, f := range candidates {
		if bySqlc[f] {
			continue
		}
		if sizes[f] > maxDiscoverFileSize {
			continue // a data dump, not a migration
		}
		if kept >= maxDiscoverFiles || total+sizes[f] > maxDiscoverBytes {
			if d.bounded == "" {
				d.bounded = fmt.Sprintf("%d files or %d MiB", maxDiscoverFiles, maxDiscoverBytes>>20)
			}
			break
		}
		data, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		total += int64(len(data))
		if !ddlStatement.Match(data) {
			continue
		}
		kept++
		byDir[filepath.Dir(f)] = append(byDir[filepath.Dir(f)], f)
	}
	for _, dir := range sortedKeys(byDir) {
		files := byDir[dir]
		sortMigrations(files)
		rel, err := filepath.Rel(root, dir)
		if err != nil {
			rel = dir
		}
		d.dirs = append(d.dirs, migrationDir{Dir: dir, Rel: filepath.ToSlash(rel), Files: files})
	}
	return d
}

// sortMigrations orders one directory's files as migration tools apply
// them: numbered files by their version number (compared as numbers, so
// 2_x before 10_x), then the rest by name.
func sortMigrations(files []string) {
	sort.SliceStable(files, func(i, j int) bool {
		a, b := filepath.Base(files[i]), filepath.Base(files[j])
		va, vb := migrationVersion(a), migrationVersion(b)
		switch {
		case va != "" && vb == "":
			return true
		case va == "" && vb != "":
			return false
		case va != vb:
			if len(va) != len(vb) {
				return len(va) < len(vb)
			}
			return va < vb
		}
		return a < b
	})
}

// migrationVersion returns the version number a migration file's name
// starts with, without leading zeros ("" when it has none): "000012" of
// 000012_x.up.sql is "12", "V3__x.sql" is "3".
func migrationVersion(base string) string {
	if len(base) > 1 && (base[0] == 'V' || base[0] == 'v') && base[1] >= '0' && base[1] <= '9' {
		base = base[1:]
	}
	n := 0
	for n < len(base) && base[n] >= '0' && base[n] <= '9' {
		n++
	}
	if n == 0 {
		return ""
	}
	v := strings.TrimLeft(base[:n], "0")
	if v == "" {
		v = "0"
	}
	return v
}

// loadDiscovered returns the tables of the module's discovered
// migrations, one source per directory.
func loadDiscovered(root string) []*desc {
	var out []*desc
	for _, dir := range discoverMigrations(root).dirs {
		tables, _ := loadGroup(FromMigration, dir.Files, false, "schema discovery", dir.Rel)
		out = append(out, tables...)
	}
	return out
}

// discoveredFiles lists the files discovery reads in the module at root,
// for BuildInputs.
func discoveredFiles(root string) []string {
	var out []string
	for _, dir := range discoverMigrations(root).dirs {
		out = append(out, dir.Files...)
	}
	return out
}
