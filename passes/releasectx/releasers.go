package releasectx

// What is a release: a command that gives up a lock, and the functions
// of the package that release one under a context they are given.

import (
	"go/ast"
	"go/types"

	"github.com/locklint/locklint/analyzer/lockmodel"
)

// isRelease reports whether c gives up a lock: a DEL of a lock key, an
// owner-checked DELEX, or a script that deletes one of its KEYS.
func (a *checker) isRelease(c *lockmodel.Call) bool {
	if c.Via != nil && lockmodel.InLibrary(c.Via) {
		return false
	}
	switch {
	case c.Command.IsDelete():
		for _, k := range c.Keys {
			if a.m.IsLockKey(c, k) {
				return true
			}
		}
	case c.Command == lockmodel.CmdDelEx:
		return c.Flags&lockmodel.FlagIFEQ != 0
	case c.Command == lockmodel.CmdEval:
		text, ok := a.m.ScriptText(c)
		if !ok {
			return false
		}
		for _, w := range lockmodel.LuaCalls(text.Text) {
			if w.Removes() && w.Key() > 0 {
				return true
			}
		}
	}
	return false
}

// findReleasers records the package's functions that release a lock
// under a context parameter, passed on as it is and never reassigned,
// outside closures and defers: a call of one is a release under the
// caller's context. A known lock library's release (redsync's
// UnlockContext) is such a release too, and so is a method of the
// package's own interface whose one implementation here releases.
func (a *checker) findReleasers() {
	for _, c := range a.m.Calls {
		if c.Decl == nil || c.Func != c.Decl || c.Deferred || c.Ctx == nil || !a.isRelease(c) {
			continue
		}
		a.record(c.Decl, c.Ctx)
	}
	a.libraryReleasers()
	a.wrapperReleasers()
	a.interfaceReleasers()
}

// record makes decl a releaser when ctx, the context its release runs
// under, is one of its parameters and never reassigned.
func (a *checker) record(decl *ast.FuncDecl, ctx ast.Expr) {
	fn, _ := a.pass.TypesInfo.Defs[decl.Name].(*types.Func)
	if fn == nil {
		return
	}
	if i, ok := a.paramIndex(decl, fn, ctx); ok {
		a.releasers[fn] = i
		a.export(fn, &Releaser{Ctx: i})
	}
}

// ctxVar returns the variable ctx, a context expression, names, or nil.
func (a *checker) ctxVar(ctx ast.Expr) *types.Var {
	id, ok := ast.Unparen(ctx).(*ast.Ident)
	if !ok {
		return nil
	}
	v, _ := a.pass.TypesInfo.Uses[id].(*types.Var)
	return v
}

// releaser returns the context parameter of fn when it is a releaser, of
// this package or, through its fact, of another. The lock library is
// none: its releases ignore the caller's cancellation.
func (a *checker) releaser(fn *types.Func) (int, bool) {
	if i, ok := lockmodel.ReleasesUnder(fn); ok {
		return i, true
	}
	if fn == nil || fn.Pkg() == nil || lockmodel.InLibrary(fn) {
		return 0, false
	}
	fn = fn.Origin()
	if fn.Pkg() == a.pass.Pkg {
		i, ok := a.releasers[fn]
		return i, ok
	}
	var r Releaser
	if a.pass.ImportObjectFact(fn, &r) {
		return r.Ctx, true
	}
	return 0, false
}
