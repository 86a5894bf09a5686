package unguardedscript_test

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
	"github.com/locklint/locklint/passes/unguardedscript"
)

func run(t *testing.T, pkg string) {
	t.Helper()
	testmod.Run(t, unguardedscript.Analyzer, "locklint.test/unguardedscript/"+pkg)
}

func TestGoRedisScripts(t *testing.T)       { run(t, "goredis") }
func TestRedigoEvalAndScript(t *testing.T)  { run(t, "redigo") }
func TestRueidisLuaAndBuilder(t *testing.T) { run(t, "rueidis") }
func TestOlderGoRedis(t *testing.T)         { run(t, "oldgoredis") }

// The lock library's own scripts are the reference forms: the pass must
// stay silent on them. The library sends them through its own client
// interface, which the model does not read, so the test runs each script,
// as the library embeds it, through go-redis in a copy of the testdata
// module.
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
		keys, ok := libraryKeys[base]
		if !ok {
			t.Fatalf("%s: no keys known for this script; add them to libraryKeys", base)
		}
		fmt.Fprintf(&calls, "\tredis.NewScript(script%d).Run(ctx, rdb, %#v, args...)\n", i, keys)
	}
	src.WriteString("func run(ctx context.Context, rdb *redis.Client, args ...any) {\n" + calls.String() + "}\n")
	if err := os.WriteFile(filepath.Join(pkg, "lib.go"), []byte(src.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	analysistest.Run(t, dir, unguardedscript.Analyzer, "locklint.test/libscripts")

	// Silence must come from reading the scripts, not from missing them.
	probe := &analysis.Analyzer{
		Name:       "scripttext",
		Doc:        "scripttext: count the EVAL calls whose script text the model reads",
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

// libraryKeys are the keys the library passes to each script, in order,
// named as a service names them; a fenced lock's keys are those of
// WithFenceKey, the longest form.
var libraryKeys = map[string][]string{
	"acquire.lua": {"lock:{job}", "lock:{job}:fence", "lock:{job}:fenced", "lock:{job}:queue"},
	"fenced.lua":  {"lock:{job}", "lock:{job}:fence", "lock:{job}:fenced"},
	"handoff.lua": {"lock:{job}", "lock:{job}:queue", "lock:{job}:fence", "lock:{job}:fenced"},
	"leave.lua":   {"lock:{job}", "lock:{job}:queue"},
	"refresh.lua": {"lock:{job}"},
	"release.lua": {"lock:{job}"},
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
