package unconditionaldel_test

import (
	"testing"

	"github.com/locklint/locklint/internal/testmod"
	"github.com/locklint/locklint/passes/unconditionaldel"
)

func TestGoRedis(t *testing.T) {
	testmod.RunWithSuggestedFixes(t, unconditionaldel.Analyzer, "locklint.test/unconditionaldel/goredis")
}

func TestRedigo(t *testing.T) {
	testmod.Run(t, unconditionaldel.Analyzer, "locklint.test/unconditionaldel/redigo")
}

func TestRueidis(t *testing.T) {
	testmod.Run(t, unconditionaldel.Analyzer, "locklint.test/unconditionaldel/rueidis")
}

func TestOlderGoRedis(t *testing.T) {
	testmod.Run(t, unconditionaldel.Analyzer, "locklint.test/unconditionaldel/oldgoredis")
}

// TestFrameworks runs against the Redis clients of go-zero (whose methods
// the model follows as forwarders) and goframe (modelled as a client).
func TestFrameworks(t *testing.T) {
	testmod.Run(t, unconditionaldel.Analyzer, "locklint.test/unconditionaldel/frameworks/...")
}
