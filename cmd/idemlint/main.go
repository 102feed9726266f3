// Command idemlint finds the concurrency and retry hazards of Go services
// backed by a database.
//
// Standalone:
//
//	idemlint ./...
//
// As go vet's analysis tool:
//
//	go vet -vettool=$(command -v idemlint) ./...
//
// Run `idemlint help` for the analyzers and `idemlint help NAME` for one.
package main

import (
	"github.com/idemlint/idemlint/analyzers"
)

func main() {
	Main(analyzers.All())
}
