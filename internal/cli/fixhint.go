package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os/exec"
	"sort"
	"strings"

	"github.com/locklint/locklint/analyzer/lockmodel"
)

// fixRequested reports whether the command line asks multichecker to apply
// the suggested fixes.
func fixRequested(args []string) bool {
	for _, a := range args {
		if a == "--" || !strings.HasPrefix(a, "-") {
			return false
		}
		name, value, _ := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if name == "fix" && value != "false" {
			return true
		}
	}
	return false
}

// hintFixModule tells the user, before -fix runs, that the fixes may import
// the lock library and that the module being fixed does not require it
// yet, so that the build after the fix does not fail without saying why:
// the go-redis v9 front for a go-redis v9 module, the core and the
// adapter for the other clients it requires. It says nothing when the
// module requires the core already (through the front or an adapter),
// outside module mode, or when go cannot be run.
func hintFixModule(w io.Writer) {
	gomod, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil || strings.TrimSpace(string(gomod)) == "" || strings.TrimSpace(string(gomod)) == "/dev/null" {
		return
	}
	byClient := lockmodel.LibraryModules()
	args := []string{"list", "-m", "-e", "-json", lockmodel.CorePath}
	for client := range byClient {
		args = append(args, client)
	}
	out, err := exec.Command("go", args...).Output()
	if err != nil {
		return
	}
	required := map[string]bool{}
	for dec := json.NewDecoder(bytes.NewReader(out)); ; {
		var m struct {
			Path  string
			Error *struct{ Err string }
		}
		if dec.Decode(&m) != nil {
			break
		}
		required[m.Path] = m.Error == nil
	}
	if required[lockmodel.CorePath] {
		return
	}
	need := map[string]bool{}
	for client, mods := range byClient {
		if required[client] {
			for _, m := range mods {
				need[m] = true
			}
		}
	}
	if len(need) == 0 {
		need[lockmodel.LibraryPath] = true
	}
	var gets []string
	for m := range need {
		gets = append(gets, m+"@latest")
	}
	sort.Strings(gets)
	fmt.Fprintf(w, "locklint: the fixes import the lock library, which this module does not require yet; after -fix, run:\n\tgo get %s\n",
		strings.Join(gets, " "))
}
