// Command bench is idemlint's cost harness. It runs configurations of
// analyzers (the idemlint suite, no-op baselines with and without a fact
// type, buildssa, go vet's suite, and two stand-in shapes of the ops layer)
// over the same workloads in one sitting, each run in a fresh child process,
// round-robin over the configurations within each repetition, and prints
// Markdown tables of median wall time and peak RSS and their ratios.
//
// Usage, from the repository root:
//
//	cd testdata/bench && go run . -n 5
//
// Flags narrow the run: -workloads demo,gen200 -configs a,b,d -n 1.
// See docs/performance.md for the tables and how to read them.
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"strings"
	"time"

	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"
)

// childResult is what a child prints on stdout as one JSON line.
type childResult struct {
	Config      string  `json:"config"`
	Workload    string  `json:"workload"`
	Roots       int     `json:"roots"`       // packages matched by the patterns
	Packages    int     `json:"packages"`    // packages in the loaded graph
	FromSource  bool    `json:"from_source"` // whole program loaded from source
	LoadSec     float64 `json:"load_sec"`    // packages.Load
	AnalyzeSec  float64 `json:"analyze_sec"` // checker.Analyze
	Actions     int     `json:"actions"`     // (analyzer, package) actions executed
	Diagnostics int     `json:"diagnostics"` // diagnostics on root actions
	PkgErrors   int     `json:"pkg_errors"`  // load/type errors in the graph
	ActionErrs  int     `json:"action_errs"` // actions that failed or were skipped
	Facts       int     `json:"facts"`       // distinct object facts visible to the root actions
	Work        int     `json:"work"`        // sum of the roots' int results (SSA instructions, op relations)
	WallSec     float64 `json:"wall_sec"`    // set by the parent: the child process's wall time
	CPUSec      float64 `json:"cpu_sec"`     // set by the parent: user+system time of the child tree
	MaxRSSMiB   float64 `json:"max_rss_mib"` // set by the parent: peak RSS of the child (rusage Maxrss)
	Rep         int     `json:"rep"`         // set by the parent
}

func main() {
	var (
		child    = flag.String("child", "", "internal: run one configuration in this process and print a JSON result")
		dir      = flag.String("dir", "", "internal: directory to load from (with -child)")
		pats     = flag.String("patterns", "", "internal: comma-separated package patterns (with -child)")
		wlName   = flag.String("wl", "", "internal: workload name (with -child)")
		n        = flag.Int("n", 5, "runs of each configuration on each workload")
		wlFlag   = flag.String("workloads", "", "comma-separated workloads (default all): "+names(workloadNames()))
		cfgFlag  = flag.String("configs", "", "comma-separated configurations (default all): "+names(configNames()))
		tests    = flag.Bool("tests", false, "also load test packages, as the drivers' -test flag does")
		out      = flag.String("o", "", "also write the Markdown tables to this file")
		raw      = flag.String("raw", "", "write every run as a JSON line to this file")
		keep     = flag.Bool("keep", false, "keep the generated modules (their directory is printed)")
		listOnly = flag.Bool("list", false, "list workloads and configurations and exit")
		rerun    = flag.String("report", "", "print the tables again from a file written with -raw, and exit")
		cpuProf  = flag.String("cpuprofile", "", "with -child: write a CPU profile of the run to this file")
		memProf  = flag.String("memprofile", "", "with -child: write a heap profile, taken when the analysis ends, to this file")
	)
	flag.Parse()
	if *child != "" {
		if *cpuProf != "" {
			f, err := os.Create(*cpuProf)
			if err == nil {
				err = pprof.StartCPUProfile(f)
			}
			if err != nil {
				fmt.Fprintln(os.Stderr, "bench child:", err)
				os.Exit(1)
			}
			defer pprof.StopCPUProfile()
		}
		heapProfile = *memProf
		if err := runChild(*child, *wlName, *dir, splitList(*pats), *tests); err != nil {
			pprof.StopCPUProfile()
			fmt.Fprintln(os.Stderr, "bench child:", err)
			os.Exit(1)
		}
		return
	}
	if *rerun != "" {
		if err := rerender(os.Stdout, *rerun); err != nil {
			fmt.Fprintln(os.Stderr, "bench:", err)
			os.Exit(1)
		}
		return
	}
	if *listOnly {
		for _, w := range workloads {
			fmt.Printf("workload %-8s %s\n", w.name, w.desc)
		}
		for _, c := range configs {
			fmt.Printf("config   %-8s %s\n", c.name, c.desc)
		}
		return
	}
	if err := runParent(*n, splitList(*wlFlag), splitList(*cfgFlag), *tests, *out, *raw, *keep); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

func splitList(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

func names(ns []string) string { return strings.Join(ns, ",") }

func workloadNames() []string {
	var ns []string
	for _, w := range workloads {
		ns = append(ns, w.name)
	}
	return ns
}

func configNames() []string {
	var ns []string
	for _, c := range configs {
		ns = append(ns, c.name)
	}
	return ns
}

// loadMode is the mode x/tools' checker driver (singlechecker,
// multichecker) uses: syntax and types for the initial packages and export
// data for dependencies, unless some analyzer in the set (or one it
// requires) declares facts, in which case syntax and types for every
// package of the program.
func loadMode(fromSource bool) packages.LoadMode {
	mode := packages.LoadSyntax
	if fromSource {
		mode = packages.LoadAllSyntax
	}
	return mode | packages.NeedModule
}

// heapProfile is the -memprofile file of a child run.
var heapProfile string

// runChild loads the workload and analyses it with one configuration.
func runChild(cfgName, wlName, dir string, patterns []string, tests bool) error {
	cfg, err := lookupConfig(cfgName)
	if err != nil {
		return err
	}
	as := cfg.set()
	res := childResult{Config: cfgName, Workload: wlName, FromSource: needFacts(as)}

	start := time.Now()
	conf := &packages.Config{
		Mode:  loadMode(res.FromSource),
		Dir:   dir,
		Tests: tests,
		Env:   append(os.Environ(), "GOWORK=off"),
	}
	pkgs, err := packages.Load(conf, patterns...)
	if err != nil {
		return err
	}
	if len(pkgs) == 0 {
		return fmt.Errorf("%s matched no packages in %s", strings.Join(patterns, " "), dir)
	}
	res.LoadSec = time.Since(start).Seconds()
	res.Roots = len(pkgs)
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		res.Packages++
		res.PkgErrors += len(p.Errors)
	})

	start = time.Now()
	graph, err := checker.Analyze(as, pkgs, nil)
	if err != nil {
		return err
	}
	res.AnalyzeSec = time.Since(start).Seconds()
	if heapProfile != "" {
		f, err := os.Create(heapProfile)
		if err != nil {
			return err
		}
		runtime.GC() // the profile shows what is live now, not at the last collection
		if err := pprof.WriteHeapProfile(f); err != nil {
			return err
		}
		f.Close()
	}
	for act := range graph.All() {
		res.Actions++
		if act.Err != nil {
			res.ActionErrs++
		}
	}
	type factKey struct {
		obj any
		typ string
	}
	facts := map[factKey]bool{}
	for _, act := range graph.Roots {
		res.Diagnostics += len(act.Diagnostics)
		if n, ok := act.Result.(int); ok {
			res.Work += n
		}
		for _, f := range act.AllObjectFacts() {
			facts[factKey{f.Object, fmt.Sprintf("%T", f.Fact)}] = true
		}
	}
	res.Facts = len(facts)
	return json.NewEncoder(os.Stdout).Encode(res)
}

// runParent runs every selected configuration on every selected workload n
// times and prints the tables.
func runParent(n int, wlSel, cfgSel []string, tests bool, outFile, rawFile string, keep bool) error {
	if n < 1 {
		return fmt.Errorf("-n must be at least 1")
	}
	bdir, err := benchDir()
	if err != nil {
		return err
	}
	self, err := os.Executable()
	if err != nil {
		return err
	}
	var wls []workload
	if len(wlSel) == 0 {
		wlSel = workloadNames()
	}
	for _, name := range wlSel {
		w, err := lookupWorkload(name)
		if err != nil {
			return err
		}
		wls = append(wls, w)
	}
	var cfgs []config
	if len(cfgSel) == 0 {
		cfgSel = configNames()
	}
	for _, name := range cfgSel {
		c, err := lookupConfig(name)
		if err != nil {
			return err
		}
		cfgs = append(cfgs, c)
	}

	var genRoot string
	for i, w := range wls {
		if w.gen == 0 {
			wls[i].dir = filepath.Clean(filepath.Join(bdir, w.rel))
			continue
		}
		if genRoot == "" {
			genRoot, err = os.MkdirTemp("", "idemlint-bench-")
			if err != nil {
				return err
			}
			if keep {
				fmt.Fprintf(os.Stderr, "generated modules in %s\n", genRoot)
			} else {
				defer os.RemoveAll(genRoot)
			}
		}
		d := filepath.Join(genRoot, w.name)
		if err := os.Mkdir(d, 0o755); err != nil {
			return err
		}
		if _, err := generate(d, w.gen); err != nil {
			return fmt.Errorf("generating %s: %v", w.name, err)
		}
		wls[i].dir = d
	}

	var rawW io.Writer = io.Discard
	if rawFile != "" {
		f, err := os.Create(rawFile)
		if err != nil {
			return err
		}
		defer f.Close()
		rawW = f
	}

	results := newResults()
	began := time.Now()
	host, load0 := machine(), loadavg()
	busy0, own0 := machineCPU(), ownCPU()
	total := len(wls) * len(cfgs) * n
	done := 0
	for _, w := range wls {
		// Warm the build cache (export data of every dependency, as the
		// no-fact configurations need) and the page cache, unmeasured.
		t := time.Now()
		if err := warm(w, tests); err != nil {
			return fmt.Errorf("warming %s: %v", w.name, err)
		}
		fmt.Fprintf(os.Stderr, "%s: warmed in %.1fs\n", w.name, time.Since(t).Seconds())
		for rep := 0; rep < n; rep++ {
			// Round-robin over the configurations, starting one further
			// along each repetition, so drift and ordering hit all alike.
			for k := range cfgs {
				c := cfgs[(k+rep)%len(cfgs)]
				r, err := runOne(self, c, w, tests)
				if err != nil {
					return fmt.Errorf("%s on %s: %v", c.name, w.name, err)
				}
				r.Rep = rep
				results.add(w.name, c.name, r)
				line, _ := json.Marshal(r)
				fmt.Fprintf(rawW, "%s\n", line)
				done++
				el := time.Since(began)
				eta := time.Duration(float64(el) / float64(done) * float64(total-done))
				fmt.Fprintf(os.Stderr, "[%3d/%d %6.0fs, ~%.0fs left] %-7s %-3s rep %d: %6.2fs %7.0f MiB (load %.2fs, analyze %.2fs, %d/%d pkgs, %d facts, work %d)\n",
					done, total, el.Seconds(), eta.Seconds(), w.name, c.name, rep, r.WallSec, r.MaxRSSMiB, r.LoadSec, r.AnalyzeSec, r.Roots, r.Packages, r.Facts, r.Work)
			}
		}
	}

	var buf bytes.Buffer
	took := time.Since(began)
	fmt.Fprintf(&buf, "Machine: %s. Load average (1 min) before the sitting: %s.", host, load0)
	other := -1.0
	if busy1 := machineCPU(); busy0 >= 0 && busy1 >= 0 {
		other = (busy1 - busy0) - (ownCPU() - own0)
		share := other / (took.Seconds() * float64(runtime.NumCPU()))
		fmt.Fprintf(&buf, " Other processes used %.0f CPU-seconds during the sitting (%.0f%% of the machine).", other, 100*share)
		if share > 0.10 {
			fmt.Fprintf(&buf, "\n\n**Warning: other work competed with the measured processes; wall times are inflated and noisier than on an idle machine. Compare ratios, and CPU seconds in the phases table, rather than absolute wall times.**")
		}
	}
	fmt.Fprintf(&buf, "\n\n")
	writeReport(&buf, results, wls, cfgs, n, tests, took)
	os.Stdout.Write(buf.Bytes())
	if outFile != "" {
		return os.WriteFile(outFile, buf.Bytes(), 0o644)
	}
	return nil
}

// warm runs `go list -export -deps` over the workload, discarding output.
func warm(w workload, tests bool) error {
	args := []string{"list", "-e", "-export", "-deps", "-f", "{{.ImportPath}}"}
	if tests {
		args = append(args, "-test")
	}
	args = append(args, w.patterns...)
	cmd := exec.Command("go", args...)
	cmd.Dir = w.dir
	cmd.Env = append(os.Environ(), "GOWORK=off")
	cmd.Stdout = io.Discard
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("%v: %s", err, stderr.String())
	}
	return nil
}

// runOne runs configuration c on workload w in a fresh child process.
func runOne(self string, c config, w workload, tests bool) (childResult, error) {
	cmd := exec.Command(self, "-child", c.name, "-wl", w.name, "-dir", w.dir,
		"-patterns", strings.Join(w.patterns, ","), fmt.Sprintf("-tests=%v", tests))
	var stdout, stderr bytes.Buffer
	cmd.Stdout = &stdout
	cmd.Stderr = &stderr
	start := time.Now()
	err := cmd.Run()
	wall := time.Since(start)
	if err != nil {
		return childResult{}, fmt.Errorf("%v: %s", err, lastLines(stderr.String(), 20))
	}
	var r childResult
	if err := json.Unmarshal(stdout.Bytes(), &r); err != nil {
		return childResult{}, fmt.Errorf("bad child output %q: %v", stdout.String(), err)
	}
	r.WallSec = wall.Seconds()
	r.CPUSec = (cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()).Seconds()
	r.MaxRSSMiB = maxRSSMiB(cmd.ProcessState)
	return r, nil
}

func lastLines(s string, k int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > k {
		lines = lines[len(lines)-k:]
	}
	return strings.Join(lines, "\n")
}
