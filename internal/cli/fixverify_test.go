package cli_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/locklint/locklint/internal/testmod"
)

// TestSuggestedFixesVerify applies every suggested fix of every analyzer
// to copies of the testdata module and of examples/, builds the result
// and lints it again: each finding that had a fix is gone, the others
// remain, and nothing new appears. The examples are fixed twice, by
// locklint -fix and by go fix -fixtool, which must make the same edits.
func TestSuggestedFixesVerify(t *testing.T) {
	if testing.Short() {
		t.Skip("builds two module copies")
	}
	bin := buildTool(t)
	// The test flags widen the set of findings, and so of fixes.
	flags := []string{"-unconditionaldel.tests", "-plainpexpire.tests"}

	t.Run("testdata", func(t *testing.T) {
		dir := copyTree(t, testmod.Dir(t), ".")
		// The fixes import analyzer/fix, or analyzer/fix/lock and the
		// client's adapter, modules of their own, which the testdata
		// module requires by a path relative to it; point the copy at
		// this repository's, with the checksums they require.
		lib := filepath.Join(root, "analyzer", "fix")
		var edits []string
		for _, m := range libraryModules {
			edits = append(edits, "-replace="+path.Join("github.com/locklint/locklint/analyzer/fix", m)+"="+filepath.Join(lib, m))
			sums, err := os.ReadFile(filepath.Join(lib, m, "go.sum"))
			if err != nil && !os.IsNotExist(err) {
				t.Fatal(err)
			}
			appendFile(t, filepath.Join(dir, "go.sum"), string(sums))
		}
		modEdit(t, dir, edits...)
		verifyFixes(t, bin, dir, "./...", flags, nil)
	})
	// examples is a module that replaces the library with ../analyzer/fix.
	dir := t.TempDir()
	for _, p := range []string{filepath.Join("analyzer", "fix"), "examples"} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, p)), 0o755); err != nil {
			t.Fatal(err)
		}
		copyTree(t, filepath.Join(root, p), filepath.Join(dir, p))
	}
	examples := filepath.Join(dir, "examples")
	okFix := t.Run("examples", func(t *testing.T) {
		verifyFixes(t, bin, examples, "./...", flags, nil)
	})
	// go fix runs the tool once per package with its test files, on the
	// main module's packages only, and writes the edits itself. It runs in
	// the same directory, on the examples put back as they were, so that
	// the build cache serves the unfixed examples and, when the two agree,
	// the fixed ones.
	fixed := filepath.Join(t.TempDir(), "examples")
	if err := os.Rename(examples, fixed); err != nil {
		t.Fatal(err)
	}
	copyTree(t, filepath.Join(root, "examples"), examples)
	okGoFix := t.Run("examples with go fix -fixtool", func(t *testing.T) {
		verifyFixes(t, bin, examples, "./...", flags, func() {
			cmd := exec.Command("go", append(append([]string{"fix", "-fixtool=" + bin}, flags...), "./...")...)
			cmd.Dir = examples
			cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod")
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("go fix -fixtool: %v\n%s", err, out)
			}
		})
	})
	if okFix && okGoFix {
		out, err := exec.Command("diff", "-r", fixed, examples).CombinedOutput()
		if err != nil {
			t.Errorf("locklint -fix and go fix -fixtool fixed the examples differently: %v\n%s", err, out)
		}
	}
}

// libraryModules are the lock library's modules that fixes import, by
// their directory under analyzer/fix: the go-redis v9 front, the core and
// the adapters.
var libraryModules = []string{".", "lock", "fixgoredis8", "fixredigo", "fixrueidis", "fixvalkey"}

// modEdit runs go mod edit with args in dir.
func modEdit(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("go", append([]string{"mod", "edit"}, args...)...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go mod edit %q: %v\n%s", args, err, out)
	}
}

func appendFile(t *testing.T, path, text string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(text); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

func copyTree(t *testing.T, from, to string) string {
	t.Helper()
	if to == "." {
		to = filepath.Join(t.TempDir(), "m")
	}
	if out, err := exec.Command("cp", "-r", from, to).CombinedOutput(); err != nil {
		t.Fatalf("copy %s: %v\n%s", from, err, out)
	}
	return to
}

// fixKey groups findings by file and analyzer: positions move when
// earlier fixes in the file change its length.
type fixKey struct{ file, analyzer string }

// verifyFixes lints pattern in dir, applies the fixes with apply (nil:
// locklint -fix), then builds, vets and lints the result.
func verifyFixes(t *testing.T, bin, dir, pattern string, flags []string, apply func()) {
	t.Helper()
	lint := func(args ...string) []byte {
		cmd := exec.Command(bin, append(append(append([]string{}, flags...), args...), pattern)...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod")
		out, err := cmd.Output()
		if ee, ok := err.(*exec.ExitError); ok && len(args) > 0 && args[0] == "-fix" && ee.ExitCode() != 1 {
			err = nil // -fix exits non-zero when it applied fixes
		}
		if err != nil {
			t.Fatalf("locklint %q %s: %v\n%s", args, pattern, err, out)
		}
		return out
	}
	total, fixable := fixCounts(t, dir, lint("-json"))
	var nfix, ntotal int
	for k := range total {
		nfix += fixable[k]
		ntotal += total[k]
	}
	if nfix == 0 {
		t.Fatalf("no finding with a suggested fix in %s", pattern)
	}
	if apply == nil {
		lint("-fix")
	} else {
		apply()
	}

	build := exec.Command("go", "build", pattern)
	build.Dir = dir
	build.Env = append(os.Environ(), "GOFLAGS=-mod=mod")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("fixed code does not build: %v\n%s", err, out)
	}
	vet := exec.Command("go", "vet", pattern)
	vet.Dir = dir
	vet.Env = build.Env
	if out, err := vet.CombinedOutput(); err != nil {
		t.Errorf("fixed code fails go vet: %v\n%s", err, out)
	}

	after, _ := fixCounts(t, dir, lint("-json"))
	var nafter int
	for k, n := range after {
		nafter += n
		if want := total[k] - fixable[k]; n > want {
			t.Errorf("%s: %s: %d findings after the fixes, want at most %d (%d before, %d with a fix)", k.file, k.analyzer, n, want, total[k], fixable[k])
		}
	}
	t.Logf("%s: %d findings, %d with a suggested fix; %d after the fixes", pattern, ntotal, nfix, nafter)
}

// A //line directive can leave a position with no file name, or no column.
var posnRE = regexp.MustCompile(`^(.*?)(?::\d+){1,2}$`)

// fixCounts reads -json output: findings per file and analyzer, and how
// many of them carry a suggested fix. Test variants of a package repeat
// its findings; each is counted once.
func fixCounts(t *testing.T, dir string, data []byte) (total, fixable map[fixKey]int) {
	t.Helper()
	var tree map[string]map[string]json.RawMessage
	if err := json.Unmarshal(data, &tree); err != nil {
		t.Fatalf("bad -json output: %v\n%s", err, data)
	}
	total, fixable = map[fixKey]int{}, map[fixKey]int{}
	seen := map[string]bool{}
	for _, byAnalyzer := range tree {
		for name, raw := range byAnalyzer {
			var diags []struct {
				Posn    string            `json:"posn"`
				Message string            `json:"message"`
				Fixes   []json.RawMessage `json:"suggested_fixes"`
			}
			if err := json.Unmarshal(raw, &diags); err != nil {
				continue // an analyzer error object, not a list
			}
			for _, d := range diags {
				id := name + "\x00" + d.Posn + "\x00" + d.Message
				if seen[id] {
					continue
				}
				seen[id] = true
				file := d.Posn
				if m := posnRE.FindStringSubmatch(d.Posn); m != nil {
					file = m[1]
				}
				rel, err := filepath.Rel(dir, file)
				if err != nil {
					rel = file
				}
				k := fixKey{filepath.ToSlash(rel), name}
				total[k]++
				if len(d.Fixes) > 0 {
					fixable[k]++
				}
			}
		}
	}
	return total, fixable
}
