package lockmodel

// A lock package of the module's own: Obtain takes the lock through the
// package's port and, when another holds it, returns the package's
// ErrNotObtained. Its callers branch on that error as they would on the
// lock library's, so the model exports both as facts.

import (
	"cmp"
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/astutil"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/locklint/locklint/internal/typesx"
)

// Obtainer is the fact that a function acquires a lock and, when another
// holds it, returns an error variable of its package (NotObtained), or
// an error it makes there (errors.New, fmt.Errorf): then any error may
// be the held lock's, and only a check of every error is a check of the
// acquire.
type Obtainer struct{}

func (*Obtainer) AFact() {}

func (*Obtainer) String() string { return "obtains a lock" }

// Scope: exported with the token helpers, from the packages that may hold
// the main module's facts (HoldsMainModuleFacts).
func (*Obtainer) Scope() FactScope { return MainModuleScope }

// NotObtained is the fact that an error variable is what an Obtainer of
// its package returns when another holds the lock.
type NotObtained struct{}

func (*NotObtained) AFact() {}

func (*NotObtained) String() string { return "not obtained" }

func (*NotObtained) Scope() FactScope { return MainModuleScope }

// exportObtainers exports the facts for the package's exported functions
// whose own body acquires a key and, in an if on the acquire's reply,
// returns a package-level error variable of the package.
func exportObtainers(m *Model) {
	info := m.Pass.TypesInfo
	for _, c := range m.Calls {
		d := c.Decl
		if !c.Acquires() || d == nil || c.Func != d || c.Queued || c.Deferred || !d.Name.IsExported() {
			continue
		}
		fn, _ := info.Defs[d.Name].(*types.Func)
		if fn == nil {
			continue
		}
		res := fn.Type().(*types.Signature).Results()
		if res.Len() == 0 || !typesx.IsError(res.At(res.Len()-1).Type()) {
			continue
		}
		r, around := m.Reply(c)
		if len(around) == 0 {
			continue
		}
		as, ok := around[0].(*ast.AssignStmt)
		if !ok || len(as.Rhs) != 1 || as.Rhs[0] != r || len(as.Lhs) == 0 {
			continue
		}
		id, _ := ast.Unparen(as.Lhs[0]).(*ast.Ident)
		if id == nil || id.Name == "_" {
			continue
		}
		if k := c.Key(); m.requestKey(k) && !m.inFlightLock(m.refOf(k)) {
			// One request's marker (SetIdempotencyKey): its "exists"
			// error says a duplicate, and nothing runs under it.
			continue
		}
		if m.worksUnderTake(d, c) {
			// The lock guards the function's own work, not its caller's:
			// a caller that drops its error runs nothing without it.
			continue
		}
		v, fresh := m.notTakenError(d, info.ObjectOf(id), nil)
		switch {
		case v != nil:
			m.Pass.ExportObjectFact(fn, &Obtainer{})
			m.Pass.ExportObjectFact(v, &NotObtained{})
		case fresh && m.IsLockKey(c, c.Key()):
			m.Pass.ExportObjectFact(fn, &Obtainer{})
		}
	}
}

// worksUnderTake reports whether d, after its take c (a statement of
// d's body) and the ifs that test c's reply, does work of its own, past
// bookkeeping (see bookkeeping): it takes the lock for that work rather
// than for its caller (StartSession takes "session:start:<id>", writes
// the status and publishes the start command), and hands back only
// the work's error. A goroutine it starts (a renewal) is no such work,
// nor is the release closure it returns.
func (m *Model) worksUnderTake(d *ast.FuncDecl, c *Call) bool {
	if c.Stmt == nil {
		return false
	}
	list, i := stmtIndex(d.Body, c.Stmt.Pos())
	if i < 0 || i >= len(d.Body.List) || d.Body.List[i] != c.Stmt {
		return false
	}
	replies := assigned(m.Pass.TypesInfo, c.Stmt)
	for _, s := range list[i+1:] {
		switch s := s.(type) {
		case *ast.GoStmt:
			continue
		case *ast.IfStmt:
			if refersAny(m.Pass.TypesInfo, s.Cond, replies) {
				continue
			}
		case *ast.ReturnStmt:
			// A release closure handed back is the caller's handle, not
			// work done here.
			for _, r := range s.Results {
				if _, ok := ast.Unparen(r).(*ast.FuncLit); !ok && !m.bookkeeping(r) {
					return true
				}
			}
			continue
		}
		if !m.bookkeeping(s) {
			return true
		}
	}
	return false
}

// exportWrappedObtainers exports the facts for the package's exported
// functions that call another lock library's acquire (bsm/redislock's
// Obtain, another package's Obtainer), whose miss is its error, and
// return an error variable of the package where they test that error
// against the library's not-obtained one, or an error they make there:
//
//	lck, err := c.Obtain(ctx, key, ttl, nil)
//	if errors.Is(err, redislock.ErrNotObtained) {
//		return ErrNotObtained // or fmt.Errorf("could not obtain %s", key)
//	}
func exportWrappedObtainers(m *Model) {
	info := m.Pass.TypesInfo
	for _, f := range m.Pass.Files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil || !fd.Name.IsExported() {
				continue
			}
			fn, _ := info.Defs[fd.Name].(*types.Func)
			if fn == nil {
				continue
			}
			res := fn.Type().(*types.Signature).Results()
			if res.Len() == 0 || !typesx.IsError(res.At(res.Len()-1).Type()) {
				continue
			}
			for _, call := range m.obtains {
				if call.Pos() < fd.Body.Pos() || call.End() > fd.Body.End() {
					continue
				}
				v, fresh := m.mappedMiss(f, fd, call)
				if v != nil || fresh {
					m.Pass.ExportObjectFact(fn, &Obtainer{})
					if v != nil {
						m.Pass.ExportObjectFact(v, &NotObtained{})
					}
					break
				}
			}
		}
	}
}

// exportInterfaceObtainers exports the Obtainer fact for each method of
// the package's exported interfaces that one of its implementations in
// the package is an Obtainer: other packages hold the interface (a
// service's Locker with the lock behind New), and the call names the
// interface's method, not the type's.
func exportInterfaceObtainers(m *Model) {
	for _, im := range exportedInterfaceMethods(m.Pass.Pkg) {
		for _, impl := range m.implementations(im) {
			if m.Pass.ImportObjectFact(impl, new(Obtainer)) {
				m.Pass.ExportObjectFact(im, &Obtainer{})
				break
			}
		}
	}
}

// mappedMiss returns the package-level error variable that d returns in
// an if that tests the error of call, assigned on its own line, against
// a not-obtained error, or nil; and whether such an if returns an error
// it makes instead.
func (m *Model) mappedMiss(file *ast.File, d *ast.FuncDecl, call *ast.CallExpr) (*types.Var, bool) {
	info := m.Pass.TypesInfo
	path, _ := astutil.PathEnclosingInterval(file, call.Pos(), call.End())
	if len(path) < 2 {
		return nil, false
	}
	as, ok := path[1].(*ast.AssignStmt)
	if !ok || len(as.Rhs) != 1 || as.Rhs[0] != ast.Expr(call) {
		return nil, false
	}
	id, _ := ast.Unparen(as.Lhs[len(as.Lhs)-1]).(*ast.Ident)
	if id == nil || id.Name == "_" {
		return nil, false
	}
	errVar := info.ObjectOf(id)
	if errVar == nil || !typesx.IsError(errVar.Type()) {
		return nil, false
	}
	return m.notTakenError(d, errVar, m.testsNotObtained)
}

// testsNotObtained reports whether cond names a not-obtained error.
func (m *Model) testsNotObtained(cond ast.Expr) bool {
	found := false
	ast.Inspect(cond, func(n ast.Node) bool {
		if e, ok := n.(ast.Expr); ok && !found && m.NamesNotObtained(e) {
			found = true
		}
		return !found
	})
	return found
}

// notTakenError returns the package-level error variable of the package
// that d returns, as its last result, in the body of an if whose
// condition reads reply (and, when tests is not nil, satisfies it), or
// nil; and whether that body returns an error it makes instead
// (errors.New, fmt.Errorf).
func (m *Model) notTakenError(d *ast.FuncDecl, reply types.Object, tests func(ast.Expr) bool) (*types.Var, bool) {
	info := m.Pass.TypesInfo
	var found *types.Var
	fresh := false
	typesx.OutsideClosures(d.Body, func(n ast.Node) (bool, bool) {
		ifs, ok := n.(*ast.IfStmt)
		if !ok || !typesx.Refers(info, ifs.Cond, reply) || tests != nil && !tests(ifs.Cond) {
			return false, false
		}
		for _, s := range ifs.Body.List {
			ret, ok := s.(*ast.ReturnStmt)
			if !ok || len(ret.Results) == 0 {
				continue
			}
			last := ast.Unparen(ret.Results[len(ret.Results)-1])
			if call, ok := last.(*ast.CallExpr); ok && madeError(info, call) {
				fresh = true
				continue
			}
			id, _ := last.(*ast.Ident)
			if id == nil {
				continue
			}
			v, _ := info.Uses[id].(*types.Var)
			if v != nil && v.Pkg() == m.Pass.Pkg && v.Parent() == m.Pass.Pkg.Scope() && typesx.IsError(v.Type()) {
				found = v
				return true, false
			}
		}
		return false, false
	})
	return found, fresh
}

// madeError reports whether call makes a new error: errors.New or
// fmt.Errorf.
func madeError(info *types.Info, call *ast.CallExpr) bool {
	fn, _ := typeutil.Callee(info, call).(*types.Func)
	if fn == nil || fn.Pkg() == nil {
		return false
	}
	switch fn.Pkg().Path() + "." + fn.Name() {
	case "errors.New", "fmt.Errorf":
		return true
	}
	return false
}

// obtainer reports whether fn, a function of another package, has the
// Obtainer fact.
func (b *builder) obtainer(fn *types.Func) bool {
	if fn.Pkg() == b.pass.Pkg {
		return false
	}
	return b.pass.ImportObjectFact(fn.Origin(), new(Obtainer))
}

// NotObtainedError reports whether obj is an acquire's error for a lock
// that another holds: the lock library's ErrNotObtained, or an error
// variable an Obtainer of its package returns (a NotObtained fact).
func (m *Model) NotObtainedError(obj types.Object) bool {
	return IsNotObtained(obj) || m.notObtained[obj]
}

// importNotObtained returns the package-level variables of other
// packages the package uses that carry a NotObtained fact; passes read
// them from the model, not from the facts.
func importNotObtained(pass *analysis.Pass) map[types.Object]bool {
	if pass.TypesInfo == nil {
		// A package whose types could not be built at all.
		return nil
	}
	var out map[types.Object]bool
	for _, obj := range pass.TypesInfo.Uses {
		v, ok := obj.(*types.Var)
		if !ok || v.Pkg() == nil || v.Pkg() == pass.Pkg || v.Parent() != v.Pkg().Scope() || out[v] {
			continue
		}
		if pass.ImportObjectFact(v, new(NotObtained)) {
			if out == nil {
				out = map[types.Object]bool{}
			}
			out[v] = true
		}
	}
	return out
}

// NoReturn reports whether call ends the function: panic, os.Exit,
// runtime.Goexit, log.Fatal* or log.Panic*.
func (m *Model) NoReturn(call *ast.CallExpr) bool { return !mayReturn(m.Pass.TypesInfo)(call) }

// Taker reports whether fn, a function of this package, takes a lock and
// returns whether it got it as its only bool result (func lock(uid int)
// bool): its own body acquires a lock key, reads the reply, and neither
// deletes nor expires that key, so the work is its caller's. A caller
// that drops the bool runs that work whether or not the lock was taken.
func (m *Model) Taker(fn *types.Func) bool {
	return m.taker(fn) || m.throughAll(fn, m.taker)
}

// taker is Taker without the layers that forward to an interface.
func (m *Model) taker(fn *types.Func) bool {
	if fn != nil && fn.Pkg() != m.Pass.Pkg {
		return m.Pass.ImportObjectFact(fn.Origin(), new(TakesLock))
	}
	if fn == nil || m.keys == nil || !reportsTaken(fn) {
		return false
	}
	var take *Call
	for _, c := range m.Calls {
		if c.Decl == nil || c.Func != c.Decl || m.Pass.TypesInfo.Defs[c.Decl.Name] != fn {
			continue
		}
		switch {
		case c.Acquires() && !c.Queued && !c.Deferred && take == nil:
			take = c
		case c.Command.IsExpire() && m.TTLRepair(c):
			// The lease given back to a key a dead holder left with
			// none, on a miss: still only a take.
		case c.Acquires(), c.Command.IsDelete(), c.Command.IsExpire(), c.Command == CmdDelEx, c.Command == CmdEval:
			// A second take, or a release in the same body: the function
			// does more than take, and its result may say something else.
			return false
		}
	}
	if take == nil || !m.IsLockKey(take, take.Key()) {
		return false
	}
	r, around := m.Reply(take)
	if len(around) == 0 {
		return false
	}
	switch p := around[0].(type) {
	case *ast.ReturnStmt:
		return true
	case *ast.AssignStmt:
		if len(p.Rhs) != 1 || p.Rhs[0] != r || len(p.Lhs) == 0 {
			return false
		}
		id, _ := ast.Unparen(p.Lhs[0]).(*ast.Ident)
		if id == nil || id.Name == "_" {
			return false
		}
		reply := m.Pass.TypesInfo.ObjectOf(id)
		return reply != nil && readsAfter(m.Pass.TypesInfo, take.Decl.Body, reply, p.End())
	}
	return false
}

// reportsTaken reports whether fn's results say whether it took a key:
// one bool, and errors or nothing beside it.
func reportsTaken(fn *types.Func) bool {
	res := fn.Type().(*types.Signature).Results()
	bools := 0
	for i := range res.Len() {
		switch t := res.At(i).Type(); {
		case typesx.IsBool(t):
			bools++
		case !typesx.IsError(t):
			return false
		}
	}
	return bools == 1
}

// readsAfter reports whether obj is read in body after pos.
func readsAfter(info *types.Info, body *ast.BlockStmt, obj types.Object, pos token.Pos) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && id.Pos() > pos && info.Uses[id] == obj {
			found = true
		}
		return !found
	})
	return found
}

// NamesNotObtained reports whether e names a not-obtained error
// (redislock.ErrNotObtained, ErrNotObtained of the package's Obtainer).
func (m *Model) NamesNotObtained(e ast.Expr) bool {
	var obj types.Object
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		obj = m.Pass.TypesInfo.Uses[e]
	case *ast.SelectorExpr:
		obj = m.Pass.TypesInfo.Uses[e.Sel]
	}
	return obj != nil && m.NotObtainedError(obj)
}

// missTested adds to the obtains the calls whose error the package
// compares with a lock's not-obtained error (err != redislock.ErrNotObtained,
// errors.Is(err, ErrNotObtained)): an acquire known by what its caller
// tests, behind an interface whose implementation lives in a package this
// one does not import.
func (m *Model) missTested() {
	info := m.Pass.TypesInfo
	known := map[*ast.CallExpr]bool{}
	for _, c := range m.obtains {
		known[c] = true
	}
	sentinel := m.NamesNotObtained
	for _, f := range m.Pass.Files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				var tested ast.Expr
				switch n := n.(type) {
				case *ast.BinaryExpr:
					if n.Op == token.EQL || n.Op == token.NEQ {
						switch {
						case sentinel(n.Y):
							tested = n.X
						case sentinel(n.X):
							tested = n.Y
						}
					}
				case *ast.CallExpr:
					fn, _ := typeutil.Callee(info, n).(*types.Func)
					if fn != nil && fn.Pkg() != nil && fn.Pkg().Path() == "errors" && fn.Name() == "Is" && len(n.Args) == 2 && sentinel(n.Args[1]) {
						tested = n.Args[0]
					}
				}
				id, _ := ast.Unparen(tested).(*ast.Ident)
				if id == nil {
					return true
				}
				v, _ := info.Uses[id].(*types.Var)
				if call := errorSource(info, fd.Body, v, id.Pos()); call != nil && !known[call] && m.byID[call] == nil && !runsWork(info, call) {
					known[call] = true
					m.obtains = append(m.obtains, call)
				}
				return true
			})
		}
	}
	slices.SortFunc(m.obtains, func(a, b *ast.CallExpr) int { return cmp.Compare(a.Pos(), b.Pos()) })
}

// runsWork reports whether call runs the work itself under the lock: a
// call of the lock library (fix.Do) or one given a function (WithLock(ctx,
// key, fn)), whose not-obtained error says the work did not run.
func runsWork(info *types.Info, call *ast.CallExpr) bool {
	fn, _ := typeutil.Callee(info, call).(*types.Func)
	if InLibrary(fn) || fn != nil && fn.Pkg() != nil && fn.Pkg().Path() == CorePath {
		return true
	}
	for _, a := range call.Args {
		if _, ok := info.TypeOf(a).Underlying().(*types.Signature); ok {
			return true
		}
	}
	return false
}

// errorSource returns the call whose last result, an error, the last
// assignment to v in body before at stores.
func errorSource(info *types.Info, body *ast.BlockStmt, v *types.Var, at token.Pos) *ast.CallExpr {
	if v == nil {
		return nil
	}
	var src *ast.CallExpr
	ast.Inspect(body, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok || as.Pos() >= at || len(as.Rhs) != 1 || len(as.Lhs) == 0 {
			return n == nil || n.Pos() < at
		}
		last, ok := ast.Unparen(as.Lhs[len(as.Lhs)-1]).(*ast.Ident)
		if !ok || info.ObjectOf(last) != v {
			return true
		}
		call, ok := ast.Unparen(as.Rhs[0]).(*ast.CallExpr)
		if !ok {
			src = nil
			return true
		}
		res, ok := info.TypeOf(call).(*types.Tuple)
		switch {
		case ok && res.Len() == len(as.Lhs) && typesx.IsError(res.At(res.Len()-1).Type()):
			src = call
		case !ok && len(as.Lhs) == 1 && typesx.IsError(info.TypeOf(call)):
			src = call
		default:
			src = nil
		}
		return true
	})
	return src
}
