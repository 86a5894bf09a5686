package lockmodel

// Take and drop helpers of another package: a service's own pkg/redis
// whose Lock(key) bool takes a lock and whose Unlock(key) deletes it.
// Their callers are in other packages, so the model exports both as
// facts.

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/types/typeutil"
)

// TakesLock is the fact that a function is a Taker: it takes a lock and
// returns whether it got it as its only bool result.
type TakesLock struct{}

func (*TakesLock) AFact()           {}
func (*TakesLock) String() string   { return "takes a lock" }
func (*TakesLock) Scope() FactScope { return ClientScope }

// DropsKey is the fact that a function's own body deletes a key: DEL,
// UNLINK, DELEX or a script.
type DropsKey struct{}

func (*DropsKey) AFact()           {}
func (*DropsKey) String() string   { return "drops a key" }
func (*DropsKey) Scope() FactScope { return ClientScope }

// Drops reports whether fn's own body deletes a key (DropsKey): a
// function of this package, or one of another that carries the fact.
func (m *Model) Drops(fn *types.Func) bool {
	if fn == nil {
		return false
	}
	if fn.Pkg() != m.Pass.Pkg {
		return m.Pass.ImportObjectFact(fn.Origin(), new(DropsKey)) || m.throughAll(fn, func(impl *types.Func) bool {
			return impl.Pkg() != m.Pass.Pkg && m.Pass.ImportObjectFact(impl.Origin(), new(DropsKey)) || m.drops[impl]
		})
	}
	if m.drops[fn] {
		return true
	}
	// A method of the package's own interface (a store's Unlock): an
	// implementation of the package drops.
	for _, impl := range m.implementations(fn) {
		if m.drops[impl] {
			return true
		}
	}
	return false
}

// findDrops fills m.drops with the functions of the package whose own
// body deletes a key.
func (m *Model) findDrops() {
	m.drops = map[*types.Func]bool{}
	for _, c := range m.Calls {
		if c.Decl != nil && (c.Command.IsDelete() || c.Command == CmdDelEx || c.Command == CmdEval) {
			if fn, ok := m.Pass.TypesInfo.Defs[c.Decl.Name].(*types.Func); ok {
				m.drops[fn] = true
			}
		}
	}
	// A thin wrapper of one that drops, its whole body the call (a
	// store's UnlockEvent(id) { return d.store.Unlock(eventKey(id)) }),
	// drops too; to a fixed point, for a wrapper of a wrapper.
	for changed := true; changed; {
		changed = false
		for obj, d := range m.defs.funcs {
			fn, _ := obj.(*types.Func)
			if fn == nil || m.drops[fn] {
				continue
			}
			if call := thinCall(d); call != nil && m.Drops(m.callee(call)) {
				m.drops[fn] = true
				changed = true
			}
		}
	}
}

// thinCall returns the call that ends d's body (return f(...), or
// f(...)) when every statement before it only defines a local variable
// (key := eventKey(id)), if it is one.
func thinCall(d *ast.FuncDecl) *ast.CallExpr {
	if d.Body == nil || len(d.Body.List) == 0 {
		return nil
	}
	last := len(d.Body.List) - 1
	for _, s := range d.Body.List[:last] {
		if a, ok := s.(*ast.AssignStmt); !ok || a.Tok != token.DEFINE {
			return nil
		}
	}
	var e ast.Expr
	switch s := d.Body.List[last].(type) {
	case *ast.ReturnStmt:
		if len(s.Results) != 1 {
			return nil
		}
		e = s.Results[0]
	case *ast.ExprStmt:
		e = s.X
	}
	call, _ := ast.Unparen(e).(*ast.CallExpr)
	return call
}

func (m *Model) callee(call *ast.CallExpr) *types.Func {
	fn, _ := typeutil.Callee(m.Pass.TypesInfo, call).(*types.Func)
	return fn
}

// ThinAcquire returns the acquire that fn, a function of this package,
// returns whole as its results (func (d *dao) LockEvent(id string) (bool,
// error) { return d.store.Lock(eventKey(id), ttl) }), or nil: a call of
// fn is that acquire, its reply the caller's to test.
func (m *Model) ThinAcquire(fn *types.Func) *Call {
	if fn == nil || fn.Pkg() != m.Pass.Pkg {
		return nil
	}
	d := m.defs.funcs[fn]
	if d == nil {
		return nil
	}
	call := thinCall(d)
	if call == nil {
		return nil
	}
	if _, ok := d.Body.List[len(d.Body.List)-1].(*ast.ReturnStmt); !ok {
		return nil
	}
	c := m.byID[call]
	if c == nil || !c.Acquires() || c.Outer != ast.Expr(call) {
		return nil
	}
	return c
}

// exportTakers exports TakesLock and DropsKey for the package's exported
// functions and methods.
func exportTakers(m *Model) {
	for fn := range m.drops {
		if fn.Exported() {
			m.Pass.ExportObjectFact(fn, &DropsKey{})
		}
	}
	// The methods of the package's exported interfaces that an
	// implementation of the package drops with: other packages hold the
	// interface (a Store whose Redis implementation is behind New).
	if len(m.drops) > 0 {
		for _, im := range exportedInterfaceMethods(m.Pass.Pkg) {
			if m.Drops(im) {
				m.Pass.ExportObjectFact(im, &DropsKey{})
			}
		}
	}
	seen := map[*ast.FuncDecl]bool{}
	for _, c := range m.Calls {
		d := c.Decl
		if d == nil || seen[d] || !d.Name.IsExported() || !c.Acquires() {
			continue
		}
		seen[d] = true
		if fn, ok := m.Pass.TypesInfo.Defs[d.Name].(*types.Func); ok && m.Taker(fn) {
			m.Pass.ExportObjectFact(fn, &TakesLock{})
		}
	}
}

// GivenBackElsewhere reports whether fn, a take helper of this package
// (Taker), takes a key of a family that another function of the package
// gives back behind an atomic owner check (a compare-and-delete script,
// a WATCH'd compare, DELEX IFEQ): a claim its holder returns later (a
// tile an entity stands on, released when it moves), not a marker kept
// to its TTL. A take of it whose reply is dropped lets the work run on
// another holder's claim, wherever the release is.
func (m *Model) GivenBackElsewhere(fn *types.Func) bool {
	if fn == nil || fn.Pkg() != m.Pass.Pkg {
		return false
	}
	var take *Call
	for _, c := range m.Calls {
		if c.Decl != nil && c.Func == c.Decl && m.Pass.TypesInfo.Defs[c.Decl.Name] == fn && c.Acquires() {
			take = c
			break
		}
	}
	if take == nil {
		return false
	}
	fam, ok := m.counterFamily(take.Key())
	if !ok {
		return false
	}
	for _, o := range m.Calls {
		if o.Decl == take.Decl {
			continue
		}
		for i, k := range o.Keys {
			if f, ok := m.counterFamily(k); !ok || f != fam {
				continue
			}
			if m.releasesOwned(o, i) {
				return true
			}
		}
	}
	return false
}
