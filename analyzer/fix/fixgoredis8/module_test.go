package fixgoredis8

import (
	"os/exec"
	"strings"
	"testing"
)

// A service that uses the library through go-redis v8 must build no other
// Redis client: the module graph holds go-redis v8 (and what it requires)
// and package lock's module, which requires nothing.
func TestModuleRequiresOnlyGoRedis8(t *testing.T) {
	out, err := exec.Command("go", "list", "-m", "all").Output()
	if err != nil {
		t.Skipf("go list -m all: %v", err)
	}
	mods := string(out)
	if !strings.Contains(mods, "github.com/go-redis/redis/v8 ") {
		t.Errorf("go list -m all does not list go-redis v8:\n%s", mods)
	}
	for _, other := range []string{"github.com/redis/go-redis", "github.com/gomodule/redigo", "github.com/redis/rueidis", "github.com/valkey-io/valkey-go"} {
		if strings.Contains(mods, other) {
			t.Errorf("the module graph holds %s:\n%s", other, mods)
		}
	}
}
