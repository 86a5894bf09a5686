package unguardedscript_test

import (
	"path/filepath"
	"reflect"
	"runtime"
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

// The lock library's own scripts (embedded, run with keys built at run
// time) are the reference forms: the pass must stay silent on them.
func TestFixPackageScripts(t *testing.T) {
	_, file, _, _ := runtime.Caller(0)
	// The library is its own module.
	root := filepath.Join(filepath.Dir(file), "..", "..", "analyzer", "fix")
	analysistest.Run(t, root, unguardedscript.Analyzer, "github.com/locklint/locklint/analyzer/fix")

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
					files[text.File] = true
				}
			}
			return files, nil
		},
	}
	files := map[string]bool{}
	for _, r := range analysistest.Run(t, root, probe, "github.com/locklint/locklint/analyzer/fix") {
		for f := range r.Result.(map[string]bool) {
			files[f] = true
		}
	}
	for _, f := range []string{"scripts/acquire.lua", "scripts/release.lua", "scripts/refresh.lua"} {
		if !files[f] {
			t.Errorf("script text of %s not read; read %v", f, files)
		}
	}
}
