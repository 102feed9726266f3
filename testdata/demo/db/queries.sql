-- name: GetDocument :one
SELECT * FROM documents WHERE id = $1;

-- name: CreateDocument :one
INSERT INTO documents (workspace_id, title, body)
VALUES ($1, $2, $3)
RETURNING *;

-- name: RenameDocument :exec
UPDATE documents
SET title = $2, updated_at = now()
WHERE id = $1;

-- name: UpdateDocument :execrows
UPDATE documents
SET title = $2, body = $3, version = version + 1, updated_at = now()
WHERE id = $1 AND version = $4;
