package lockmodel

import (
	"go/ast"
	"go/types"
	"path"
	"strings"

	"golang.org/x/tools/go/types/typeutil"
)

// LibraryPath is the import path of the lock library's go-redis v9 front,
// package fix, which takes a go-redis v9 client as it is.
const LibraryPath = "github.com/locklint/locklint/analyzer/fix"

// CorePath is the import path of the lock library's core, package lock,
// which takes a lock.Client: what an adapter makes of another client.
const CorePath = LibraryPath + "/lock"

// Library is how code written against one client reaches the lock
// library: the package whose functions it calls, and the adapter that
// makes a lock.Client of its client, when it needs one. Messages and
// suggested fixes name the library through it, so that each client's
// code is pointed to an entry that takes its client.
type Library struct {
	// Path is the package whose functions and options the code uses:
	// LibraryPath for go-redis v9, CorePath for every other client.
	Path string
	// Adapter is the import path of the package that makes a
	// lock.Client of the client, and Wrap the function of it that a fix
	// calls on the value the command was sent through. Both are "" for
	// go-redis v9, whose front takes the client itself, and for a client
	// with no adapter, whose code must implement lock.Client.
	Adapter, Wrap string

	// client is the client's package path, and param the name of the
	// type there that Wrap (or the front's functions) takes; module is
	// the client's module.
	client, param, module string
	// pool and get name the type a connection is taken from and the
	// method that takes it (redigo's (*Pool).Get): a fix wraps the pool
	// with Wrap pool when the command is sent on a connection taken in
	// the same expression, which the fix would otherwise leak.
	pool, get, wrapPool string
}

const adapters = LibraryPath + "/"

// libraries maps a client package (Call.Module) to its entry. go-redis v6
// and v7, the v9 betas' path, garyburd/redigo and goframe have no adapter.
var libraries = map[string]Library{
	"github.com/redis/go-redis/v9": {Path: LibraryPath,
		client: "github.com/redis/go-redis/v9", param: "UniversalClient", module: "github.com/redis/go-redis/v9"},
	"github.com/go-redis/redis/v8": {Path: CorePath, Adapter: adapters + "fixgoredis8", Wrap: "Client",
		client: "github.com/go-redis/redis/v8", param: "UniversalClient", module: "github.com/go-redis/redis/v8"},
	"github.com/gomodule/redigo/redis": {Path: CorePath, Adapter: adapters + "fixredigo", Wrap: "Conn",
		client: "github.com/gomodule/redigo/redis", param: "Conn", module: "github.com/gomodule/redigo",
		pool: "Pool", get: "Get", wrapPool: "Pool"},
	"github.com/redis/rueidis": {Path: CorePath, Adapter: adapters + "fixrueidis", Wrap: "Client",
		client: "github.com/redis/rueidis", param: "Client", module: "github.com/redis/rueidis"},
	"github.com/valkey-io/valkey-go": {Path: CorePath, Adapter: adapters + "fixvalkey", Wrap: "Client",
		client: "github.com/valkey-io/valkey-go", param: "Client", module: "github.com/valkey-io/valkey-go"},
}

// LibraryModules maps each client module that has an entry in the
// library to the modules a fix for its code imports: the front for
// go-redis v9, the core and the adapter for the others (each of the
// library's packages is the root of a module of its own). Drivers use it
// to tell a module what to require after -fix.
func LibraryModules() map[string][]string {
	out := map[string][]string{}
	for _, l := range libraries {
		mods := []string{l.Path}
		if l.Adapter != "" {
			mods = append(mods, l.Adapter)
		}
		out[l.module] = mods
	}
	return out
}

// Library returns the entry of the lock library for the client c is sent
// through: the go-redis v9 front, the core with the client's adapter, or
// the core alone when the client has none.
func (m *Model) Library(c *Call) Library {
	lib := libraryOf(c.Module)
	if m.pooled(c, lib) != nil {
		lib.Wrap = lib.wrapPool
	}
	return lib
}

// pooled returns the pool of c's connection when it is taken in the same
// expression (redis.DoContext(pool.Get(), ...)), or nil.
func (m *Model) pooled(c *Call, lib Library) ast.Expr {
	if lib.pool == "" || c.Recv == nil {
		return nil
	}
	get, ok := ast.Unparen(c.Recv).(*ast.CallExpr)
	if !ok || len(get.Args) != 0 {
		return nil
	}
	fn, _ := typeutil.Callee(m.Pass.TypesInfo, get).(*types.Func)
	if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != lib.client || fn.Name() != lib.get || recvTypeName(fn) != lib.pool {
		return nil
	}
	return recvOf(get)
}

func libraryOf(module string) Library {
	if l, ok := libraries[module]; ok {
		return l
	}
	return Library{Path: CorePath}
}

// Name is the package name of Path, as code refers to it by default.
func (l Library) Name() string { return path.Base(l.Path) }

// AdapterName is the package name of Adapter, or "".
func (l Library) AdapterName() string {
	if l.Adapter == "" {
		return ""
	}
	return path.Base(l.Adapter)
}

// LibraryArg returns the entry a suggested fix at c calls, and the value
// it passes as the client: c's receiver, or the pool of a connection
// taken from it in the same expression, in which case lib.Wrap is the
// adapter's function for a pool (wrapping the connection would leave it
// unclosed). ok is false when a fix cannot call the
// library with c's client: the client has no adapter, or the receiver's
// type is not one the entry takes (a pipeline, a dedicated connection, a
// narrower interface), or the command is queued or sent through a
// wrapper of the package's own.
func (m *Model) LibraryArg(c *Call) (lib Library, client ast.Expr, ok bool) {
	lib = m.Library(c)
	if lib.client == "" || c.Recv == nil || c.Queued || c.Via != nil {
		return lib, nil, false
	}
	pkg := m.imported(lib.client)
	if pkg == nil {
		return lib, nil, false
	}
	if p := m.pooled(c, lib); p != nil {
		return lib, p, true
	}
	param, _ := pkg.Scope().Lookup(lib.param).(*types.TypeName)
	t := m.Pass.TypesInfo.TypeOf(c.Recv)
	if param == nil || t == nil || !types.AssignableTo(t, param.Type()) {
		return lib, nil, false
	}
	return lib, c.Recv, true
}

// imported returns the package with the given path among those the
// package imports, directly or not, or nil.
func (m *Model) imported(p string) *types.Package {
	seen := map[*types.Package]bool{}
	var walk func(pkg *types.Package) *types.Package
	walk = func(pkg *types.Package) *types.Package {
		if seen[pkg] {
			return nil
		}
		seen[pkg] = true
		if pkg.Path() == p {
			return pkg
		}
		for _, q := range pkg.Imports() {
			if r := walk(q); r != nil {
				return r
			}
		}
		return nil
	}
	return walk(m.Pass.Pkg)
}

// IsLibraryRelease reports whether fn is the lock library's owner-checked
// release or renewal, which passes a token back to the server: in the
// go-redis v9 front or in the core, whatever client it is given.
func IsLibraryRelease(fn *types.Func) bool {
	return lookup(fn) == apiOwnerChecked
}

// InLibrary reports whether fn is a function or method of the lock
// library (the front, the core or an adapter). Its releases take the
// caller's context for its values only: they ignore its cancellation and
// bound themselves with a timeout of their own.
func InLibrary(fn *types.Func) bool {
	if fn == nil || fn.Pkg() == nil {
		return false
	}
	p := fn.Pkg().Path()
	return p == LibraryPath || strings.HasPrefix(p, adapters)
}
