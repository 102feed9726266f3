package main

import (
	"crypto/sha256"
	"encoding/json"
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
// `idemlint [flags] packages` is the standalone driver (standalone.go),
// which prints the findings itself. What multichecker knows best stays
// multichecker's: go vet's *.cfg protocol and -flags, with the Default set
// and the always-on ignoredirective applied to the arguments. The binary
// answers the rest: -V=full with the configuration files in the build ID,
// `help [NAME]` and `version`.
func Main(all []*analysis.Analyzer) {
	args := os.Args[1:]
	rest := positional(args)
	switch {
	case versionRequested(args), isVetUnit(args), slices.Contains(args, "-flags"), slices.Contains(args, "--flags"):
		multicheckerMain(all, args)
	case len(rest) > 0 && rest[0] == "help":
		config.RegisterFlags(flag.CommandLine) // listed by help
		os.Exit(help(os.Stdout, all, rest[1:]))
	case len(args) == 1 && args[0] == "version":
		printHumanVersion(os.Stdout)
		os.Exit(0)
	default:
		os.Exit(standalone(all, args, os.Stdout, os.Stderr))
	}
}

// multicheckerMain runs go vet's protocols: -V=full, -flags and one
// package's *.cfg.
func multicheckerMain(all []*analysis.Analyzer, args []string) {
	config.RegisterFlags(flag.CommandLine)
	// The configuration is validated before multichecker parses the
	// command line: apply the configuration flags now.
	early := flag.NewFlagSet("idemlint", flag.ContinueOnError)
	early.SetOutput(io.Discard)
	config.RegisterFlags(early)
	if err := early.Parse(configFlags(args)); err != nil {
		fatalf("%v", err)
	}

	if versionRequested(args) {
		// go vet asks for the tool ID once, in its working directory,
		// before it runs the tool on any package: a bad configuration
		// found here stops it with one error instead of one per package.
		wd, _ := os.Getwd()
		if err := config.ValidateTree(wd); err != nil {
			fatalf("bad configuration: %v", err)
		}
		if err := printVersion(os.Stdout); err != nil {
			fatalf("%v", err)
		}
		os.Exit(0)
	}
	if isVetUnit(args) {
		// One package, with go vet's flags (-schema among them, which the
		// tool ID check above did not see). A dependency analysed only for
		// its facts (the standard library's among them) prints nothing.
		if dir, factsOnly := vetUnit(positional(args)[0]); !factsOnly {
			if err := config.Validate(dir); err != nil {
				fatalf("bad configuration: %v", err)
			}
		}
	}
	os.Args = append([]string{os.Args[0]}, selectAnalyzers(all, args)...)
	multichecker.Main(all...)
}

// outputFlags are the standalone driver's output flags as `idemlint help`
// lists them.
var outputFlags = [][2]string{
	{"-json", "JSON on stdout, multichecker's shape; exit status 0 unless -fail-on-findings"},
	{"-fail-on-findings", "with -json: exit status 3 when there are findings"},
	{"-fix", "apply the suggested fixes; report (status 3) the findings left"},
	{"-diff", "with -fix: print the fixes as a unified diff, change no file"},
	{"-sarif=FILE", "also write SARIF 2.1.0 to FILE (- for stdout)"},
	{"-codeclimate=FILE", "also write a GitLab code quality report to FILE (- for stdout)"},
	{"-baseline=FILE", "report only the findings FILE does not record"},
	{"-write-baseline", "with -baseline=FILE: record today's findings in FILE"},
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

// configFlags returns the configuration flags among the arguments
// (-schema=a.sql, -schema a.sql), up to the first argument that is not a
// flag.
func configFlags(args []string) []string {
	var out []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" || !strings.HasPrefix(a, "-") {
			break
		}
		name, _, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if !slices.Contains(config.Names(), name) {
			continue
		}
		out = append(out, a)
		if !hasValue && !config.IsBool(name) && i+1 < len(args) {
			i++
			out = append(out, args[i])
		}
	}
	return out
}

// vetUnit reads a go vet *.cfg file: the directory of the package's files
// ("" if it cannot be read: the analysis then reports that), and whether
// go vet wants only its facts.
func vetUnit(cfgFile string) (dir string, factsOnly bool) {
	data, err := os.ReadFile(cfgFile)
	if err != nil {
		return "", false
	}
	var cfg struct {
		GoFiles  []string
		VetxOnly bool
	}
	if json.Unmarshal(data, &cfg) != nil || len(cfg.GoFiles) == 0 {
		return "", cfg.VetxOnly
	}
	// The files are named relative to the directory go vet runs the tool
	// in, the package's.
	dir, err = filepath.Abs(filepath.Dir(cfg.GoFiles[0]))
	if err != nil {
		return "", cfg.VetxOnly
	}
	return dir, cfg.VetxOnly
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
// (docs/analyzers/NAME.md's text, rendered for a terminal).
func help(w io.Writer, all []*analysis.Analyzer, names []string) int {
	if len(names) == 0 {
		fmt.Fprintln(w, "idemlint finds the concurrency and retry hazards of Go services backed by a database.")
		fmt.Fprintln(w, "\nUsage:\n\tidemlint [flags] packages\n\tgo vet -vettool=$(command -v idemlint) [flags] packages\n\tidemlint version")
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
		fmt.Fprintln(w, "\nOutput (standalone):")
		for _, line := range outputFlags {
			fmt.Fprintf(w, "\t%-22s%s\n", line[0], line[1])
		}
		fmt.Fprintln(w, "\nSettings (run `idemlint -help` for every flag):")
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
		w.Write(analyzers.Text(all[i]))
	}
	return status
}
