package lock

import (
	"os/exec"
	"strings"
	"testing"
)

// The library core requires no module at all: a service that uses it
// through a client adapter builds that client and nothing else.
func TestModuleRequiresNothing(t *testing.T) {
	out, err := exec.Command("go", "list", "-m", "all").Output()
	if err != nil {
		t.Skipf("go list -m all: %v", err)
	}
	if mods := strings.Fields(strings.TrimSpace(string(out))); len(mods) != 1 {
		t.Errorf("go list -m all lists more than the module itself:\n%s", out)
	}
}
