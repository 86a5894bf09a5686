package splitfence_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/locklint/locklint/internal/testmod"
	"github.com/locklint/locklint/passes/splitfence"
)

func TestGoRedis(t *testing.T) {
	analysistest.Run(t, testmod.Dir(t), splitfence.Analyzer, "locklint.test/splitfence/goredis")
}

func TestRedigo(t *testing.T) {
	analysistest.Run(t, testmod.Dir(t), splitfence.Analyzer, "locklint.test/splitfence/redigo")
}

func TestRueidis(t *testing.T) {
	analysistest.Run(t, testmod.Dir(t), splitfence.Analyzer, "locklint.test/splitfence/rueidis")
}
