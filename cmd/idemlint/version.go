package main

import (
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
)

// moduleVersion is idemlint's module version as the build recorded it:
// a tag or pseudo-version for `go install ...@version`, "(devel)" for a
// build from a checkout.
func moduleVersion() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok || bi.Main.Version == "" {
		return "(devel)"
	}
	return bi.Main.Version
}

// printHumanVersion prints `idemlint version`: the module version, the
// commit a checkout build was made from, the x/tools version the
// analyzers were built with, and the Go toolchain.
func printHumanVersion(w io.Writer) {
	fmt.Fprintf(w, "idemlint %s\n", moduleVersion())
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return
	}
	settings := map[string]string{}
	for _, s := range bi.Settings {
		settings[s.Key] = s.Value
	}
	if rev := settings["vcs.revision"]; rev != "" {
		modified := ""
		if settings["vcs.modified"] == "true" {
			modified = ", modified"
		}
		fmt.Fprintf(w, "  commit %s (%s%s)\n", rev, settings["vcs.time"], modified)
	}
	for _, dep := range bi.Deps {
		if dep.Path != "golang.org/x/tools" {
			continue
		}
		if dep.Replace != nil {
			dep = dep.Replace
		}
		fmt.Fprintf(w, "  golang.org/x/tools %s\n", dep.Version)
	}
	fmt.Fprintf(w, "  built with %s for %s/%s\n", bi.GoVersion, runtime.GOOS, runtime.GOARCH)
}
