package lockmodel

import (
	"go/types"
	"strings"

	"github.com/locklint/locklint/analyzer/lockmodel/internal/lua"
)

// isClientPath reports whether path is a Redis client package the model
// understands. Drivers use it to decide which dependencies need syntax.
func isClientPath(path string) bool {
	_, ok := clientPaths[path]
	return ok
}

// clientPackage reports whether path is a package of a client's module
// (the client, its internals, its reply types).
func clientPackage(path string) bool {
	for mod := range clientModules {
		if path == mod || strings.HasPrefix(path, mod+"/") {
			return true
		}
	}
	return false
}

// clientModules are the modules of the clients in clientPaths.
var clientModules = map[string]bool{
	"github.com/redis/go-redis/v9":   true,
	"github.com/go-redis/redis/v9":   true,
	"github.com/go-redis/redis/v8":   true,
	"github.com/go-redis/redis/v7":   true,
	"github.com/go-redis/redis":      true,
	"github.com/gomodule/redigo":     true,
	"github.com/garyburd/redigo":     true,
	"github.com/redis/rueidis":       true,
	"github.com/valkey-io/valkey-go": true,
	// goframe's module is the framework, not lock code; its Redis
	// adapter is a module of its own over go-redis.
	"github.com/gogf/gf/v2":                     true,
	"github.com/gogf/gf/contrib/nosql/redis/v2": true,
	// The go-redis API over rueidis, in a module of its own below
	// rueidis's (v1.0.79 has its own go.mod): plumbing like the client,
	// unlike rueidislock beside it.
	"github.com/redis/rueidis/rueidiscompat": true,
}

// InClientModule reports whether a package belongs to a client's own
// module: the client, its internals and its companions (rueidiscompat,
// the go-redis extra packages in the main module). Their code is the
// plumbing under the commands, not code that takes locks, and some of it
// is very large. Modules nested below a client's (rueidislock, with its
// own go.mod) are lock code and are not included. When the module is not
// known, only the client packages themselves are.
func InClientModule(pkgPath, modulePath string) bool {
	if modulePath == "" {
		return isClientPath(pkgPath)
	}
	return clientModules[modulePath]
}

// CommandNames returns every command and client method name the model
// knows, for the contract that passes never quote one themselves.
func CommandNames() []string {
	var out []string
	for _, m := range []map[string]Command{redigoCommands, rueidisCommands, goframeMethods} {
		for name := range m {
			out = append(out, name)
		}
	}
	for name := range goRedisMethods {
		out = append(out, name)
	}
	out = append(out, lua.CommandNames()...)
	for _, c := range commandNames {
		out = append(out, c)
	}
	return out
}

// clientPaths are the import paths whose calls the model understands.
var clientPaths = map[string]Client{
	"github.com/redis/go-redis/v9":           GoRedis,
	"github.com/go-redis/redis/v9":           GoRedis, // the v9 betas' path
	"github.com/go-redis/redis/v8":           GoRedis,
	"github.com/go-redis/redis/v7":           GoRedis,
	"github.com/go-redis/redis":              GoRedis,
	"github.com/gomodule/redigo/redis":       Redigo,
	"github.com/garyburd/redigo/redis":       Redigo, // redigo's old import path
	"github.com/redis/rueidis":               Rueidis,
	"github.com/redis/rueidis/internal/cmds": Rueidis,
	// valkey-go is the rueidis API under the Valkey project.
	"github.com/valkey-io/valkey-go":               Rueidis,
	"github.com/valkey-io/valkey-go/internal/cmds": Rueidis,
	"github.com/gogf/gf/v2/database/gredis":        GoFrame,
}

// reachesClient reports whether pkg imports a client, directly or through
// another package (a user type that embeds *redis.Client makes its callers
// send commands without importing go-redis themselves).
func reachesClient(pkg *types.Package) bool {
	return ReachesClient(pkg, (*types.Package).Path, (*types.Package).Imports, map[*types.Package]bool{})
}

// lockLibraryPaths are other lock libraries whose acquires the model
// knows (lockAcquires): a package that takes locks through one is lock
// code, even when no client package is in its imports.
var lockLibraryPaths = map[string]bool{
	"github.com/go-redsync/redsync":    true,
	"github.com/go-redsync/redsync/v4": true,
	"github.com/bsm/redislock":         true,
}

// importsLockLibrary reports whether pkg imports a lock library of
// lockLibraryPaths directly: its calls of the library's acquires are
// the model's to read. The drivers load from source only what reaches a
// client (ReachesClient); a package of the module is loaded anyway.
func importsLockLibrary(pkg *types.Package) bool {
	for _, p := range pkg.Imports() {
		if lockLibraryPaths[p.Path()] {
			return true
		}
	}
	return false
}

// ReachesClient reports whether p imports a client, directly or through
// other packages, in any package graph: the model's (types.Package) and
// the standalone driver's (go/packages). memo carries answers across calls
// over one graph.
func ReachesClient[P comparable](p P, path func(P) string, imports func(P) []P, memo map[P]bool) bool {
	if r, ok := memo[p]; ok {
		return r
	}
	memo[p] = false // breaks cycles in a broken graph
	r := isClientPath(path(p))
	for _, q := range imports(p) {
		if r {
			break
		}
		r = ReachesClient(q, path, imports, memo)
	}
	memo[p] = r
	return r
}
