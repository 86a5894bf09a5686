package crossslot_test

import (
	"testing"

	"github.com/locklint/locklint/internal/testmod"
	"github.com/locklint/locklint/passes/crossslot"
)

func run(t *testing.T, pkg string) {
	t.Helper()
	testmod.Run(t, crossslot.Analyzer, "locklint.test/crossslot/"+pkg)
}

func TestGoRedisClusterAndLockFence(t *testing.T) { run(t, "goredis") }
func TestOlderGoRedis(t *testing.T)               { run(t, "oldgoredis") }
func TestRedigoEvalAndScript(t *testing.T)        { run(t, "redigo") }
func TestRueidisLuaAndBuilder(t *testing.T)       { run(t, "rueidis") }

func TestAnyClientFlag(t *testing.T) {
	if err := crossslot.Analyzer.Flags.Set("anyclient", "true"); err != nil {
		t.Fatal(err)
	}
	defer crossslot.Analyzer.Flags.Set("anyclient", "false")
	run(t, "anyclient")
}
