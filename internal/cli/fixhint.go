package cli

import (
	"fmt"
	"io"
	"os/exec"
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
// yet, so that the build after the fix does not fail without saying why.
// It says nothing outside module mode or when go cannot be run.
func hintFixModule(w io.Writer) {
	gomod, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil || strings.TrimSpace(string(gomod)) == "" || strings.TrimSpace(string(gomod)) == "/dev/null" {
		return
	}
	if exec.Command("go", "list", "-m", lockmodel.LibraryPath).Run() == nil {
		return
	}
	fmt.Fprintf(w, "locklint: the fixes import %s, which this module does not require yet; after -fix, run:\n\tgo get %s@latest\n",
		lockmodel.LibraryPath, lockmodel.LibraryPath)
}
