package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"
)

type results struct {
	byKey map[[2]string][]childResult // (workload, config) -> runs
}

func newResults() *results { return &results{byKey: map[[2]string][]childResult{}} }

func (r *results) add(wl, cfg string, c childResult) {
	k := [2]string{wl, cfg}
	r.byKey[k] = append(r.byKey[k], c)
}

func (r *results) runs(wl, cfg string) []childResult { return r.byKey[[2]string{wl, cfg}] }

// stat is the medians of one (workload, config) cell.
type stat struct {
	ok                                bool
	wall, mem, load, analyze, cpu     float64
	roots, pkgs, actions, pkgErr, act int
	spread                            float64 // (max-min)/median of wall
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func (r *results) stat(wl, cfg string) stat {
	runs := r.runs(wl, cfg)
	if len(runs) == 0 {
		return stat{}
	}
	col := func(f func(childResult) float64) []float64 {
		var out []float64
		for _, x := range runs {
			out = append(out, f(x))
		}
		return out
	}
	walls := col(func(c childResult) float64 { return c.WallSec })
	s := stat{
		ok:      true,
		wall:    median(walls),
		mem:     median(col(func(c childResult) float64 { return c.MaxRSSMiB })),
		load:    median(col(func(c childResult) float64 { return c.LoadSec })),
		analyze: median(col(func(c childResult) float64 { return c.AnalyzeSec })),
		cpu:     median(col(func(c childResult) float64 { return c.CPUSec })),
		roots:   runs[0].Roots,
		pkgs:    runs[0].Packages,
		actions: runs[0].Actions,
		pkgErr:  runs[0].PkgErrors,
		act:     runs[0].ActionErrs,
	}
	if s.wall > 0 {
		s.spread = (slices.Max(walls) - slices.Min(walls)) / s.wall
	}
	return s
}

func cell(s stat) string {
	if !s.ok {
		return "–"
	}
	return fmt.Sprintf("%.2f s · %.0f MiB", s.wall, s.mem)
}

func ratio(x, y stat) string {
	if !x.ok || !y.ok || y.wall == 0 || y.mem == 0 || y.cpu == 0 {
		return "–"
	}
	return fmt.Sprintf("%.2f× / %.2f× / %.2f×", x.wall/y.wall, x.mem/y.mem, x.cpu/y.cpu)
}

func has(cfgs []config, name string) bool {
	return slices.ContainsFunc(cfgs, func(c config) bool { return c.name == name })
}

// loaded returns the size of the whole program (from a from-source
// configuration when one ran) and the number of root packages.
func (r *results) sizes(wl string, cfgs []config) (roots, loaded int) {
	for _, c := range cfgs {
		s := r.stat(wl, c.name)
		if !s.ok {
			continue
		}
		roots = s.roots
		if s.pkgs > loaded {
			loaded = s.pkgs
		}
	}
	return roots, loaded
}

func writeReport(w io.Writer, r *results, wls []workload, cfgs []config, n int, tests bool, took time.Duration) {
	fmt.Fprintf(w, "Medians of %d run(s) per cell, each in a fresh process; cells are wall time · peak RSS; ratios are of medians, wall / peak RSS / CPU time (user+system: less disturbed than wall time by other work on the machine). Tests loaded: %v.", n, tests)
	if took > 0 {
		fmt.Fprintf(w, " Sitting took %s.", took.Round(time.Second))
	}
	fmt.Fprintf(w, "\n\n")

	// Table 1: the configurations.
	main := []string{"a", "b0", "b", "c", "d"}
	var mainCfgs []string
	for _, name := range main {
		if has(cfgs, name) {
			mainCfgs = append(mainCfgs, name)
		}
	}
	if len(mainCfgs) > 0 {
		fmt.Fprintf(w, "### Configurations\n\n| workload | packages (roots / program) |")
		for _, c := range mainCfgs {
			fmt.Fprintf(w, " %s |", c)
		}
		showAB := has(cfgs, "a") && has(cfgs, "b")
		showAD := has(cfgs, "a") && has(cfgs, "d")
		if showAB {
			fmt.Fprintf(w, " a/b |")
		}
		if showAD {
			fmt.Fprintf(w, " a/d |")
		}
		fmt.Fprintf(w, "\n|---|---|%s", strings.Repeat("---|", len(mainCfgs)))
		if showAB {
			fmt.Fprintf(w, "---|")
		}
		if showAD {
			fmt.Fprintf(w, "---|")
		}
		fmt.Fprintln(w)
		for _, wl := range wls {
			roots, loaded := r.sizes(wl.name, cfgs)
			fmt.Fprintf(w, "| %s | %d / %d |", wl.name, roots, loaded)
			for _, c := range mainCfgs {
				fmt.Fprintf(w, " %s |", cell(r.stat(wl.name, c)))
			}
			if showAB {
				fmt.Fprintf(w, " %s |", ratio(r.stat(wl.name, "a"), r.stat(wl.name, "b")))
			}
			if showAD {
				fmt.Fprintf(w, " %s |", ratio(r.stat(wl.name, "a"), r.stat(wl.name, "d")))
			}
			fmt.Fprintln(w)
		}
		fmt.Fprintln(w)
	}

	// Table 2: growth over the generated modules.
	var gens []workload
	for _, wl := range wls {
		if wl.gen > 0 {
			gens = append(gens, wl)
		}
	}
	if len(gens) > 1 {
		fmt.Fprintf(w, "### Growth (generated service)\n\nMarginal cost is what one more root package adds between two sizes (wall time · peak RSS · CPU time, per package); equal marginals mean linear growth.\n\n| config |")
		for _, g := range gens {
			roots, loaded := r.sizes(g.name, cfgs)
			fmt.Fprintf(w, " %s (%d / %d pkgs) |", g.name, roots, loaded)
		}
		for i := 1; i < len(gens); i++ {
			fmt.Fprintf(w, " marginal %s→%s |", strings.TrimPrefix(gens[i-1].name, "gen"), strings.TrimPrefix(gens[i].name, "gen"))
		}
		fmt.Fprintf(w, "\n|---|%s%s\n", strings.Repeat("---|", len(gens)), strings.Repeat("---|", len(gens)-1))
		for _, c := range cfgs {
			fmt.Fprintf(w, "| %s |", c.name)
			for _, g := range gens {
				fmt.Fprintf(w, " %s |", cell(r.stat(g.name, c.name)))
			}
			for i := 1; i < len(gens); i++ {
				x, y := r.stat(gens[i-1].name, c.name), r.stat(gens[i].name, c.name)
				if !x.ok || !y.ok || y.roots == x.roots {
					fmt.Fprintf(w, " – |")
					continue
				}
				d := float64(y.roots - x.roots)
				fmt.Fprintf(w, " %.1f ms · %.2f MiB · %.1f ms CPU |", (y.wall-x.wall)/d*1000, (y.mem-x.mem)/d, (y.cpu-x.cpu)/d*1000)
			}
			fmt.Fprintln(w)
		}
		fmt.Fprintln(w)
	}

	// Table 3: the two shapes of the ops layer.
	if has(cfgs, "A") || has(cfgs, "A2") || has(cfgs, "B") {
		fmt.Fprintf(w, "### Shapes of the ops layer\n\n| workload | b | A | A2 | B | A/b | A2/b | B/b | A/B | A2/B |\n|---|---|---|---|---|---|---|---|---|---|\n")
		for _, wl := range wls {
			b, a, a2, bb := r.stat(wl.name, "b"), r.stat(wl.name, "A"), r.stat(wl.name, "A2"), r.stat(wl.name, "B")
			fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", wl.name, cell(b), cell(a), cell(a2), cell(bb),
				ratio(a, b), ratio(a2, b), ratio(bb, b), ratio(a, bb), ratio(a2, bb))
		}
		fmt.Fprintln(w)
	}

	// Table 4: where the time goes.
	fmt.Fprintf(w, "### Phases\n\nMedian seconds in packages.Load + checker.Analyze, then CPU seconds (user+system, child and go list) in parentheses.\n\n| workload |")
	for _, c := range cfgs {
		fmt.Fprintf(w, " %s |", c.name)
	}
	fmt.Fprintf(w, "\n|---|%s\n", strings.Repeat("---|", len(cfgs)))
	worst, worstAt := 0.0, ""
	var errs []string
	for _, wl := range wls {
		fmt.Fprintf(w, "| %s |", wl.name)
		for _, c := range cfgs {
			s := r.stat(wl.name, c.name)
			if !s.ok {
				fmt.Fprintf(w, " – |")
				continue
			}
			fmt.Fprintf(w, " %.2f + %.2f (%.1f) |", s.load, s.analyze, s.cpu)
			if s.spread > worst {
				worst, worstAt = s.spread, wl.name+"/"+c.name
			}
			if s.pkgErr > 0 || s.act > 0 {
				errs = append(errs, fmt.Sprintf("%s/%s: %d package errors, %d failed or skipped actions", wl.name, c.name, s.pkgErr, s.act))
			}
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintln(w)
	if n > 1 {
		fmt.Fprintf(w, "Largest wall-time spread within a cell, (max−min)/median: %.0f%% (%s).\n", worst*100, worstAt)
	}
	if len(errs) > 0 {
		fmt.Fprintf(w, "\nErrors seen while loading or analysing:\n\n")
		for _, e := range errs {
			fmt.Fprintf(w, "- %s\n", e)
		}
	}
}

// rerender reads the JSON lines a sitting wrote with -raw and prints its
// tables again (the machine line is not in the raw file).
func rerender(w io.Writer, file string) error {
	b, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	r := newResults()
	seenW, seenC := map[string]bool{}, map[string]bool{}
	n := 0
	for _, line := range strings.Split(string(b), "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		var c childResult
		if err := json.Unmarshal([]byte(line), &c); err != nil {
			return fmt.Errorf("%s: %v", file, err)
		}
		r.add(c.Workload, c.Config, c)
		seenW[c.Workload], seenC[c.Config] = true, true
		n = max(n, c.Rep+1)
	}
	var wls []workload
	for _, wl := range workloads {
		if seenW[wl.name] {
			wls = append(wls, wl)
		}
	}
	var cfgs []config
	for _, c := range configs {
		if seenC[c.name] {
			cfgs = append(cfgs, c)
		}
	}
	writeReport(w, r, wls, cfgs, n, false, 0)
	return nil
}
