package main

import (
	"crypto/sha256"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/multichecker"

	"github.com/idemlint/idemlint/analyzers"
	"github.com/idemlint/idemlint/analyzers/config"
)

// Main runs the driver over all, the registry's analyzers, and exits.
//
// It answers what multichecker cannot know (-V=full with the configuration
// files in the build ID, help NAME from the generated docs, the standalone
// modes), applies the Default set and the always-on ignoredirective to the
// arguments, and hands everything else, including go vet's *.cfg protocol,
// -flags, -json, -fix and -diff, to multichecker.Main.
func Main(all []*analysis.Analyzer) {
	config.RegisterFlags(flag.CommandLine)
	args := os.Args[1:]

	if versionRequested(args) {
		if err := printVersion(os.Stdout); err != nil {
			fatalf("%v", err)
		}
		os.Exit(0)
	}
	if rest := positional(args); len(rest) > 0 && rest[0] == "help" {
		os.Exit(help(os.Stdout, all, rest[1:]))
	}
	// Standalone-only modes (-sarif, -baseline) are handled here, before
	// multichecker, when they land.

	if !slices.Contains(args, "-flags") && !slices.Contains(args, "--flags") && !isVetUnit(args) {
		wd, _ := os.Getwd()
		if err := config.Validate(wd); err != nil {
			fatalf("bad configuration: %v", err)
		}
		// Standalone: say which schema statements were skipped. As go
		// vet's tool the binary stays quiet, like gopls and golangci-lint.
		analyzers.SetWarnings(os.Stderr)
	}
	os.Args = append([]string{os.Args[0]}, selectAnalyzers(all, args)...)
	multichecker.Main(all...)
}

func fatalf(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "idemlint: "+format+"\n", args...)
	os.Exit(2)
}

// versionRequested reports whether the go command is asking for the tool ID
// (-V=full), which it uses as the key of go vet's result cache.
func versionRequested(args []string) bool {
	return slices.Contains(args, "-V=full") || slices.Contains(args, "--V=full")
}

// printVersion prints the tool ID in the form cmd/go parses. The ID hashes
// the executable together with the configuration and schema files the
// analysis of the working directory's module reads (analyzers.BuildInputs:
// .idemlint.yml, its DDL files, every sqlc configuration in the module and
// their schema files), since go vet's cache does not know they are
// inputs.
func printVersion(w io.Writer) error {
	exe, err := os.Executable()
	if err != nil {
		return err
	}
	h := sha256.New()
	if err := hashFile(h, exe); err != nil {
		return err
	}
	wd, _ := os.Getwd()
	for _, f := range analyzers.BuildInputs(wd) {
		fmt.Fprintf(h, "\x00%s\x00", f)
		_ = hashFile(h, f) // a missing file hashes as its name alone; the analysis reports it
	}
	_, err = fmt.Fprintf(w, "%s version devel comments-go-here buildID=%02x\n", filepath.Base(exe), h.Sum(nil))
	return err
}

func hashFile(w io.Writer, name string) error {
	f, err := os.Open(name)
	if err != nil {
		return err
	}
	defer f.Close()
	_, err = io.Copy(w, f)
	return err
}

// isVetUnit reports whether the arguments are go vet's: flags and one *.cfg
// file describing one package.
func isVetUnit(args []string) bool {
	rest := positional(args)
	return len(rest) == 1 && strings.HasSuffix(rest[0], ".cfg")
}

// positional returns the arguments after the flags, approximately: those
// that do not start with "-", and everything after "--". Flag values given
// as separate arguments ("-schema a.sql") are not positional, but the
// callers only look for "help" and "*.cfg", which are never flag values.
func positional(args []string) []string {
	var out []string
	for i, a := range args {
		if a == "--" {
			return append(out, args[i+1:]...)
		}
		if !strings.HasPrefix(a, "-") {
			out = append(out, a)
		}
	}
	return out
}

// selectAnalyzers rewrites the arguments so that multichecker runs the
// analyzers analyzers.Select chooses: with no analyzer enabled by name, the
// Default set less those disabled by name; ignoredirective unless disabled
// by name. multichecker's own rule (if any -NAME is true, run only those)
// then does the rest, so every analyzer's flag still exists for -flags and
// go vet.
func selectAnalyzers(all []*analysis.Analyzer, args []string) []string {
	if slices.Contains(args, "-flags") || slices.Contains(args, "--flags") {
		return args
	}
	var enabled, disabled []string
	for _, a := range args {
		if a == "--" {
			break
		}
		name, on, ok := enableFlag(all, a)
		switch {
		case !ok:
		case on:
			enabled = append(enabled, name)
		default:
			disabled = append(disabled, name)
		}
	}
	selected := analyzers.Select(enabled, disabled)
	var injected []string
	for _, a := range selected {
		if !slices.Contains(enabled, a.Name) {
			injected = append(injected, "-"+a.Name+"=true")
		}
	}
	return append(injected, args...)
}

// enableFlag parses arg as an analyzer's enable flag (-NAME, -NAME=BOOL).
func enableFlag(all []*analysis.Analyzer, arg string) (name string, on, ok bool) {
	s := strings.TrimPrefix(strings.TrimPrefix(arg, "-"), "-")
	if s == arg {
		return "", false, false
	}
	name, value, hasValue := strings.Cut(s, "=")
	if !slices.ContainsFunc(all, func(a *analysis.Analyzer) bool { return a.Name == name }) {
		return "", false, false
	}
	if !hasValue {
		return name, true, true
	}
	on, err := strconv.ParseBool(value)
	if err != nil {
		return "", false, false // multichecker reports the bad value
	}
	return name, on, true
}

// help prints the list of analyzers, or the documentation of the named ones
// (the same text as docs/analyzers/NAME.md).
func help(w io.Writer, all []*analysis.Analyzer, names []string) int {
	if len(names) == 0 {
		fmt.Fprintln(w, "idemlint finds the concurrency and retry hazards of Go services backed by a database.")
		fmt.Fprintln(w, "\nUsage:\n\tidemlint [flags] packages\n\tgo vet -vettool=$(command -v idemlint) [flags] packages")
		fmt.Fprintln(w, "\nAnalyzers (run `idemlint help NAME` for one):")
		defaults := analyzers.Default()
		for _, a := range all {
			summary, _, _ := strings.Cut(a.Doc, "\n")
			note := ""
			if !slices.Contains(defaults, a) {
				note = " (opt-in)"
			}
			fmt.Fprintf(w, "\t%-16s %s%s\n", a.Name, summary, note)
		}
		fmt.Fprintln(w, "\nFlags (run `idemlint -help` for all):")
		flag.VisitAll(func(f *flag.Flag) {
			if slices.Contains(config.Names(), f.Name) {
				fmt.Fprintf(w, "\t-%-20s %s\n", f.Name, f.Usage)
			}
		})
		return 0
	}
	status := 0
	for _, name := range names {
		i := slices.IndexFunc(all, func(a *analysis.Analyzer) bool { return a.Name == name })
		if i < 0 {
			fmt.Fprintf(os.Stderr, "idemlint: no analyzer %q; run `idemlint help` for the list\n", name)
			status = 2
			continue
		}
		w.Write(analyzers.Markdown(all[i]))
	}
	return status
}
