package cli_test

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The go command's own ways in (Go 1.24 and later), each run for real in
// a fresh service module: a tool directive in the service's go.mod or in
// a separate tools.mod, go tool locklint, and go vet with the pinned
// binary, with and without -vet. The subtests share the service module,
// and go vet runs the binary that go tool built and cached (go tool -n).

// The service is a go 1.24 module that depends on redigo only, so that
// raising its go line is locklint's doing, and on an older redigo than the
// examples use, so that a client pulled in by the tool would show.
const serviceGoMod = `module example.com/svc

go 1.24

require github.com/gomodule/redigo v1.9.2
`

const serviceGoSum = `github.com/gomodule/redigo v1.9.2 h1:HrutZBLhSIU8abiSfW8pj8mPhOyMYjZT/wcA4/L9L9s=
github.com/gomodule/redigo v1.9.2/go.mod h1:KsU3hiK/Ay8U42qpaJk+kuNa3C+spxapWpM+ywhcgtw=
`

// One lock bug (line 13, with the EXPIRE on line 17) and one printf bug
// (line 23) that plain go vet reports.
const serviceSource = `package svc

import (
	"fmt"

	"github.com/gomodule/redigo/redis"
)

// Acquire takes the lock in two commands.
func Acquire(pool *redis.Pool, name, token string) (bool, error) {
	conn := pool.Get()
	defer conn.Close()
	ok, err := redis.Int(conn.Do("SETNX", "lock:"+name, token))
	if err != nil || ok == 0 {
		return false, err
	}
	_, err = conn.Do("EXPIRE", "lock:"+name, 30)
	return true, err
}

// Describe formats a string with %d.
func Describe(name string) string {
	return fmt.Sprintf("lock %d", name)
}
`

var (
	lockFinding   = regexp.MustCompile(`(?m)^\S*lock\.go:13:23: SETNX and the EXPIRE on line 17 are separate commands`)
	printfFinding = regexp.MustCompile(`(?m)^\S*lock\.go:23:27: fmt\.Sprintf format %d has arg name of wrong type string`)
)

const (
	toolPath    = "github.com/locklint/locklint/cmd/locklint"
	vetToolPath = "github.com/locklint/locklint/cmd/locklint-vet"
)

// newService writes the service module into dir. Its go.sum is its own
// redigo's and this module's, which holds every checksum the tool
// directive needs, so that go get -tool finds them without asking a
// checksum database. Its one requirement, redigo, is downloaded through
// the module proxy if the module cache lacks it.
func newService(t *testing.T, dir string) {
	t.Helper()
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	sum = append([]byte(serviceGoSum), sum...)
	for name, data := range map[string][]byte{"go.mod": []byte(serviceGoMod), "go.sum": sum, "lock.go": []byte(serviceSource)} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command("go", "mod", "download")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go mod download: %v\n%s", err, out)
	}
}

// goCmd runs the go command with args in dir, without the network, and
// returns its combined output and exit status; it fails the test if the
// command could not run at all.
//
// Resolving the tool path, the go command asks the module proxy whether
// github.com/locklint/locklint/cmd/locklint is a module of its own, and a
// proxy may answer that question for an unpublished path with an error
// rather than with not-found, which ends go get. With GOPROXY=off the
// lookup fails as not-found does, and the replacement is used. Every
// other module is in the module cache already: this test's own build
// needed the same ones, and newService downloaded the service's.
func goCmd(t *testing.T, dir string, args ...string) (string, int) {
	t.Helper()
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	// The service is a module of its own, whatever the environment says;
	// a -mod=mod from the caller would let the go command rewrite the
	// go.mod that the tools.mod subtest wants untouched.
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=", "GOPROXY=off")
	out, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return string(out), ee.ExitCode()
	}
	if err != nil {
		t.Fatalf("go %q: %v\n%s", args, err, out)
	}
	return string(out), 0
}

// expectRun checks a command's exit status and which of the two findings
// it printed.
func expectRun(t *testing.T, what, out string, code, wantCode int, lock, printf bool) {
	t.Helper()
	if code != wantCode {
		t.Errorf("%s: exit status %d, want %d\n%s", what, code, wantCode, out)
	}
	if got := lockFinding.MatchString(out); got != lock {
		t.Errorf("%s: lock finding printed: %v, want %v\n%s", what, got, lock, out)
	}
	if got := printfFinding.MatchString(out); got != printf {
		t.Errorf("%s: printf finding printed: %v, want %v\n%s", what, got, printf, out)
	}
}

// hasTool reports whether gomod has a tool directive for path, on its own
// line or in a tool block.
func hasTool(gomod []byte, path string) bool {
	return regexp.MustCompile(`(?m)^(tool\s+|\t)` + regexp.QuoteMeta(path) + `$`).Match(gomod)
}

func goLine(t *testing.T, gomod []byte) string {
	t.Helper()
	m := regexp.MustCompile(`(?m)^go (\S+)$`).FindSubmatch(gomod)
	if m == nil {
		t.Fatalf("no go line in\n%s", gomod)
	}
	return string(m[1])
}

func TestGoTool(t *testing.T) {
	if testing.Short() {
		t.Skip("builds locklint through go tool in a fresh module")
	}
	own, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	xtools := regexp.MustCompile(`golang\.org/x/tools v\S+`).Find(own)
	if regexp.MustCompile(`github\.com/gomodule/redigo v`).Match(own) {
		t.Fatal("locklint's go.mod requires redigo: the service's client would move with the tool")
	}

	svc := t.TempDir()
	newService(t, svc)
	var bin, vetBin string
	ok := t.Run("go get -tool raises the go line and merges the requirements", func(t *testing.T) {
		if out, code := goCmd(t, svc, "mod", "edit", "-replace=github.com/locklint/locklint="+root); code != 0 {
			t.Fatalf("go mod edit: %s", out)
		}
		for _, p := range []string{toolPath, vetToolPath} {
			if out, code := goCmd(t, svc, "get", "-tool", p); code != 0 {
				t.Fatalf("go get -tool %s: exit status %d\n%s", p, code, out)
			}
		}
		gomod, err := os.ReadFile(filepath.Join(svc, "go.mod"))
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range []string{toolPath, vetToolPath} {
			if !hasTool(gomod, p) {
				t.Errorf("no tool directive for %s in go.mod:\n%s", p, gomod)
			}
		}
		// What the README says go get -tool does to a service's go.mod.
		if got, want := goLine(t, gomod), goLine(t, own); got != want {
			t.Errorf("go line %s after go get -tool, want locklint's %s", got, want)
		}
		if !bytes.Contains(gomod, xtools) {
			t.Errorf("go.mod does not require locklint's %s:\n%s", xtools, gomod)
		}
		// The linter's module requires no Redis client, so the service
		// keeps its own.
		if !bytes.Contains(gomod, []byte("github.com/gomodule/redigo v1.9.2")) {
			t.Errorf("go get -tool moved the service's redigo:\n%s", gomod)
		}
		out, code := goCmd(t, svc, "tool", "-n", "locklint")
		if code != 0 {
			t.Fatalf("go tool -n locklint: exit status %d\n%s", code, out)
		}
		bin = strings.TrimSpace(out)
		out, code = goCmd(t, svc, "tool", "-n", "locklint-vet")
		if code != 0 {
			t.Fatalf("go tool -n locklint-vet: exit status %d\n%s", code, out)
		}
		vetBin = strings.TrimSpace(out)
	})
	if !ok {
		return
	}

	t.Run("go tool locklint reports the lock bug only", func(t *testing.T) {
		out, code := goCmd(t, svc, "tool", "locklint", "./...")
		expectRun(t, "go tool locklint", out, code, 3, true, false)
	})
	t.Run("go vet -vettool replaces go vet's checks", func(t *testing.T) {
		out, code := goCmd(t, svc, "vet", "-vettool="+bin, "./...")
		expectRun(t, "go vet -vettool", out, code, 1, true, false)
	})
	t.Run("go tool locklint -vet names locklint-vet", func(t *testing.T) {
		out, code := goCmd(t, svc, "tool", "locklint", "-vet", "./...")
		expectRun(t, "go tool locklint -vet", out, code, 1, false, false)
		if !strings.Contains(out, vetToolPath) {
			t.Errorf("go tool locklint -vet does not name %s:\n%s", vetToolPath, out)
		}
	})
	t.Run("go tool locklint-vet reports both bugs", func(t *testing.T) {
		out, code := goCmd(t, svc, "tool", "locklint-vet", "./...")
		expectRun(t, "go tool locklint-vet", out, code, 3, true, true)
		out, code = goCmd(t, svc, "tool", "locklint-vet", "-vet=false", "./...")
		expectRun(t, "go tool locklint-vet -vet=false", out, code, 3, true, false)
	})
	// The standalone driver loads the whole graph from source for go vet's
	// facts; multichecker (-debug=p routes there) does so always.
	t.Run("standalone locklint-vet finds what multichecker finds", func(t *testing.T) {
		own, _ := goCmd(t, svc, "tool", "locklint-vet", "-json", "./...")
		multi, _ := goCmd(t, svc, "tool", "locklint-vet", "-json", "-debug=p", "./...")
		if !strings.Contains(own, `"printf"`) || !strings.Contains(own, `"setnxexpire"`) {
			t.Errorf("locklint-vet -json lacks a finding:\n%s", own)
		}
		if own != multi {
			t.Errorf("standalone and multichecker differ\nstandalone:\n%s\nmultichecker:\n%s", own, multi)
		}
	})
	t.Run("go vet -vettool=locklint-vet is a superset of go vet", func(t *testing.T) {
		plain, code := goCmd(t, svc, "vet", "./...")
		expectRun(t, "go vet", plain, code, 1, false, true)
		both, code := goCmd(t, svc, "vet", "-vettool="+vetBin, "./...")
		expectRun(t, "go vet -vettool=locklint-vet", both, code, 1, true, true)
		for line := range strings.Lines(plain) {
			if !strings.Contains(both, line) {
				t.Errorf("go vet printed %q, go vet -vettool=locklint-vet did not\n%s", line, both)
			}
		}
		// go vet's analyzers' flags pass through.
		out, code := goCmd(t, svc, "vet", "-vettool="+vetBin, "-printf.funcs=Describe", "./...")
		expectRun(t, "go vet -vettool=locklint-vet -printf.funcs", out, code, 1, true, true)
	})

	// go vet and go fix learn the tool's flags from -flags alone, so
	// locklint-vet lists go vet's analyzers whatever else is on the
	// command line, and locklint, which does not link them, lists none.
	t.Run("-flags lists go vet's analyzer flags once, in locklint-vet only", func(t *testing.T) {
		for _, tc := range []struct {
			bin  string
			args []string
			want int
		}{
			{vetBin, []string{"-flags"}, 1},
			{vetBin, []string{"-vet=false", "-flags"}, 1},
			{bin, []string{"-flags"}, 0},
		} {
			out, err := exec.Command(tc.bin, tc.args...).Output()
			if err != nil {
				t.Fatalf("%s %q: %v", tc.bin, tc.args, err)
			}
			if n := bytes.Count(out, []byte(`"Name": "printf.funcs"`)); n != tc.want {
				t.Errorf("%s %q lists printf.funcs %d times, want %d", filepath.Base(tc.bin), tc.args, n, tc.want)
			}
		}
	})
	t.Run("tools.mod leaves the service's go.mod alone", func(t *testing.T) {
		dir := t.TempDir()
		newService(t, dir)
		gomod, _ := os.ReadFile(filepath.Join(dir, "go.mod"))
		gosum, _ := os.ReadFile(filepath.Join(dir, "go.sum"))
		if err := os.WriteFile(filepath.Join(dir, "tools.sum"), gosum, 0o644); err != nil {
			t.Fatal(err)
		}
		for _, args := range [][]string{
			{"mod", "init", "-modfile=tools.mod", "example.com/svc"},
			{"mod", "edit", "-modfile=tools.mod", "-replace=github.com/locklint/locklint=" + root},
			{"get", "-tool", "-modfile=tools.mod", toolPath},
		} {
			if out, code := goCmd(t, dir, args...); code != 0 {
				t.Fatalf("go %q: exit status %d\n%s", args, code, out)
			}
		}
		out, code := goCmd(t, dir, "tool", "-modfile=tools.mod", "locklint", "./...")
		expectRun(t, "go tool -modfile=tools.mod locklint", out, code, 3, true, false)
		out, code = goCmd(t, dir, "tool", "-modfile=tools.mod", "-n", "locklint")
		if code != 0 {
			t.Fatalf("go tool -modfile=tools.mod -n locklint: exit status %d\n%s", code, out)
		}
		out, code = goCmd(t, dir, "vet", "-vettool="+strings.TrimSpace(out), "./...")
		expectRun(t, "go vet -vettool (tools.mod)", out, code, 1, true, false)

		for name, before := range map[string][]byte{"go.mod": gomod, "go.sum": gosum} {
			after, err := os.ReadFile(filepath.Join(dir, name))
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(after, before) {
				t.Errorf("%s changed:\n%s", name, after)
			}
		}
		tools, _ := os.ReadFile(filepath.Join(dir, "tools.mod"))
		if !hasTool(tools, toolPath) {
			t.Errorf("no tool directive in tools.mod:\n%s", tools)
		}
	})
}
