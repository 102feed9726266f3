package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/idemlint/idemlint/analyzers"
)

// The editor path (docs/editors.md): gopls with the suite compiled in,
// built by testdata/gopls. These tests build it (a couple of minutes cold,
// then cached by the builder), drive it through gopls' command line and
// through a language-server session as an editor does, and run the
// analyzers' tests under the x/tools version that gopls pins.

// buildGopls runs the builder once per test process.
var buildGopls = sync.OnceValues(func() (string, error) {
	cmd := exec.Command("go", "run", ".")
	cmd.Dir = filepath.Join("..", "..", "testdata", "gopls")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("building gopls: %v\n%s", err, stderr.Bytes())
	}
	os.Stderr.Write(stderr.Bytes()) // whether it was built or reused, and how long it took
	return strings.TrimSpace(stdout.String()), nil
})

// gopls returns the path of the patched gopls, and gives its runs a cache
// of their own: gopls keys its analysis cache by its executable but not by
// the .idemlint.yml and schema files the analyzers read.
func gopls(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds gopls")
	}
	bin, err := buildGopls()
	require.NoError(t, err)
	t.Setenv("GOPLSCACHE", t.TempDir())
	return bin
}

// TestGoplsDiagnostics checks that gopls reports on the demo service
// exactly what the standalone binary reports (which TestDemo checks against
// findings.txt): same positions, messages and related positions.
func TestGoplsDiagnostics(t *testing.T) {
	bin := gopls(t)
	dir, err := filepath.Abs("../../testdata/demo")
	require.NoError(t, err)
	downloadModules(t, dir)

	standalone := run(t, dir, binary, "-json", "./...")
	require.Equal(t, 0, standalone.code, standalone.stderr)
	want := standaloneDiagnostics(t, []byte(standalone.stdout))
	require.NotEmpty(t, want)

	check := run(t, dir, append([]string{bin, "check"}, moduleGoFiles(t, dir)...)...)
	require.Equal(t, 0, check.code, check.stderr)
	got := goplsDiagnostics(t, check.stdout)
	assert.Equal(t, want, got)

	// One finding per want line of findings.txt, in case both drivers
	// lose the same ones.
	wants := 0
	for _, e := range readFindings(t, filepath.Join(dir, "findings.txt")) {
		name, _, _ := strings.Cut(e.category, "/")
		if e.want && analyzers.Lookup(name) != nil {
			wants++
		}
	}
	assert.Len(t, got, wants, "%s", check.stdout)
}

// TestGoplsQuickFix checks that gopls offers lostupdate's suggested fixes
// as quick fixes and that executing each gives the line of the golden file
// analysistest checks the fix against. The demo's lostupdate finding (a
// Save of the whole row) has no mechanical fix; the fixture's have.
func TestGoplsQuickFix(t *testing.T) {
	bin := gopls(t)
	dir := fixtures(t)
	downloadModules(t, dir)
	file := filepath.Join(dir, "lostupdate", "gormfix", "fix.go")
	before := readLines(t, file)
	golden := readLines(t, file+".golden")
	require.Equal(t, len(before), len(golden), "a fix here rewrites within one line")

	check := run(t, dir, bin, "check", file)
	require.Equal(t, 0, check.code, check.stderr)
	diags := goplsDiagnostics(t, check.stdout)

	fixes := 0 // the lines fix.go.golden changes, one fix each
	for i := range before {
		if before[i] != golden[i] {
			fixes++
		}
	}
	require.NotZero(t, fixes)

	fixed := 0
	for _, d := range diags {
		if !strings.Contains(d, "is written back") {
			continue
		}
		posn, _, _ := strings.Cut(d, ": ")
		line := posnLine(t, posn)
		list := run(t, dir, bin, "codeaction", "-kind=quickfix", posn)
		require.Equal(t, 0, list.code, list.stderr)
		if before[line-1] == golden[line-1] {
			assert.NotContains(t, list.stdout, "atomically", "no fix at %s", posn)
			continue
		}
		fixed++
		assert.Regexp(t, `edit\t"update \w+ atomically with gorm.Expr" \[quickfix\]`, list.stdout, posn)

		// Without -write or -diff gopls prints the edited file; the
		// fixture stays as it is.
		applied := run(t, dir, bin, "codeaction", "-kind=quickfix", "-title=atomically", "-exec", posn)
		require.Equal(t, 0, applied.code, applied.stderr)
		want := append([]string(nil), before...)
		want[line-1] = golden[line-1]
		assert.Equal(t, want, strings.Split(strings.TrimSuffix(applied.stdout, "\n"), "\n"), posn)
	}
	assert.Equal(t, fixes, fixed, "the fixes of fix.go.golden:\n%s", check.stdout)
	assert.Equal(t, before, readLines(t, file))
}

// TestGoplsEditorSession drives gopls as an editor does, over the
// language server protocol, with the settings of docs/editors.md: the
// diagnostics of an open file carry the analyzer as source, the category as
// code and the documentation link; an analyzer turned off in "analyses"
// reports nothing; and an unsaved change is analysed as it is typed.
func TestGoplsEditorSession(t *testing.T) {
	bin := gopls(t)
	dir, err := filepath.Abs("../../testdata/demo")
	require.NoError(t, err)
	downloadModules(t, dir)
	file := filepath.Join(dir, "internal", "billing", "service.go")
	data, err := os.ReadFile(file)
	require.NoError(t, err)
	text := string(data)

	// service.go has a checkinsert and a lockacrosscall finding
	// (findings.txt); the second is turned off.
	s := startLSP(t, bin, dir, map[string]any{"analyses": map[string]any{"lockacrosscall": false}})
	uri := fileURI(file)
	s.notify("textDocument/didOpen", map[string]any{
		"textDocument": map[string]any{"uri": uri, "languageId": "go", "version": 1, "text": text},
	})
	has := func(source string) func(lspDiagnostic) bool {
		return func(d lspDiagnostic) bool { return d.Source == source }
	}
	diags := s.diagnostics(uri, 1, has("checkinsert"))
	var found *lspDiagnostic
	for i, d := range diags {
		assert.NotEqual(t, "lockacrosscall", d.Source, "turned off: %s", d.Message)
		if d.Source == "checkinsert" {
			found = &diags[i]
		}
	}
	require.NotNil(t, found)
	assert.Equal(t, "checkinsert/effect-before-claim", found.Code)
	require.NotNil(t, found.CodeDescription)
	assert.Equal(t, analyzers.Lookup("checkinsert").URL+"#checkinsert/effect-before-claim", found.CodeDescription.Href)
	assert.Equal(t, 2, found.Severity, "warning")

	// A blank line typed above the imports, not saved: the finding moves
	// down one line.
	edited := strings.Replace(text, "\nimport", "\n\nimport", 1)
	require.NotEqual(t, text, edited)
	s.notify("textDocument/didChange", map[string]any{
		"textDocument":   map[string]any{"uri": uri, "version": 2},
		"contentChanges": []any{map[string]any{"text": edited}},
	})
	s.diagnostics(uri, 2, func(d lspDiagnostic) bool {
		return d.Source == "checkinsert" && d.Message == found.Message && d.Range.Start.Line == found.Range.Start.Line+1
	})
	s.close()
}

// TestGoplsPinnedXTools runs the analyzers' tests with golang.org/x/tools
// at the version the gopls build pins (testdata/gopls/go.mod), through a
// copy of go.mod that replaces it: the analyzers must compile, and find
// the same things, with both that version and the one go.mod requires.
// ./analyzers/... holds no test that leads back here, and -short skips
// the slow ones.
func TestGoplsPinnedXTools(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the analyzers' tests again")
	}
	root, err := filepath.Abs("../..")
	require.NoError(t, err)
	pin := goplsToolsPin(t, filepath.Join(root, "testdata", "gopls"))

	tmp := t.TempDir()
	for _, name := range []string{"go.mod", "go.sum"} {
		data, err := os.ReadFile(filepath.Join(root, name))
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(tmp, name), data, 0o644))
	}
	modfile := filepath.Join(tmp, "go.mod")
	edit := run(t, root, "go", "mod", "edit", "-replace=golang.org/x/tools=golang.org/x/tools@"+pin, modfile)
	require.Equal(t, 0, edit.code, edit.stderr)

	// -mod=mod completes the copied go.sum for the versions the pinned
	// x/tools brings in. No -count=1: the go command's test cache is keyed
	// by the test binaries, which are built with the pinned x/tools.
	t.Setenv("GOWORK", "off")
	test := run(t, root, "go", "test", "-short", "-mod=mod", "-modfile="+modfile, "./analyzers/...")
	if test.code != 0 {
		t.Fatalf("the analyzers' tests fail with golang.org/x/tools@%s, the version the gopls build pins "+
			"(a go/ssa or go/types change between it and go.mod's; fix the analyzers for both):\n%s%s", pin, test.stdout, test.stderr)
	}
	t.Logf("golang.org/x/tools@%s:\n%s", pin, test.stdout)
}

// goplsToolsPin returns the version of golang.org/x/tools that the gopls
// build module in dir replaces it with.
func goplsToolsPin(t *testing.T, dir string) string {
	t.Helper()
	r := run(t, dir, "go", "mod", "edit", "-json")
	require.Equal(t, 0, r.code, r.stderr)
	var mod struct {
		Replace []struct {
			Old struct{ Path string }
			New struct{ Path, Version string }
		}
	}
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &mod))
	for _, rep := range mod.Replace {
		if rep.Old.Path == "golang.org/x/tools" && rep.New.Path == "golang.org/x/tools" {
			return rep.New.Version
		}
	}
	t.Fatalf("%s/go.mod does not pin golang.org/x/tools", dir)
	return ""
}

func downloadModules(t *testing.T, dir string) {
	t.Helper()
	r := run(t, dir, "go", "mod", "download")
	require.Equal(t, 0, r.code, r.stderr)
}

// moduleGoFiles returns the Go files of the module in dir, less those of
// modules nested in it.
func moduleGoFiles(t *testing.T, dir string) []string {
	t.Helper()
	var files []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && path != dir {
			if _, err := os.Stat(filepath.Join(path, "go.mod")); err == nil {
				return filepath.SkipDir
			}
		}
		if !d.IsDir() && strings.HasSuffix(path, ".go") {
			files = append(files, path)
		}
		return nil
	})
	require.NoError(t, err)
	return files
}

// standaloneDiagnostics renders the binary's -json output as
// goplsDiagnostics renders gopls check's: "file:line:col: message", then
// one "\n- file:line:col: message" per related position; sorted, and each
// once although reported for a package and its test variant.
func standaloneDiagnostics(t *testing.T, out []byte) []string {
	t.Helper()
	var tree map[string]map[string][]struct {
		Posn, Message string
		Related       []struct{ Posn, Message string }
	}
	require.NoError(t, json.Unmarshal(out, &tree), "%s", out)
	set := map[string]bool{}
	for _, byAnalyzer := range tree {
		for _, diags := range byAnalyzer {
			for _, d := range diags {
				s := d.Posn + ": " + d.Message
				for _, r := range d.Related {
					s += "\n- " + r.Posn + ": " + r.Message
				}
				set[s] = true
			}
		}
	}
	return sortedKeys(set)
}

// goplsSpan matches a line of gopls check: file:line:col, an optional end
// (-col or -line:col), then the message; related information has "- "
// before the message.
var goplsSpan = regexp.MustCompile(`^(.+?:\d+:\d+)(?:-\d+(?::\d+)?)?: (- )?(.*)$`)

func goplsDiagnostics(t *testing.T, out string) []string {
	t.Helper()
	set := map[string]bool{}
	var cur string
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		if line == "" {
			continue
		}
		m := goplsSpan.FindStringSubmatch(line)
		require.NotNil(t, m, "gopls check line %q", line)
		if m[2] != "" {
			require.NotEmpty(t, cur, "related information before any diagnostic: %q", line)
			delete(set, cur)
			cur += "\n- " + m[1] + ": " + m[3]
		} else {
			cur = m[1] + ": " + m[3]
		}
		set[cur] = true
	}
	return sortedKeys(set)
}

func sortedKeys(set map[string]bool) []string {
	keys := make([]string, 0, len(set))
	for k := range set {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func posnLine(t *testing.T, posn string) int {
	t.Helper()
	_, line := splitPosn(t, posn)
	return line
}

func readLines(t *testing.T, file string) []string {
	t.Helper()
	data, err := os.ReadFile(file)
	require.NoError(t, err)
	return strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
}

// An lspSession is a gopls server on the other end of a pipe, and just
// enough of a language client to open and change files and collect the
// diagnostics gopls publishes.
type lspSession struct {
	t        *testing.T
	cmd      *exec.Cmd
	stdin    io.WriteCloser
	stderr   bytes.Buffer
	settings map[string]any

	mu      sync.Mutex // guards the fields below and writes to stdin
	nextID  int
	pending map[int]chan lspMessage

	published chan lspPublish // closed when gopls exits
}

type lspMessage struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id,omitempty"`
	Method  string          `json:"method,omitempty"`
	Params  json.RawMessage `json:"params,omitempty"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error,omitempty"`
}

type lspPublish struct {
	URI         string          `json:"uri"`
	Version     int             `json:"version"`
	Diagnostics []lspDiagnostic `json:"diagnostics"`
}

type lspDiagnostic struct {
	Range struct {
		Start struct{ Line, Character int } `json:"start"`
	} `json:"range"`
	Severity        int    `json:"severity"`
	Code            string `json:"code"`
	CodeDescription *struct {
		Href string `json:"href"`
	} `json:"codeDescription"`
	Source  string `json:"source"`
	Message string `json:"message"`
}

// lspTimeout bounds every wait for gopls: the first analysis of the demo
// and its dependencies takes seconds, on a loaded two-core machine tens.
const lspTimeout = 3 * time.Minute

// startLSP starts bin as a language server for the module in dir, with
// settings as the "gopls" section of the client's configuration, and
// completes the initialize handshake.
func startLSP(t *testing.T, bin, dir string, settings map[string]any) *lspSession {
	t.Helper()
	s := &lspSession{t: t, settings: settings, pending: map[int]chan lspMessage{}, published: make(chan lspPublish, 100)}
	s.cmd = exec.Command(bin)
	s.cmd.Dir = dir
	s.cmd.Stderr = &s.stderr
	var err error
	s.stdin, err = s.cmd.StdinPipe()
	require.NoError(t, err)
	stdout, err := s.cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, s.cmd.Start())
	t.Cleanup(func() {
		s.cmd.Process.Kill()
		s.cmd.Wait()
		if t.Failed() {
			t.Logf("gopls stderr:\n%s", s.stderr.String())
		}
	})
	go s.read(bufio.NewReader(stdout))

	root := fileURI(dir)
	s.call("initialize", map[string]any{
		"processId":             os.Getpid(),
		"rootUri":               root,
		"workspaceFolders":      []any{map[string]any{"uri": root, "name": filepath.Base(dir)}},
		"initializationOptions": settings,
		"capabilities": map[string]any{
			"workspace": map[string]any{"configuration": true, "workspaceFolders": true},
			"textDocument": map[string]any{
				"publishDiagnostics": map[string]any{"relatedInformation": true, "versionSupport": true},
			},
		},
	})
	s.notify("initialized", map[string]any{})
	return s
}

// read dispatches what gopls sends until it exits: responses to the
// waiting calls, diagnostics to published, and answers to its requests
// (the settings for workspace/configuration, null for the rest).
func (s *lspSession) read(r *bufio.Reader) {
	defer close(s.published)
	for {
		msg, err := readLSPMessage(r)
		if err != nil {
			return
		}
		switch {
		case msg.Method == "textDocument/publishDiagnostics":
			var p lspPublish
			if json.Unmarshal(msg.Params, &p) == nil {
				s.published <- p
			}
		case msg.Method != "" && msg.ID != nil:
			result := any(nil)
			if msg.Method == "workspace/configuration" {
				var p struct{ Items []any }
				json.Unmarshal(msg.Params, &p)
				items := make([]any, len(p.Items))
				for i := range items {
					items[i] = s.settings
				}
				result = items
			}
			s.write(map[string]any{"jsonrpc": "2.0", "id": msg.ID, "result": result})
		case msg.Method == "" && msg.ID != nil:
			var id int
			if json.Unmarshal(msg.ID, &id) == nil {
				s.mu.Lock()
				ch := s.pending[id]
				delete(s.pending, id)
				s.mu.Unlock()
				if ch != nil {
					ch <- *msg
				}
			}
		}
	}
}

func readLSPMessage(r *bufio.Reader) (*lspMessage, error) {
	length := -1
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return nil, err
		}
		line = strings.TrimSpace(line)
		if line == "" {
			break
		}
		if v, ok := strings.CutPrefix(line, "Content-Length: "); ok {
			if length, err = strconv.Atoi(v); err != nil {
				return nil, err
			}
		}
	}
	if length < 0 {
		return nil, fmt.Errorf("message without Content-Length")
	}
	body := make([]byte, length)
	if _, err := io.ReadFull(r, body); err != nil {
		return nil, err
	}
	var msg lspMessage
	return &msg, json.Unmarshal(body, &msg)
}

func (s *lspSession) write(msg any) {
	body, err := json.Marshal(msg)
	if err != nil {
		panic(err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	fmt.Fprintf(s.stdin, "Content-Length: %d\r\n\r\n%s", len(body), body)
}

// call sends a request and waits for its result.
func (s *lspSession) call(method string, params any) json.RawMessage {
	s.t.Helper()
	s.mu.Lock()
	s.nextID++
	id := s.nextID
	ch := make(chan lspMessage, 1)
	s.pending[id] = ch
	s.mu.Unlock()
	s.write(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
	select {
	case msg := <-ch:
		require.Nil(s.t, msg.Error, "%s", method)
		return msg.Result
	case <-time.After(lspTimeout):
		s.t.Fatalf("no response to %s in %v", method, lspTimeout)
		return nil
	}
}

func (s *lspSession) notify(method string, params any) {
	s.write(map[string]any{"jsonrpc": "2.0", "method": method, "params": params})
}

// diagnostics waits for gopls to publish, for version of the document at
// uri, diagnostics of which one satisfies ok, and returns them all. gopls
// publishes a file's diagnostics several times as it computes them.
func (s *lspSession) diagnostics(uri string, version int, ok func(lspDiagnostic) bool) []lspDiagnostic {
	s.t.Helper()
	timeout := time.After(lspTimeout)
	var last []lspDiagnostic
	for {
		select {
		case p, open := <-s.published:
			require.True(s.t, open, "gopls exited")
			if p.URI != uri || p.Version != version {
				continue
			}
			last = p.Diagnostics
			for _, d := range p.Diagnostics {
				if ok(d) {
					return p.Diagnostics
				}
			}
		case <-timeout:
			s.t.Fatalf("gopls published no expected diagnostic for %s version %d in %v; last: %+v", uri, version, lspTimeout, last)
			return nil
		}
	}
}

// close shuts gopls down as an editor does.
func (s *lspSession) close() {
	s.t.Helper()
	s.call("shutdown", nil)
	s.notify("exit", nil)
	done := make(chan error, 1)
	go func() { done <- s.cmd.Wait() }()
	select {
	case err := <-done:
		assert.NoError(s.t, err, "gopls exit")
	case <-time.After(lspTimeout):
		s.t.Errorf("gopls did not exit")
	}
}
