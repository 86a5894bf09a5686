package uncheckedacquire_test

import (
	"testing"

	"github.com/locklint/locklint/internal/testmod"
	"github.com/locklint/locklint/passes/uncheckedacquire"
)

func TestGoRedis(t *testing.T) {
	testmod.Run(t, uncheckedacquire.Analyzer, "locklint.test/uncheckedacquire/goredis")
}

func TestRedigo(t *testing.T) {
	testmod.Run(t, uncheckedacquire.Analyzer, "locklint.test/uncheckedacquire/redigo")
}

func TestRueidis(t *testing.T) {
	testmod.Run(t, uncheckedacquire.Analyzer, "locklint.test/uncheckedacquire/rueidis")
}

func TestOlderGoRedis(t *testing.T) {
	testmod.Run(t, uncheckedacquire.Analyzer, "locklint.test/uncheckedacquire/oldgoredis")
}

// TestLibrary runs against the lock library's own acquire, fix.Obtain and
// lock.Obtain through an adapter.
func TestLibrary(t *testing.T) {
	testmod.Run(t, uncheckedacquire.Analyzer, "locklint.test/uncheckedacquire/library")
}

// TestSkipsTestFiles pins that acquires in _test.go files are left alone.
func TestSkipsTestFiles(t *testing.T) {
	testmod.Run(t, uncheckedacquire.Analyzer, "locklint.test/uncheckedacquire/regressions/...")
}
