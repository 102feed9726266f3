package knowledge

const squirrelPkg = "github.com/Masterminds/squirrel"

// squirrel: Masterminds/squirrel builds SQL at run time. Its ToSql gives
// the text and the binds to database/sql's calls, whose rows say what they
// do; the builder chain is read by squirrel's dialect (ops.Library
// BuildSQL). No row of its own: the package is covered so that no summary
// is computed from its bodies (its RunWith finishers run SQL nothing can
// read statically).
var squirrel = library{
	name: "squirrel",
	pkgs: []string{squirrelPkg},
}
