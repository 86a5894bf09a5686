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

func TestGoRedisScripts(t *testing.T)       { run(t, "goredis") }
func TestRedigoEvalAndScript(t *testing.T)  { run(t, "redigo") }
func TestRueidisLuaAndBuilder(t *testing.T) { run(t, "rueidis") }

// A package that imports no client and runs scripts through a Redis port
// of its own.
func TestPortEval(t *testing.T) { run(t, "port") }

// Each near miss stays silent beside its twin that is reported.
func nearMiss(t *testing.T, pkg string) { t.Helper(); run(t, "nearmiss/"+pkg) }

func TestComparedWithFalse(t *testing.T)     { nearMiss(t, "comparefalse") }
func TestNotReply(t *testing.T)              { nearMiss(t, "notreply") }
func TestComparedWithArgument(t *testing.T)  { nearMiss(t, "argvcompare") }
func TestTonumberOfArgument(t *testing.T)    { nearMiss(t, "tonumberarg") }
func TestTonumberOfReply(t *testing.T)       { nearMiss(t, "tonumberreply") }
func TestTableFieldOrElement(t *testing.T)   { nearMiss(t, "tablefield") }
func TestPcallErrorField(t *testing.T)       { nearMiss(t, "pcallerror") }
func TestAfterSetRESP3(t *testing.T)         { nearMiss(t, "resp3") }
func TestScriptInGoComment(t *testing.T)     { nearMiss(t, "gocomment") }
func TestLocalReassignedBefore(t *testing.T) { nearMiss(t, "reassigned") }
