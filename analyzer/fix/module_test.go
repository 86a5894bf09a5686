package fix

import (
	"os/exec"
	"strings"
	"testing"
)

// A service that imports the library must build nothing for it but
// go-redis: every module the library requires is go-redis or one that
// go-redis requires itself. Test-only modules (miniredis, goleak) belong
// to the behaviour module under internal/behaviour.
func TestModuleRequiresOnlyGoRedis(t *testing.T) {
	const self, client, core = "github.com/locklint/locklint/analyzer/fix", "github.com/redis/go-redis/v9", "github.com/locklint/locklint/analyzer/fix/lock"
	out, err := exec.Command("go", "mod", "graph").Output()
	if err != nil {
		t.Skipf("go mod graph: %v", err)
	}
	mine := map[string]bool{}
	clients := map[string]bool{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		from, to, ok := strings.Cut(line, " ")
		if !ok {
			continue
		}
		path, _, _ := strings.Cut(to, "@")
		switch {
		case from == self:
			mine[path] = true
		case strings.HasPrefix(from, client+"@"):
			clients[path] = true
		}
	}
	if !mine[client] {
		t.Fatalf("go.mod does not require %s; graph:\n%s", client, out)
	}
	for path := range mine {
		if path != client && path != core && !clients[path] {
			t.Errorf("go.mod requires %s, which go-redis does not: a service importing the library would list it", path)
		}
	}
}
