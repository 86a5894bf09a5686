package luanil_test

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
	"github.com/locklint/locklint/internal/testmod"
	"github.com/locklint/locklint/passes/luanil"
)

// Each test loads its packages together, so that the client modules are
// type-checked once per test.

// TestClients runs scripts through go-redis (NewScript, Eval, EvalSha after
// ScriptLoad, embedded files, constants), redigo (Do EVAL and NewScript),
// rueidis (NewLuaScript and the command builder), and a package that
// imports no client and runs scripts through a Redis port of its own.
func TestClients(t *testing.T) {
	testmod.RunWithSuggestedFixes(t, luanil.Analyzer,
		"locklint.test/luanil/goredis",
		"locklint.test/luanil/redigo",
		"locklint.test/luanil/rueidis",
		"locklint.test/luanil/port")
}

// TestNearMisses: each package holds one shape that stays silent beside
// its twin that is reported, named by the package: a reply compared with
// false (comparefalse), not v (notreply), compared with an argument
// (argvcompare), tonumber of an argument (tonumberarg) or of a reply
// (tonumberreply), a table field or element (tablefield), a pcall error's
// field (pcallerror), a call after redis.setresp(3) (resp3), a script in
// a Go comment (gocomment), a local reassigned before the compare
// (reassigned).
func TestNearMisses(t *testing.T) {
	testmod.RunWithSuggestedFixes(t, luanil.Analyzer, "locklint.test/luanil/nearmiss/...")
}

// The lock library's own scripts stay silent: each runs, as the library
// embeds it, through go-redis in a copy of the testdata module, and the
// model must read every one of them (silence from reading, not from
// missing them).
func TestLibraryScripts(t *testing.T) {
	_, file, _, _ := runtime.Caller(0)
	lib := filepath.Join(filepath.Dir(file), "..", "..", "analyzer", "fix", "lock", "scripts")
	luas, err := filepath.Glob(filepath.Join(lib, "*.lua"))
	if err != nil || len(luas) == 0 {
		t.Fatalf("no scripts in %s (%v)", lib, err)
	}
	dir := t.TempDir()
	for _, name := range []string{"go.mod", "go.sum"} {
		copyFile(t, filepath.Join(testmod.Dir(t), name), filepath.Join(dir, name))
	}
	pkg := filepath.Join(dir, "libscripts")
	if err := os.MkdirAll(filepath.Join(pkg, "scripts"), 0o755); err != nil {
		t.Fatal(err)
	}
	var src strings.Builder
	src.WriteString("package libscripts\n\nimport (\n\t\"context\"\n\t_ \"embed\"\n\n\t\"github.com/redis/go-redis/v9\"\n)\n\n")
	var calls strings.Builder
	for i, p := range luas {
		base := filepath.Base(p)
		copyFile(t, p, filepath.Join(pkg, "scripts", base))
		fmt.Fprintf(&src, "//go:embed scripts/%s\nvar script%d string\n\n", base, i)
		fmt.Fprintf(&calls, "\tredis.NewScript(script%d).Run(ctx, rdb, keys, args...)\n", i)
	}
	src.WriteString("func run(ctx context.Context, rdb *redis.Client, keys []string, args ...any) {\n" + calls.String() + "}\n")
	if err := os.WriteFile(filepath.Join(pkg, "lib.go"), []byte(src.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	analysistest.Run(t, dir, luanil.Analyzer, "locklint.test/libscripts")

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
	files := map[string]bool{}
	for _, r := range analysistest.Run(t, dir, probe, "locklint.test/libscripts") {
		for f := range r.Result.(map[string]bool) {
			files[f] = true
		}
	}
	for _, p := range luas {
		if !files[filepath.Base(p)] {
			t.Errorf("script text of %s not read; read %v", filepath.Base(p), files)
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
