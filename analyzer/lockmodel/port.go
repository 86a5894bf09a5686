package lockmodel

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"
	"sync"

	"golang.org/x/tools/go/analysis"

	"github.com/locklint/locklint/internal/typesx"
)

// Services written in the ports-and-adapters style declare the client they
// need as an interface of their own, in go-redis's words but with plain
// results, and never import a client: the adapter that satisfies it is
// wired in elsewhere.
//
//	type RedisClient interface {
//		SetNX(ctx context.Context, key string, value any, ttl time.Duration) (bool, error)
//		Del(ctx context.Context, keys ...string) error
//	}
//
// An interface with a SetNX of that shape (a key, a value and a lease,
// under the name only Redis gives the command) is a Redis port, and its
// methods with a go-redis command's name and parameters are those
// commands, and so is a Delete shaped like Del (the name ports give DEL
// more often than not). A method named like a command with other
// parameters is not.

// portParam is the kind of one parameter of a port method.
type portParam int

const (
	pKey      portParam = iota // string
	pKeys                      // ...string, or one string key
	pValue                     // any, string or []byte
	pTTL                       // time.Duration
	pScript                    // string
	pEvalKeys                  // []string
	pArgs                      // ...any
	pSetArgs                   // go-redis's SetArgs
)

// portShapes are the port methods the model reads, by the go-redis
// parameter names their arguments take after the context.
var portShapes = map[string][]struct {
	name string
	kind portParam
}{
	"SetNX":   {{"key", pKey}, {"value", pValue}, {"expiration", pTTL}},
	"Set":     {{"key", pKey}, {"value", pValue}, {"expiration", pTTL}},
	"Get":     {{"key", pKey}},
	"Del":     {{"keys", pKeys}},
	"Delete":  {{"keys", pKeys}},
	"Unlink":  {{"keys", pKeys}},
	"Expire":  {{"key", pKey}, {"expiration", pTTL}},
	"PExpire": {{"key", pKey}, {"expiration", pTTL}},
	"Incr":    {{"key", pKey}},
	"Decr":    {{"key", pKey}},
	"Eval":    {{"script", pScript}, {"keys", pEvalKeys}, {"args", pArgs}},
	// Under any name: go-redis's own SetArgs type says what it sends.
	"SetArgs": {{"key", pKey}, {"value", pValue}, {"a", pSetArgs}},
}

// portMethodOf is a port method read as the go-redis method it stands for.
type portMethodOf struct {
	name   string
	params map[string]int
}

// portMethod returns what fn is as a method of a Redis port, once per
// method, or nil. A port implemented in the package is read through its
// implementations instead, which say what each method really sends.
func (b *builder) portMethod(fn *types.Func) *portMethodOf {
	if _, named := portShapes[fn.Name()]; !named && !takesSetArgs(fn) {
		return nil
	}
	if p, ok := b.ports[fn]; ok {
		return p
	}
	var p *portMethodOf
	if name, ps := portParams(fn); ps != nil && len(b.m.implementations(fn)) == 0 {
		p = &portMethodOf{name, ps}
	}
	if b.ports == nil {
		b.ports = map[*types.Func]*portMethodOf{}
	}
	b.ports[fn] = p
	return p
}

// portAliases are the port method names that are not go-redis's.
var portAliases = map[string]string{"Delete": "Del"}

// portParams returns, for a method of a Redis port with a command's name
// and shape, the go-redis method it stands for and its parameters under
// go-redis's names (as params does for a client method); ps is nil for
// any other function.
func portParams(fn *types.Func) (name string, ps map[string]int) {
	sig := fn.Type().(*types.Signature)
	if sig.Recv() == nil || !types.IsInterface(sig.Recv().Type()) {
		return "", nil
	}
	name = fn.Name()
	if _, ok := portShapes[name]; !ok {
		name = "SetArgs"
	}
	if ps = portMethod(fn, name); ps == nil || !isPort(sig.Recv().Type()) {
		return "", nil
	}
	if alias, ok := portAliases[name]; ok {
		name = alias
	}
	return name, ps
}

// takesSetArgs reports whether fn's last parameter is go-redis's SetArgs.
func takesSetArgs(fn *types.Func) bool {
	ps := fn.Type().(*types.Signature).Params()
	return ps.Len() > 0 && isSetArgs(ps.At(ps.Len()-1).Type())
}

func isSetArgs(t types.Type) bool {
	n, ok := t.(*types.Named)
	return ok && n.Obj().Name() == "SetArgs" && n.Obj().Pkg() != nil && clientPaths[n.Obj().Pkg().Path()] == GoRedis
}

// isPort reports whether the interface t has a SetNX with a port's shape,
// or a method, under any name, that takes a key, a value and go-redis's
// SetArgs (Hold(ctx, key, value, redis.SetArgs{Mode: "NX"})).
func isPort(t types.Type) bool {
	iface, ok := t.Underlying().(*types.Interface)
	if !ok {
		return false
	}
	for i := range iface.NumMethods() {
		m := iface.Method(i)
		if m.Name() == "SetNX" {
			sig := m.Type().(*types.Signature)
			res := sig.Results()
			return portMethod(m, "SetNX") != nil && res.Len() >= 1 && typesx.IsBool(res.At(0).Type())
		}
		if takesSetArgs(m) && portMethod(m, "SetArgs") != nil {
			return true
		}
	}
	return false
}

// portMethod matches fn's parameters, after an optional leading context,
// against the shape of the command name, and names them.
func portMethod(fn *types.Func, name string) map[string]int {
	shape := portShapes[name]
	sig := fn.Type().(*types.Signature)
	ps := sig.Params()
	out := map[string]int{}
	i := 0
	if ps.Len() > 0 && typesx.IsContext(ps.At(0).Type()) {
		out["ctx"] = 0
		i = 1
	}
	if ps.Len()-i != len(shape) {
		return nil
	}
	for j, want := range shape {
		t := ps.At(i + j).Type()
		last := i+j == ps.Len()-1
		if !portKind(t, want.kind, last && sig.Variadic()) {
			return nil
		}
		out[want.name] = i + j
	}
	return out
}

func portKind(t types.Type, k portParam, variadic bool) bool {
	elem := func() types.Type {
		if s, ok := t.(*types.Slice); ok {
			return s.Elem()
		}
		return nil
	}
	switch k {
	case pKey, pScript:
		return !variadic && typesx.IsString(t)
	case pKeys:
		if variadic {
			return typesx.IsString(elem())
		}
		return typesx.IsString(t)
	case pValue:
		if s, ok := t.(*types.Slice); ok && !variadic {
			b, ok := s.Elem().Underlying().(*types.Basic)
			return ok && b.Kind() == types.Byte
		}
		return !variadic && (typesx.IsString(t) || typesx.IsEmptyInterface(t))
	case pTTL:
		return !variadic && typesx.IsDuration(t)
	case pEvalKeys:
		return !variadic && typesx.IsString(elem())
	case pArgs:
		return variadic && typesx.IsEmptyInterface(elem())
	case pSetArgs:
		return !variadic && isSetArgs(t)
	}
	return false
}

// declaresPort reports whether pass's package, or a package it imports
// directly, declares a Redis port, go-redis- or redigo-shaped
// (redigoport.go): a package that reaches no client still sends commands
// through one. The standard library declares none. The
// package's own ports are found in its top-level declarations (a scope's
// names come sorted, which costs more than the whole answer for a large
// package), an import's once per process.
func declaresPort(pass *analysis.Pass) bool {
	if isStdPass(pass) {
		return false
	}
	for _, f := range pass.Files {
		for _, d := range f.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.TYPE {
				continue
			}
			for _, s := range gd.Specs {
				ts := s.(*ast.TypeSpec)
				it, ok := ts.Type.(*ast.InterfaceType)
				if !ok {
					continue
				}
				if hasMethod(it, "SetNX") || namesSetArgs(it) {
					if obj := pass.TypesInfo.Defs[ts.Name]; obj != nil && isPort(obj.Type()) {
						return true
					}
				}
				if hasMethod(it, "Do") {
					if obj := pass.TypesInfo.Defs[ts.Name]; obj != nil && isRedigoPort(obj.Type()) {
						return true
					}
				}
			}
		}
	}
	for _, q := range pass.Pkg.Imports() {
		if first, _, _ := strings.Cut(q.Path(), "/"); (strings.Contains(first, ".") || inModule(pass, q.Path())) && portIn(q) {
			return true
		}
	}
	return false
}

// inModule reports whether path is a package of pass's module: a module
// path with no dot (module seckill-service) is no standard library's.
func inModule(pass *analysis.Pass, path string) bool {
	mod := pass.Module
	return mod != nil && mod.Path != "" && (path == mod.Path || strings.HasPrefix(path, mod.Path+"/"))
}

func hasMethod(it *ast.InterfaceType, name string) bool {
	for _, m := range it.Methods.List {
		for _, n := range m.Names {
			if n.Name == name {
				return true
			}
		}
	}
	return false
}

// namesSetArgs reports whether a method of it has a parameter whose type
// is written X.SetArgs.
func namesSetArgs(it *ast.InterfaceType) bool {
	for _, m := range it.Methods.List {
		ft, ok := m.Type.(*ast.FuncType)
		if !ok {
			continue
		}
		for _, p := range ft.Params.List {
			if sel, ok := p.Type.(*ast.SelectorExpr); ok && sel.Sel.Name == "SetArgs" {
				return true
			}
		}
	}
	return false
}

// ports remembers, per imported package, whether it declares a port.
var ports sync.Map // *types.Package -> bool

func portIn(pkg *types.Package) bool {
	if r, ok := ports.Load(pkg); ok {
		return r.(bool)
	}
	r := false
	scope := pkg.Scope()
	for _, name := range scope.Names() {
		if tn, ok := scope.Lookup(name).(*types.TypeName); ok && types.IsInterface(tn.Type()) && (isPort(tn.Type()) || isRedigoPort(tn.Type())) {
			r = true
			break
		}
	}
	ports.Store(pkg, r)
	return r
}
