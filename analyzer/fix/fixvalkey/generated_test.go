package fixvalkey

import (
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// valkey-go is rueidis under the Valkey project's names, so this adapter is
// fixrueidis under those names, written from it and checked here: edit
// fixrueidis, then run go test -run Generated -update in this module.
var update = flag.Bool("update", false, "rewrite the files generated from fixrueidis")

// generated are the files made from fixrueidis's; go.mod and the module
// test differ by more than names and are kept by hand.
var generated = []string{"client.go", "subscription.go", "doc.go", "example_test.go", "nil_test.go"}

var renames = []struct{ re, with string }{
	{`github\.com/redis/rueidis`, "github.com/valkey-io/valkey-go"},
	{`fixrueidis`, "fixvalkey"},
	{`rueidis\.IsRedisNil`, "valkey.IsValkeyNil"},
	{`rueidis\.IsRedisErr`, "valkey.IsValkeyErr"},
	{`rueidis\.RedisResult`, "valkey.ValkeyResult"},
	{`rueidis\.RedisMessage`, "valkey.ValkeyMessage"},
	{`rueidis\.`, "valkey."},
	{`rueidis`, "valkey-go"},
	{`\brc\b`, "vc"},
}

const header = "// Code generated from ../fixrueidis by TestGeneratedFromRueidis -update; DO NOT EDIT.\n\n"

func fromRueidis(src string) string {
	for _, r := range renames {
		src = regexp.MustCompile(r.re).ReplaceAllString(src, r.with)
	}
	return header + src
}

func TestGeneratedFromRueidis(t *testing.T) {
	for _, name := range generated {
		src, err := os.ReadFile(filepath.Join("..", "fixrueidis", name))
		if err != nil {
			t.Fatal(err)
		}
		want := fromRueidis(string(src))
		if *update {
			if err := os.WriteFile(name, []byte(want), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		got, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != want {
			t.Errorf("%s is not fixrueidis's %s under valkey-go's names; run go test -run Generated -update", name, name)
		}
	}
	if strings.Contains(strings.TrimPrefix(fromRueidis("rueidis github.com/redis/rueidis"), header), "rueidis") {
		t.Error("a rename leaves rueidis's name")
	}
}
