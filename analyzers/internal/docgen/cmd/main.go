// Command docgen writes docs/analyzers/NAME.md for every analyzer in the
// registry. Run it through `go generate ./analyzers`.
package main

import (
	"flag"
	"log"
	"os"
	"path/filepath"

	"github.com/idemlint/idemlint/analyzers"
	"github.com/idemlint/idemlint/analyzers/internal/docgen"
)

func main() {
	out := flag.String("out", "docs/analyzers", "directory of the generated pages")
	flag.Parse()
	if err := os.MkdirAll(*out, 0o755); err != nil {
		log.Fatal(err)
	}
	for _, a := range analyzers.All() {
		if err := os.WriteFile(filepath.Join(*out, docgen.FileName(a)), docgen.Markdown(a), 0o644); err != nil {
			log.Fatal(err)
		}
	}
}
