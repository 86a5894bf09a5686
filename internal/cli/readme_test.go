package cli_test

import (
	"bytes"
	"fmt"
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
// is one that locklint prints on the examples, and every analyzer has a
// finding quoted (told by the BUG marker on its line).
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
	marked := map[string][]string{} // file:line -> analyzers marked there
	for _, f := range expected(t, root) {
		k := fmt.Sprintf("%s:%d", f.File, f.Line)
		marked[k] = append(marked[k], f.Analyzer)
	}

	data, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	quoted := map[string]int{} // analyzer -> findings of it quoted
	inText := false
	for i, l := range strings.Split(string(data), "\n") {
		switch {
		case l == "```text":
			inText = true
		case strings.HasPrefix(l, "```"):
			inText = false
		case inText && outputLine.MatchString(l):
			if !printed[normalize(l)] {
				t.Errorf("README.md:%d quotes a line locklint does not print on the examples:\n%s\noutput:\n%s", i+1, l, stderr.String())
			}
			if m := position.FindStringSubmatch(l); m != nil {
				for _, a := range marked[m[1]] {
					quoted[a]++
				}
			}
		}
	}
	for _, a := range analyzer.Analyzers() {
		if quoted[a.Name] == 0 {
			t.Errorf("README quotes none of %s's findings on the examples", a.Name)
		}
	}
}

// position is a quoted line's file and line.
var position = regexp.MustCompile(`^(examples/\S+:\d+):\d+: `)

// normalize collapses the tab that indents a related line, so that the
// README can indent with spaces.
func normalize(l string) string { return strings.Join(strings.Fields(l), " ") }
