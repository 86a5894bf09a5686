package constanttoken_test

import (
	"testing"

	"github.com/locklint/locklint/internal/testmod"
	"github.com/locklint/locklint/passes/constanttoken"
)

func TestGoRedis(t *testing.T) {
	testmod.Run(t, constanttoken.Analyzer, "locklint.test/constanttoken/goredis")
}

func TestRedigo(t *testing.T) {
	testmod.Run(t, constanttoken.Analyzer, "locklint.test/constanttoken/redigo")
}

func TestRueidis(t *testing.T) {
	testmod.Run(t, constanttoken.Analyzer, "locklint.test/constanttoken/rueidis")
}

func TestOlderGoRedis(t *testing.T) {
	testmod.Run(t, constanttoken.Analyzer, "locklint.test/constanttoken/oldgoredis")
}

// TestFrameworks runs against the Redis clients of go-zero (whose methods
// the model follows as forwarders) and goframe (modelled as a client).
func TestFrameworks(t *testing.T) {
	testmod.Run(t, constanttoken.Analyzer, "locklint.test/constanttoken/frameworks/...")
}

// TestLibraryRelease runs against releases through the lock library's
// own functions, in the go-redis v9 front and in the core.
func TestLibraryRelease(t *testing.T) {
	testmod.Run(t, constanttoken.Analyzer, "locklint.test/constanttoken/library")
}
