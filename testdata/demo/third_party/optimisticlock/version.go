// Package optimisticlock is a stand-in for gorm.io/plugin/optimisticlock,
// which the module proxy this repository is built with does not serve. It
// declares the plugin's exported API (the Version type and the clause
// interfaces GORM looks for), written for this test module, so that code
// using the plugin type-checks; it does not implement the plugin's
// statement rewriting. The demo is analysed, never run.
package optimisticlock

import (
	"database/sql"
	"database/sql/driver"
	"encoding/json"

	"gorm.io/gorm/clause"
	"gorm.io/gorm/schema"
)

// Version is the version field type: GORM adds "version = version + 1" to
// updates and "AND version = <loaded value>" to their WHERE clause.
type Version sql.NullInt64

// Scan implements sql.Scanner.
func (v *Version) Scan(value any) error { return (*sql.NullInt64)(v).Scan(value) }

// Value implements driver.Valuer.
func (v Version) Value() (driver.Value, error) {
	if !v.Valid {
		return nil, nil
	}
	return v.Int64, nil
}

// MarshalJSON encodes a valid version as a number and an invalid one as null.
func (v Version) MarshalJSON() ([]byte, error) {
	if !v.Valid {
		return []byte("null"), nil
	}
	return json.Marshal(v.Int64)
}

// UnmarshalJSON is the inverse of MarshalJSON.
func (v *Version) UnmarshalJSON(data []byte) error {
	if string(data) == "null" {
		*v = Version{}
		return nil
	}
	v.Valid = true
	return json.Unmarshal(data, &v.Int64)
}

// CreateClauses implements schema.CreateClausesInterface.
func (v *Version) CreateClauses(*schema.Field) []clause.Interface { return nil }

// UpdateClauses implements schema.UpdateClausesInterface.
func (v *Version) UpdateClauses(*schema.Field) []clause.Interface { return nil }
