package constanttoken_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/locklint/locklint/internal/testmod"
	"github.com/locklint/locklint/passes/constanttoken"
)

func TestGoRedis(t *testing.T) {
	analysistest.Run(t, testmod.Dir(t), constanttoken.Analyzer, "locklint.test/constanttoken/goredis")
}

func TestRedigo(t *testing.T) {
	analysistest.Run(t, testmod.Dir(t), constanttoken.Analyzer, "locklint.test/constanttoken/redigo")
}

func TestRueidis(t *testing.T) {
	analysistest.Run(t, testmod.Dir(t), constanttoken.Analyzer, "locklint.test/constanttoken/rueidis")
}

func TestOlderGoRedis(t *testing.T) {
	analysistest.Run(t, testmod.Dir(t), constanttoken.Analyzer, "locklint.test/constanttoken/oldgoredis")
}
