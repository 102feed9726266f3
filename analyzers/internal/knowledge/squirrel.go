package knowledge

const squirrelPkg = "github.com/Masterminds/squirrel"

// squirrel: Masterminds/squirrel builds SQL at run time. Its ToSql gives
// the text and the binds to database/sql's calls, whose rows say what they
// do; a builder given a runner (RunWith(db)) runs its SQL itself, through
// the finishers below, whose SQL, binds and handle the builder chain says.
// Both are read by squirrel's dialect (ops.Library BuildSQL and Runner).
var squirrel = library{
	name: "squirrel",
	pkgs: []string{squirrelPkg},
	calls: append(squirrelFinishers("SelectBuilder", "InsertBuilder", "UpdateBuilder", "DeleteBuilder"),
		Call{Func: method(squirrelPkg, "RowScanner", "Scan"), Kind: Scan, Params: []Param{p(0, Dest)}},
	),
}

// squirrelFinishers are the calls of a builder that run its SQL on the
// runner it was given (DeleteBuilder has no QueryRow).
func squirrelFinishers(builders ...string) []Call {
	var out []Call
	for _, b := range builders {
		out = append(out,
			Call{Func: method(squirrelPkg, b, "Exec"), Kind: Exec, Result: ExecResult},
			Call{Func: method(squirrelPkg, b, "ExecContext"), Kind: Exec, Result: ExecResult},
			Call{Func: method(squirrelPkg, b, "QueryRowContext"), Kind: Query, Result: RowResult},
		)
		if b != "DeleteBuilder" {
			out = append(out, Call{Func: method(squirrelPkg, b, "QueryRow"), Kind: Query, Result: RowResult})
		}
	}
	return out
}
