package setnxexpire_test

import (
	"testing"

	"github.com/locklint/locklint/internal/testmod"
	"github.com/locklint/locklint/passes/setnxexpire"
)

func TestGoRedis(t *testing.T) {
	testmod.RunWithSuggestedFixes(t, setnxexpire.Analyzer, "locklint.test/setnxexpire/goredis")
}

func TestRedigo(t *testing.T) {
	testmod.Run(t, setnxexpire.Analyzer, "locklint.test/setnxexpire/redigo")
}

func TestRueidis(t *testing.T) {
	testmod.Run(t, setnxexpire.Analyzer, "locklint.test/setnxexpire/rueidis")
}

func TestOlderGoRedis(t *testing.T) {
	testmod.RunWithSuggestedFixes(t, setnxexpire.Analyzer, "locklint.test/setnxexpire/oldgoredis")
}

// TestFrameworks runs against the Redis clients of go-zero (whose methods
// the model follows as forwarders) and goframe (modelled as a client).
func TestFrameworks(t *testing.T) {
	testmod.Run(t, setnxexpire.Analyzer, "locklint.test/setnxexpire/frameworks/...")
}
