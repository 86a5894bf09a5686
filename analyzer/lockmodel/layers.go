package lockmodel

// Layers that forward to an interface another package implements: a use
// case whose Lock is `return uc.repo.Lock(key, ttl)`, where repo is the
// use case package's own interface and the Redis implementation lives in
// a data package that imports it. The use case's package sees no
// implementation; a package that imports both (the service that calls
// the use case) does.

import (
	"go/ast"
	"go/types"
	"strings"

	"golang.org/x/tools/go/types/typeutil"
)

// Forwards is the fact that a function only calls a method of a named
// interface type with its own parameters, in order, and returns what
// that returns: a call of the function is a call of the method.
type Forwards struct {
	// Pkg and Type name the interface; both are empty for an interface
	// type with no name (a decorator's field of interface{ Lock(...) }).
	Pkg, Type, Method string
}

func (*Forwards) AFact()           {}
func (f *Forwards) String() string { return "forwards to " + f.Pkg + "." + f.Type + "." + f.Method }
func (*Forwards) Scope() FactScope { return MainModuleScope }

// exportForwards exports Forwards for the package's exported functions
// and methods whose body is that one call, when the call says what a
// lock helper says: whether it took (one bool, errors beside it), or a
// lock word in the method's name (Lock, UnLock, Release).
func exportForwards(m *Model) {
	info := m.Pass.TypesInfo
	for _, f := range m.Pass.Files {
		for _, d := range f.Decls {
			decl, ok := d.(*ast.FuncDecl)
			if !ok || decl.Body == nil || len(decl.Body.List) != 1 || !decl.Name.IsExported() {
				continue
			}
			var call *ast.CallExpr
			switch s := decl.Body.List[0].(type) {
			case *ast.ReturnStmt:
				if len(s.Results) == 1 {
					call, _ = ast.Unparen(s.Results[0]).(*ast.CallExpr)
				}
			case *ast.ExprStmt:
				call, _ = ast.Unparen(s.X).(*ast.CallExpr)
			}
			if call == nil {
				continue
			}
			fn, _ := info.Defs[decl.Name].(*types.Func)
			im, _ := typeutil.Callee(info, call).(*types.Func)
			if fn == nil || im == nil || !im.Exported() || !reportsTaken(im) && !m.Words.MatchText(im.Name()) {
				continue
			}
			recv := im.Signature().Recv()
			if recv == nil || !types.IsInterface(recv.Type()) || !passesParams(info, decl, call) || !types.Identical(fn.Signature().Results(), im.Signature().Results()) {
				continue
			}
			// A decorator over an interface with no name of its own
			// still forwards: its Pkg and Type stay empty.
			f := &Forwards{Method: im.Name()}
			if named := interfaceOf(im); named != nil {
				f.Pkg, f.Type = named.Obj().Pkg().Path(), named.Obj().Name()
			}
			m.Pass.ExportObjectFact(fn, f)
		}
	}
}

// interfaceOf returns the exported named interface type that im is a
// method of, or nil.
func interfaceOf(im *types.Func) *types.Named {
	recv := im.Signature().Recv()
	if recv == nil {
		return nil
	}
	named, ok := types.Unalias(recv.Type()).(*types.Named)
	if !ok || !types.IsInterface(named) || named.Obj().Pkg() == nil || !named.Obj().Exported() {
		return nil
	}
	return named
}

// passesParams reports whether call's arguments are decl's parameters,
// each once and in order.
func passesParams(info *types.Info, decl *ast.FuncDecl, call *ast.CallExpr) bool {
	var params []types.Object
	for _, field := range decl.Type.Params.List {
		for _, name := range field.Names {
			params = append(params, info.Defs[name])
		}
	}
	if len(params) != len(call.Args) {
		return false
	}
	for i, a := range call.Args {
		id, ok := ast.Unparen(a).(*ast.Ident)
		if !ok || params[i] == nil || info.Uses[id] != params[i] {
			return false
		}
	}
	return true
}

// throughInterface returns, for fn of another package that forwards to
// an interface method (a Forwards fact), the methods that implement it
// among the named types of this package and of the packages it imports,
// directly or not, outside the standard library and the clients' own
// modules. Implementations that forward again (a decorator around the
// same interface) are left out: they say nothing of their own.
func (m *Model) throughInterface(fn *types.Func) []*types.Func {
	var f Forwards
	if fn == nil || fn.Pkg() == nil || fn.Pkg() == m.Pass.Pkg || !m.Pass.ImportObjectFact(fn.Origin(), &f) || f.Type == "" {
		return nil
	}
	m.layersMu.Lock()
	defer m.layersMu.Unlock()
	if out, ok := m.layers[fn]; ok {
		return out
	}
	if m.reach == nil {
		m.reach = m.reachable()
	}
	pkgs := m.reach
	var iface *types.Interface
	for _, p := range pkgs {
		if p.Path() != f.Pkg {
			continue
		}
		if tn, ok := p.Scope().Lookup(f.Type).(*types.TypeName); ok {
			iface, _ = tn.Type().Underlying().(*types.Interface)
		}
	}
	var out []*types.Func
	if iface != nil {
		for _, p := range pkgs {
			for _, meth := range implementationsIn(p, iface, f.Method) {
				if !m.Pass.ImportObjectFact(meth.Origin(), new(Forwards)) {
					out = append(out, meth)
				}
			}
		}
	}
	if m.layers == nil {
		m.layers = map[*types.Func][]*types.Func{}
	}
	m.layers[fn] = out
	return out
}

// reachable returns this package and those it imports, directly or
// not, that can hold a service's own types: the main module's (without
// a module, any but the standard library's and a Redis client's).
func (m *Model) reachable() []*types.Package {
	var module string
	if m.Pass.Module != nil {
		module = m.Pass.Module.Path
	}
	seen := map[*types.Package]bool{}
	var out []*types.Package
	var walk func(p *types.Package)
	walk = func(p *types.Package) {
		if seen[p] {
			return
		}
		seen[p] = true
		path := p.Path()
		if m.Pass.Module != nil && m.Pass.Module.Path != "" {
			if !inModule(m.Pass, path) {
				return
			}
		} else if first, _, _ := strings.Cut(path, "/"); !strings.Contains(first, ".") || InClientModule(path, module) {
			return
		}
		out = append(out, p)
		for _, q := range p.Imports() {
			walk(q)
		}
	}
	walk(m.Pass.Pkg)
	return out
}

// throughAll reports whether fn forwards to an interface whose
// implementations in sight all satisfy is (there is at least one).
func (m *Model) throughAll(fn *types.Func, is func(*types.Func) bool) bool {
	impls := m.throughInterface(fn)
	for _, impl := range impls {
		if !is(impl) {
			return false
		}
	}
	return len(impls) > 0
}

// layered returns the Forwarder that fn, of another package, stands for
// when it forwards to an interface (Forwards) whose implementations in
// sight all carry one Forwarder fact alike: the use case's Lock is then
// the data layer's SETNX with the caller's key.
func (b *builder) layered(fn *types.Func) *Forwarder {
	var found *Forwarder
	for _, impl := range b.m.throughInterface(fn) {
		var f Forwarder
		switch {
		case impl.Pkg() == b.pass.Pkg:
			fp := b.forwarders[impl.Origin()]
			if fp == nil {
				return nil
			}
			f = *fp
		case !b.pass.ImportObjectFact(impl.Origin(), &f):
			return nil
		}
		f.scripts = nil
		if found != nil && *found != f {
			return nil
		}
		found = &f
	}
	return found
}
