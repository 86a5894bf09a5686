package lock

import (
	"errors"
	"testing"
)

// Clients differ in an error reply's text: go-redis keeps the server's
// "ERR " prefix, rueidis and valkey-go drop it.
func TestUnsupportedWithAndWithoutERRPrefix(t *testing.T) {
	for msg, want := range map[string]bool{
		"ERR unknown command 'DELEX', with args beginning with: 'k'": true,
		"unknown command 'DELEX', with args beginning with: 'k'":     true,
		"ERR syntax error": true,
		"syntax error":     true,
		"NOPERM User u has no permissions to run the 'delex' command":       true,
		"WRONGTYPE Operation against a key holding the wrong kind of value": false,
		"ERR value is not an integer or out of range":                       false,
	} {
		if got := isUnsupported(&ServerError{Err: errors.New(msg)}); got != want {
			t.Errorf("isUnsupported(%q) = %v, want %v", msg, got, want)
		}
	}
	if isUnsupported(errors.New("unknown command")) {
		t.Errorf("a transport error counts as unsupported")
	}
}
