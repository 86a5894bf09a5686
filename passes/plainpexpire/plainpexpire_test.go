package plainpexpire_test

import (
	"testing"

	"github.com/locklint/locklint/internal/testmod"
	"github.com/locklint/locklint/passes/plainpexpire"
)

func run(t *testing.T, pkg string) {
	t.Helper()
	testmod.RunWithSuggestedFixes(t, plainpexpire.Analyzer, "locklint.test/plainpexpire/"+pkg)
}

func TestGoRedisV9Watchdog(t *testing.T)     { run(t, "goredis") }
func TestGoRedisV8Extend(t *testing.T)       { run(t, "goredisv8") }
func TestRedigoDoPExpire(t *testing.T)       { run(t, "redigo") }
func TestRueidisBuilderPexpire(t *testing.T) { run(t, "rueidis") }
func TestGetCompareThenPExpire(t *testing.T) { run(t, "comparethen") }
func TestPlainSetOfLockKey(t *testing.T)     { run(t, "plainset") }

// TestFrameworks runs against go-zero's client, whose methods the model
// follows as forwarders.
func TestFrameworks(t *testing.T) {
	testmod.Run(t, plainpexpire.Analyzer, "locklint.test/plainpexpire/frameworks/...")
}
