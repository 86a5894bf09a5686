package lockmodel

// Claims given back through a helper: the taker keeps the key when its
// work succeeds and calls a helper (a small function of the package, or
// a function literal it binds) that deletes it only when the work failed.

import (
	"go/ast"
	"go/types"

	"github.com/locklint/locklint/internal/typesx"
	"golang.org/x/tools/go/ast/astutil"
	"golang.org/x/tools/go/types/typeutil"
)

// undoneByCallers reports whether c, a delete of key, is the body of an
// undo helper: a function of the package named only where it is called
// (clearPending(user)), or a function literal bound to a local of c's
// function (rollback := func() { rdb.Del(ctx, key) }), that sends no
// other command, and each of whose calls undoes a claim (keptAt): the
// caller took the key earlier, with a command or through a take helper,
// calls the undo only on a failure, and keeps the key when its work
// succeeded. That is a marker kept as the record that the work was done
// or queued, given back so that the next run may retry; not a lock held
// across work and released after it.
//
// As for UndoOnFailure, a key that the package also deletes elsewhere is
// a lock that a release of its own gives back later, unless every take
// has a lease too long to lapse within a slow request.
func (m *Model) undoneByCallers(c *Call, key ast.Expr) bool {
	if c.Deferred || c.Decl == nil || key == nil {
		return false
	}
	for _, o := range m.Calls {
		if o != c && o.Func == c.Func {
			return false
		}
	}
	var sites []callSite
	var same func(take *Call) bool
	switch fn := c.Func.(type) {
	case *ast.FuncDecl:
		f, _ := m.Pass.TypesInfo.Defs[fn.Name].(*types.Func)
		if f == nil {
			return false
		}
		var ok bool
		if sites, ok = m.defs.calledOnly(f, true); !ok {
			return false
		}
		fam, ok := m.counterFamily(key)
		if !ok || fam == "" {
			return false
		}
		same = func(take *Call) bool {
			f, ok := m.counterFamily(take.Key())
			return ok && f == fam
		}
	case *ast.FuncLit:
		if sites = m.boundLitCalls(c.Decl, fn); sites == nil {
			return false
		}
		same = func(take *Call) bool { return m.SameKey(take, take.Key(), c, key) }
	default:
		return false
	}
	callers := map[*ast.FuncDecl][]*ast.CallExpr{}
	for _, s := range sites {
		if s.fn == nil || m.InTestFile(s.call) {
			return false
		}
		callers[s.fn] = append(callers[s.fn], s.call)
	}
	for caller, undos := range callers {
		take := m.claimTake(caller, undos[0], same)
		if take == nil || !m.keptAt(take, undos) {
			return false
		}
		if take.Acquires() && m.shortLease(take) && m.releasedElsewhere(c, key) {
			return false
		}
	}
	return true
}

// boundLitCalls returns the calls, in decl, of the local variable that
// lit is bound to (rollback := func() {...}; ... rollback()), or nil when
// lit is not bound so or the variable is used otherwise.
func (m *Model) boundLitCalls(decl *ast.FuncDecl, lit *ast.FuncLit) []callSite {
	info := m.Pass.TypesInfo
	var v types.Object
	ast.Inspect(decl.Body, func(n ast.Node) bool {
		if as, ok := n.(*ast.AssignStmt); ok && len(as.Lhs) == len(as.Rhs) {
			for i, r := range as.Rhs {
				if r == ast.Expr(lit) {
					if id, ok := as.Lhs[i].(*ast.Ident); ok {
						v = info.ObjectOf(id)
					}
				}
			}
		}
		return v == nil
	})
	if v == nil {
		return nil
	}
	var out []callSite
	uses := 0
	ast.Inspect(decl.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			if id, ok := ast.Unparen(n.Fun).(*ast.Ident); ok && info.Uses[id] == v {
				out = append(out, callSite{call: n, fn: decl})
			}
		case *ast.Ident:
			if info.Uses[n] == v {
				uses++
			}
		}
		return true
	})
	if uses != len(out) {
		return nil
	}
	return out
}

// claimTake returns the take in caller, before the call at, of a key
// that same accepts: an acquire there, or the call of a take helper of
// the package (Taker) whose acquire it is. The helper's call stands in
// for the command as a Call with its position, statement and function.
func (m *Model) claimTake(caller *ast.FuncDecl, at *ast.CallExpr, same func(*Call) bool) *Call {
	var take *Call
	for _, o := range m.Calls {
		if o.Decl == caller && o.Acquires() && !o.Queued && !o.Deferred && o.Stmt != nil && o.Key() != nil && o.Pos() < at.Pos() && same(o) {
			take = o
		}
	}
	if take != nil {
		return take
	}
	info := m.Pass.TypesInfo
	ast.Inspect(caller.Body, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || call.Pos() >= at.Pos() {
			return true
		}
		fn, _ := typeutil.Callee(info, call).(*types.Func)
		if fn == nil || fn.Pkg() != m.Pass.Pkg {
			return true
		}
		if t := m.takeHelper(fn); t != nil && same(t) {
			take = m.standIn(caller, call)
		}
		return true
	})
	return take
}

// takeHelper returns the acquire of fn, a function of the package that
// takes one key and reports whether it did: one bool result, and an
// error or nothing beside it; no other command of its own. Unlike Taker
// it does not ask whether the key is a lock, which is what its callers
// are asked here.
func (m *Model) takeHelper(fn *types.Func) *Call {
	if !reportsTaken(fn) {
		return nil
	}
	var take *Call
	for _, o := range m.Calls {
		if o.Decl == nil || m.Pass.TypesInfo.Defs[o.Decl.Name] != fn {
			continue
		}
		if !o.Acquires() || take != nil || o.Func != o.Decl || o.Queued || o.Key() == nil {
			return nil
		}
		take = o
	}
	return take
}

// standIn is a Call for call, a helper's call in fn, with the position,
// statement, function and file that the walk of a claim reads; it sends
// no command of its own.
func (m *Model) standIn(fn *ast.FuncDecl, call *ast.CallExpr) *Call {
	c := &Call{Expr: call, Decl: fn, Func: fn, File: typesx.FileOf(m.Pass.Files, call.Pos())}
	if c.File == nil {
		return nil
	}
	path, _ := astutil.PathEnclosingInterval(c.File, call.Pos(), call.End())
	for i, n := range path {
		switch n := n.(type) {
		case *ast.FuncLit:
			if c.Stmt == nil {
				return nil
			}
			c.Func = n
			// defer func() { ... }(): the literal runs at exit.
			if i+2 < len(path) {
				if call, ok := path[i+1].(*ast.CallExpr); ok && call.Fun == ast.Expr(n) {
					_, c.Deferred = path[i+2].(*ast.DeferStmt)
				}
			}
			return c
		case ast.Stmt:
			if c.Stmt == nil {
				c.Stmt = n
			}
		case *ast.FuncDecl:
			return c
		}
	}
	return c
}

// keptAt reports whether take's function keeps the key on success and
// calls an undo (the calls undos) only on a failure after the take (see
// claimKept): directly, or from a deferred literal whose undo runs only
// when the work failed (defer func() { if !done { undo() } }()).
func (m *Model) keptAt(take *Call, undos []*ast.CallExpr) bool {
	if take == nil || take.Stmt == nil {
		return false
	}
	var dels []*Call
	for _, u := range undos {
		d := m.standIn(take.Decl, u)
		if d == nil || d.Pos() < take.End() {
			return false
		}
		dels = append(dels, d)
	}
	for _, o := range m.Calls {
		// The deletes of take's own function, and those it defers; not
		// those in the undo literal, whose calls are the undos.
		if o.Decl == take.Decl && (o.Func == take.Func || o.Deferred) && o.Command.IsDelete() && o.Key() != nil && take.Key() != nil && m.SameKey(take, take.Key(), o, o.Key()) {
			dels = append(dels, o)
		}
	}
	w := m.keptWalkOf(take, dels)
	rest, ok := w.after(FuncBody(take.Func))
	if !ok {
		return false
	}
	var walk []*Call
	for _, d := range dels {
		if w.onTakeFailure(d) || !m.onFailure(d) && !w.givesUp(d, rest) {
			return false
		}
		// A deferred undo on a failure runs at exit, off every path that
		// succeeded.
		if !d.Deferred {
			walk = append(walk, d)
		}
	}
	w.dels = walk
	return w.keeps(rest, true)
}
