package luanil_test

import (
	"testing"

	"github.com/locklint/locklint/internal/testmod"
	"github.com/locklint/locklint/passes/luanil"
)

func run(t *testing.T, pkg string) {
	t.Helper()
	testmod.RunWithSuggestedFixes(t, luanil.Analyzer, "locklint.test/luanil/"+pkg)
}

func TestGoRedisScripts(t *testing.T) { run(t, "goredis") }
