package golangci_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/locklint/locklint/analyzer"
	"github.com/locklint/locklint/internal/bugmarkers"
)

// These tests run a golangci-lint binary with the locklint plugin compiled
// in, the way `golangci-lint custom` would build it, against the example
// service and small scratch modules.

var (
	root    = func() string { r, _ := filepath.Abs(filepath.Join("..", "..")); return r }()
	config  = func() string { c, _ := filepath.Abs(".golangci.yml"); return c }()
	gclBin  string
	buildOK bool
)

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "golangci-locklint")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	gclBin = filepath.Join(dir, "golangci-lint")
	start := time.Now()
	cmd := exec.Command("go", "build", "-o", gclBin, "./cmd/golangci-lint-locklint")
	if out, err := cmd.CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "building golangci-lint with the plugin: %v\n%s", err, out)
		os.RemoveAll(dir)
		os.Exit(1)
	}
	fmt.Fprintf(os.Stderr, "built golangci-lint with the locklint plugin in %s\n", time.Since(start).Round(time.Second))
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

type finding = bugmarkers.Finding

// lint runs golangci-lint in dir with cfg and returns its findings, less
// the "(related information)" entries golangci-lint lists as issues of
// their own.
func lint(t *testing.T, dir, cfg string, args ...string) []finding {
	t.Helper()
	out, _ := run(t, dir, cfg, append([]string{"--output.json.path=stdout"}, args...)...)
	var res struct {
		Issues []struct {
			FromLinter string
			Text       string
			Pos        struct {
				Filename string
				Line     int
			}
		}
	}
	// The JSON report comes first; the text summary follows it.
	if err := json.NewDecoder(bytes.NewReader(out)).Decode(&res); err != nil {
		t.Fatalf("golangci-lint output: %v\n%.2000s", err, out)
	}
	var fs []finding
	for _, is := range res.Issues {
		name, _, _ := strings.Cut(is.Text, ": ")
		if strings.HasSuffix(name, "(related information)") {
			continue
		}
		if is.FromLinter != "locklint" {
			t.Errorf("issue from %s: %s", is.FromLinter, is.Text)
		}
		fs = append(fs, finding{File: filepath.ToSlash(is.Pos.Filename), Line: is.Pos.Line, Analyzer: name})
	}
	sortFindings(fs)
	return fs
}

// run runs golangci-lint and fails the test on a status other than 0
// (clean) or 1 (issues found).
func run(t *testing.T, dir, cfg string, args ...string) ([]byte, int) {
	t.Helper()
	all := append([]string{"run", "--config", cfg, "--path-mode=abs"}, args...)
	cmd := exec.Command(gclBin, append(all, "./...")...)
	cmd.Dir = dir
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	if code > 1 {
		t.Fatalf("golangci-lint %v: exit status %d\n%s%s", all, code, out, stderr.String())
	}
	return out, code
}

// relativize makes absolute finding paths relative to dir.
func relativize(fs []finding, dir string) []finding {
	for i := range fs {
		if rel, err := filepath.Rel(dir, fs[i].File); err == nil {
			fs[i].File = filepath.ToSlash(rel)
		}
	}
	sortFindings(fs)
	return fs
}

func sortFindings(fs []finding) { bugmarkers.Sort(fs) }

// markers reads the BUG(analyzer) comments under dir/examples for the
// analyzers the suite has, less those in skip.
func markers(t *testing.T, dir string, skip ...string) []finding {
	t.Helper()
	enabled := map[string]bool{}
	for _, a := range analyzer.Analyzers() {
		enabled[a.Name] = !slices.Contains(skip, a.Name)
	}
	out, err := bugmarkers.Read(dir, func(name string) bool { return enabled[name] })
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func join(fs []finding) string { return bugmarkers.Join(fs) }

// withSettings writes a copy of the example config into dir with the
// plugin settings replaced.
func withSettings(t *testing.T, dir, settings string) string {
	t.Helper()
	data, err := os.ReadFile(config)
	if err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile(`(?s)        settings:\n.*?\n\n`)
	if !re.Match(data) {
		t.Fatal("example config has no settings block to replace")
	}
	var indented strings.Builder
	for _, l := range strings.Split(strings.TrimSpace(settings), "\n") {
		indented.WriteString("          " + l + "\n")
	}
	data = re.ReplaceAll(data, []byte("        settings:\n"+strings.ReplaceAll(indented.String(), "$", "$$")+"\n"))
	path := filepath.Join(dir, "golangci.yml")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestExamplesMatchBugMarkers(t *testing.T) {
	got := relativize(lintExamples(t, config), root)
	if want := markers(t, root); !slices.Equal(got, want) {
		t.Errorf("findings differ from the BUG markers\ngot:\n%s\nwant:\n%s", join(got), join(want))
	}
}

// lintExamples lints the examples directory of the repository.
func lintExamples(t *testing.T, cfg string) []finding {
	t.Helper()
	return lint(t, filepath.Join(root, "examples"), cfg)
}

func TestDisableRemovesFindings(t *testing.T) {
	cfg := withSettings(t, t.TempDir(), "disable: [unconditionaldel]")
	got := relativize(lintExamples(t, cfg), root)
	if want := markers(t, root, "unconditionaldel"); !slices.Equal(got, want) {
		t.Errorf("with unconditionaldel disabled\ngot:\n%s\nwant:\n%s", join(got), join(want))
	}
}

func TestLockwordsNarrowing(t *testing.T) {
	all := lintExamples(t, config)
	cfg := withSettings(t, t.TempDir(), "lockwords: [semaphore]")
	narrow := lintExamples(t, cfg)
	if len(narrow) >= len(all) {
		t.Errorf("lockwords: [semaphore] left %d of %d findings:\n%s", len(narrow), len(all), join(narrow))
	}
	// A narrower list can move a finding, never add one: a wrapper whose
	// name no longer says lock (store.Locker's Unlock) is followed into
	// its callers, so its DEL is reported where it is called instead of
	// in its body.
	count := func(fs []finding) map[string]int {
		n := map[string]int{}
		for _, f := range fs {
			n[f.Analyzer]++
		}
		return n
	}
	wide := count(all)
	for a, n := range count(narrow) {
		if n > wide[a] {
			t.Errorf("narrowing the lock words raised %s findings from %d to %d:\n%s", a, wide[a], n, join(narrow))
		}
	}
}

func TestUnknownSettingFailsTheRun(t *testing.T) {
	cfg := withSettings(t, t.TempDir(), "lockword: [lock]")
	cmd := exec.Command(gclBin, "run", "--config", cfg, "./...")
	cmd.Dir = filepath.Join(root, "examples")
	out, err := cmd.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() <= 1 || !strings.Contains(string(out), "lockword") {
		t.Errorf("misspelt setting: %v\n%s", err, out)
	}
}

// scratch makes a module in a temp dir that shares the examples module's
// go.mod and go.sum (the root module no longer requires go-redis), with
// its replace of the lock library pointed at this repository, so that
// go-redis resolves from the module cache, and holds the given files.
func scratch(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for _, p := range []string{"go.mod", "go.sum"} {
		data, err := os.ReadFile(filepath.Join(root, "examples", p))
		if err != nil {
			t.Fatal(err)
		}
		if p == "go.mod" {
			data = []byte(strings.ReplaceAll(string(data), "=> ../analyzer/fix", "=> "+filepath.Join(root, "analyzer", "fix")))
		}
		os.WriteFile(filepath.Join(dir, p), data, 0o644)
	}
	for name, src := range files {
		path := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(path), 0o755)
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

const nolintSrc = `package worker

import (
	"context"

	"github.com/redis/go-redis/v9"
)

func release(ctx context.Context, rdb *redis.Client) {
	rdb.Del(ctx, "lock:job")
}

func clearStuck(ctx context.Context, rdb *redis.Client) {
	rdb.Del(ctx, "lock:job") //nolint:locklint // operator tool that clears a stuck lock
}

func clearStuckOne(ctx context.Context, rdb *redis.Client) {
	rdb.Del(ctx, "lock:job") //nolint:locklint:unconditionaldel // not a golangci-lint form; still reported
}
`

func TestNolint(t *testing.T) {
	dir := scratch(t, map[string]string{"worker/worker.go": nolintSrc})
	got := relativize(lint(t, dir, config), dir)
	want := []finding{
		{File: "worker/worker.go", Line: 10, Analyzer: "unconditionaldel"},
		{File: "worker/worker.go", Line: 18, Analyzer: "unconditionaldel"},
	}
	if !slices.Equal(got, want) {
		t.Errorf("//nolint:locklint\ngot:\n%s\nwant:\n%s", join(got), join(want))
	}
}

// TestFix applies golangci-lint --fix to a copy of the examples and checks
// that findings went away and the result still builds.
func TestFix(t *testing.T) {
	dir := t.TempDir()
	for _, p := range []string{"go.mod", "go.sum", "analyzer", "examples"} {
		if out, err := exec.Command("cp", "-r", filepath.Join(root, p), filepath.Join(dir, p)).CombinedOutput(); err != nil {
			t.Fatalf("copy %s: %v\n%s", p, err, out)
		}
	}
	ex := filepath.Join(dir, "examples")
	before := lint(t, ex, config)
	run(t, ex, config, "--fix")
	build := exec.Command("go", "build", "./...")
	build.Dir = ex
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("fixed examples do not build: %v\n%s", err, out)
	}
	after := lint(t, ex, config)
	if len(after) >= len(before) {
		t.Errorf("--fix fixed nothing: %d findings before, %d after", len(before), len(after))
	}
	t.Logf("%d findings before --fix, %d after", len(before), len(after))
}
