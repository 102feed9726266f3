package api

import (
	"net/http"
	"strings"

	"example.com/demo/internal/store"
)

type signupRequest struct {
	Email      string `json:"email"`
	Name       string `json:"name"`
	ReferredBy *int64 `json:"referred_by,omitempty"`
}

func normalizeEmail(s string) string {
	return strings.ToLower(strings.TrimSpace(s))
}

// signup creates an account for a new customer.
func (s *Server) signup(w http.ResponseWriter, r *http.Request) {
	var req signupRequest
	if err := readJSON(r, &req); err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	email := normalizeEmail(req.Email)
	if email == "" || req.Name == "" {
		writeError(w, http.StatusBadRequest, "email and name are required")
		return
	}

	existing, err := s.users.ByEmail(r.Context(), email)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	if existing != nil {
		writeError(w, http.StatusConflict, "email already registered")
		return
	}
	u, err := s.users.Create(r.Context(), email, req.Name, req.ReferredBy)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusCreated, u)
}

// inviteUser creates an account on an admin's behalf. Inviting someone who
// already has an account returns that account.
func (s *Server) inviteUser(w http.ResponseWriter, r *http.Request) {
	var req signupRequest
	if err := readJSON(r, &req); err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	email := normalizeEmail(req.Email)
	if email == "" || req.Name == "" {
		writeError(w, http.StatusBadRequest, "email and name are required")
		return
	}

	u, err := s.users.ByEmail(r.Context(), email)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	if u == nil {
		u, err = s.users.Create(r.Context(), email, req.Name, nil)
		if store.IsUniqueViolation(err) {
			// Signed up while we were inviting them.
			u, err = s.users.ByEmail(r.Context(), email)
		}
		if err != nil {
			s.fail(w, r, err)
			return
		}
	}
	writeJSON(w, http.StatusOK, u)
}

func (s *Server) getWorkspace(w http.ResponseWriter, r *http.Request) {
	id, ok := pathID(r)
	if !ok {
		writeError(w, http.StatusBadRequest, "bad workspace id")
		return
	}
	ws, err := s.workspaces.Get(r.Context(), id)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, ws)
}

func (s *Server) renameWorkspace(w http.ResponseWriter, r *http.Request) {
	id, ok := pathID(r)
	if !ok {
		writeError(w, http.StatusBadRequest, "bad workspace id")
		return
	}
	var req struct {
		Name string `json:"name"`
	}
	if err := readJSON(r, &req); err != nil || strings.TrimSpace(req.Name) == "" {
		writeError(w, http.StatusBadRequest, "name is required")
		return
	}
	if err := s.workspaces.Rename(r.Context(), id, strings.TrimSpace(req.Name)); err != nil {
		s.fail(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

var plans = map[string]bool{"free": true, "team": true, "business": true}

func (s *Server) changePlan(w http.ResponseWriter, r *http.Request) {
	id, ok := pathID(r)
	if !ok {
		writeError(w, http.StatusBadRequest, "bad workspace id")
		return
	}
	var req struct {
		Plan string `json:"plan"`
	}
	if err := readJSON(r, &req); err != nil || !plans[req.Plan] {
		writeError(w, http.StatusBadRequest, "unknown plan")
		return
	}
	ws, err := s.workspaces.ChangePlan(r.Context(), id, req.Plan)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, ws)
}

func (s *Server) registerDevice(w http.ResponseWriter, r *http.Request) {
	workspaceID, ok := pathID(r)
	if !ok {
		writeError(w, http.StatusBadRequest, "bad workspace id")
		return
	}
	var req struct {
		UserID   int64  `json:"user_id"`
		Token    string `json:"token"`
		Platform string `json:"platform"`
	}
	if err := readJSON(r, &req); err != nil || req.Token == "" || req.UserID == 0 {
		writeError(w, http.StatusBadRequest, "user_id and token are required")
		return
	}
	d, err := s.workspaces.RegisterDevice(r.Context(), workspaceID, req.UserID, req.Token, req.Platform)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, d)
}
