// Package schema knows which column sets of a table are unique and which
// tables carry a version column, for idemlint's analyzers. Its Analyzer
// (not in the registry) gives a *Schema per package:
//
//	Unique(table, columns...) Answer        Yes, Partial, No or Unknown
//	UniqueKey(table, columns...) (Key, Answer)
//	Describes(table) bool                   some source describes the table completely
//	Keys(table), Columns(table), Sources(table), Tables()
//	VersionColumn(table) (string, bool)     the static half of the versioned rule
//	Version(table) (Version, bool)          … with the evidence (Kind) and Source
//	Table(t types.Type) (string, bool)      a model's table
//	Model(t) (*Model, bool)                 a model: table, field→column, keys
//	ModelUnique(t, columns...), ModelVersion(t), Column(t, field)
//
// Table names are "name" or "schema.name"; column names are SQL names as
// sqltext normalises them (unquoted lower-cased). A description without a
// schema matches any schema; names compare exactly and, when nothing
// matches exactly, case-insensitively.
//
// # Sources
//
//   - DDL files named by the configuration (the schema setting, resolved
//     against the module root): CREATE TABLE, CREATE UNIQUE INDEX (partial
//     ones keep their predicate), ALTER TABLE, DROP, applied in the order
//     listed, through sqltext.Catalog. Migration files lose their down
//     half (goose, sql-migrate, dbmate, tern markers), as sqlc does.
//   - Discovered migrations, when the configuration names no schema and
//     schema-discover is not false: the module's .sql files that create or
//     alter tables or make indexes, one source per directory, in the order
//     migration tools apply them (discover.go has the rule).
//   - sqlc: every sqlc.yaml, sqlc.yml and sqlc.json from the package's
//     directory up to the module root, and from the directory of each
//     package of sqlc-generated code it imports up to the module root
//     (carried by that package's fact: sqlc.yaml usually sits beside the
//     generated code, below its callers); versions 1 (packages) and 2 (sql);
//     each entry's schema is a file, a directory (its .sql files, not
//     hidden, not .down.sql, in name order), a glob, or a list of these,
//     relative to the configuration file. Each entry is one catalog.
//   - Go code a library's dialect reads (analyzers/internal/dialect):
//     the tables of a generated package, through the TableReader its
//     dialect registers (ent's migrate package), and models, struct
//     types read by the ModelReader of the library that claims them (a
//     tag of its, a base model of it embedded), or, for a struct no
//     library claims, by the one default reader (GORM's: any struct can
//     be handed to GORM). Each reader's rules are in its dialect's file.
//
// The Go sources travel as facts: an internal fact analyzer exports, for
// every package, the generated tables, the models carrying their
// library's evidence and the TableName constants of the package and of
// everything it imports (each importer re-exports the union, since go
// vet, gopls and golangci-lint hand a package only its direct imports'
// facts). A TableName method of an imported type is known through that
// fact; one whose result is not a constant (or TableName(Namer)) makes
// the type's table unknown. No model or TableName is read in a package a
// reader says is its library's own (ModelReader.Own).
//
// # Rules
//
// A model describes its table (so that No is possible) only when it
// carries its library's evidence (Model.Evidence): a claimed model
// always does; the default reader says which of the structs it reads do.
// A plain struct contributes its primary key only, through ModelUnique.
// A reader marks the models of a library whose tables usually come from
// migrations KeysOnly: their keys count, their columns make no No.
//
// Merge: the sources are united. A key declared by any source counts (a
// unique key whose columns lie within the columns asked makes them
// unique); a table described by any source can answer No. Unique answers,
// in order: Yes for a full key within the columns; Partial for a partial
// unique index within them; Unknown when no source describes the table,
// when a column asked is not among the columns any source lists, or when
// an expression key reads one of the columns (unique lower(email) makes
// email unique, but which expressions imply what is not decided here);
// otherwise No. A DDL table that was only altered or indexed (created in
// a file not read), or created by LIKE, INHERITS, PARTITION OF or AS
// SELECT, contributes its keys but does not describe the table.
//
// Versioned (the static half of design.md's rule; the ops layer adds the
// evidence from updates): a model's field of the type a plugin of its
// library versions by itself (VersionPlugin), a column named by the
// version-column setting in DDL, sqlc or generated code (VersionColumn),
// or a model's field named by the version-field setting (VersionField),
// strongest first. VersionColumn
// returns the column for all three; callers that follow design.md to the
// letter treat VersionField as a candidate needing an update's evidence.
//
// # Files and caches
//
// Files are read with os.ReadFile, paths resolved against the module root
// (or the sqlc configuration's directory), never the working directory.
// Parsed files are cached per process by path, size and modification
// time, so a long-lived process sees edits. A DDL file the configuration
// names that cannot be read makes the Analyzer fail with an error naming
// it; a malformed statement is skipped and the rest used, with a warning
// naming file and line when SetWarnings has a writer (only the standalone
// binary sets one). Packages of other modules (the standard library, the
// module cache) read no files: the configuration describes the module
// being analysed.
//
// None of the files are inputs of go vet's, gopls' or golangci-lint's
// caches. BuildInputs lists them for the binary's -V=full; see
// docs/design.md for what each driver's users must do.
package schema
