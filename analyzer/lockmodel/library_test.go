package lockmodel_test

import (
	"go/ast"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/locklint/locklint/analyzer/diag"
	"github.com/locklint/locklint/analyzer/lockmodel"
	"github.com/locklint/locklint/internal/testmod"
)

// libraryDebug reports, for every command, the library entry the model
// names for its client, the client value a fix would pass, and what the
// fix would replace:
//
//	CMD ENTRY client=VALUE|none site=EXPR|none [blank]
var libraryDebug = &analysis.Analyzer{
	Name:     "librarydebug",
	Doc:      "librarydebug: report the lock library entry of every command",
	Requires: []*analysis.Analyzer{lockmodel.Analyzer},
	Run: func(pass *analysis.Pass) (any, error) {
		m := pass.ResultOf[lockmodel.Analyzer].(*lockmodel.Model)
		src := func(e ast.Expr) string { return diag.Source(pass.Fset, e) }
		for _, c := range m.Calls {
			if !c.Command.IsDelete() {
				continue
			}
			client := "none"
			lib, v, ok := m.LibraryArg(c)
			if ok {
				client = src(v)
			}
			site := "none"
			if s, ok := m.ErrorSite(c); ok {
				site = src(s.Expr)
				if s.Blank != nil {
					site += " blank"
				}
			}
			pass.Reportf(c.Pos(), "%s %s client=%s site=%s", c.Command, lib.Title("Release"), client, site)
		}
		return nil, nil
	},
}

func TestLibraryPerClient(t *testing.T) {
	analysistest.Run(t, testmod.Dir(t), libraryDebug, "locklint.test/lockmodel/library")
}

// TestLibraryMessages pins the phrases the passes put in messages and fix
// titles.
func TestLibraryMessages(t *testing.T) {
	for _, tc := range []struct {
		module, use, title string
	}{
		{"github.com/redis/go-redis/v9", "`fix.Release`", "fix.Release"},
		{"github.com/go-redis/redis/v8", "`lock.Release` via `fixgoredis8.Client`", "lock.Release via fixgoredis8.Client"},
		{"github.com/gomodule/redigo/redis", "`lock.Release` via `fixredigo.Conn`", "lock.Release via fixredigo.Conn"},
		{"github.com/redis/rueidis", "`lock.Release` via `fixrueidis.Client`", "lock.Release via fixrueidis.Client"},
		{"github.com/valkey-io/valkey-go", "`lock.Release` via `fixvalkey.Client`", "lock.Release via fixvalkey.Client"},
		// No adapter: the core, whose Client the code would implement.
		{"github.com/go-redis/redis/v7", "`lock.Release`", "lock.Release"},
		{"github.com/go-redis/redis", "`lock.Release`", "lock.Release"},
		{"github.com/garyburd/redigo/redis", "`lock.Release`", "lock.Release"},
		{"github.com/gogf/gf/v2/database/gredis", "`lock.Release`", "lock.Release"},
	} {
		m := &lockmodel.Model{}
		lib := m.Library(&lockmodel.Call{Module: tc.module})
		if got := lib.Use("Release"); got != tc.use {
			t.Errorf("%s: Use = %s, want %s", tc.module, got, tc.use)
		}
		if got := lib.Title("Release"); got != tc.title {
			t.Errorf("%s: Title = %s, want %s", tc.module, got, tc.title)
		}
	}
}
