// Command gopls builds gopls with idemlint's analyzers compiled in, from the
// module proxy alone, and prints the path of the binary.
//
//	cd testdata/gopls && go run . [-o /path/to/gopls-idemlint]
//
// gopls cannot load third-party analyzers: its analyzer list is a literal in
// golang.org/x/tools/gopls/internal/settings/analysis.go. So this program
// copies the source of the gopls version this module requires out of the
// module cache, adds every analyzer of idemlint's registry to that list
// (settings.go.in), and builds it in a module made from this one's go.mod
// with two more replacements: gopls by the patched copy and idemlint by the
// checkout this directory belongs to. go.mod also pins golang.org/x/tools to
// the version gopls pins, since gopls uses x/tools internals that change
// from one version to the next: a newer x/tools, which MVS would pick if
// idemlint required it, does not compile.
//
// The binary is cached under the user cache directory, keyed by a hash of
// everything the build reads besides the module cache: this directory's
// files, the sources of idemlint's analyzers, both go.mod files and the Go
// toolchain. A binary built from other sources is never reused; the three
// most recently used binaries are kept. A cold build takes a couple of
// minutes on two cores; a rebuild after an analyzer changes, well under one.
//
// To move to another gopls release: go get -tool golang.org/x/tools/gopls@vX,
// replace golang.org/x/tools by the version that release's go.mod requires,
// go mod tidy, and run the tests of cmd/idemlint (the patch fails loudly if
// analysis.go no longer has the statement it expects).
//
// cmd/idemlint/gopls_e2e_test.go runs this program; docs/editors.md tells
// editors to use the binary.
package main

import (
	"bytes"
	"crypto/sha256"
	_ "embed"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"time"
)

// settingsFile defines idemlintAnalyzers in gopls' settings package.
//
//go:embed settings.go.in
var settingsFile []byte

const (
	goplsModule    = "golang.org/x/tools/gopls"
	idemlintModule = "github.com/idemlint/idemlint"

	// patchAnchor is the last statement of initAnalyzers in
	// internal/settings/analysis.go; idemlint's analyzers go just before
	// staticcheck's.
	patchAnchor = "\treturn append(res, staticcheckAnalyzers()...)\n"
	patched     = "\tres = append(res, idemlintAnalyzers(seen)...)\n" + patchAnchor

	// keep is how many cached binaries survive a build.
	keep = 3
)

func main() {
	out := flag.String("o", "", "also copy the binary to this `file`")
	cache := flag.String("cache", "", "cache `directory` (default: idemlint/gopls in the user cache directory)")
	flag.Usage = func() {
		fmt.Fprintf(flag.CommandLine.Output(), "usage: go run . [-o file] [-cache dir]\n\nBuilds gopls with idemlint's analyzers and prints the binary's path.\n\n")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() > 0 {
		flag.Usage()
		os.Exit(2)
	}
	bin, err := run(*cache)
	if err == nil && *out != "" {
		err = install(bin, *out)
		bin = *out
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "gopls build: %v\n", err)
		os.Exit(1)
	}
	fmt.Println(bin)
}

// run returns the cached binary for the current inputs, building it first
// if there is none.
func run(cache string) (string, error) {
	self, err := os.Getwd()
	if err != nil {
		return "", err
	}
	mod, err := readModule(self)
	if err != nil {
		return "", err
	}
	if mod.Module.Path != "github.com/idemlint/idemlint/testdata/gopls" {
		return "", fmt.Errorf("run me from testdata/gopls (go -C testdata/gopls run .), not %s", self)
	}
	repo, err := mod.replacement(self, idemlintModule)
	if err != nil {
		return "", err
	}
	if cache == "" {
		dir, err := os.UserCacheDir()
		if err != nil {
			return "", fmt.Errorf("no user cache directory (pass -cache): %v", err)
		}
		cache = filepath.Join(dir, "idemlint", "gopls")
	}

	key, err := inputsKey(self, repo)
	if err != nil {
		return "", err
	}
	exe := "gopls"
	if runtime.GOOS == "windows" {
		exe += ".exe"
	}
	bin := filepath.Join(cache, key, exe)
	if _, err := os.Stat(bin); err == nil {
		now := time.Now()
		os.Chtimes(filepath.Dir(bin), now, now) // most recently used
		logf("reusing %s", bin)
		return bin, nil
	}

	if err := os.MkdirAll(cache, 0o755); err != nil {
		return "", err
	}
	work, err := os.MkdirTemp(cache, "build-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(work)
	built := filepath.Join(work, "bin", exe)
	if err := build(self, repo, work, built); err != nil {
		return "", err
	}
	// Rename into place: a concurrent build of the same key produces the
	// same binary, and neither ever sees a partial file.
	if err := os.MkdirAll(filepath.Dir(bin), 0o755); err != nil {
		return "", err
	}
	if err := os.Rename(built, bin); err != nil {
		return "", err
	}
	prune(cache, keep)
	return bin, nil
}

// build builds the patched gopls into bin, using work for the copy of its
// source and for the build module.
func build(self, repo, work, bin string) error {
	var dl struct{ Version, Dir, Error string }
	if err := goJSON(self, &dl, "mod", "download", "-json", goplsModule); err != nil {
		return err
	}
	if dl.Error != "" {
		return fmt.Errorf("go mod download %s: %s", goplsModule, dl.Error)
	}
	logf("building gopls %s with idemlint's analyzers (a couple of minutes on a cold cache)", dl.Version)
	start := time.Now()

	// The module cache is read-only, and go build -overlay refuses files
	// in it: patch a copy.
	src := filepath.Join(work, "src")
	if err := copyTree(dl.Dir, src); err != nil {
		return err
	}
	if err := patch(filepath.Join(src, "internal", "settings"), dl.Version); err != nil {
		return err
	}

	// The build module is this one with absolute replacements, since it
	// lives elsewhere.
	mod := filepath.Join(work, "build")
	if err := os.MkdirAll(mod, 0o755); err != nil {
		return err
	}
	for _, name := range []string{"go.mod", "go.sum"} {
		if err := copyFile(filepath.Join(self, name), filepath.Join(mod, name), 0o644); err != nil {
			return err
		}
	}
	if err := goRun(mod, nil, "mod", "edit",
		"-replace="+goplsModule+"="+src,
		"-replace="+idemlintModule+"="+repo); err != nil {
		return err
	}
	// -mod=mod lets a dependency added to idemlint since go.sum was last
	// tidied be fetched (and checked against the checksum database) rather
	// than fail the build; the x/tools replacement keeps MVS off x/tools.
	// -trimpath keeps the temporary source path out of the build cache
	// keys, so that a rebuild recompiles only what changed.
	if err := goRun(mod, nil, "build", "-mod=mod", "-trimpath", "-o", bin, goplsModule); err != nil {
		return err
	}
	logf("built in %s", time.Since(start).Round(time.Second))
	return nil
}

// patch adds idemlint's analyzers to gopls' analyzer list in the settings
// package in dir.
func patch(dir, version string) error {
	file := filepath.Join(dir, "analysis.go")
	text, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	if n := bytes.Count(text, []byte(patchAnchor)); n != 1 {
		return fmt.Errorf("gopls %s: %s has %d lines %q, want 1: update the patch in testdata/gopls/main.go", version, file, n, strings.TrimSpace(patchAnchor))
	}
	text = bytes.Replace(text, []byte(patchAnchor), []byte(patched), 1)
	if err := os.WriteFile(file, text, 0o644); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "idemlint.go"), settingsFile, 0o644)
}

// inputsKey hashes what the build reads besides the module cache, whose
// contents go.sum fixes: the go.mod, go.sum, Go files and patch of the
// builder module in self; the files of the idemlint packages compiled into
// gopls and idemlint's go.mod and go.sum, in repo; and the toolchain with
// the environment that changes what it builds.
func inputsKey(self, repo string) (string, error) {
	h := sha256.New()
	for _, args := range [][]string{{"version"}, {"env", "GOOS", "GOARCH", "GOEXPERIMENT", "CGO_ENABLED", "GOFLAGS"}} {
		out, err := goOutput(self, args...)
		if err != nil {
			return "", err
		}
		fmt.Fprintf(h, "go %s\n%s", args, out)
	}

	var files []string
	entries, err := os.ReadDir(self)
	if err != nil {
		return "", err
	}
	for _, e := range entries {
		name := e.Name()
		if e.Type().IsRegular() && (name == "go.mod" || name == "go.sum" || strings.HasSuffix(name, ".go") || strings.HasSuffix(name, ".in")) {
			files = append(files, filepath.Join(self, name))
		}
	}

	// The packages of idemlint that gopls imports, with the files that
	// make them, as the go command sees them.
	files = append(files, filepath.Join(repo, "go.mod"), filepath.Join(repo, "go.sum"))
	list, err := goOutput(repo, "list", "-deps", "-json=Dir,GoFiles,CgoFiles,EmbedFiles,Module", idemlintModule+"/analyzers")
	if err != nil {
		return "", err
	}
	dec := json.NewDecoder(bytes.NewReader(list))
	for dec.More() {
		var p struct {
			Dir                           string
			GoFiles, CgoFiles, EmbedFiles []string
			Module                        *struct{ Path string }
		}
		if err := dec.Decode(&p); err != nil {
			return "", err
		}
		if p.Module == nil || p.Module.Path != idemlintModule {
			continue
		}
		for _, names := range [][]string{p.GoFiles, p.CgoFiles, p.EmbedFiles} {
			for _, f := range names {
				files = append(files, filepath.Join(p.Dir, f))
			}
		}
	}

	sort.Strings(files)
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return "", err
		}
		name := f
		if rel, err := filepath.Rel(repo, f); err == nil {
			name = filepath.ToSlash(rel) // the same key wherever the checkout is
		}
		fmt.Fprintf(h, "file %s %d\n", name, len(data))
		h.Write(data)
	}
	return fmt.Sprintf("%x", h.Sum(nil)), nil
}

// prune removes all but the n most recently used binaries in cache, and
// build directories left by builds that were killed more than a day ago.
func prune(cache string, n int) {
	entries, err := os.ReadDir(cache)
	if err != nil {
		return
	}
	type entry struct {
		path string
		used time.Time
	}
	var bins []entry
	for _, e := range entries {
		info, err := e.Info()
		if err != nil || !e.IsDir() {
			continue
		}
		path := filepath.Join(cache, e.Name())
		if strings.HasPrefix(e.Name(), "build-") {
			if time.Since(info.ModTime()) > 24*time.Hour {
				os.RemoveAll(path)
			}
			continue
		}
		bins = append(bins, entry{path, info.ModTime()})
	}
	sort.Slice(bins, func(i, j int) bool { return bins[i].used.After(bins[j].used) })
	for i := n; i < len(bins); i++ {
		os.RemoveAll(bins[i].path)
	}
}

// A module is what this program needs of `go mod edit -json`.
type module struct {
	Module  struct{ Path string }
	Replace []struct {
		Old struct{ Path string }
		New struct{ Path, Version string }
	}
}

func readModule(dir string) (*module, error) {
	var m module
	if err := goJSON(dir, &m, "mod", "edit", "-json"); err != nil {
		return nil, err
	}
	return &m, nil
}

// replacement returns the absolute directory that replaces module path.
func (m *module) replacement(dir, path string) (string, error) {
	for _, r := range m.Replace {
		if r.Old.Path == path && r.New.Version == "" {
			if filepath.IsAbs(r.New.Path) {
				return r.New.Path, nil
			}
			return filepath.Abs(filepath.Join(dir, r.New.Path))
		}
	}
	return "", fmt.Errorf("go.mod in %s does not replace %s by a directory", dir, path)
}

// copyTree copies the regular files of the tree from to to, writable.
func copyTree(from, to string) error {
	return filepath.WalkDir(from, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(from, path)
		if err != nil {
			return err
		}
		target := filepath.Join(to, rel)
		switch {
		case d.IsDir():
			return os.MkdirAll(target, 0o755)
		case d.Type().IsRegular():
			return copyFile(path, target, 0o644)
		}
		return nil
	})
}

// install copies the binary bin to file through a temporary file in the
// same directory and a rename, so that an editor's running gopls, started
// from file, keeps its executable (writing into a running executable fails
// on Linux with "text file busy").
func install(bin, file string) error {
	dir := filepath.Dir(file)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, ".gopls-*")
	if err != nil {
		return err
	}
	tmp.Close()
	defer os.Remove(tmp.Name()) // after a successful rename, nothing
	if err := copyFile(bin, tmp.Name(), 0o755); err != nil {
		return err
	}
	if err := os.Chmod(tmp.Name(), 0o755); err != nil { // CreateTemp made it 0600
		return err
	}
	return os.Rename(tmp.Name(), file)
}

func copyFile(from, to string, perm fs.FileMode) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, perm)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// goEnv is the environment of the go commands run: no workspace, whatever
// the user's, since the build must see exactly these modules.
func goEnv() []string { return append(os.Environ(), "GOWORK=off") }

// goRun runs the go command in dir, its output going to stderr.
func goRun(dir string, stdout io.Writer, args ...string) error {
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	cmd.Env = goEnv()
	cmd.Stdout = stdout
	if stdout == nil {
		cmd.Stdout = os.Stderr
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("go %s (in %s): %v", strings.Join(args, " "), dir, err)
	}
	return nil
}

func goOutput(dir string, args ...string) ([]byte, error) {
	var out bytes.Buffer
	err := goRun(dir, &out, args...)
	return out.Bytes(), err
}

func goJSON(dir string, v any, args ...string) error {
	out, err := goOutput(dir, args...)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(out, v); err != nil {
		return fmt.Errorf("go %s: %v", strings.Join(args, " "), err)
	}
	return nil
}

func logf(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "gopls build: "+format+"\n", args...)
}
