package cli_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/locklint/locklint/analyzer"
	"github.com/locklint/locklint/internal/bugmarkers"
	"github.com/locklint/locklint/internal/cli"
)

type finding = bugmarkers.Finding

var root = func() string { r, _ := filepath.Abs(filepath.Join("..", "..")); return r }()

// examples is its own module (it imports the lock library, a module of its
// own too), so the driver runs inside it.
var examples = filepath.Join(root, "examples")

func buildTool(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "locklint")
	cmd := exec.Command("go", "build", "-o", bin, filepath.Join(root, "cmd", "locklint"))
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// expected reads the BUG(analyzer) markers under examples/, for the
// analyzers the suite has.
func expected(t *testing.T, dir string) []finding {
	t.Helper()
	enabled := map[string]bool{}
	for _, a := range analyzer.Analyzers() {
		enabled[a.Name] = true
	}
	out, err := bugmarkers.Read(dir, func(name string) bool { return enabled[name] })
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func sortFindings(fs []finding) { bugmarkers.Sort(fs) }

var posn = regexp.MustCompile(`^(.*):(\d+):(\d+)$`)

// parseJSON reads multichecker's -json output.
func parseJSON(t *testing.T, dir string, data []byte) []finding {
	t.Helper()
	var tree map[string]map[string]json.RawMessage
	if err := json.Unmarshal(data, &tree); err != nil {
		t.Fatalf("bad -json output: %v\n%s", err, data)
	}
	var out []finding
	for _, byAnalyzer := range tree {
		for name, raw := range byAnalyzer {
			var diags []struct {
				Posn    string `json:"posn"`
				Message string `json:"message"`
			}
			if err := json.Unmarshal(raw, &diags); err != nil {
				t.Fatalf("%s: %s (%v)", name, raw, err)
			}
			for _, d := range diags {
				m := posn.FindStringSubmatch(d.Posn)
				if m == nil {
					t.Fatalf("bad position %q", d.Posn)
				}
				rel, _ := filepath.Rel(dir, m[1])
				rel = filepath.ToSlash(rel)
				var line int
				fmt.Sscan(m[2], &line)
				out = append(out, finding{File: rel, Line: line, Analyzer: name})
			}
		}
	}
	sortFindings(out)
	return out
}

// TestChangeDirQuickStart runs the README's quick start as written, from
// the repository root: -C examples lints the nested module.
func TestChangeDirQuickStart(t *testing.T) {
	bin := buildTool(t)
	for _, args := range [][]string{{"-C", "examples", "-json", "./..."}, {"-C=examples", "-json", "./..."}} {
		cmd := exec.Command(bin, args...)
		cmd.Dir = root
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("locklint %v: %v\n%s", args, err, out)
		}
		if got, want := parseJSON(t, root, out), expected(t, root); !slices.Equal(got, want) {
			t.Errorf("locklint %v: findings differ from the BUG markers\ngot:\n%s\nwant:\n%s", args, join(got), join(want))
		}
	}
	cmd := exec.Command(bin, "-C", filepath.Join(t.TempDir(), "missing"), "./...")
	if out, err := cmd.CombinedOutput(); err == nil || !bytes.Contains(out, []byte("-C:")) {
		t.Errorf("locklint -C missing: err %v, output %q; want a -C error", err, out)
	}
}

func TestStandaloneOnExamples(t *testing.T) {
	bin := buildTool(t)
	cmd := exec.Command(bin, "-json", "./...")
	cmd.Dir = examples
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("locklint -json: %v\n%s", err, out)
	}
	got, want := parseJSON(t, root, out), expected(t, root)
	if !slices.Equal(got, want) {
		t.Errorf("findings differ from the BUG markers\ngot:\n%s\nwant:\n%s", join(got), join(want))
	}

	// Without -json, findings exit 3.
	cmd = exec.Command(bin, "./...")
	cmd.Dir = examples
	err = cmd.Run()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 3 {
		t.Errorf("locklint ./examples/...: got %v, want exit status 3", err)
	}
}

func TestVettoolOnExamples(t *testing.T) {
	bin := buildTool(t)
	cmd := exec.Command("go", "vet", "-vettool="+bin, "./...")
	cmd.Dir = examples
	out, err := cmd.CombinedOutput()
	if err == nil {
		t.Fatalf("go vet -vettool reported nothing on the examples")
	}
	var got []finding
	// Related information is printed as indented lines; skip it.
	re := regexp.MustCompile(`(?m)^(\S+\.go):(\d+):\d+: [^\t]`)
	for _, m := range re.FindAllStringSubmatch(string(out), -1) {
		path := m[1]
		if !filepath.IsAbs(path) {
			path = filepath.Join(examples, path)
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		var line int
		fmt.Sscan(m[2], &line)
		got = append(got, finding{File: rel, Line: line})
	}
	want := expected(t, root)
	for i := range want {
		want[i].Analyzer = "" // go vet's text output does not name the analyzer
	}
	sortFindings(got)
	sortFindings(want)
	if !slices.Equal(got, want) {
		t.Errorf("go vet -vettool findings differ from the BUG markers\ngot:\n%s\nwant:\n%s\noutput:\n%s", join(got), join(want), out)
	}
}

func TestVersion(t *testing.T) {
	bin := buildTool(t)
	out, err := exec.Command(bin, "-version").Output()
	if err != nil || !bytes.HasPrefix(out, []byte("locklint ")) {
		t.Fatalf("locklint -version: %q, %v", out, err)
	}
}

func join(fs []finding) string { return bugmarkers.Join(fs) }

// locklint leaves go vet's suite out of its binary, so that go vet, which
// starts the tool once per package, starts it fast; asked for -vet, it
// names the command that has the suite.
func TestLocklintLeavesVetSuiteOut(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", filepath.Join(root, "cmd", "locklint")).Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, p := range []string{"golang.org/x/tools/go/analysis/suite/vet", "golang.org/x/tools/go/analysis/passes/stdversion", "golang.org/x/tools/go/analysis/passes/printf"} {
		if slices.Contains(strings.Fields(string(out)), p) {
			t.Errorf("cmd/locklint links %s", p)
		}
	}
	cmd := exec.Command(buildTool(t), "-vet", "./...")
	cmd.Dir = examples
	msg, err := cmd.CombinedOutput()
	if code := cmd.ProcessState.ExitCode(); code != 1 || !strings.Contains(string(msg), cli.VetCommand) {
		t.Errorf("locklint -vet: exit status %d (%v), want 1 and a pointer to %s:\n%s", code, err, cli.VetCommand, msg)
	}
}
