package report

import (
	"fmt"
	"go/token"
	"os"
	"reflect"
	"runtime/debug"

	"golang.org/x/tools/go/analysis"
)

// Guard wraps an analyzer's Run so that a panic in our own code becomes one
// internal-error diagnostic at the package clause and no findings, instead
// of a crash of the driver (which would take down go vet, golangci-lint or
// the editor's gopls with it). The result of a guarded Run that panicked is
// the zero value of the analyzer's ResultType (a nil pointer: the drivers
// check the result's type), so analyzers that require it must accept a nil
// result.
func Guard(run func(*analysis.Pass) (any, error)) func(*analysis.Pass) (any, error) {
	return func(pass *analysis.Pass) (result any, err error) {
		defer func() {
			if p := recover(); p != nil {
				pos := token.NoPos
				if len(pass.Files) > 0 {
					pos = pass.Files[0].Package
				}
				reportInternal(pass, pos, "package "+pass.Pkg.Path(), p)
				result, err = nil, nil
				if t := pass.Analyzer.ResultType; t != nil {
					result = reflect.Zero(t).Interface()
				}
			}
		}()
		return run(pass)
	}
}

// reportInternal reports a recovered panic. The message names the analyzer
// and what it was analysing; the stack goes to standard error only when
// IDEMLINT_TRACE is set, since it means nothing to most users.
func reportInternal(pass *analysis.Pass, pos token.Pos, subject string, p any) {
	if os.Getenv("IDEMLINT_TRACE") != "" {
		fmt.Fprintf(os.Stderr, "idemlint: %s panicked on %s: %v\n%s", pass.Analyzer.Name, subject, p, debug.Stack())
	}
	pass.Report(analysis.Diagnostic{
		Pos:      pos,
		Category: "internal",
		Message: fmt.Sprintf("internal error: %s failed while analysing %s (%v); no findings for it: please report this, with IDEMLINT_TRACE=1 output",
			pass.Analyzer.Name, subject, p),
	})
}

// IllTyped reports whether the package of the pass has type errors of its
// own. Every idemlint analyzer runs despite errors, so that a package whose
// dependency does not compile is still analysed with what can be known and
// the broken package's facts (empty, or its imports' re-exported) reach its
// importers; on the broken package itself an analyzer reports nothing,
// since the driver has already printed its errors and findings over
// ill-typed code would be guesses.
func IllTyped(pass *analysis.Pass) bool { return len(pass.TypeErrors) > 0 }
