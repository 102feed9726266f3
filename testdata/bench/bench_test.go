package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestGenerated checks that the generated module builds and vets cleanly.
func TestGenerated(t *testing.T) {
	dir := t.TempDir()
	n, err := generate(dir, 50)
	if err != nil {
		t.Fatal(err)
	}
	if n != 50 {
		t.Errorf("generated %d packages, want 50", n)
	}
	cmd := exec.Command("go", "vet", "./...")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go vet on the generated module: %v\n%s", err, out)
	}
}

// TestSmoke runs the harness end to end once: parent, child processes and
// tables, on the smallest generated workload, with the baseline and both
// shapes (so their analyzers run on a whole program once).
func TestSmoke(t *testing.T) {
	if testing.Short() {
		t.Skip("loads a whole program several times")
	}
	bin := filepath.Join(t.TempDir(), "bench")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	cmd := exec.Command(bin, "-n", "1", "-workloads", "gen50", "-configs", "b,A,B")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("bench: %v\n%s", err, out)
	}
	for _, want := range []string{"### Shapes of the ops layer", "| gen50 |", "### Phases"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(string(out), "Errors seen") {
		t.Errorf("errors while analysing:\n%s", out)
	}
}
