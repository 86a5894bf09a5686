package loopbound_test

import (
	"testing"

	"golang.org/x/tools/go/analysis"

	"github.com/locklint/locklint/analyzer/loopbound"
	"github.com/locklint/locklint/internal/testmod"
)

// debug reports what loopbound found: at each retry loop's for, and at
// each retrying self call, what bounds it.
var debug = &analysis.Analyzer{
	Name:     "loopbounddebug",
	Doc:      "loopbounddebug: report each retry loop's and retrying recursion's bound",
	Requires: []*analysis.Analyzer{loopbound.Analyzer},
	Run: func(pass *analysis.Pass) (any, error) {
		res := pass.ResultOf[loopbound.Analyzer].(*loopbound.Result)
		for _, l := range res.Loops {
			pass.Reportf(l.Stmt.Pos(), "%s", describe(l.By))
		}
		for _, r := range res.Recursions {
			pass.Reportf(r.Self.Pos(), "recursion %s", describe(r.By))
		}
		return nil, nil
	},
}

func describe(by loopbound.By) string {
	switch by {
	case loopbound.Nothing:
		return "unbounded"
	case loopbound.NoExit:
		return "no exit"
	}
	return "bounded by " + by.String()
}

func run(t *testing.T, pkgs ...string) {
	t.Helper()
	for i, p := range pkgs {
		pkgs[i] = "locklint.test/loopbound/" + p
	}
	testmod.Run(t, debug, pkgs...)
}

func TestEachKindOfBound(t *testing.T) { run(t, "kinds") }

func TestBoundsSetUpBeforeTheLoop(t *testing.T) { run(t, "armed") }

// TestBoundFromAnotherPackage checks the facts of a policy package that
// never touches Redis, with loopbound itself under test so that a fact
// nobody expects fails too, and then the loops that rest on them.
func TestBoundFromAnotherPackage(t *testing.T) {
	testmod.Run(t, loopbound.Analyzer, "locklint.test/loopbound/policy")
	run(t, "callers")
}
