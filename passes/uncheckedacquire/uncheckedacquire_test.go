package uncheckedacquire_test

import (
	"testing"

	"github.com/locklint/locklint/internal/testmod"
	"github.com/locklint/locklint/passes/uncheckedacquire"
)

func TestGoRedis(t *testing.T) {
	testmod.Run(t, uncheckedacquire.Analyzer, "locklint.test/uncheckedacquire/goredis")
}
