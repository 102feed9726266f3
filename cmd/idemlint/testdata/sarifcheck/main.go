// Command sarifcheck validates SARIF logs against the SARIF 2.1.0 JSON
// schema beside it, with a real JSON Schema validator. It is a module of
// its own so that idemlint's go.mod does not carry the validator;
// cmd/idemlint's tests run it (go run . FILE...).
package main

import (
	"fmt"
	"os"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: sarifcheck FILE.sarif...")
		os.Exit(2)
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat() // uri, date-time and the rest are checked too
	schema, err := c.Compile("sarif-schema-2.1.0.json")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	status := 0
	for _, name := range os.Args[1:] {
		f, err := os.Open(name)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		doc, err := jsonschema.UnmarshalJSON(f)
		f.Close()
		if err != nil {
			fmt.Fprintf(os.Stderr, "%s: %v\n", name, err)
			status = 1
			continue
		}
		if err := schema.Validate(doc); err != nil {
			fmt.Fprintf(os.Stderr, "%s: %v\n", name, err)
			status = 1
		}
	}
	os.Exit(status)
}
