package cli_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestFixHintsAtMissingLibraryModule runs -fix on modules that do not
// require the lock library: the driver says what to get for the client
// the module uses (the front for go-redis v9, the core and the adapter
// for redigo), and says nothing on a module that already requires it
// (the examples).
func TestFixHintsAtMissingLibraryModule(t *testing.T) {
	bin := buildTool(t)
	dir := t.TempDir()
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", "module svc\n\ngo 1.24\n\nrequire github.com/redis/go-redis/v9 v9.23.0\n")
	sums, err := os.ReadFile(filepath.Join(examples, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	write("go.sum", string(sums))
	write("svc.go", `package svc

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

func run(ctx context.Context, rdb *redis.Client, token string) error {
	ok, err := rdb.SetNX(ctx, "lock:job", token, time.Minute).Result()
	if err != nil || !ok {
		return err
	}
	return rdb.Del(ctx, "lock:job").Err()
}
`)
	const hint = "go get github.com/locklint/locklint/analyzer/fix@latest"
	cmd := exec.Command(bin, "-fix", "./...")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod")
	out, _ := cmd.CombinedOutput()
	if !strings.Contains(string(out), hint) {
		t.Errorf("-fix on a module without the library does not say to run %q:\n%s", hint, out)
	}
	if data, _ := os.ReadFile(filepath.Join(dir, "svc.go")); !strings.Contains(string(data), "fix.Release") {
		t.Errorf("the DEL was not fixed:\n%s", data)
	}

	// A redigo module is told the core and the redigo adapter.
	redigo := t.TempDir()
	for name, text := range map[string]string{
		"go.mod": "module svc\n\ngo 1.24\n\nrequire github.com/gomodule/redigo v1.9.3\n",
		"go.sum": string(sums),
		"svc.go": `package svc

import (
	"context"

	"github.com/gomodule/redigo/redis"
)

func run(ctx context.Context, conn redis.Conn, token string) error {
	if _, err := redis.String(redis.DoContext(conn, ctx, "SET", "lock:job", token, "NX", "PX", 30000)); err != nil {
		return err
	}
	_, err := redis.DoContext(conn, ctx, "DEL", "lock:job")
	return err
}
`,
	} {
		if err := os.WriteFile(filepath.Join(redigo, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	const redigoHint = "go get github.com/locklint/locklint/analyzer/fix/fixredigo@latest github.com/locklint/locklint/analyzer/fix/lock@latest"
	cmd = exec.Command(bin, "-fix", "./...")
	cmd.Dir = redigo
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod")
	out, _ = cmd.CombinedOutput()
	if !strings.Contains(string(out), redigoHint) {
		t.Errorf("-fix on a redigo module without the library does not say to run %q:\n%s", redigoHint, out)
	}
	if data, _ := os.ReadFile(filepath.Join(redigo, "svc.go")); !strings.Contains(string(data), "lock.Release(ctx, fixredigo.Conn(conn)") {
		t.Errorf("the redigo DEL was not fixed:\n%s", data)
	}

	cmd = exec.Command(bin, "-fix", "-diff", "./...")
	cmd.Dir = examples
	out, _ = cmd.CombinedOutput()
	if strings.Contains(string(out), hint) {
		t.Errorf("-fix on the examples, which require the library, hints anyway:\n%s", out)
	}
}
