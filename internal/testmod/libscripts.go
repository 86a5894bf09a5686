package testmod

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/locklint/locklint/analyzer/lockmodel"
)

// LibraryScripts writes, in a copy of the testdata module, the package
// locklint.test/libscripts, which runs each of the lock library's Lua
// scripts as the library embeds it, through go-redis's NewScript with the
// keys keys gives for its file name (nil: the keys of the call's caller).
// The library sends its scripts through a client interface of its own,
// which the model does not read, so a pass is run on this package to see
// it stay silent on the reference forms. It returns the module's root and
// the scripts' file names.
func LibraryScripts(t *testing.T, keys func(script string) []string) (dir string, scripts []string) {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	lib := filepath.Join(filepath.Dir(file), "..", "..", "analyzer", "fix", "lock", "scripts")
	luas, err := filepath.Glob(filepath.Join(lib, "*.lua"))
	if err != nil || len(luas) == 0 {
		t.Fatalf("no scripts in %s (%v)", lib, err)
	}
	dir = t.TempDir()
	for _, name := range []string{"go.mod", "go.sum"} {
		copyFile(t, filepath.Join(Dir(t), name), filepath.Join(dir, name))
	}
	pkg := filepath.Join(dir, "libscripts")
	if err := os.MkdirAll(filepath.Join(pkg, "scripts"), 0o755); err != nil {
		t.Fatal(err)
	}
	var src, calls strings.Builder
	src.WriteString("package libscripts\n\nimport (\n\t\"context\"\n\t_ \"embed\"\n\n\t\"github.com/redis/go-redis/v9\"\n)\n\n")
	for i, p := range luas {
		base := filepath.Base(p)
		scripts = append(scripts, base)
		copyFile(t, p, filepath.Join(pkg, "scripts", base))
		fmt.Fprintf(&src, "//go:embed scripts/%s\nvar script%d string\n\n", base, i)
		k := "keys"
		if keys != nil {
			k = fmt.Sprintf("%#v", keys(base))
		}
		fmt.Fprintf(&calls, "\tredis.NewScript(script%d).Run(ctx, rdb, %s, args...)\n", i, k)
	}
	src.WriteString("func run(ctx context.Context, rdb *redis.Client, keys []string, args ...any) {\n" + calls.String() + "}\n")
	if err := os.WriteFile(filepath.Join(pkg, "lib.go"), []byte(src.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir, scripts
}

// CheckScriptsRead fails t unless the model reads the text of every one of
// scripts in locklint.test/libscripts under dir: a pass's silence there
// must come from reading them, not from missing them.
func CheckScriptsRead(t *testing.T, dir string, scripts []string) {
	t.Helper()
	probe := &analysis.Analyzer{
		Name:       "scripttext",
		Doc:        "scripttext: the embedded files whose script text the model reads",
		Requires:   []*analysis.Analyzer{lockmodel.Analyzer},
		ResultType: reflect.TypeFor[map[string]bool](),
		Run: func(pass *analysis.Pass) (any, error) {
			m := pass.ResultOf[lockmodel.Analyzer].(*lockmodel.Model)
			files := map[string]bool{}
			for _, c := range m.Calls {
				if text, ok := m.ScriptText(c); ok {
					files[filepath.Base(text.File)] = true
				}
			}
			return files, nil
		},
	}
	read := map[string]bool{}
	for _, r := range analysistest.Run(t, dir, probe, "locklint.test/libscripts") {
		for f := range r.Result.(map[string]bool) {
			read[f] = true
		}
	}
	for _, s := range scripts {
		if !read[s] {
			t.Errorf("script text of %s not read; read %v", s, read)
		}
	}
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o644); err != nil {
		t.Fatal(err)
	}
}
