package setnxexpire_test

import (
	"testing"

	"github.com/locklint/locklint/internal/testmod"
	"github.com/locklint/locklint/passes/setnxexpire"
)

// Each test loads its packages together, so that the client modules are
// type-checked once per test.

// TestFixes runs go-redis v9 and v6 to v8, whose fixes are pinned by
// golden files.
func TestFixes(t *testing.T) {
	testmod.RunWithSuggestedFixes(t, setnxexpire.Analyzer,
		"locklint.test/setnxexpire/goredis",
		"locklint.test/setnxexpire/oldgoredis")
}

// TestClients runs redigo, rueidis, and the Redis clients of go-zero
// (whose methods the model follows as forwarders) and goframe (modelled
// as a client).
func TestClients(t *testing.T) {
	testmod.Run(t, setnxexpire.Analyzer,
		"locklint.test/setnxexpire/redigo",
		"locklint.test/setnxexpire/rueidis",
		"locklint.test/setnxexpire/frameworks/...")
}
