package main

// The generated workload: a service-like module of n packages whose import
// graph is layered as a service's is (models, repositories on database/sql,
// outbound HTTP clients, services over repositories and clients, HTTP
// handlers over services, a router, a main), std-only so it needs no
// downloads. Generation is deterministic for a given n.

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
)

const genModule = "example.com/gensvc"

type genLayout struct {
	models, repos, clients, services, handlers int
}

func layoutFor(n int) genLayout {
	if n < 7 {
		n = 7
	}
	l := genLayout{
		models:   max(1, n/10),
		repos:    max(1, n*35/100),
		clients:  max(1, n/10),
		services: max(1, n*30/100),
	}
	l.handlers = n - 2 - l.models - l.repos - l.clients - l.services // router, main
	if l.handlers < 1 {
		l.handlers = 1
	}
	return l
}

func genPath(layer string, i int) string {
	return fmt.Sprintf("%s/internal/%s/%c%04d", genModule, layer, layer[0], i)
}

func genName(layer string, i int) string { return fmt.Sprintf("%c%04d", layer[0], i) }

// generate writes the module into dir (which must exist and be empty) and
// returns the number of packages written.
func generate(dir string, n int) (int, error) {
	l := layoutFor(n)
	rng := rand.New(rand.NewPCG(uint64(n), 0x1de71))
	count := 0
	write := func(importPath, src string) error {
		rel := strings.TrimPrefix(importPath, genModule+"/")
		d := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(d, 0o755); err != nil {
			return err
		}
		count++
		return os.WriteFile(filepath.Join(d, filepath.Base(d)+".go"), []byte(src), 0o644)
	}
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module "+genModule+"\n\ngo 1.26.0\n"), 0o644); err != nil {
		return 0, err
	}
	// pick returns k distinct indices below m.
	pick := func(k, m int) []int {
		if k > m {
			k = m
		}
		return rng.Perm(m)[:k]
	}
	for i := 0; i < l.models; i++ {
		if err := write(genPath("model", i), genModel(i)); err != nil {
			return 0, err
		}
	}
	for i := 0; i < l.repos; i++ {
		ms := pick(1+rng.IntN(2), l.models)
		if err := write(genPath("repo", i), genRepo(i, ms)); err != nil {
			return 0, err
		}
	}
	for i := 0; i < l.clients; i++ {
		if err := write(genPath("client", i), genClient(i)); err != nil {
			return 0, err
		}
	}
	for i := 0; i < l.services; i++ {
		rs := pick(2+rng.IntN(3), l.repos)
		cs := pick(rng.IntN(3), l.clients)
		var ss []int
		if i > 0 {
			ss = pick(rng.IntN(3), i) // only earlier services: no cycles
		}
		if err := write(genPath("service", i), genService(i, rs, cs, ss)); err != nil {
			return 0, err
		}
	}
	for i := 0; i < l.handlers; i++ {
		ss := pick(1+rng.IntN(3), l.services)
		if err := write(genPath("handler", i), genHandler(i, ss)); err != nil {
			return 0, err
		}
	}
	if err := write(genModule+"/internal/router", genRouter(l.handlers)); err != nil {
		return 0, err
	}
	if err := write(genModule+"/cmd/server", genMain()); err != nil {
		return 0, err
	}
	return count, nil
}

func genModel(i int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "// Package %s holds generated models.\npackage %s\n\nimport (\n\t\"errors\"\n\t\"time\"\n)\n\n", genName("model", i), genName("model", i))
	for t := 0; t < 3; t++ {
		fmt.Fprintf(&b, `// T%[1]d is a generated model.
type T%[1]d struct {
	ID        int64
	Key       string
	Status    string
	Amount    int64
	Version   int64
	UpdatedAt time.Time
}

// Validate checks the model.
func (m *T%[1]d) Validate() error {
	if m.Key == "" {
		return errors.New("empty key")
	}
	if m.Amount < 0 {
		return errors.New("negative amount")
	}
	return nil
}

// Touch bumps the version.
func (m *T%[1]d) Touch(now time.Time) {
	m.Version++
	m.UpdatedAt = now
}

`, t)
	}
	return b.String()
}

func genRepo(i int, models []int) string {
	var b strings.Builder
	name := genName("repo", i)
	fmt.Fprintf(&b, "// Package %s is a generated repository.\npackage %s\n\nimport (\n\t\"context\"\n\t\"database/sql\"\n\t\"errors\"\n\t\"fmt\"\n\t\"time\"\n\n", name, name)
	for _, m := range models {
		fmt.Fprintf(&b, "\t%q\n", genPath("model", m))
	}
	fmt.Fprintf(&b, ")\n\n// ErrNotFound is returned when no row matches.\nvar ErrNotFound = errors.New(%q)\n\n", name+": not found")
	fmt.Fprintf(&b, `// Repo reads and writes rows.
type Repo struct{ db *sql.DB }

// New returns a Repo on db.
func New(db *sql.DB) *Repo { return &Repo{db: db} }

// WithTx runs fn in a transaction.
func (r *Repo) WithTx(ctx context.Context, fn func(tx *sql.Tx) error) error {
	tx, err := r.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := fn(tx); err != nil {
		return err
	}
	return tx.Commit()
}

`)
	for k, m := range models {
		mt := fmt.Sprintf("%s.T%d", genName("model", m), k%3)
		table := fmt.Sprintf("%s_t%d", name, k)
		fmt.Fprintf(&b, `// Get%[1]d loads one row by key.
func (r *Repo) Get%[1]d(ctx context.Context, key string) (*%[2]s, error) {
	var m %[2]s
	err := r.db.QueryRowContext(ctx, "SELECT id, key, status, amount, version, updated_at FROM %[3]s WHERE key = $1", key).
		Scan(&m.ID, &m.Key, &m.Status, &m.Amount, &m.Version, &m.UpdatedAt)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("get %[3]s: %%w", err)
	}
	return &m, nil
}

// List%[1]d lists rows with a status.
func (r *Repo) List%[1]d(ctx context.Context, status string, limit int) ([]*%[2]s, error) {
	rows, err := r.db.QueryContext(ctx, "SELECT id, key, status, amount, version, updated_at FROM %[3]s WHERE status = $1 LIMIT $2", status, limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []*%[2]s
	for rows.Next() {
		var m %[2]s
		if err := rows.Scan(&m.ID, &m.Key, &m.Status, &m.Amount, &m.Version, &m.UpdatedAt); err != nil {
			return nil, err
		}
		out = append(out, &m)
	}
	return out, rows.Err()
}

// Insert%[1]d inserts a row.
func (r *Repo) Insert%[1]d(ctx context.Context, m *%[2]s) error {
	if err := m.Validate(); err != nil {
		return err
	}
	res, err := r.db.ExecContext(ctx, "INSERT INTO %[3]s (key, status, amount, version, updated_at) VALUES ($1, $2, $3, 1, $4)", m.Key, m.Status, m.Amount, time.Now())
	if err != nil {
		return err
	}
	m.ID, err = res.LastInsertId()
	return err
}

// Lock%[1]d loads a row for update inside tx.
func (r *Repo) Lock%[1]d(ctx context.Context, tx *sql.Tx, key string) (*%[2]s, error) {
	var m %[2]s
	err := tx.QueryRowContext(ctx, "SELECT id, key, status, amount, version FROM %[3]s WHERE key = $1 FOR UPDATE", key).
		Scan(&m.ID, &m.Key, &m.Status, &m.Amount, &m.Version)
	if err != nil {
		return nil, err
	}
	return &m, nil
}

// Update%[1]d writes status and amount with a version check.
func (r *Repo) Update%[1]d(ctx context.Context, tx *sql.Tx, m *%[2]s) error {
	res, err := tx.ExecContext(ctx, "UPDATE %[3]s SET status = $1, amount = $2, version = version + 1 WHERE id = $3 AND version = $4", m.Status, m.Amount, m.ID, m.Version)
	if err != nil {
		return err
	}
	n, err := res.RowsAffected()
	if err != nil {
		return err
	}
	if n == 0 {
		return fmt.Errorf("update %[3]s %%d: version conflict", m.ID)
	}
	m.Touch(time.Now())
	return nil
}

`, k, mt, table)
	}
	return b.String()
}

func genClient(i int) string {
	name := genName("client", i)
	return fmt.Sprintf(`// Package %[1]s is a generated outbound HTTP client.
package %[1]s

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"time"
)

// Client calls a remote service.
type Client struct {
	hc   *http.Client
	base string
}

// New returns a Client for base.
func New(base string) *Client {
	return &Client{hc: &http.Client{Timeout: 5 * time.Second}, base: base}
}

// Post sends body as JSON and decodes the reply into out.
func (c *Client) Post(ctx context.Context, path, key string, body, out any) error {
	buf, err := json.Marshal(body)
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+path, bytes.NewReader(buf))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	if key != "" {
		req.Header.Set("Idempotency-Key", key)
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 300 {
		msg, _ := io.ReadAll(io.LimitReader(resp.Body, 1024))
		return fmt.Errorf("%%s: %%s: %%s", path, resp.Status, msg)
	}
	return json.NewDecoder(resp.Body).Decode(out)
}

// PostRetry retries Post with backoff.
func (c *Client) PostRetry(ctx context.Context, path, key string, body, out any) error {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		if err = c.Post(ctx, path, key, body, out); err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Duration(attempt+1) * 100 * time.Millisecond):
		}
	}
	return err
}

// Get fetches path and decodes the reply into out.
func (c *Client) Get(ctx context.Context, path string, out any) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.base+path, nil)
	if err != nil {
		return err
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	return json.NewDecoder(resp.Body).Decode(out)
}
`, name)
}

func genService(i int, repos, clients, services []int) string {
	return genServiceBody(genName("service", i), repos, clients, services)
}

func genServiceBody(name string, repos, clients, services []int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "// Package %s is a generated service.\npackage %s\n\nimport (\n\t\"context\"\n\t\"database/sql\"\n\t\"errors\"\n\t\"fmt\"\n\n", name, name)
	for _, r := range repos {
		fmt.Fprintf(&b, "\t%q\n", genPath("repo", r))
	}
	for _, c := range clients {
		fmt.Fprintf(&b, "\t%q\n", genPath("client", c))
	}
	for _, s := range services {
		fmt.Fprintf(&b, "\t%q\n", genPath("service", s))
	}
	b.WriteString(")\n\n// Service implements the use cases.\ntype Service struct {\n\tdb *sql.DB\n")
	for k, r := range repos {
		fmt.Fprintf(&b, "\tr%d *%s.Repo\n", k, genName("repo", r))
	}
	for k, c := range clients {
		fmt.Fprintf(&b, "\tc%d *%s.Client\n", k, genName("client", c))
	}
	for k, s := range services {
		fmt.Fprintf(&b, "\ts%d *%s.Service\n", k, genName("service", s))
	}
	b.WriteString("}\n\n// New wires a Service.\nfunc New(db *sql.DB")
	for k, s := range services {
		fmt.Fprintf(&b, ", s%d *%s.Service", k, genName("service", s))
	}
	b.WriteString(") *Service {\n\treturn &Service{db: db")
	for k, r := range repos {
		fmt.Fprintf(&b, ", r%d: %s.New(db)", k, genName("repo", r))
	}
	for k, c := range clients {
		fmt.Fprintf(&b, ", c%d: %s.New(%q)", k, genName("client", c), "http://"+genName("client", c))
	}
	for k := range services {
		fmt.Fprintf(&b, ", s%d: s%d", k, k)
	}
	b.WriteString("}\n}\n\n")

	r0 := genName("repo", repos[0])
	notify := "\treturn nil\n"
	if len(clients) > 0 {
		notify = "\treturn s.c0.PostRetry(ctx, \"/created\", \"\", map[string]any{\"key\": key}, new(struct{}))\n"
	}
	fmt.Fprintf(&b, `// Create makes the record for key unless it exists, then notifies.
func (s *Service) Create(ctx context.Context, key string, amount int64) error {
	m, err := s.r0.Get0(ctx, key)
	if err == nil && m != nil {
		return nil
	}
	if !errors.Is(err, %[1]s.ErrNotFound) {
		return err
	}
	m, err = s.r0.Get0(ctx, key+"-shadow")
	if err != nil && !errors.Is(err, %[1]s.ErrNotFound) {
		return err
	}
	if m == nil {
		m, _ = s.r0.Get0(ctx, key)
	}
	if m != nil {
		return nil
	}
%[2]s}

`, r0, notify)

	fmt.Fprintf(&b, `// Move shifts amount between two keys under row locks.
func (s *Service) Move(ctx context.Context, from, to string, amount int64) error {
	return s.r0.WithTx(ctx, func(tx *sql.Tx) error {
		a, err := s.r0.Lock0(ctx, tx, from)
		if err != nil {
			return err
		}
		b, err := s.r1.Lock0(ctx, tx, to)
		if err != nil {
			return err
		}
		if a.Amount < amount {
			return fmt.Errorf("move %%s: insufficient amount %%d", from, a.Amount)
		}
		a.Amount -= amount
		b.Amount += amount
		if err := s.r0.Update0(ctx, tx, a); err != nil {
			return err
		}
		return s.r1.Update0(ctx, tx, b)
	})
}

`)
	fmt.Fprintf(&b, `// Sweep processes pending records.
func (s *Service) Sweep(ctx context.Context) (int, error) {
	items, err := s.r0.List0(ctx, "pending", 100)
	if err != nil {
		return 0, err
	}
	done := 0
	for _, it := range items {
		err := s.r0.WithTx(ctx, func(tx *sql.Tx) error {
			m, err := s.r0.Lock0(ctx, tx, it.Key)
			if err != nil {
				return err
			}
			if m.Status != "pending" {
				return nil
			}
			m.Status = "done"
`)
	if len(clients) > 0 {
		b.WriteString("\t\t\tif err := s.c0.Post(ctx, \"/sweep\", m.Key, m, new(struct{})); err != nil {\n\t\t\t\treturn err\n\t\t\t}\n")
	}
	b.WriteString("\t\t\treturn s.r0.Update0(ctx, tx, m)\n\t\t})\n\t\tif err != nil {\n\t\t\treturn done, err\n\t\t}\n\t\tdone++\n\t}\n\treturn done, nil\n}\n\n")

	b.WriteString("// Status reports the state of key across the service's stores.\nfunc (s *Service) Status(ctx context.Context, key string) (string, error) {\n")
	for k := range repos {
		fmt.Fprintf(&b, "\tif m, err := s.r%d.Get0(ctx, key); err == nil {\n\t\treturn m.Status, nil\n\t}\n", k)
	}
	for k := range services {
		fmt.Fprintf(&b, "\tif st, err := s.s%d.Status(ctx, key); err == nil {\n\t\treturn st, nil\n\t}\n", k)
	}
	for k := range clients {
		fmt.Fprintf(&b, "\tvar out%d struct{ Status string }\n\tif err := s.c%d.Get(ctx, \"/status/\"+key, &out%d); err == nil {\n\t\treturn out%d.Status, nil\n\t}\n", k, k, k, k)
	}
	b.WriteString("\treturn \"\", fmt.Errorf(\"status %s: not found\", key)\n}\n")
	return b.String()
}

func genHandler(i int, services []int) string {
	var b strings.Builder
	name := genName("handler", i)
	fmt.Fprintf(&b, "// Package %s holds generated HTTP handlers.\npackage %s\n\nimport (\n\t\"encoding/json\"\n\t\"net/http\"\n\n", name, name)
	for _, s := range services {
		fmt.Fprintf(&b, "\t%q\n", genPath("service", s))
	}
	b.WriteString(")\n\n// Handler serves the use cases over HTTP.\ntype Handler struct {\n")
	for k, s := range services {
		fmt.Fprintf(&b, "\ts%d *%s.Service\n", k, genName("service", s))
	}
	b.WriteString("}\n\n// New returns a Handler.\nfunc New(")
	for k, s := range services {
		if k > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "s%d *%s.Service", k, genName("service", s))
	}
	b.WriteString(") *Handler {\n\treturn &Handler{")
	for k := range services {
		if k > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "s%d: s%d", k, k)
	}
	b.WriteString("}\n}\n\n")
	fmt.Fprintf(&b, `type createRequest struct {
	Key    string `+"`json:\"key\"`"+`
	Amount int64  `+"`json:\"amount\"`"+`
}

// Register adds the routes to mux.
func (h *Handler) Register(mux *http.ServeMux) {
	mux.HandleFunc("POST /%[1]s/create", h.create)
	mux.HandleFunc("POST /%[1]s/move", h.move)
	mux.HandleFunc("GET /%[1]s/status/{key}", h.status)
}

func (h *Handler) create(w http.ResponseWriter, r *http.Request) {
	var req createRequest
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	if err := h.s0.Create(r.Context(), req.Key, req.Amount); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.WriteHeader(http.StatusCreated)
}

func (h *Handler) move(w http.ResponseWriter, r *http.Request) {
	from, to := r.FormValue("from"), r.FormValue("to")
	if err := h.s0.Move(r.Context(), from, to, 1); err != nil {
		http.Error(w, err.Error(), http.StatusConflict)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

func (h *Handler) status(w http.ResponseWriter, r *http.Request) {
	key := r.PathValue("key")
`, name)
	for k := range services {
		fmt.Fprintf(&b, "\tif st, err := h.s%d.Status(r.Context(), key); err == nil {\n\t\t_ = json.NewEncoder(w).Encode(map[string]string{\"status\": st})\n\t\treturn\n\t}\n", k)
	}
	b.WriteString("\thttp.NotFound(w, r)\n}\n")
	return b.String()
}

func genRouter(handlers int) string {
	var b strings.Builder
	b.WriteString("// Package router mounts every generated handler.\npackage router\n\nimport (\n\t\"net/http\"\n\n")
	for i := 0; i < handlers; i++ {
		fmt.Fprintf(&b, "\t%q\n", genPath("handler", i))
	}
	b.WriteString(")\n\n// Mount registers every handler on mux.\nfunc Mount(mux *http.ServeMux")
	b.WriteString(", hs ...interface{ Register(*http.ServeMux) }) {\n\tfor _, h := range hs {\n\t\th.Register(mux)\n\t}\n}\n\n")
	b.WriteString("// Handlers lists one handler per package (unwired; wiring is main's).\nvar Handlers = []any{\n")
	for i := 0; i < handlers; i++ {
		fmt.Fprintf(&b, "\t(*%s.Handler)(nil),\n", genName("handler", i))
	}
	b.WriteString("}\n")
	return b.String()
}

func genMain() string {
	return `// Command server is the generated service's entry point.
package main

import (
	"database/sql"
	"log"
	"net/http"

	"` + genModule + `/internal/router"
)

func main() {
	db, err := sql.Open("postgres", "postgres://localhost/gensvc")
	if err != nil {
		log.Fatal(err)
	}
	defer db.Close()
	mux := http.NewServeMux()
	router.Mount(mux)
	log.Printf("%d handler packages", len(router.Handlers))
	log.Fatal(http.ListenAndServe(":8080", mux))
}
`
}
