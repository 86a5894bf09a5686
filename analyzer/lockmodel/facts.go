package lockmodel

import (
	"go/ast"
	"go/types"
	"sort"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/locklint/locklint/internal/typesx"
)

// Acquirer is the analysis fact that a function acquires a lock, itself or
// through another acquirer, and tells its caller whether it got it: it
// has a bool or an error result. A loop that calls it is retrying the
// acquire as much as a loop around SETNX is. The unboundedretry analyzer
// declares the fact type (an analyzer owns each fact type) and exports it
// for every package, so wrappers in other packages are seen too.
type Acquirer struct {
	// Via is what the function acquires through: SETNX, SET NX, or the
	// full name of the acquirer it calls.
	Via string
	// Module is the client package of the acquire at the bottom
	// (Call.Module), so that a caller's message names the library entry
	// for that client.
	Module string
}

func (*Acquirer) AFact() {}

func (f *Acquirer) String() string { return "acquires lock via " + f.Via }

// Acquisitions answers whether a call acquires a lock, in this package.
type Acquisitions struct {
	m *Model
	// funcs are this package's acquirers, by their generic origin.
	funcs map[*types.Func]Acquirer
	// locals are local variables holding a closure that acquires.
	locals   map[types.Object]Acquirer
	imported func(*types.Func) (Acquirer, bool)
}

// unit is a function body that may become an acquirer.
type unit struct {
	node ast.Node // *ast.FuncDecl or *ast.FuncLit
	body *ast.BlockStmt
	fn   *types.Func  // for declarations
	v    types.Object // for closures assigned to a local variable
}

// Acquisitions finds the acquirers declared in the package: functions,
// methods and closures assigned to a local variable that acquire (an
// acquire command, or a call to another acquirer) and return a bool or an
// error. imported reports the Acquirer fact of a function from another
// package.
func (m *Model) Acquisitions(imported func(*types.Func) (Acquirer, bool)) *Acquisitions {
	a := &Acquisitions{m: m, funcs: map[*types.Func]Acquirer{}, locals: map[types.Object]Acquirer{}, imported: imported}
	if m.keys == nil {
		return a
	}
	info := m.Pass.TypesInfo
	var units []unit
	lit := func(v types.Object, e ast.Expr) {
		if fl, ok := ast.Unparen(e).(*ast.FuncLit); ok && v != nil && m.keys.definition(v) == e && reportsSuccess(info.TypeOf(fl)) {
			units = append(units, unit{node: fl, body: fl.Body, v: v})
		}
	}
	for _, n := range m.defs.decls {
		switch n := n.(type) {
		case *ast.FuncDecl:
			fn, _ := info.Defs[n.Name].(*types.Func)
			if fn != nil && n.Body != nil && reportsSuccess(fn.Type()) {
				units = append(units, unit{node: n, body: n.Body, fn: fn})
			}
		case *ast.AssignStmt:
			if len(n.Lhs) == len(n.Rhs) {
				for i, l := range n.Lhs {
					if id, ok := l.(*ast.Ident); ok {
						lit(info.ObjectOf(id), n.Rhs[i])
					}
				}
			}
		case *ast.ValueSpec:
			if len(n.Names) == len(n.Values) {
				for i, id := range n.Names {
					lit(info.ObjectOf(id), n.Values[i])
				}
			}
		}
	}
	direct := map[ast.Node]Acquirer{}
	for _, c := range m.Calls {
		if c.Acquires() && c.Func != nil {
			if _, seen := direct[c.Func]; !seen {
				direct[c.Func] = Acquirer{Via: acquireName(c), Module: c.Module}
			}
		}
	}
	// Propagate through calls until nothing changes: an acquirer that
	// calls an acquirer declared later in the file, or in a cycle.
	done := make([]bool, len(units))
	for changed := true; changed; {
		changed = false
		for i, u := range units {
			if done[i] {
				continue
			}
			f, ok := direct[u.node]
			if !ok {
				f, ok = a.callsAcquirer(u.body)
			}
			if !ok {
				continue
			}
			done[i], changed = true, true
			if u.fn != nil {
				a.funcs[u.fn] = f
			} else {
				a.locals[u.v] = f
			}
		}
		if a.interfaceAcquirers() {
			changed = true
		}
	}
	return a
}

// interfaceAcquirers makes acquirers of the methods of the package's
// interfaces that an implementation in the package acquires through
// (a Manager whose AcquireLock takes the account's lock behind New):
// callers hold the interface, and their call names its method. It
// reports whether it found a new one.
func (a *Acquisitions) interfaceAcquirers() bool {
	found := false
	scope := a.m.Pass.Pkg.Scope()
	for _, name := range scope.Names() {
		tn, ok := scope.Lookup(name).(*types.TypeName)
		if !ok || tn.IsAlias() || !types.IsInterface(tn.Type()) {
			continue
		}
		iface := tn.Type().Underlying().(*types.Interface)
		for i := range iface.NumExplicitMethods() {
			fn := iface.ExplicitMethod(i)
			// A type of this package over another's interface (type H
			// other.Handler[Q, R]) has that package's methods: facts
			// belong to the package that declares the object.
			if fn.Pkg() != a.m.Pass.Pkg || fn.Origin() != fn {
				continue
			}
			if _, seen := a.funcs[fn]; seen || !reportsSuccess(fn.Type()) {
				continue
			}
			for _, impl := range a.m.implementations(fn) {
				if f, ok := a.funcs[impl.Origin()]; ok {
					a.funcs[fn] = Acquirer{Via: impl.FullName(), Module: f.Module}
					found = true
					break
				}
			}
		}
	}
	return found
}

// AcquireName labels an acquire for messages: SETNX, SET NX, INCR or a
// Lua script.
func AcquireName(c *Call) string {
	if c.TakesFirst {
		return c.Verb()
	}
	return acquireName(c)
}

func acquireName(c *Call) string {
	switch {
	case c.Command == CmdSetNX, c.Command == CmdSet && c.NoTTL:
		// SET NX with no expiry is SETNX.
		return "SETNX"
	case c.Command == CmdEval:
		return "a Lua script"
	}
	return "SET NX"
}

// callsAcquirer looks for a call to an acquirer in body, outside nested
// function literals (a goroutine or a callback is not the body's result).
func (a *Acquisitions) callsAcquirer(body *ast.BlockStmt) (f Acquirer, ok bool) {
	typesx.OutsideClosures(body, func(n ast.Node) (bool, bool) {
		if call, isCall := n.(*ast.CallExpr); isCall {
			if f, ok = a.callee(call); !ok {
				f, ok = a.polled(call)
			}
		}
		return ok, false
	})
	return f, ok
}

// polled reports whether call hands an acquirer of this package, as a
// function value, to a function of another package that returns an
// error (a poll or retry helper: PollUntilContextCancel(ctx, period,
// true, l.tryLock)): the helper runs the acquire, and its error is
// whether it got the lock.
func (a *Acquisitions) polled(call *ast.CallExpr) (Acquirer, bool) {
	fn, _ := typeutil.Callee(a.m.Pass.TypesInfo, call).(*types.Func)
	if fn == nil || fn.Pkg() == nil || fn.Pkg() == a.m.Pass.Pkg || !reportsSuccess(fn.Type()) {
		return Acquirer{}, false
	}
	for _, arg := range call.Args {
		id := namedIdent(arg)
		if id == nil {
			continue
		}
		if g, _ := a.m.Pass.TypesInfo.Uses[id].(*types.Func); g != nil {
			if f, ok := a.funcs[g.Origin()]; ok {
				return Acquirer{Via: g.FullName(), Module: f.Module}, true
			}
		}
	}
	return Acquirer{}, false
}

// callee reports whether call calls an acquirer function or closure, and
// what a caller of call acquires through: call's callee, and the client
// of the acquire under it.
func (a *Acquisitions) callee(call *ast.CallExpr) (Acquirer, bool) {
	switch obj := typeutil.Callee(a.m.Pass.TypesInfo, call).(type) {
	case *types.Func:
		fn := obj.Origin()
		if f, ok := a.funcs[fn]; ok {
			return Acquirer{Via: fn.FullName(), Module: f.Module}, true
		}
		if LibraryAcquire(fn) {
			return Acquirer{Via: fn.FullName()}, true
		}
		if fn.Pkg() != nil && fn.Pkg() != a.m.Pass.Pkg && a.imported != nil {
			if f, ok := a.imported(fn); ok {
				return Acquirer{Via: fn.FullName(), Module: f.Module}, true
			}
		}
	case *types.Var:
		if f, ok := a.locals[obj]; ok {
			return Acquirer{Via: obj.Name(), Module: f.Module}, true
		}
	}
	return Acquirer{}, false
}

// Library returns the library entry for the client that call, an acquire
// command or a call of an acquirer, acquires through.
func (a *Acquisitions) Library(call *ast.CallExpr) Library {
	if c := a.m.CallOf(call); c != nil {
		return a.m.Library(c)
	}
	f, _ := a.callee(call)
	return libraryOf(f.Module)
}

// Acquires reports whether call acquires a lock: an acquire command, or a
// call to an acquirer.
func (a *Acquisitions) Acquires(call *ast.CallExpr) bool {
	if c := a.m.CallOf(call); c != nil {
		return c.Acquires()
	}
	_, ok := a.callee(call)
	return ok
}

// Funcs returns the package's acquirer functions in source order, with
// the facts to export for them.
func (a *Acquisitions) Funcs() ([]*types.Func, []*Acquirer) {
	fns := make([]*types.Func, 0, len(a.funcs))
	for fn := range a.funcs {
		fns = append(fns, fn)
	}
	sort.Slice(fns, func(i, j int) bool { return fns[i].Pos() < fns[j].Pos() })
	facts := make([]*Acquirer, len(fns))
	for i, fn := range fns {
		f := a.funcs[fn]
		facts[i] = &f
	}
	return fns, facts
}

// reportsSuccess reports whether a function type has a bool or an error
// result.
func reportsSuccess(t types.Type) bool {
	sig, ok := t.(*types.Signature)
	if !ok {
		return false
	}
	handle := false
	for i := range sig.Results().Len() {
		r := sig.Results().At(i).Type()
		if typesx.IsBool(r) {
			return true
		}
		if types.Identical(r, types.Universe.Lookup("error").Type()) {
			return true
		}
		handle = handle || LockHandle(r)
	}
	// A helper that returns only the lock, nil when it was not obtained
	// (func TakeLock(key string) *redislock.Lock), says so with the nil.
	return handle
}

// LockHandle reports whether t is a pointer to a lock library's handle,
// which its acquire returns nil on failure: a nil handle is a miss.
func LockHandle(t types.Type) bool {
	p, ok := t.(*types.Pointer)
	return ok && typesx.IsNamed(p.Elem(), "github.com/bsm/redislock", "Lock")
}

// namedIdent returns the identifier an expression names: x, or the Sel of
// x.y (a method value, a field); nil for anything else.
func namedIdent(e ast.Expr) *ast.Ident {
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		return e
	case *ast.SelectorExpr:
		return e.Sel
	}
	return nil
}
