package luanil_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/locklint/locklint/internal/testmod"
	"github.com/locklint/locklint/passes/luanil"
)

// Each test loads its packages together, so that the client modules are
// type-checked once per test.

// TestClients runs scripts through go-redis (NewScript, Eval, EvalSha after
// ScriptLoad, embedded files, constants), redigo (Do EVAL and NewScript),
// rueidis (NewLuaScript and the command builder), and a package that
// imports no client and runs scripts through a Redis port of its own.
func TestClients(t *testing.T) {
	testmod.RunWithSuggestedFixes(t, luanil.Analyzer,
		"locklint.test/luanil/goredis",
		"locklint.test/luanil/redigo",
		"locklint.test/luanil/rueidis",
		"locklint.test/luanil/port")
}

// TestNearMisses: each package holds one shape that stays silent beside
// its twin that is reported, named by the package: a reply compared with
// false (comparefalse), not v (notreply), compared with an argument
// (argvcompare), tonumber of an argument (tonumberarg) or of a reply
// (tonumberreply), a table field or element (tablefield), a pcall error's
// field (pcallerror), a call after redis.setresp(3) (resp3), a script in
// a Go comment (gocomment), a local reassigned before the compare
// (reassigned).
func TestNearMisses(t *testing.T) {
	testmod.RunWithSuggestedFixes(t, luanil.Analyzer, "locklint.test/luanil/nearmiss/...")
}

// The lock library's own scripts stay silent: each runs, as the library
// embeds it, through go-redis in a copy of the testdata module, and the
// model must read every one of them (silence from reading, not from
// missing them).
func TestLibraryScripts(t *testing.T) {
	dir, scripts := testmod.LibraryScripts(t, nil)
	analysistest.Run(t, dir, luanil.Analyzer, "locklint.test/libscripts")
	testmod.CheckScriptsRead(t, dir, scripts)
}
