package unboundedretry_test

import (
	"testing"

	"github.com/locklint/locklint/internal/testmod"
	"github.com/locklint/locklint/passes/unboundedretry"
)

func run(t *testing.T, pkgs ...string) {
	t.Helper()
	for i, p := range pkgs {
		pkgs[i] = "locklint.test/unboundedretry/" + p
	}
	testmod.Run(t, unboundedretry.Analyzer, pkgs...)
}

func TestSpinOnSetNX(t *testing.T) { run(t, "basic") }

func TestWrapperInAnotherPackage(t *testing.T) { run(t, "locker", "retry") }

func TestEachKindOfBound(t *testing.T) { run(t, "bounds") }

func TestGoRedisV8RueidisAndOddShapes(t *testing.T) { run(t, "clients") }

func TestBoundInSamePackageHelper(t *testing.T) { run(t, "issue18helpers") }

func TestBoundInAnotherPackageHelper(t *testing.T) { run(t, "issue18policy", "issue18facts") }

func TestBoundByOuterLoopAndRanges(t *testing.T) { run(t, "issue18nested") }

func TestOncePerTickItemOrIteration(t *testing.T) { run(t, "issue12periodic") }

func TestRetryByRecursion(t *testing.T) { run(t, "issue12recursion") }
