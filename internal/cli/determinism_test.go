package cli_test

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestJSONDeterministic runs the driver twice over the examples and wants
// the same bytes: CI diffs and SARIF baselines depend on a stable order.
func TestJSONDeterministic(t *testing.T) {
	bin := buildTool(t)
	run := func() []byte {
		cmd := exec.Command(bin, "-json", "./...")
		cmd.Dir = examples
		out, err := cmd.Output()
		if err != nil {
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != 3 && ee.ExitCode() != 0 {
				t.Fatalf("locklint -json: %v\n%s", err, out)
			}
		}
		return out
	}
	first, second := run(), run()
	if len(first) < 100 {
		t.Fatalf("locklint -json printed too little to compare:\n%s", first)
	}
	if !bytes.Equal(first, second) {
		t.Errorf("two runs printed different JSON:\n%s\n----\n%s", first, second)
	}
}

// TestTypeErrorExitsCleanly lints a module that does not type-check: the
// driver must say where, exit 1, and not panic.
func TestTypeErrorExitsCleanly(t *testing.T) {
	bin := buildTool(t)
	dir := t.TempDir()
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", "module broken\n\ngo 1.26\n")
	write("broken.go", "package broken\n\nfunc F() int { return undefinedName + \"x\" }\n")
	cmd := exec.Command(bin, "./...")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod")
	out, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 1 {
		t.Fatalf("want exit status 1, got %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "broken.go:3:") || !strings.Contains(string(out), "undefinedName") {
		t.Errorf("the type error is not reported with its position:\n%s", out)
	}
	if strings.Contains(string(out), "panic:") || strings.Contains(string(out), "goroutine ") {
		t.Errorf("driver panicked:\n%s", out)
	}
}
