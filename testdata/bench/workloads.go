package main

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// A workload is a set of package patterns loaded from a directory.
type workload struct {
	name     string
	desc     string
	dir      string   // directory packages.Load runs in; set by resolve
	patterns []string // package patterns
	gen      int      // >0: generated service-like module of this many packages
	rel      string   // for non-generated workloads: dir relative to the bench module
}

// workloads lists every workload in table order. Module-cache workloads
// are analysed as input from inside the bench module, which requires them
// (so `go mod download` fetches them) at the versions in its go.mod.
var workloads = []workload{
	{name: "demo", desc: "testdata/demo (the demo service)", rel: "../demo", patterns: []string{"./..."}},
	{name: "gorm", desc: "gorm.io/gorm/... v1.31.2", rel: ".", patterns: []string{"gorm.io/gorm/..."}},
	{name: "pgx", desc: "github.com/jackc/pgx/v5/... v5.12.0", rel: ".", patterns: []string{"github.com/jackc/pgx/v5/..."}},
	{name: "bun", desc: "github.com/uptrace/bun/... v1.3.0", rel: ".", patterns: []string{"github.com/uptrace/bun/..."}},
	{name: "resty", desc: "github.com/go-resty/resty/v2/... v2.17.2", rel: ".", patterns: []string{"github.com/go-resty/resty/v2/..."}},
	{name: "xtools", desc: "golang.org/x/tools/... v0.48.0", rel: ".", patterns: []string{"golang.org/x/tools/..."}},
	{name: "gen50", desc: "generated service, 50 packages", gen: 50, patterns: []string{"./..."}},
	{name: "gen200", desc: "generated service, 200 packages", gen: 200, patterns: []string{"./..."}},
	{name: "gen800", desc: "generated service, 800 packages", gen: 800, patterns: []string{"./..."}},
}

func lookupWorkload(name string) (workload, error) {
	for _, w := range workloads {
		if w.name == name {
			return w, nil
		}
	}
	var names []string
	for _, w := range workloads {
		names = append(names, w.name)
	}
	return workload{}, fmt.Errorf("unknown workload %q (known: %s)", name, strings.Join(names, ", "))
}

const benchModule = "github.com/idemlint/idemlint/testdata/bench"

// benchDir finds the bench module's directory from the working directory
// upwards (the command is run with `go run .` from testdata/bench, or from
// the repository root with `go -C testdata/bench run .`).
func benchDir() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for d := dir; ; {
		if modulePath(filepath.Join(d, "go.mod")) == benchModule {
			return d, nil
		}
		if m := filepath.Join(d, "testdata", "bench", "go.mod"); modulePath(m) == benchModule {
			return filepath.Dir(m), nil
		}
		parent := filepath.Dir(d)
		if parent == d {
			return "", fmt.Errorf("cannot find the bench module (%s) above %s", benchModule, dir)
		}
		d = parent
	}
}

func modulePath(gomod string) string {
	f, err := os.Open(gomod)
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(sc.Text()), "module "); ok {
			return strings.Trim(strings.TrimSpace(rest), `"`)
		}
	}
	return ""
}
