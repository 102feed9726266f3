package schema

import (
	"slices"

	"golang.org/x/tools/go/analysis"
)

// A TableReader is one library's reading of the tables its generated code
// declares (a migration package that describes every table in Go), when
// that package is analysed. A library's dialect registers it
// (RegisterTables) when the program starts; the tables travel as facts
// to every importer, as models do.
type TableReader struct {
	// Lib is the library family, recorded on the tables' sources.
	Lib string
	// Read returns the tables the package declares, nil for a package
	// that is not the library's generated code. It runs on every package
	// the schema layer reads, so it must first rule out the others
	// cheaply.
	Read func(pass *analysis.Pass) []*Table
}

// A Table is one table as generated code declares it.
type Table struct {
	Schema, Name string
	Columns      []string
	// Keys are its unique keys; the schema layer sets their Source.
	Keys []Key
	// Describes: its columns and keys are all known (what the reader did
	// not understand leaves it contributing its keys only).
	Describes bool
	// NotCounters are columns whose declared type cannot count changes
	// (text, an enum, a time): named as the version column, they are
	// labels, not versions.
	NotCounters []string
}

// tableReaders are the registered readers; RegisterTables is called from
// package initialisation only, so they are read without a lock.
var tableReaders []*TableReader

// RegisterTables adds a library's reader of generated tables.
func RegisterTables(r *TableReader) { tableReaders = append(tableReaders, r) }

// readTables returns the tables the package declares, as every reader
// reads them.
func readTables(pass *analysis.Pass) []*desc {
	var out []*desc
	for _, r := range tableReaders {
		for _, t := range r.Read(pass) {
			src := Source{Kind: FromCode, Lib: r.Lib, Name: pass.Pkg.Path()}
			d := &desc{Source: src, Schema: t.Schema, Name: t.Name, Describes: t.Describes}
			for _, c := range t.Columns {
				d.Columns = append(d.Columns, column{Name: c, NotCounter: slices.Contains(t.NotCounters, c)})
			}
			for _, k := range t.Keys {
				k.Source = src
				d.Keys = append(d.Keys, k)
			}
			out = append(out, d)
		}
	}
	return out
}
