package releasectx

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/locklint/locklint/analyzer/lockmodel"
	"github.com/locklint/locklint/internal/typesx"
)

// libraryReleasers records the functions that call a known lock
// library's release (lockmodel.ReleasesUnder) under their own context
// parameter, outside closures and defers: a service's Unlock(ctx) around
// redsync's UnlockContext(ctx).
func (a *checker) libraryReleasers() {
	a.releasesUnder(func(*ast.FuncDecl) bool { return true }, lockmodel.ReleasesUnder)
}

// maxWrapperDepth bounds how many of the package's own layers a release
// is followed up through.
const maxWrapperDepth = 3

// wrapperReleasers records the functions that call a releaser, of the
// package or of another, under their own context parameter, outside
// closures and defers, layer by layer: Release(ctx) that runs
// release(ctx, n), which sends the script, or a coordinator's Release
// that runs the store package's.
func (a *checker) wrapperReleasers() {
	// An acquire that gives back what it took on failure is no release.
	acquires := map[*ast.FuncDecl]bool{}
	for _, c := range a.m.Calls {
		if c.Decl != nil && c.Acquires() {
			acquires[c.Decl] = true
		}
	}
	candidate := func(decl *ast.FuncDecl) bool {
		fn, _ := a.pass.TypesInfo.Defs[decl.Name].(*types.Func)
		_, done := a.releasers[fn]
		return fn != nil && !done && !acquires[decl]
	}
	// A layer over a releaser of another package (its Releaser fact)
	// counts as one over the package's own.
	own := a.releaser
	for range maxWrapperDepth {
		before := len(a.releasers)
		a.releasesUnder(candidate, own)
		if len(a.releasers) == before {
			return
		}
	}
}

// releasesUnder records each function of the package that candidate
// accepts and that calls, outside closures and defers, a function that
// releases under its parameter ctxArg of, passing it a context.
func (a *checker) releasesUnder(candidate func(*ast.FuncDecl) bool, ctxArg func(*types.Func) (int, bool)) {
	for _, f := range a.pass.Files {
		for _, d := range f.Decls {
			decl, ok := d.(*ast.FuncDecl)
			if !ok || decl.Body == nil || !candidate(decl) {
				continue
			}
			typesx.OutsideClosures(decl.Body, func(n ast.Node) (bool, bool) {
				switch n := n.(type) {
				case *ast.DeferStmt, *ast.GoStmt:
					return false, true
				case *ast.CallExpr:
					fn, _ := typeutil.Callee(a.pass.TypesInfo, n).(*types.Func)
					if i, ok := ctxArg(fn); ok && i < len(n.Args) && !n.Ellipsis.IsValid() {
						a.record(decl, n.Args[i])
					}
				}
				return false, false
			})
		}
	}
}

// interfaceReleasers makes a method of an interface declared in the
// package a releaser when its one implementation here is (singleImpls),
// or when each of its several implementations releases under the same
// parameter (a Locker over redislock beside one over redsync): a call
// through the interface is one of them, whichever it is.
func (a *checker) interfaceReleasers() {
	for _, p := range a.singleImpls() {
		if ctx, ok := a.releaser(p.impl); ok {
			a.releasers[p.method] = ctx
			a.export(p.method, &Releaser{Ctx: ctx})
		}
	}
	for _, set := range a.implSets() {
		if len(set.all) < 2 {
			continue
		}
		for i := range set.iface.NumExplicitMethods() {
			m := set.iface.ExplicitMethod(i)
			if _, done := a.releasers[m]; done {
				continue
			}
			ctx, all := -1, true
			for _, t := range set.all {
				obj, _, _ := types.LookupFieldOrMethod(t, true, a.pass.Pkg, m.Name())
				fn, _ := obj.(*types.Func)
				c, ok := a.releaser(fn)
				if !ok || (ctx >= 0 && c != ctx) {
					all = false
					break
				}
				ctx = c
			}
			if all {
				a.releasers[m] = ctx
				a.export(m, &Releaser{Ctx: ctx})
			}
		}
	}
}

// export exports fact for fn when fn is an object of this package that
// other packages can name: a method of an interface this package declares
// from another's generic one (type Handler decorator.QueryHandler[Q, R])
// belongs to that package, and an instantiation has no name of its own.
// Such a method is still known here, from the package's own maps.
func (a *checker) export(fn *types.Func, fact analysis.Fact) {
	if typesx.Nameable(a.pass.Pkg, fn) {
		a.pass.ExportObjectFact(fn, fact)
	}
}

// implPair is a method of an interface declared in the package and the
// method of the interface's one implementation there.
type implPair struct{ method, impl *types.Func }

// implSet is an interface declared in the package, the types that
// implement it among the package's types (outside test files) and the
// exported types of the packages it imports that carry this analyzer's
// facts, and those of them that send commands: of several
// implementations, those that send none (an in-memory fallback) cannot
// leave a key behind. A type of another package counts as sending.
type implSet struct {
	iface        *types.Interface
	all, sending []types.Type
}

// singleImpls returns the methods of the interfaces declared in the
// package that have exactly one implementation (implSets): a call
// through the interface is a call of that implementation's method, and
// the method gets its facts (a narrow interface a service declares for
// its tests over the client type of a package it imports). With several
// implementations the call may be any of them, and a mock in a test is
// none, so nothing is assumed, unless only one of them sends commands (a
// Redis locker beside an in-memory fallback).
// Found once per package.
func (a *checker) singleImpls() []implPair {
	if a.impls != nil {
		return *a.impls
	}
	var out []implPair
	defer func() { a.impls = &out }()
	for _, set := range a.implSets() {
		var impl types.Type
		switch {
		case len(set.all) == 1:
			impl = set.all[0]
		case len(set.sending) == 1:
			impl = set.sending[0]
		default:
			continue
		}
		for i := range set.iface.NumExplicitMethods() {
			m := set.iface.ExplicitMethod(i)
			obj, _, _ := types.LookupFieldOrMethod(impl, true, a.pass.Pkg, m.Name())
			if fn, ok := obj.(*types.Func); ok {
				out = append(out, implPair{method: m, impl: fn})
			}
		}
	}
	return out
}

// implSets returns the package's interfaces and their implementations.
// Found once per package.
func (a *checker) implSets() []implSet {
	if a.sets != nil {
		return *a.sets
	}
	var out []implSet
	defer func() { a.sets = &out }()
	scope := a.pass.Pkg.Scope()
	var ifaces, concrete []*types.TypeName
	for _, name := range scope.Names() {
		tn, ok := scope.Lookup(name).(*types.TypeName)
		if !ok || tn.IsAlias() || a.inTestFile(tn) {
			continue
		}
		named, ok := tn.Type().(*types.Named)
		if !ok || named.TypeParams().Len() > 0 {
			continue
		}
		if types.IsInterface(named) {
			ifaces = append(ifaces, tn)
		} else {
			concrete = append(concrete, tn)
		}
	}
	if len(ifaces) == 0 {
		return out
	}
	// Only packages whose functions carry this analyzer's facts can give
	// an implementation facts.
	withFacts := map[*types.Package]bool{}
	for _, f := range a.pass.AllObjectFacts() {
		withFacts[f.Object.Pkg()] = true
	}
	for _, imp := range a.pass.Pkg.Imports() {
		if !withFacts[imp] {
			continue
		}
		scope := imp.Scope()
		for _, name := range scope.Names() {
			tn, ok := scope.Lookup(name).(*types.TypeName)
			if !ok || !tn.Exported() || tn.IsAlias() {
				continue
			}
			if named, ok := tn.Type().(*types.Named); ok && named.TypeParams().Len() == 0 && !types.IsInterface(named) {
				concrete = append(concrete, tn)
			}
		}
	}
	sends := map[*types.TypeName]bool{}
	for _, c := range a.m.Calls {
		if c.Decl == nil || c.Decl.Recv == nil {
			continue
		}
		if fn, _ := a.pass.TypesInfo.Defs[c.Decl.Name].(*types.Func); fn != nil {
			if named, ok := types.Unalias(deref(fn.Type().(*types.Signature).Recv().Type())).(*types.Named); ok {
				sends[named.Obj()] = true
			}
		}
	}
	for _, tn := range ifaces {
		set := implSet{iface: tn.Type().Underlying().(*types.Interface)}
		for _, c := range concrete {
			for _, t := range []types.Type{c.Type(), types.NewPointer(c.Type())} {
				if types.Implements(t, set.iface) {
					set.all = append(set.all, t)
					if c.Pkg() != a.pass.Pkg || sends[c] {
						set.sending = append(set.sending, t)
					}
					break
				}
			}
		}
		if len(set.all) > 0 {
			out = append(out, set)
		}
	}
	return out
}

func (a *checker) inTestFile(obj types.Object) bool {
	f := typesx.FileOf(a.pass.Files, obj.Pos())
	return f != nil && a.m.InTestFile(f)
}
