// Package api is the service's HTTP interface.
package api

import (
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"strconv"

	"example.com/demo/internal/billing"
	"example.com/demo/internal/db"
	"example.com/demo/internal/store"
)

// Deps are what the handlers need.
type Deps struct {
	Users      *store.UserStore
	Articles   *store.ArticleStore
	Workspaces *store.WorkspaceStore
	Documents  *store.DocumentStore
	Orders     *store.OrderStore
	Queries    *db.Queries
	Billing    *billing.Service
	Log        *slog.Logger
}

// Server serves the HTTP API.
type Server struct {
	users      *store.UserStore
	articles   *store.ArticleStore
	workspaces *store.WorkspaceStore
	documents  *store.DocumentStore
	orders     *store.OrderStore
	queries    *db.Queries
	billing    *billing.Service
	log        *slog.Logger
}

// New returns a Server.
func New(d Deps) *Server {
	return &Server{
		users:      d.Users,
		articles:   d.Articles,
		workspaces: d.Workspaces,
		documents:  d.Documents,
		orders:     d.Orders,
		queries:    d.Queries,
		billing:    d.Billing,
		log:        d.Log,
	}
}

// Handler returns the routes of the API.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()

	mux.HandleFunc("POST /signup", s.signup)
	mux.HandleFunc("POST /invites", s.inviteUser)
	mux.HandleFunc("GET /workspaces/{id}", s.getWorkspace)
	mux.HandleFunc("PATCH /workspaces/{id}", s.renameWorkspace)
	mux.HandleFunc("PUT /workspaces/{id}/plan", s.changePlan)
	mux.HandleFunc("POST /workspaces/{id}/devices", s.registerDevice)

	mux.HandleFunc("GET /articles/{slug}", s.viewArticle)
	mux.HandleFunc("POST /articles/{slug}/like", s.likeArticle)
	mux.HandleFunc("POST /tags", s.createTag)
	mux.HandleFunc("POST /documents", s.createDocument)
	mux.HandleFunc("GET /documents/{id}", s.getDocument)
	mux.HandleFunc("PUT /documents/{id}/title", s.renameDocument)
	mux.HandleFunc("PUT /documents/{id}/body", s.saveDocument)
	mux.HandleFunc("POST /documents/{id}/archive", s.archiveDocument)
	mux.HandleFunc("POST /documents/{id}/restore", s.restoreDocument)

	mux.HandleFunc("GET /orders/{id}", s.getOrder)
	mux.HandleFunc("POST /orders/{id}/pay", s.payOrder)
	mux.HandleFunc("POST /orders/{id}/refund", s.refundOrder)
	mux.HandleFunc("POST /orders/{id}/cashback", s.payCashback)
	mux.HandleFunc("POST /users/{id}/referral-bonus", s.grantReferralBonus)

	return mux
}

func readJSON(r *http.Request, v any) error {
	dec := json.NewDecoder(io.LimitReader(r.Body, 1<<20))
	dec.DisallowUnknownFields()
	return dec.Decode(v)
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func writeError(w http.ResponseWriter, status int, msg string) {
	writeJSON(w, status, map[string]string{"error": msg})
}

// fail answers with the status that fits err.
func (s *Server) fail(w http.ResponseWriter, r *http.Request, err error) {
	switch {
	case errors.Is(err, store.ErrNotFound):
		writeError(w, http.StatusNotFound, "not found")
	case errors.Is(err, store.ErrConflict):
		writeError(w, http.StatusConflict, "modified by someone else, reload and try again")
	case errors.Is(err, billing.ErrNotPayable), errors.Is(err, billing.ErrNotRefundable):
		writeError(w, http.StatusConflict, err.Error())
	default:
		s.log.Error("request failed", "method", r.Method, "path", r.URL.Path, "err", err)
		writeError(w, http.StatusInternalServerError, "internal error")
	}
}

// pathID parses the {id} path segment.
func pathID(r *http.Request) (int64, bool) {
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	return id, err == nil && id > 0
}
