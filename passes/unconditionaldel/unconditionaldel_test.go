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

// TestAdapters runs against the clients the lock library has an adapter
// for: the messages and fixes name the core and the client's adapter.
func TestAdapters(t *testing.T) {
	for _, pkg := range []string{"goredisv8", "redigo", "rueidis", "valkey"} {
		t.Run(pkg, func(t *testing.T) {
			testmod.RunWithSuggestedFixes(t, unconditionaldel.Analyzer, "locklint.test/unconditionaldel/adapters/"+pkg)
		})
	}
}

// TestNoAdapter runs against clients with no adapter: the messages name
// the core, and there is no fix (a golden file would be needed for one).
func TestNoAdapter(t *testing.T) {
	testmod.RunWithSuggestedFixes(t, unconditionaldel.Analyzer, "locklint.test/unconditionaldel/adapters/noadapter")
}
