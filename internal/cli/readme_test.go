package cli_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/locklint/locklint/analyzer"
)

// outputLine is a finding or related line as the README quotes the text
// output: a path under examples/, a position, the message.
var outputLine = regexp.MustCompile(`^examples/\S+:\d+:\d+: `)

// TestREADMEShowsTheExamplesFindings keeps the README's sample output in
// step with the messages: every output line it quotes (in ```text blocks)
// is one that locklint prints on the examples, and every analyzer's
// section quotes at least one.
func TestREADMEShowsTheExamplesFindings(t *testing.T) {
	bin := buildTool(t)
	cmd := exec.Command(bin, "-C", "examples", "./...")
	cmd.Dir = root
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err == nil {
		t.Fatalf("locklint -C examples found nothing")
	}
	printed := map[string]bool{}
	for _, l := range strings.Split(stderr.String(), "\n") {
		printed[normalize(strings.TrimPrefix(l, root+string(filepath.Separator)))] = true
	}

	data, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	quoted := map[string]int{} // README section -> output lines quoted in it
	section, inText := "", false
	for i, l := range strings.Split(string(data), "\n") {
		switch {
		case strings.HasPrefix(l, "### ") || strings.HasPrefix(l, "## "):
			section = strings.TrimLeft(l, "# ")
		case l == "```text":
			inText = true
		case strings.HasPrefix(l, "```"):
			inText = false
		case inText && outputLine.MatchString(l):
			quoted[section]++
			if !printed[normalize(l)] {
				t.Errorf("README.md:%d quotes a line locklint does not print on the examples:\n%s\noutput:\n%s", i+1, l, stderr.String())
			}
		}
	}
	for _, a := range analyzer.Analyzers() {
		if quoted[a.Name] == 0 {
			t.Errorf("README section %s quotes none of its findings on the examples", a.Name)
		}
	}
}

// normalize collapses the tab that indents a related line, so that the
// README can indent with spaces.
func normalize(l string) string { return strings.Join(strings.Fields(l), " ") }
