package diag

import (
	"testing"

	"github.com/locklint/locklint/analyzer/lockmodel"
)

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
		if got := Use(lib, "Release"); got != tc.use {
			t.Errorf("%s: Use = %s, want %s", tc.module, got, tc.use)
		}
		if got := UseTitle(lib, "Release"); got != tc.title {
			t.Errorf("%s: UseTitle = %s, want %s", tc.module, got, tc.title)
		}
	}
}

// TestTrail pins the words for each part of a token's trail.
func TestTrail(t *testing.T) {
	src := func(k lockmodel.SourceKind, name string) lockmodel.Source {
		return lockmodel.Source{Kind: k, Name: name}
	}
	for _, tc := range []struct {
		trail lockmodel.Trail
		want  string
	}{
		{lockmodel.Trail{Source: src(lockmodel.SourceConstant, `"owner"`)}, "the constant `\"owner\"`"},
		{lockmodel.Trail{Source: src(lockmodel.SourceConstants, "")}, "a constant"},
		{lockmodel.Trail{Source: src(lockmodel.SourceCounter, "i")}, "loop counter `i`, the same in every process"},
		{lockmodel.Trail{Source: src(lockmodel.SourceFunc, "os.Hostname")}, "`os.Hostname`"},
		{lockmodel.Trail{Source: src(lockmodel.SourcePath, "math/rand")}, "math/rand"},
		{lockmodel.Trail{Source: src(lockmodel.SourceGoroutineID, "")}, "the goroutine id (`runtime.Stack`)"},
		{lockmodel.Trail{
			Through: []lockmodel.Step{{Kind: lockmodel.StepVar, Name: "owner"}},
			Source:  src(lockmodel.SourceSetOnce, ""),
		}, "package-level variable `owner`, set once per process"},
		{lockmodel.Trail{
			Through: []lockmodel.Step{{Kind: lockmodel.StepField, Name: "id"}},
			Source:  src(lockmodel.SourceSetOnce, "New"),
		}, "field `id`, set once in `New`"},
		{lockmodel.Trail{
			Through: []lockmodel.Step{{Kind: lockmodel.StepParam, Name: "token"}, {Kind: lockmodel.StepField, Name: "token"}},
			Source:  src(lockmodel.SourceGoroutineID, ""),
			Helper:  "owner",
		}, "parameter `token`, given field `token`, the goroutine id (`runtime.Stack`), returned by `owner`"},
		{lockmodel.Trail{Source: src(lockmodel.SourcePath, "math/rand"), Helper: "idgen.RandString"}, "math/rand, returned by `idgen.RandString`"},
	} {
		if got := Trail(tc.trail); got != tc.want {
			t.Errorf("Trail(%+v) = %q, want %q", tc.trail, got, tc.want)
		}
	}
}
