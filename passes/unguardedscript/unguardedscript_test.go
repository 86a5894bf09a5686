package unguardedscript_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/locklint/locklint/internal/testmod"
	"github.com/locklint/locklint/passes/unguardedscript"
)

func run(t *testing.T, pkg string) {
	t.Helper()
	testmod.Run(t, unguardedscript.Analyzer, "locklint.test/unguardedscript/"+pkg)
}

func TestGoRedisScripts(t *testing.T)       { run(t, "goredis") }
func TestRedigoEvalAndScript(t *testing.T)  { run(t, "redigo") }
func TestRueidisLuaAndBuilder(t *testing.T) { run(t, "rueidis") }
func TestOlderGoRedis(t *testing.T)         { run(t, "oldgoredis") }

// The lock library's own scripts are the reference forms: the pass must
// stay silent on them. The library sends them through its own client
// interface, which the model does not read, so the test runs each script,
// as the library embeds it, through go-redis in a copy of the testdata
// module.
func TestLibraryScripts(t *testing.T) {
	dir, scripts := testmod.LibraryScripts(t, func(script string) []string {
		keys, ok := libraryKeys[script]
		if !ok {
			t.Fatalf("%s: no keys known for this script; add them to libraryKeys", script)
		}
		return keys
	})
	analysistest.Run(t, dir, unguardedscript.Analyzer, "locklint.test/libscripts")
	testmod.CheckScriptsRead(t, dir, scripts)
}

// libraryKeys are the keys the library passes to each script, in order,
// named as a service names them; a fenced lock's keys are those of
// WithFenceKey, the longest form.
var libraryKeys = map[string][]string{
	"acquire.lua": {"lock:{job}", "lock:{job}:fence", "lock:{job}:fenced", "lock:{job}:queue"},
	"fenced.lua":  {"lock:{job}", "lock:{job}:fence", "lock:{job}:fenced"},
	"handoff.lua": {"lock:{job}", "lock:{job}:queue", "lock:{job}:fence", "lock:{job}:fenced"},
	"leave.lua":   {"lock:{job}", "lock:{job}:queue"},
	"refresh.lua": {"lock:{job}"},
	"release.lua": {"lock:{job}"},
}
