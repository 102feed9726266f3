// Package api imports backend/model only through backend/store: its pass
// still knows backend/model for module code, from store's fact.
package api // want `module code: backend/api backend/model backend/store`

import (
	"context"
	"database/sql"
	"fmt"
	"net/http"

	"backend/store"
)

func Handle(db *sql.DB) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		u, err := store.ByEmail(context.Background(), db, r.FormValue("email"))
		fmt.Fprintln(w, u, err)
	}
}
