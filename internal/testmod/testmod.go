// Package testmod gives analyzer tests the module-mode testdata tree, which
// type-checks against the real Redis client modules.
package testmod

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
)

var (
	once sync.Once
	err  error
	out  []byte
)

// Dir returns the testdata module root, after making sure its
// dependencies are in the module cache: analysistest loads packages with
// GOPROXY=off, so a fresh machine must download them first.
func Dir(t testing.TB) string {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	dir := filepath.Join(filepath.Dir(file), "..", "..", "testdata")
	once.Do(func() {
		cmd := exec.Command("go", "mod", "download")
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod")
		out, err = cmd.CombinedOutput()
	})
	if err != nil {
		t.Fatalf("go mod download in %s: %v\n%s", dir, err, out)
	}
	return dir
}
