package fixvalkey

import (
	"os/exec"
	"strings"
	"testing"
)

// A service that uses the adapter builds no Redis client but valkey-go:
// the module graph holds no go-redis, redigo or rueidis.
func TestModuleListsNoOtherRedisClient(t *testing.T) {
	out, err := exec.Command("go", "list", "-m", "all").Output()
	if err != nil {
		t.Skipf("go list -m all: %v", err)
	}
	mods := strings.Fields(strings.TrimSpace(string(out)))
	found := false
	for _, m := range mods {
		switch {
		case m == "github.com/valkey-io/valkey-go":
			found = true
		case strings.HasPrefix(m, "github.com/redis/go-redis"),
			strings.HasPrefix(m, "github.com/go-redis/redis"),
			strings.HasPrefix(m, "github.com/gomodule/redigo"),
			strings.HasPrefix(m, "github.com/garyburd/redigo"),
			strings.HasPrefix(m, "github.com/redis/rueidis"):
			t.Errorf("the module graph lists %s", m)
		}
	}
	if !found {
		t.Errorf("the module graph does not list valkey-go:\n%s", out)
	}
}
