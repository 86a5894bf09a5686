// Command gendocs writes every analyzer's page under docs/analyzers from
// its doc.go (run by go generate ./analyzer).
package main

import (
	"flag"
	"log"
	"os"
	"path/filepath"

	"github.com/locklint/locklint/analyzer"
	"github.com/locklint/locklint/internal/docs"
)

func main() {
	root := flag.String("root", "..", "the repository root")
	flag.Parse()
	dir := filepath.Join(*root, docs.Dir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		log.Fatal(err)
	}
	for _, a := range analyzer.Analyzers() {
		page := docs.Page(a, docs.Source(a))
		if err := os.WriteFile(filepath.Join(dir, a.Name+".md"), []byte(page), 0o644); err != nil {
			log.Fatal(err)
		}
	}
}
