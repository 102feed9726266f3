//go:build tools

package main

// The patched gopls imports idemlint's registry; this import keeps the
// requirement and its go.sum lines through go mod tidy. The tool line in
// go.mod does the same for gopls itself (go tool gopls would run the
// unpatched one: run this program instead).
import _ "github.com/idemlint/idemlint/analyzers"
