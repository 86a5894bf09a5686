// Command gen writes fixvalkey's files from fixrueidis's (go generate in
// fixvalkey, which must sit beside fixrueidis as it does in the repository).
package main

import (
	"log"
	"os"
	"path/filepath"

	"github.com/locklint/locklint/analyzer/fix/fixvalkey/internal/rename"
)

func main() {
	for _, name := range rename.Files {
		src, err := os.ReadFile(filepath.Join("..", "fixrueidis", name))
		if err != nil {
			log.Fatalf("gen: %v (run go generate in fixvalkey, beside fixrueidis)", err)
		}
		if err := os.WriteFile(name, []byte(rename.FromRueidis(string(src))), 0o644); err != nil {
			log.Fatalf("gen: %v", err)
		}
	}
}
