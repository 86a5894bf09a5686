package unconditionaldel_test

import (
	"testing"

	"github.com/locklint/locklint/internal/testmod"
	"github.com/locklint/locklint/passes/unconditionaldel"
)

// Each test loads its packages together: the client modules they import
// are type-checked once per test, not once per package, which is most of
// the time a test takes.

// TestFixes runs the packages whose fixes are pinned by golden files:
// go-redis v9; the clients the lock library has an adapter for, whose
// messages and fixes name the core and the adapter; and clients with no
// adapter, whose messages name the core and which get no fix.
func TestFixes(t *testing.T) {
	testmod.RunWithSuggestedFixes(t, unconditionaldel.Analyzer,
		"locklint.test/unconditionaldel/goredis",
		"locklint.test/unconditionaldel/adapters/goredisv8",
		"locklint.test/unconditionaldel/adapters/redigo",
		"locklint.test/unconditionaldel/adapters/rueidis",
		"locklint.test/unconditionaldel/adapters/valkey",
		"locklint.test/unconditionaldel/adapters/noadapter")
}

// TestClients runs redigo, rueidis, go-redis v6 to v8, and the Redis
// clients of go-zero (whose methods the model follows as forwarders) and
// goframe (modelled as a client).
func TestClients(t *testing.T) {
	testmod.Run(t, unconditionaldel.Analyzer,
		"locklint.test/unconditionaldel/redigo",
		"locklint.test/unconditionaldel/rueidis",
		"locklint.test/unconditionaldel/oldgoredis",
		"locklint.test/unconditionaldel/frameworks/...")
}
