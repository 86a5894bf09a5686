package lockmodel

import "strings"

// IsClientPath reports whether path is a Redis client package the model
// understands. Drivers use it to decide which dependencies need syntax.
func IsClientPath(path string) bool {
	_, ok := clientPaths[path]
	return ok
}

// clientModules are the modules of the clients in clientPaths.
var clientModules = []string{
	"github.com/redis/go-redis/v9",
	"github.com/go-redis/redis", // v6, and the prefix of v7 and v8
	"github.com/gomodule/redigo",
	"github.com/redis/rueidis",
}

// InClientModule reports whether path is a package of a client's own
// module: the client, its internals and its companions (rueidiscompat,
// redisotel). Their code is the plumbing under the commands, not code
// that takes locks, and some of it is very large.
func InClientModule(path string) bool {
	for _, m := range clientModules {
		if path == m || strings.HasPrefix(path, m+"/") {
			return true
		}
	}
	return false
}
