// Command golangci is golangci-lint v2.15.0 with idemlint built in as a
// module plugin: the program `golangci-lint custom` builds from a
// .custom-gcl.yml naming github.com/idemlint/idemlint/plugin, made from
// golangci-lint's public pkg/commands instead of a clone of its repository,
// so that it builds with the module proxy alone. go.mod replaces idemlint
// with this checkout. plugin/golangci_e2e_test.go builds and runs it; see
// docs/golangci-lint.md.
package main

import (
	"fmt"
	"os"
	"runtime"

	"github.com/golangci/golangci-lint/v2/pkg/commands"
	"github.com/golangci/golangci-lint/v2/pkg/exitcodes"

	_ "github.com/idemlint/idemlint/plugin"
)

// version may be set with -ldflags "-X main.version=...". golangci-lint
// salts its result cache with the version, so a fixed one would let a
// rebuilt plugin's findings come from the cache of an older build; with
// "(devel)" it salts the cache with a hash of its own executable instead.
var version = "(devel)"

func main() {
	info := commands.BuildInfo{
		Version:   version,
		Commit:    "?",
		Date:      "(unknown)",
		GoVersion: runtime.Version(),
	}
	if err := commands.Execute(info); err != nil {
		fmt.Fprintf(os.Stderr, "The command is terminated due to an error: %v\n", err)
		os.Exit(exitcodes.Failure)
	}
}
