package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/pprof"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/idemlint/idemlint/analyzers"
	"github.com/idemlint/idemlint/analyzers/config"
)

// Exit statuses of the standalone driver. 0, 1 and 3 are multichecker's,
// kept so that scripts written for it (and for go vet's analysis tools)
// read them the same; 2 is ours.
const (
	exitClean    = 0
	exitFailed   = 1 // a package did not load or type-check, or an analysis failed
	exitUsage    = 2 // bad usage, configuration or baseline file
	exitFindings = 3
)

// runOptions are the standalone driver's own flags.
type runOptions struct {
	json, fix, diff, tests bool
	failOnFindings         bool
	explain                bool
	context                int
	sarif                  string
	codeClimate            string
	baseline               string
	writeBaseline          bool
	cpuProfile, memProfile string
	printAll               bool // -help: list every flag
	enableFlags            map[string]*enableValue
	enabled, disabled      []string
	patterns               []string
}

// standalone runs `idemlint [flags] packages`: it loads the packages with
// go/packages, analyses them with x/tools' checker and prints the findings
// itself, so that their form, their exit status, the baseline and SARIF
// are ours. go vet's unit protocol and -flags stay multichecker's.
func standalone(all []*analysis.Analyzer, args []string, stdout, stderr io.Writer) int {
	o, status := parseFlags(all, args, stderr)
	if status >= 0 {
		return status
	}
	if err := o.check(); err != nil {
		fmt.Fprintf(stderr, "idemlint: %v\n", err)
		return exitUsage
	}
	wd, _ := os.Getwd()
	if err := config.ValidateTree(wd); err != nil {
		fmt.Fprintf(stderr, "idemlint: bad configuration: %v\n", err)
		return exitUsage
	}
	var base *baseline
	if o.baseline != "" && !o.writeBaseline {
		b, err := readBaseline(o.baseline)
		if err != nil {
			fmt.Fprintf(stderr, "idemlint: %v\n", err)
			return exitUsage
		}
		base = b
	}
	// Standalone: say which schema statements were skipped. As go vet's
	// tool the binary stays quiet, like gopls and golangci-lint.
	analyzers.SetWarnings(stderr)

	if o.cpuProfile != "" {
		f, err := os.Create(o.cpuProfile)
		if err != nil {
			fmt.Fprintf(stderr, "idemlint: %v\n", err)
			return exitUsage
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			fmt.Fprintf(stderr, "idemlint: %v\n", err)
			return exitUsage
		}
		defer pprof.StopCPUProfile()
	}
	if o.memProfile != "" {
		defer writeHeapProfile(o.memProfile, stderr)
	}

	status = exitClean
	initial, err := load(o.patterns, o.tests)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return exitFailed
	}
	// Package and module errors are printed whether or not the analyzers
	// run despite them, as multichecker does; the packages that loaded
	// are still analysed.
	if packages.PrintErrors(initial) > 0 {
		status = exitFailed
	}

	selected := analyzers.Select(o.enabled, o.disabled)
	var prog *progress
	if isTerminal(stderr) && !o.json && o.sarif != "-" && o.codeClimate != "-" {
		prog = startProgress(stderr, initial, selected)
	}
	graph, err := checker.Analyze(selected, initial, &checker.Options{})
	prog.stop()
	if err != nil {
		fmt.Fprintln(stderr, err)
		return exitFailed
	}

	res := collect(graph)
	for _, e := range res.errors {
		fmt.Fprintln(stderr, e)
	}
	if len(res.errors) > 0 {
		status = exitFailed
	}

	if o.writeBaseline {
		n, err := writeBaseline(o.baseline, res.findings)
		if err != nil {
			fmt.Fprintf(stderr, "idemlint: %v\n", err)
			return exitUsage
		}
		fmt.Fprintf(stderr, "idemlint: wrote %d findings to %s\n", n, o.baseline)
		return status
	}
	reported := res.findings
	var stale []baselineEntry
	if base != nil {
		reported, stale = base.filter(reported, analysedPackages(initial))
	}
	// The stale entries come after the findings, whatever the output.
	defer printStale(stderr, o.baseline, stale)
	if o.fix {
		remaining, fixed, err := applyFixes(reported, o.diff, stdout)
		if err != nil {
			fmt.Fprintf(stderr, "idemlint: %v\n", err)
			status = max(status, exitFailed)
		}
		if fixed > 0 && !o.diff {
			fmt.Fprintf(stderr, "idemlint: fixed %d of %d findings; the others are listed\n", fixed, len(reported))
		}
		reported = remaining
	}

	if o.sarif != "" {
		if err := writeSARIFTo(o.sarif, stdout, selected, reported, wd); err != nil {
			fmt.Fprintf(stderr, "idemlint: %v\n", err)
			status = max(status, exitFailed)
		}
	}
	if o.codeClimate != "" {
		if err := writeCodeClimateTo(o.codeClimate, stdout, reported, wd); err != nil {
			fmt.Fprintf(stderr, "idemlint: %v\n", err)
			status = max(status, exitFailed)
		}
	}
	if o.json {
		if err := printJSON(stdout, graph, reported); err != nil {
			fmt.Fprintf(stderr, "idemlint: %v\n", err)
			return max(status, exitFailed)
		}
		// go vet's convention for -json: the findings are in the output,
		// the status says only whether the run worked.
		if o.failOnFindings && len(reported) > 0 {
			status = max(status, exitFindings)
		}
		return status
	}
	printText(stderr, reported, o.context, o.explain)
	if len(reported) > 0 && len(res.errors) == 0 {
		status = max(status, exitFindings)
	}
	return status
}

// parseFlags parses the command line. status is -1 when the run goes on,
// else the exit status.
func parseFlags(all []*analysis.Analyzer, args []string, stderr io.Writer) (o *runOptions, status int) {
	o = &runOptions{tests: true, context: -1, enableFlags: map[string]*enableValue{}}
	fs := flag.NewFlagSet("idemlint", flag.ContinueOnError)
	fs.SetOutput(stderr)
	config.RegisterFlags(fs)
	fs.BoolVar(&o.json, "json", false, "print the findings as JSON on stdout (exit status 0 unless -fail-on-findings)")
	fs.BoolVar(&o.failOnFindings, "fail-on-findings", false, "with -json, exit with status 3 when there are findings")
	fs.BoolVar(&o.explain, "explain", false, "under each finding, draw how two callers (or a request and its retry) interleave to make it happen, step by step with the positions")
	fs.IntVar(&o.context, "c", -1, "print the offending line with this many lines of context")
	fs.BoolVar(&o.fix, "fix", false, "apply the suggested fixes, and report the findings left")
	fs.BoolVar(&o.diff, "diff", false, "with -fix, print the fixes as a unified diff instead of writing the files")
	fs.BoolVar(&o.tests, "test", true, "analyse the packages' test files too")
	fs.StringVar(&o.sarif, "sarif", "", "write the findings as SARIF 2.1.0 to this file (- for stdout), besides the text output")
	fs.StringVar(&o.codeClimate, "codeclimate", "", "write the findings as a GitLab code quality (CodeClimate) report to this file (- for stdout), besides the text output")
	fs.StringVar(&o.baseline, "baseline", "", "report only the findings not recorded in this baseline file")
	fs.BoolVar(&o.writeBaseline, "write-baseline", false, "with -baseline, record today's findings in the file and report none")
	fs.StringVar(&o.cpuProfile, "cpuprofile", "", "write a CPU profile to this file")
	fs.StringVar(&o.memProfile, "memprofile", "", "write a heap profile, taken when the analysis ends, to this file")
	for _, a := range all {
		v := &enableValue{}
		o.enableFlags[a.Name] = v
		fs.Var(v, a.Name, "enable "+a.Name+" analysis")
		a.Flags.VisitAll(func(f *flag.Flag) {
			fs.Var(f.Value, a.Name+"."+f.Name, f.Usage)
		})
	}
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: idemlint [flags] packages\nRun `idemlint help` for the analyzers and settings, `idemlint -help` for every flag.")
		if o.printAll {
			fs.PrintDefaults()
		}
	}
	for _, a := range args {
		if a == "-help" || a == "--help" || a == "-h" || a == "--h" {
			o.printAll = true
		}
		if a == "--" || !strings.HasPrefix(a, "-") {
			break
		}
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil, exitClean
		}
		return nil, exitUsage
	}
	for _, a := range all {
		switch o.enableFlags[a.Name].state {
		case enableOn:
			o.enabled = append(o.enabled, a.Name)
		case enableOff:
			o.disabled = append(o.disabled, a.Name)
		}
	}
	o.patterns = fs.Args()
	return o, -1
}

// check rejects the combinations of flags that cannot mean anything.
func (o *runOptions) check() error {
	switch {
	case len(o.patterns) == 0:
		return errors.New("no packages named (usage: idemlint [flags] packages, e.g. idemlint ./...)")
	case o.diff && !o.fix:
		return errors.New("-diff prints what -fix would change: use -fix -diff")
	case o.writeBaseline && o.baseline == "":
		return errors.New("-write-baseline needs -baseline=FILE, the file to write")
	case o.writeBaseline && o.fix:
		return errors.New("-write-baseline records the findings as they are: drop -fix")
	case o.json && o.sarif == "-":
		return errors.New("-json and -sarif=- both write to stdout: give -sarif a file name")
	case o.json && o.codeClimate == "-":
		return errors.New("-json and -codeclimate=- both write to stdout: give -codeclimate a file name")
	case o.sarif == "-" && o.codeClimate == "-":
		return errors.New("-sarif=- and -codeclimate=- both write to stdout: give one of them a file name")
	case o.diff && (o.json || o.sarif == "-" || o.codeClimate == "-"):
		return errors.New("-diff writes the diff to stdout: drop -json, or give -sarif and -codeclimate a file name")
	case o.failOnFindings && !o.json:
		return errors.New("-fail-on-findings is for -json (the text output already exits with status 3 on findings)")
	}
	return nil
}

// load loads the packages the patterns name, with the syntax of every
// package: idemlint's analyzers exchange facts, which need all of it.
func load(patterns []string, tests bool) ([]*packages.Package, error) {
	conf := packages.Config{Mode: packages.LoadAllSyntax | packages.NeedModule, Tests: tests}
	initial, err := packages.Load(&conf, patterns...)
	if err == nil && len(initial) == 0 {
		err = fmt.Errorf("%s matched no packages", strings.Join(patterns, " "))
	}
	return initial, err
}

// analysedPackages returns the import paths of the packages loaded for
// analysis (test variants count as their package).
func analysedPackages(initial []*packages.Package) map[string]bool {
	out := map[string]bool{}
	for _, p := range initial {
		out[p.PkgPath] = true
	}
	return out
}

func writeHeapProfile(name string, stderr io.Writer) {
	f, err := os.Create(name)
	if err != nil {
		fmt.Fprintf(stderr, "idemlint: %v\n", err)
		return
	}
	defer f.Close()
	runtime.GC()
	if err := pprof.WriteHeapProfile(f); err != nil {
		fmt.Fprintf(stderr, "idemlint: %v\n", err)
	}
}

// enableValue is an analyzer's -NAME flag: unset, true or false, as
// multichecker's, so that -NAME and -NAME=false mean the same here as
// under go vet.
type enableValue struct{ state int }

const (
	enableUnset = iota
	enableOn
	enableOff
)

func (v *enableValue) IsBoolFlag() bool { return true }

func (v *enableValue) String() string {
	switch v.state {
	case enableOn:
		return "true"
	case enableOff:
		return "false"
	}
	return "unset"
}

func (v *enableValue) Set(s string) error {
	on, err := strconv.ParseBool(s)
	if err != nil {
		return err
	}
	v.state = enableOff
	if on {
		v.state = enableOn
	}
	return nil
}

// isTerminal reports whether w is a terminal (a character device).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	info, err := f.Stat()
	return err == nil && info.Mode()&os.ModeCharDevice != 0
}
