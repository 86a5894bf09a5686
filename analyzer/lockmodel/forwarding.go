package lockmodel

// Which of the package's functions forward to a command, found to a fixed
// point (a wrapper of a wrapper), and the facts exported for them.

import (
	"cmp"
	"go/ast"
	"go/types"
	"slices"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/locklint/locklint/internal/typesx"
)

// forward finds this package's forwarders, turns the calls of them into
// commands until no new forwarder appears (a wrapper of a wrapper), and
// exports their facts for the packages that call them.
func (b *builder) forward() {
	b.forwarders = map[*types.Func]*Forwarder{}
	b.m.forwarders = b.forwarders
	b.m.keyNS = b.m.keyNamespace()
	b.m.keyPrefix = b.m.keyPrefixConst()
	done := map[*ast.FuncDecl]bool{}
	raw := b.rawForwarders()
	for {
		byDecl := map[*ast.FuncDecl][]*Call{}
		for _, c := range b.m.Calls {
			if c.Decl != nil && !done[c.Decl] {
				byDecl[c.Decl] = append(byDecl[c.Decl], c)
			}
		}
		found := false
		for d, calls := range byDecl {
			fn, _ := b.pass.TypesInfo.Defs[d.Name].(*types.Func)
			if fn == nil {
				continue
			}
			if f := b.m.summarize(d, calls); f != nil {
				done[d] = true
				b.forwarders[fn] = f
				found = true
			}
		}
		if !found && !raw {
			break
		}
		raw = false
		// Walk again for the calls of the new forwarders, which need their
		// place in the syntax; most packages have none and never get here.
		want := map[*ast.CallExpr]*Forwarder{}
		for fn, f := range b.forwarders {
			for _, site := range b.m.defs.calls[fn] {
				if b.m.byID[site.call] == nil {
					want[site.call] = f
				}
			}
		}
		// l.client.SetNEX(...) through the package's own interface, of
		// whose implementations one forwards: that type's forwarder.
		for obj, sites := range b.m.defs.calls {
			fn, _ := obj.(*types.Func)
			if fn == nil {
				continue
			}
			f := b.forwardingImplementation(fn)
			if f == nil {
				continue
			}
			for _, site := range sites {
				if b.m.byID[site.call] == nil {
					want[site.call] = f
				}
			}
		}
		if len(want) == 0 {
			break
		}
		walk(b.pass.Files, func(cur cursor) {
			call, ok := cur.Node().(*ast.CallExpr)
			if !ok || want[call] == nil {
				return
			}
			fn, _ := typeutil.Callee(b.pass.TypesInfo, call).(*types.Func)
			if c := b.forwarded(call, fn, want[call]); c != nil {
				b.add(cur, c)
			}
		})
	}
	// Back to the order of the walk: file by file, as the pass lists them,
	// then by position. Positions alone do not order files: their bases
	// depend on the order in which the driver parsed them.
	fileIndex := make(map[*ast.File]int, len(b.pass.Files))
	for i, f := range b.pass.Files {
		fileIndex[f] = i
	}
	slices.SortStableFunc(b.m.Calls, func(x, y *Call) int {
		if c := cmp.Compare(fileIndex[x.File], fileIndex[y.File]); c != 0 {
			return c
		}
		return cmp.Compare(x.Pos(), y.Pos())
	})
	for fn, f := range b.forwarders {
		// Only exported functions and methods are called from elsewhere.
		if fn.Exported() {
			b.pass.ExportObjectFact(fn, f)
		}
	}
	b.exportInterfaceForwarders()
}

// exportInterfaceForwarders exports, for each method of the package's
// exported interfaces of whose implementations in the package one is a
// forwarder, that forwarder: other packages call the interface (a
// service's Store with a Redis implementation behind New), and the call
// names the interface's method, not the type's.
func (b *builder) exportInterfaceForwarders() {
	if len(b.forwarders) == 0 {
		return
	}
	for _, m := range exportedInterfaceMethods(b.pass.Pkg) {
		if f := b.forwardingImplementation(m); f != nil {
			b.pass.ExportObjectFact(m, f)
		}
	}
}

// exportedInterfaceMethods returns the exported methods that the
// package's exported interfaces declare themselves: what other packages
// call when they hold one of them.
func exportedInterfaceMethods(pkg *types.Package) []*types.Func {
	var out []*types.Func
	scope := pkg.Scope()
	for _, name := range scope.Names() {
		tn, ok := scope.Lookup(name).(*types.TypeName)
		if !ok || !tn.Exported() || tn.IsAlias() || !types.IsInterface(tn.Type()) {
			continue
		}
		iface := tn.Type().Underlying().(*types.Interface)
		for i := range iface.NumExplicitMethods() {
			m := iface.ExplicitMethod(i)
			if m.Exported() && typesx.Nameable(pkg, m) {
				out = append(out, m)
			}
		}
	}
	return out
}
