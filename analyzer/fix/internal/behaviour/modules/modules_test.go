// Package modules checks the library's modules as a service sees them:
// published on a module proxy at the versions they require of each other,
// with no go.work and no replace directive.
package modules

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/mod/modfile"
	"golang.org/x/mod/module"
	"golang.org/x/mod/zip"
)

// fixDir is the library's directory, where go.work lists its modules.
const fixDir = "../../.."

// published are the library's modules at the versions the workspace
// replaces: what the go.mod files require of each other, and so what a
// release tags.
func published(t *testing.T) map[string]module.Version {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(fixDir, "go.work"))
	if err != nil {
		t.Fatal(err)
	}
	wf, err := modfile.ParseWork("go.work", data, nil)
	if err != nil {
		t.Fatal(err)
	}
	dirs := map[string]module.Version{}
	for _, r := range wf.Replace {
		if r.Old.Version == "" || !modfile.IsDirectoryPath(r.New.Path) {
			t.Fatalf("go.work: replace %v => %v: want one released version of a module of this tree", r.Old, r.New)
		}
		dirs[filepath.Clean(r.New.Path)] = r.Old
	}
	for _, u := range wf.Use {
		dir := filepath.Clean(u.Path)
		if _, ok := dirs[dir]; !ok && dir != filepath.Join("internal", "behaviour") {
			t.Errorf("go.work uses %s but gives no version of it: a module the others cannot require", dir)
		}
	}
	return dirs
}

// writeProxy writes a file module proxy holding the library's modules at
// their released versions and returns its GOPROXY entry.
func writeProxy(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	for dir, v := range published(t) {
		esc, err := module.EscapePath(v.Path)
		if err != nil {
			t.Fatal(err)
		}
		at := filepath.Join(root, esc, "@v")
		if err := os.MkdirAll(at, 0o755); err != nil {
			t.Fatal(err)
		}
		src := filepath.Join(fixDir, dir)
		gomod, err := os.ReadFile(filepath.Join(src, "go.mod"))
		if err != nil {
			t.Fatal(err)
		}
		f, err := os.Create(filepath.Join(at, v.Version+".zip"))
		if err != nil {
			t.Fatal(err)
		}
		if err := zip.CreateFromDir(f, v, src); err != nil {
			t.Fatalf("zip %s: %v", v, err)
		}
		if err := f.Close(); err != nil {
			t.Fatal(err)
		}
		files := map[string]string{
			"list":              v.Version + "\n",
			v.Version + ".mod":  string(gomod),
			v.Version + ".info": fmt.Sprintf(`{"Version":%q,"Time":"2026-01-01T00:00:00Z"}`, v.Version),
		}
		for name, body := range files {
			if err := os.WriteFile(filepath.Join(at, name), []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	return "file://" + filepath.ToSlash(root)
}

// goCmd runs the go command in dir as a service's build would: no
// workspace, the library from the file proxy, everything else from the
// usual proxy (or the module cache).
func goCmd(t *testing.T, dir, proxyURL string, args ...string) string {
	t.Helper()
	usual, err := exec.Command("go", "env", "GOPROXY").Output()
	if err != nil {
		t.Fatalf("go env GOPROXY: %v", err)
	}
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(),
		"GOWORK=off", "GOFLAGS=-mod=mod",
		"GOPROXY="+proxyURL+","+strings.TrimSpace(string(usual)),
		"GONOSUMDB=github.com/locklint/locklint", "GONOSUMCHECK=1", "GOTOOLCHAIN=local")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go %s in %s: %v\n%s", strings.Join(args, " "), dir, err, stderr.Bytes())
	}
	return string(out)
}

// redisClients are the client modules; a service of one client must not
// build another.
var redisClients = []string{
	"github.com/redis/go-redis", "github.com/go-redis/redis", "github.com/gomodule/redigo",
	"github.com/garyburd/redigo", "github.com/redis/rueidis", "github.com/valkey-io/",
}

// TestConsumerModuleGraphs reads each module's graph as a service that
// requires it sees it: the core requires nothing; an adapter its client
// and the core, and nothing its client does not require itself; no
// module brings a second Redis client.
func TestConsumerModuleGraphs(t *testing.T) {
	proxyURL := writeProxy(t)
	const core = "github.com/locklint/locklint/analyzer/fix/lock"
	clients := map[string]string{
		"github.com/locklint/locklint/analyzer/fix":             "github.com/redis/go-redis/v9",
		"github.com/locklint/locklint/analyzer/fix/fixgoredis8": "github.com/go-redis/redis/v8",
		"github.com/locklint/locklint/analyzer/fix/fixredigo":   "github.com/gomodule/redigo",
		"github.com/locklint/locklint/analyzer/fix/fixrueidis":  "github.com/redis/rueidis",
		"github.com/locklint/locklint/analyzer/fix/fixvalkey":   "github.com/valkey-io/valkey-go",
		"github.com/locklint/locklint/analyzer/fix/fixotel":     "",
		core: "",
	}
	for dir, v := range published(t) {
		client, ok := clients[v.Path]
		if !ok {
			t.Errorf("%s: no rule for its module graph", v.Path)
			continue
		}
		t.Run(filepath.Base(v.Path), func(t *testing.T) {
			// The module's own go.mod, in a directory of its own, with the
			// library's modules from the file proxy.
			tmp := t.TempDir()
			for _, name := range []string{"go.mod", "go.sum"} {
				data, err := os.ReadFile(filepath.Join(fixDir, dir, name))
				if err != nil && name == "go.sum" {
					continue
				}
				if err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(tmp, name), data, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			mf, err := modfile.Parse("go.mod", mustRead(t, filepath.Join(tmp, "go.mod")), nil)
			if err != nil {
				t.Fatal(err)
			}
			if len(mf.Replace) > 0 {
				t.Errorf("go.mod has a replace directive, which no consumer reads: %v", mf.Replace[0].Old)
			}
			graph := goCmd(t, tmp, proxyURL, "mod", "graph")
			direct := map[string]bool{}
			byClient := map[string]bool{}
			for _, line := range strings.Split(strings.TrimSpace(graph), "\n") {
				from, to, ok := strings.Cut(line, " ")
				if !ok {
					continue
				}
				path, _, _ := strings.Cut(to, "@")
				if path == "go" || path == "toolchain" {
					continue
				}
				if from == v.Path {
					direct[path] = true
				}
				if client != "" && strings.HasPrefix(from, client+"@") {
					byClient[path] = true
				}
				for _, c := range redisClients {
					if strings.HasPrefix(path, c) && (client == "" || !strings.HasPrefix(path, client)) {
						t.Errorf("the graph holds %s", path)
					}
				}
			}
			if client != "" && !direct[client] {
				t.Errorf("go.mod does not require %s", client)
			}
			if v.Path == core && len(direct) > 0 {
				t.Errorf("the core requires %v; it must require nothing", direct)
			}
			if client == "" {
				return
			}
			for path := range direct {
				if path != client && path != core && !byClient[path] {
					t.Errorf("go.mod requires %s, which %s does not: a service using the adapter would list it", path, client)
				}
			}
		})
	}
}

func mustRead(t *testing.T, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

const service = `package main

import (
	"context"
	"fmt"
	"time"

	"github.com/gomodule/redigo/redis"
	"github.com/locklint/locklint/analyzer/fix"
	"github.com/locklint/locklint/analyzer/fix/fixredigo"
	"github.com/locklint/locklint/analyzer/fix/lock"
	goredis "github.com/redis/go-redis/v9"
)

func main() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	rdb := goredis.NewClient(&goredis.Options{Addr: "127.0.0.1:1"})
	if _, err := fix.Obtain(ctx, rdb, "jobs:lock", time.Second); err != nil {
		fmt.Println(err)
	}
	pool := &redis.Pool{Dial: func() (redis.Conn, error) { return redis.Dial("tcp", "127.0.0.1:1") }}
	if _, err := lock.Obtain(ctx, fixredigo.Pool(pool), "jobs:lock", time.Second); err != nil {
		fmt.Println(err)
	}
}
`

// TestFreshServiceBuildsFromProxy builds a new service against the
// library as published: go get of the front and an adapter from the
// proxy, no replace, and the versions the release tags.
func TestFreshServiceBuildsFromProxy(t *testing.T) {
	proxyURL := writeProxy(t)
	versions := map[string]string{}
	for _, v := range published(t) {
		versions[v.Path] = v.Version
	}
	tmp := t.TempDir()
	if err := os.WriteFile(filepath.Join(tmp, "main.go"), []byte(service), 0o644); err != nil {
		t.Fatal(err)
	}
	goCmd(t, tmp, proxyURL, "mod", "init", "example.com/service")
	goCmd(t, tmp, proxyURL, "get",
		"github.com/locklint/locklint/analyzer/fix@"+versions["github.com/locklint/locklint/analyzer/fix"],
		"github.com/locklint/locklint/analyzer/fix/fixredigo@"+versions["github.com/locklint/locklint/analyzer/fix/fixredigo"])
	goCmd(t, tmp, proxyURL, "mod", "tidy")
	goCmd(t, tmp, proxyURL, "build", "-o", filepath.Join(tmp, "service"), ".")
	mf, err := modfile.Parse("go.mod", mustRead(t, filepath.Join(tmp, "go.mod")), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(mf.Replace) > 0 {
		t.Errorf("the service needs a replace directive: %v", mf.Replace[0].Old)
	}
	for _, r := range mf.Require {
		if want, ok := versions[r.Mod.Path]; ok && r.Mod.Version != want {
			t.Errorf("the service requires %s, want the released %s", r.Mod, want)
		}
	}
}

// TestReleaseTagsInDependencyOrder runs the release script without
// changing anything: every published module is tagged, each after the
// modules it requires (the core first).
func TestReleaseTagsInDependencyOrder(t *testing.T) {
	out, err := exec.Command("bash", filepath.Join(fixDir, "..", "..", "scripts", "release.sh"), "-n", "v9.9.9").CombinedOutput()
	if err != nil {
		t.Fatalf("release.sh -n: %v\n%s", err, out)
	}
	tags := strings.Fields(string(out))
	pos := map[string]int{}
	for i, tag := range tags {
		pos[strings.TrimSuffix(tag, "/v9.9.9")] = i
	}
	for dir, v := range published(t) {
		at, ok := pos[filepath.ToSlash(filepath.Join("analyzer/fix", dir))]
		if !ok {
			t.Errorf("no tag for %s in %q", v.Path, tags)
			continue
		}
		mf, err := modfile.Parse("go.mod", mustRead(t, filepath.Join(fixDir, dir, "go.mod")), nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range mf.Require {
			for depDir, dep := range published(t) {
				if r.Mod.Path == dep.Path && pos[filepath.ToSlash(filepath.Join("analyzer/fix", depDir))] > at {
					t.Errorf("%s is tagged before %s, which it requires", v.Path, dep.Path)
				}
			}
		}
	}
}

// TestGeneratedValkeyAdapterInModuleZip runs fixvalkey's freshness test in
// its module zip as the proxy serves it, where fixrueidis is not beside
// it: the test must pass there too (hand edits still show).
func TestGeneratedValkeyAdapterInModuleZip(t *testing.T) {
	proxyURL := writeProxy(t)
	for _, v := range published(t) {
		if !strings.HasSuffix(v.Path, "/fixvalkey") {
			continue
		}
		esc, err := module.EscapePath(v.Path)
		if err != nil {
			t.Fatal(err)
		}
		dir := filepath.Join(t.TempDir(), "fixvalkey")
		zipFile := filepath.Join(strings.TrimPrefix(proxyURL, "file://"), esc, "@v", v.Version+".zip")
		if err := zip.Unzip(dir, v, zipFile); err != nil {
			t.Fatal(err)
		}
		out := goCmd(t, dir, proxyURL, "test", "-count=1", "-v", "-run", "Generated|Rename", ".")
		if !strings.Contains(out, "--- PASS: TestGeneratedFilesAreFresh") {
			t.Errorf("the freshness test did not run in the module zip:\n%s", out)
		}
		return
	}
	t.Fatal("no fixvalkey module is published")
}
