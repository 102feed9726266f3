// Package httpapi wires the wallet service to HTTP.
package httpapi

import (
	"database/sql"
	"encoding/json"
	"net/http"
	"strconv"

	"example.com/migrations/internal/service"
	"example.com/migrations/internal/wallet"
)

// Handler serves the wallet endpoints.
type Handler struct {
	svc *service.Service
}

// New wires the handler to a database pool.
func New(db *sql.DB) *Handler {
	return &Handler{svc: service.New(wallet.NewRepository(db))}
}

type balanceRequest struct {
	UserID  int64 `json:"user_id"`
	Balance int64 `json:"balance"`
}

// SetBalance handles PUT /wallets/balance.
func (h *Handler) SetBalance(w http.ResponseWriter, r *http.Request) {
	var req balanceRequest
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	if err := h.svc.SetBalance(r.Context(), req.UserID, req.Balance); err != nil {
		http.Error(w, err.Error(), http.StatusConflict)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// SendPayout handles POST /payouts/{id}/send.
func (h *Handler) SendPayout(w http.ResponseWriter, r *http.Request) {
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	if err := h.svc.SendPayout(r.Context(), id); err != nil {
		http.Error(w, err.Error(), http.StatusNotFound)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}
