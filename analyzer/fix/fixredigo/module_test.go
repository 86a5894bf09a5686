package fixredigo

import (
	"os/exec"
	"strings"
	"testing"
)

// A service that uses the library through redigo must build no other
// Redis client: the module graph holds redigo (and what redigo requires)
// and package lock's module, which requires nothing.
func TestModuleRequiresOnlyRedigo(t *testing.T) {
	out, err := exec.Command("go", "list", "-m", "all").Output()
	if err != nil {
		t.Skipf("go list -m all: %v", err)
	}
	mods := string(out)
	if !strings.Contains(mods, "github.com/gomodule/redigo ") {
		t.Errorf("go list -m all does not list redigo:\n%s", mods)
	}
	for _, other := range []string{"github.com/redis/go-redis", "github.com/go-redis/redis", "github.com/redis/rueidis", "github.com/valkey-io/valkey-go"} {
		if strings.Contains(mods, other) {
			t.Errorf("the module graph holds %s:\n%s", other, mods)
		}
	}
}
