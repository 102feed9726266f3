// Package testutil is the test plumbing shared by the analyzers' tests: it
// locates the fixtures module under testdata/ and makes sure its
// dependencies are in the module cache before analysistest, which runs the
// go command with GOPROXY=off, loads it.
package testutil

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// ModulePath is the import path of the idemlint module.
const ModulePath = "github.com/idemlint/idemlint"

// Root returns the directory of the idemlint module, found from the working
// directory of the test (a package directory inside it).
func Root() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		data, err := os.ReadFile(filepath.Join(dir, "go.mod"))
		if err == nil && strings.HasPrefix(string(data), "module "+ModulePath+"\n") {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("no go.mod of %s above the working directory", ModulePath)
		}
		dir = parent
	}
}

// Fixtures returns the directory of the shared fixtures module,
// testdata/fixtures, after downloading its dependencies.
func Fixtures(t testing.TB) string {
	t.Helper()
	return Module(t, "fixtures")
}

var downloads sync.Map // module dir -> *download

type download struct {
	once sync.Once
	err  error
}

// Module returns the directory of the nested module testdata/<name>, after
// `go mod download` has fetched its dependencies with the caller's
// environment (GOPROXY and all), once per test process.
func Module(t testing.TB, name string) string {
	t.Helper()
	root, err := Root()
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(root, "testdata", name)
	v, _ := downloads.LoadOrStore(dir, new(download))
	d := v.(*download)
	d.once.Do(func() { d.err = Download(dir) })
	if d.err != nil {
		t.Fatal(d.err)
	}
	return dir
}

// Download runs `go mod download` in dir, so that later loads with
// GOPROXY=off find every module in the cache.
func Download(dir string) error {
	cmd := exec.Command("go", "mod", "download")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off")
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go mod download in %s: %v\n%s", dir, err, out)
	}
	return nil
}
