package analyzer_test

import (
	"flag"
	"os"
	"strings"
	"testing"

	"github.com/locklint/locklint/analyzer"
)

// TestREADMECoversTheSuite keeps the README in step with the suite: every
// analyzer has its section (the target of its URL), its nogo label, and
// every one of its flags in the flags table.
func TestREADMECoversTheSuite(t *testing.T) {
	data, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := string(data)
	for _, a := range analyzer.Analyzers() {
		if !strings.Contains(readme, "\n### "+a.Name+"\n") {
			t.Errorf("README has no section ### %s (the anchor of %s)", a.Name, a.URL)
		}
		if !strings.HasSuffix(a.URL, "#"+a.Name) {
			t.Errorf("%s: URL %s does not point at its README section", a.Name, a.URL)
		}
		if label := `"@com_github_locklint_locklint//passes/` + a.Name + `"`; !strings.Contains(readme, label) {
			t.Errorf("README's nogo deps lack %s", label)
		}
		a.Flags.VisitAll(func(f *flag.Flag) {
			if row := "| `-" + a.Name + "." + f.Name + "` |"; !strings.Contains(readme, row) {
				t.Errorf("README's flags table lacks %s", row)
			}
		})
	}
}
