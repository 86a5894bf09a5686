package splitfence_test

import (
	"testing"

	"github.com/locklint/locklint/internal/testmod"
	"github.com/locklint/locklint/passes/splitfence"
)

func TestGoRedis(t *testing.T) {
	testmod.Run(t, splitfence.Analyzer, "locklint.test/splitfence/goredis")
}

func TestRedigo(t *testing.T) {
	testmod.Run(t, splitfence.Analyzer, "locklint.test/splitfence/redigo")
}

func TestRueidis(t *testing.T) {
	testmod.Run(t, splitfence.Analyzer, "locklint.test/splitfence/rueidis")
}
