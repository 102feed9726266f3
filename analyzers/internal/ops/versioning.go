package ops

import (
	"go/types"
	"strings"

	"github.com/idemlint/idemlint/analyzers/config"
	"github.com/idemlint/idemlint/analyzers/internal/schema"
)

// Versioning is design.md's versioned rule decided once for a package:
// which rows its writes treat as versioned, and by which column. noversion
// reports the writes of those rows; lostupdate leaves them to it (one
// finding per bug). Deciding it in one place keeps the two from both
// reporting a write, or both leaving it alone.
//
// A row is versioned when the schema layer finds a version for its table
// (an optimisticlock.Version field, or the version-column setting's
// column in DDL, a query generator's schema or ent) and, when that
// evidence is only a GORM field named as the version-field setting, or
// when an update of the package sets the column to a constant without
// comparing it (a format version: SET version = 2), some update of the
// package compares or bumps it. A table no schema source describes is
// versioned when some update of the package compares or bumps its
// version-column column.
type Versioning struct {
	sch    *schema.Schema
	column string // the version-column setting
	// evidence holds the tables (lower case) some update of the package
	// compares or bumps the version of; inferred, those of them no
	// schema source describes.
	evidence map[string]bool
	inferred map[string]bool
	// constant holds the tables (lower case) some update of the package
	// sets the version column of to a constant without comparing it
	// (SET version = 2 WHERE id = $1): the column marks something else
	// (a format or module version), not a concurrency counter.
	constant map[string]bool
}

// Versioning returns the package's versioned rule, computed on first use
// from its updates. It must be called before the caller releases r.
func (r *Result) Versioning(sch *schema.Schema, cfg *config.Config) *Versioning {
	if r == nil || sch == nil {
		return nil
	}
	r.versioningOnce.Do(func() {
		v := &Versioning{sch: sch, evidence: map[string]bool{}, inferred: map[string]bool{}, constant: map[string]bool{}}
		if cfg != nil {
			v.column = cfg.VersionColumn
		}
		for _, fn := range r.Funcs {
			for _, u := range r.Updates(fn) {
				table, version, ok := v.static(u)
				if ok && version.Kind != schema.VersionPlugin && containsFoldStr(u.Constants, version.Column) && !pinsOrBumps(u, version) {
					v.constant[strings.ToLower(table)] = true
				}
				switch {
				case ok && pinsOrBumps(u, version):
					v.evidence[strings.ToLower(table)] = true
				case !ok && u.Model == nil && u.Table != "" && v.column != "" && !sch.Describes(u.Table) &&
					pinsOrBumps(u, schema.Version{Column: v.column}):
					v.evidence[strings.ToLower(u.Table)] = true
					v.inferred[strings.ToLower(u.Table)] = true
				}
			}
		}
		r.versioning = v
	})
	return r.versioning
}

// static returns the table an update writes and the version the schema
// layer finds for it, before any evidence from updates.
func (v *Versioning) static(u *Update) (string, schema.Version, bool) {
	if u.Model != nil {
		table, ok := v.sch.Table(u.Model)
		if !ok || table == "" {
			return "", schema.Version{}, false
		}
		version, ok := v.sch.ModelVersion(u.Model)
		return table, version, ok && version.Column != ""
	}
	version, ok := v.sch.Version(u.Table)
	return u.Table, version, ok && version.Column != ""
}

// pinsOrBumps reports whether an update compares the version in its WHERE
// (the column, or the field in a GORM struct condition) or bumps it.
func pinsOrBumps(u *Update, version schema.Version) bool {
	return u.ComparesColumn(version.Column) || u.BumpsColumn(version.Column) ||
		(version.Field != "" && containsFoldStr(u.WhereFields, version.Field))
}

// Table returns the version of a table named in SQL, and whether the
// package treats it as versioned; inferred says no schema source knows
// it (the package's own updates make it versioned).
func (v *Versioning) Table(table string) (version schema.Version, inferred, ok bool) {
	if v == nil || table == "" {
		return schema.Version{}, false, false
	}
	if version, ok := v.sch.Version(table); ok && version.Column != "" {
		return version, false, v.counts(table, version)
	}
	if v.inferred[strings.ToLower(table)] {
		return schema.Version{Column: v.column, Kind: schema.VersionColumn}, true, true
	}
	return schema.Version{}, false, false
}

// Model returns the version of a GORM model's table, and whether the
// package treats it as versioned.
func (v *Versioning) Model(t types.Type) (schema.Version, bool) {
	if v == nil {
		return schema.Version{}, false
	}
	table, ok := v.sch.Table(t)
	if !ok || table == "" {
		return schema.Version{}, false
	}
	version, ok := v.sch.ModelVersion(t)
	if !ok || version.Column == "" {
		return schema.Version{}, false
	}
	return version, v.counts(table, version)
}

// counts applies the evidence rule to a version the schema layer found:
// a GORM field named as the version-field setting needs an update that
// compares or bumps it, and a column the package sets to a constant
// without comparing it is not a version unless some update compares or
// bumps it too.
func (v *Versioning) counts(table string, version schema.Version) bool {
	t := strings.ToLower(table)
	switch {
	case version.Kind == schema.VersionPlugin:
		return true
	case version.Kind == schema.VersionField || v.constant[t]:
		return v.evidence[t]
	}
	return true
}

// Schema returns the schema the rule reads.
func (v *Versioning) Schema() *schema.Schema {
	if v == nil {
		return nil
	}
	return v.sch
}
