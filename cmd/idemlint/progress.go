package main

import (
	"fmt"
	"go/types"
	"io"
	"sync"
	"time"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/packages"
)

// progress counts the packages analysed on a terminal's stderr, as
// "idemlint: 12/40 packages analysed", rewritten in place and erased at
// the end. The checker has no hook for it, so the Run of each selected
// analyzer is wrapped for the run (the binary runs once, then exits): a
// package is analysed when every selected analyzer has run on it.
type progress struct {
	w         io.Writer
	mu        sync.Mutex
	remaining map[*types.Package]int
	done      int
	total     int
	last      time.Time
	restore   func()
}

// startProgress wraps the analyzers' Run functions; stop undoes it.
func startProgress(w io.Writer, initial []*packages.Package, selected []*analysis.Analyzer) *progress {
	p := &progress{w: w, remaining: map[*types.Package]int{}}
	for _, pkg := range initial {
		if pkg.Types != nil {
			p.remaining[pkg.Types] = len(selected)
			p.total++
		}
	}
	var undo []func()
	for _, a := range selected {
		run := a.Run
		a.Run = func(pass *analysis.Pass) (any, error) {
			defer p.ran(pass.Pkg)
			return run(pass)
		}
		undo = append(undo, func() { a.Run = run })
	}
	p.restore = func() {
		for _, u := range undo {
			u()
		}
	}
	p.print(true)
	return p
}

func (p *progress) ran(pkg *types.Package) {
	p.mu.Lock()
	defer p.mu.Unlock()
	n, ok := p.remaining[pkg]
	if !ok {
		return // a dependency, analysed for its facts
	}
	if n--; n > 0 {
		p.remaining[pkg] = n
		return
	}
	delete(p.remaining, pkg)
	p.done++
	p.print(p.done == p.total)
}

// print rewrites the line, at most ten times a second.
func (p *progress) print(force bool) {
	if !force && time.Since(p.last) < 100*time.Millisecond {
		return
	}
	p.last = time.Now()
	fmt.Fprintf(p.w, "\ridemlint: %d/%d packages analysed", p.done, p.total)
}

// stop erases the line and restores the analyzers; nil-safe.
func (p *progress) stop() {
	if p == nil {
		return
	}
	p.restore()
	p.mu.Lock()
	defer p.mu.Unlock()
	fmt.Fprint(p.w, "\r\033[K")
}
