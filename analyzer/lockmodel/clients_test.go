package lockmodel

import "testing"

func TestInClientModule(t *testing.T) {
	for _, tc := range []struct {
		pkg, module string
		want        bool
	}{
		{"github.com/redis/go-redis/v9", "github.com/redis/go-redis/v9", true},
		{"github.com/redis/rueidis/rueidiscompat", "github.com/redis/rueidis", true},
		{"github.com/redis/rueidis/rueidiscompat", "github.com/redis/rueidis/rueidiscompat", true},
		{"github.com/redis/rueidis/internal/cmds", "github.com/redis/rueidis", true},
		// A lock library in a module of its own below the client's.
		{"github.com/redis/rueidis/rueidislock", "github.com/redis/rueidis/rueidislock", false},
		{"github.com/go-redis/redis/v8", "github.com/go-redis/redis/v8", true},
		{"github.com/go-redis/redis/v8/internal/pool", "github.com/go-redis/redis/v8", true},
		{"example.com/app/locks", "example.com/app", false},
		// No module information (GOPATH, some build systems): only the
		// client packages themselves.
		{"github.com/redis/go-redis/v9", "", true},
		{"github.com/redis/go-redis/v9/extra/redisotel", "", false},
	} {
		if got := InClientModule(tc.pkg, tc.module); got != tc.want {
			t.Errorf("InClientModule(%q, %q) = %v, want %v", tc.pkg, tc.module, got, tc.want)
		}
	}
}
