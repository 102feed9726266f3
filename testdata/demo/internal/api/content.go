package api

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"

	"example.com/demo/internal/db"
)

func (s *Server) viewArticle(w http.ResponseWriter, r *http.Request) {
	a, err := s.articles.RecordView(r.Context(), r.PathValue("slug"))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, a)
}

func (s *Server) likeArticle(w http.ResponseWriter, r *http.Request) {
	if err := s.articles.Like(r.Context(), r.PathValue("slug")); err != nil {
		s.fail(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

func (s *Server) createTag(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Name string `json:"name"`
	}
	if err := readJSON(r, &req); err != nil || strings.TrimSpace(req.Name) == "" {
		writeError(w, http.StatusBadRequest, "name is required")
		return
	}
	t, err := s.articles.EnsureTag(r.Context(), strings.ToLower(strings.TrimSpace(req.Name)))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, t)
}

// documentJSON is a document as the API returns it.
type documentJSON struct {
	ID          int64  `json:"id"`
	WorkspaceID int64  `json:"workspace_id"`
	Title       string `json:"title"`
	Body        string `json:"body"`
	Status      string `json:"status"`
	Version     int32  `json:"version"`
}

func writeDocument(w http.ResponseWriter, status int, d db.Document) {
	w.Header().Set("ETag", etag(d.Version))
	writeJSON(w, status, documentJSON{
		ID:          d.ID,
		WorkspaceID: d.WorkspaceID,
		Title:       d.Title,
		Body:        d.Body,
		Status:      d.Status,
		Version:     d.Version,
	})
}

func etag(version int32) string {
	return fmt.Sprintf("%q", strconv.Itoa(int(version)))
}

// ifMatch returns the document version named by the If-Match header.
func ifMatch(r *http.Request) (int32, bool) {
	v, err := strconv.Unquote(r.Header.Get("If-Match"))
	if err != nil {
		return 0, false
	}
	n, err := strconv.ParseInt(v, 10, 32)
	return int32(n), err == nil
}

func (s *Server) createDocument(w http.ResponseWriter, r *http.Request) {
	var req struct {
		WorkspaceID int64  `json:"workspace_id"`
		Title       string `json:"title"`
		Body        string `json:"body"`
	}
	if err := readJSON(r, &req); err != nil || req.WorkspaceID == 0 || req.Title == "" {
		writeError(w, http.StatusBadRequest, "workspace_id and title are required")
		return
	}
	d, err := s.queries.CreateDocument(r.Context(), db.CreateDocumentParams{
		WorkspaceID: req.WorkspaceID,
		Title:       req.Title,
		Body:        req.Body,
	})
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeDocument(w, http.StatusCreated, d)
}

func (s *Server) getDocument(w http.ResponseWriter, r *http.Request) {
	id, ok := pathID(r)
	if !ok {
		writeError(w, http.StatusBadRequest, "bad document id")
		return
	}
	d, err := s.queries.GetDocument(r.Context(), id)
	if errors.Is(err, pgx.ErrNoRows) {
		writeError(w, http.StatusNotFound, "not found")
		return
	}
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeDocument(w, http.StatusOK, d)
}

// renameDocument sets the title of a document, which the edit form
// (saveDocument) writes too, without the version: a save from a form
// loaded before the rename puts the old title back.
func (s *Server) renameDocument(w http.ResponseWriter, r *http.Request) {
	id, ok := pathID(r)
	if !ok {
		writeError(w, http.StatusBadRequest, "bad document id")
		return
	}
	var req struct {
		Title string `json:"title"`
	}
	if err := readJSON(r, &req); err != nil || strings.TrimSpace(req.Title) == "" {
		writeError(w, http.StatusBadRequest, "title is required")
		return
	}
	err := s.queries.RenameDocument(r.Context(), db.RenameDocumentParams{ID: id, Title: strings.TrimSpace(req.Title)})
	if err != nil {
		s.fail(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// saveDocument replaces the title and body of the document version named
// in If-Match: the edit form.
func (s *Server) saveDocument(w http.ResponseWriter, r *http.Request) {
	id, version, ok := documentRef(w, r)
	if !ok {
		return
	}
	var req struct {
		Title string `json:"title"`
		Body  string `json:"body"`
	}
	if err := readJSON(r, &req); err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	n, err := s.queries.UpdateDocument(r.Context(), db.UpdateDocumentParams{
		ID:      id,
		Title:   req.Title,
		Body:    req.Body,
		Version: version,
	})
	if err != nil {
		s.fail(w, r, err)
		return
	}
	if n == 0 {
		writeError(w, http.StatusPreconditionFailed, "the document was changed by someone else")
		return
	}
	w.Header().Set("ETag", etag(version+1))
	w.WriteHeader(http.StatusNoContent)
}

// documentRef reads the document id and the If-Match version of a request
// that changes a document, answering the request itself when either is
// missing.
func documentRef(w http.ResponseWriter, r *http.Request) (id int64, version int32, ok bool) {
	if id, ok = pathID(r); !ok {
		writeError(w, http.StatusBadRequest, "bad document id")
		return 0, 0, false
	}
	if version, ok = ifMatch(r); !ok {
		writeError(w, http.StatusPreconditionRequired, "If-Match with the document version is required")
		return 0, 0, false
	}
	return id, version, true
}

func (s *Server) archiveDocument(w http.ResponseWriter, r *http.Request) {
	id, version, ok := documentRef(w, r)
	if !ok {
		return
	}
	if err := s.documents.Archive(r.Context(), id, version); err != nil {
		s.fail(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

func (s *Server) restoreDocument(w http.ResponseWriter, r *http.Request) {
	id, version, ok := documentRef(w, r)
	if !ok {
		return
	}
	if err := s.documents.Restore(r.Context(), id, version); err != nil {
		s.fail(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}
