package constanttoken_test

import (
	"testing"

	"github.com/locklint/locklint/internal/testmod"
	"github.com/locklint/locklint/passes/constanttoken"
)

// TestClients loads its packages together, so that the client modules
// are type-checked once: go-redis v6 to v9, redigo, rueidis, the Redis
// clients of go-zero (whose methods the model follows as forwarders) and
// goframe (modelled as a client), and releases through the lock library's
// own functions, in the go-redis v9 front and in the core.
func TestClients(t *testing.T) {
	testmod.Run(t, constanttoken.Analyzer,
		"locklint.test/constanttoken/goredis",
		"locklint.test/constanttoken/redigo",
		"locklint.test/constanttoken/rueidis",
		"locklint.test/constanttoken/oldgoredis",
		"locklint.test/constanttoken/frameworks/...",
		"locklint.test/constanttoken/library")
}
