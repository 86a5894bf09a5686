package fixvalkey

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/locklint/locklint/analyzer/fix/fixvalkey/internal/rename"
)

// TestGeneratedFilesAreFresh: each generated file is unedited (its body
// has the checksum its header records, checked everywhere, a module zip
// included) and, where fixrueidis sits beside it, is what go generate
// makes of fixrueidis's file now.
func TestGeneratedFilesAreFresh(t *testing.T) {
	for _, name := range rename.Files {
		got, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		if !rename.Intact(string(got)) {
			t.Errorf("%s was edited by hand; edit ../fixrueidis/%s and run go generate", name, name)
		}
		src, err := os.ReadFile(filepath.Join("..", "fixrueidis", name))
		if errors.Is(err, fs.ErrNotExist) {
			continue // a module zip: fixrueidis is not beside it
		}
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != rename.FromRueidis(string(src)) {
			t.Errorf("%s is not fixrueidis's %s under valkey-go's names; run go generate", name, name)
		}
	}
}

func TestRenameLeavesNoRueidisName(t *testing.T) {
	out := rename.FromRueidis("rueidis github.com/redis/rueidis fixrueidis rueidis.IsRedisNil")
	if _, body, _ := strings.Cut(out, "\n\n"); strings.Contains(body, "rueidis") {
		t.Errorf("a rename leaves rueidis's name: %q", body)
	}
	if !rename.Intact(out) {
		t.Error("a generated file is not intact")
	}
	if rename.Intact(out + "// edited\n") {
		t.Error("an edited file passes as intact")
	}
}
