// Package rename turns fixrueidis's source into fixvalkey's: valkey-go is
// rueidis under the Valkey project's names, so the adapter is written once.
package rename

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"regexp"
	"strings"
)

// Files are the files made from fixrueidis's; go.mod differs by more
// than names and is kept by hand.
var Files = []string{"client.go", "subscription.go", "doc.go", "example_test.go", "nil_test.go"}

var renames = []struct {
	re   *regexp.Regexp
	with string
}{
	{regexp.MustCompile(`github\.com/redis/rueidis`), "github.com/valkey-io/valkey-go"},
	{regexp.MustCompile(`fixrueidis`), "fixvalkey"},
	{regexp.MustCompile(`rueidis\.IsRedisNil`), "valkey.IsValkeyNil"},
	{regexp.MustCompile(`rueidis\.IsRedisErr`), "valkey.IsValkeyErr"},
	{regexp.MustCompile(`rueidis\.RedisResult`), "valkey.ValkeyResult"},
	{regexp.MustCompile(`rueidis\.RedisMessage`), "valkey.ValkeyMessage"},
	{regexp.MustCompile(`rueidis\.`), "valkey."},
	{regexp.MustCompile(`rueidis`), "valkey-go"},
	{regexp.MustCompile(`\brc\b`), "vc"},
}

const headerFormat = "// Code generated from ../fixrueidis by go generate; DO NOT EDIT.\n// sha256 of the rest: %s\n\n"

// FromRueidis returns fixvalkey's file for fixrueidis's src: the renamed
// source under a header that records its checksum, so that a hand edit
// shows even where fixrueidis is not beside it (in a module zip).
func FromRueidis(src string) string {
	for _, r := range renames {
		src = r.re.ReplaceAllString(src, r.with)
	}
	return fmt.Sprintf(headerFormat, sum(src)) + src
}

// Intact reports whether a generated file's body still has the checksum
// its header records.
func Intact(file string) bool {
	var recorded string
	if _, err := fmt.Sscanf(file, headerFormat, &recorded); err != nil {
		return false
	}
	body := strings.TrimPrefix(file, fmt.Sprintf(headerFormat, recorded))
	return recorded == sum(body)
}

func sum(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:])
}
