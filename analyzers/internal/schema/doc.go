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
//	Table(t types.Type) (string, bool)      a GORM model's table
//	Model(t) (*Model, bool)                 a GORM model: table, field→column, keys
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
//   - sqlc: every sqlc.yaml, sqlc.yml and sqlc.json from the package's
//     directory up to the module root, and from the directory of each
//     package of sqlc-generated code it imports up to the module root
//     (carried by that package's fact: sqlc.yaml usually sits beside the
//     generated code, below its callers); versions 1 (packages) and 2 (sql);
//     each entry's schema is a file, a directory (its .sql files, not
//     hidden, not .down.sql, in name order), a glob, or a list of these,
//     relative to the configuration file. Each entry is one catalog.
//   - ent: a generated migrate package (package migrate, variables of
//     entgo.io/ent/dialect/sql/schema's Column and Table), read from its
//     syntax when it is analysed: columns with Unique, PrimaryKey, and
//     Indexes with Unique and an entsql.IndexAnnotation Where.
//   - GORM models, from go/types: struct tags primaryKey/primary_key,
//     unique, uniqueIndex[:name], index:[name],unique (or class:UNIQUE),
//     composite:, priority:, where: (a partial key), expression: (an
//     expression key), column:, embedded, embeddedPrefix:, "-"; embedded
//     structs flattened; GORM's default primary key (the id column, or a
//     field named ID) when none is tagged; a TableName() string method
//     returning a constant.
//
// The Go sources travel as facts: an internal fact analyzer exports, for
// every package, the ent tables, the GORM models carrying GORM evidence
// and the TableName constants of the package and of everything it
// imports (each importer re-exports the union, since go vet, gopls and
// golangci-lint hand a package only its direct imports' facts). A
// TableName method of an imported type is known through that fact; one
// whose result is not a constant (or TableName(Namer)) makes the type's
// table unknown.
//
// # Rules
//
// GORM naming is gorm.io/gorm v1.31.2's default NamingStrategy, ported:
// columns are toDBName of the field (UserID → user_id, HTTPServer →
// http_server), tables the jinzhu/inflection plural of toDBName of the
// type (Person → people, Human → humen, as GORM does). A project with
// another NamingStrategy (SingularTable, TablePrefix) must declare
// TableName methods, or its GORM-derived tables are misnamed.
//
// A GORM struct describes its table (so that No is possible) only when it
// carries GORM evidence: a gorm tag (an embedded gorm.Model counts), an
// optimisticlock.Version field or a constant TableName method. Any struct
// can be passed to GORM, so a plain one contributes its primary key only,
// through ModelUnique.
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
// evidence from updates): a field of type gorm.io/plugin/optimisticlock
// Version (VersionPlugin), a column named by the version-column setting in
// DDL, sqlc or ent (VersionColumn), or a GORM field named by the
// version-field setting (VersionField), strongest first. VersionColumn
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
