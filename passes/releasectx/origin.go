package releasectx

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/locklint/locklint/analyzer/lockmodel"
	"github.com/locklint/locklint/internal/typesx"
)

// kind is what is known of when a context can be done.
type kind uint8

const (
	// unknown: no evidence that the context ends before the release (a
	// plain parameter, a field, a function's result). Silent.
	unknown kind = iota
	// live: context.Background, TODO, WithoutCancel, or a timeout made
	// from one of them for the release. Silent.
	live
	// request: an HTTP request's context, cancelled when the client
	// disconnects.
	request
	// rpc: a gRPC handler's context, cancelled when the caller cancels
	// or its deadline passes.
	rpc
	// timeout: a WithTimeout or WithDeadline context made for the work
	// before the release.
	timeout
	// cancelFirst: a WithCancel context whose cancel is deferred after
	// the release, so it runs first.
	cancelFirst
)

// origin is where the context of a release comes from.
type origin struct {
	kind kind
	// at is the expression that made it (r.Context(), the WithTimeout
	// call), or the handler's declaration for rpc and the deferred
	// cancel for cancelFirst.
	at ast.Node
}

// maxHops bounds how many variables a context is followed through.
const maxHops = 5

const contextPath = "context"

// site is what origin needs to know of a release: the function it is
// written in, and the defer that makes it run at exit.
type site struct {
	decl *ast.FuncDecl
	// deferStmt is the defer statement of the release call itself, or of
	// the function literal that holds it; deferFn is the function (a
	// FuncDecl or FuncLit) the defer statement is in.
	deferStmt *ast.DeferStmt
	deferFn   ast.Node
	// lit is the deferred function literal that holds the release, or nil
	// when the call itself is deferred.
	lit *ast.FuncLit
	// call is the call that takes the context, the release or the
	// wrapper call.
	call *ast.CallExpr
	// work is true when call is itself the work, the call of a function
	// that defers its release under the context (deferrers.go), and no
	// defer of the caller's is involved.
	work bool
}

// classify follows the context e of the release at s to where it is
// made.
func (a *checker) classify(s *site, e ast.Expr, hops int) origin {
	if hops > maxHops {
		return origin{}
	}
	info := a.pass.TypesInfo
	switch x := ast.Unparen(e).(type) {
	case *ast.CallExpr:
		fn, _ := typeutil.Callee(info, x).(*types.Func)
		if fn == nil || fn.Pkg() == nil {
			return origin{}
		}
		if isRequestContext(fn) {
			return origin{request, x}
		}
		if fn.Pkg().Path() != contextPath {
			return origin{}
		}
		switch contextFuncs[fn.Name()] {
		case ctxLive:
			return origin{live, x}
		case ctxValue:
			// A value added to a context ends with it.
			if len(x.Args) > 0 {
				return a.classify(s, x.Args[0], hops+1)
			}
		}
		return origin{}
	case *ast.Ident:
		v, _ := info.Uses[x].(*types.Var)
		if v == nil || v.IsField() {
			return origin{}
		}
		return a.classifyVar(s, v, hops)
	}
	return origin{}
}

// classifyVar follows a local variable or parameter to its one
// assignment, or, for a parameter never assigned, to what the
// declaration of its function says.
func (a *checker) classifyVar(s *site, v *types.Var, hops int) origin {
	as := assignments(a.pass.TypesInfo, s.decl, v)
	switch len(as) {
	case 0:
		if isHandlerCtx(a.pass.TypesInfo, s.decl, v) {
			return origin{rpc, s.decl.Name}
		}
		if parent := a.callbackParent(s, v); parent != nil {
			return a.classify(s, parent, hops+1)
		}
		return origin{}
	case 1:
	default:
		return a.classifyRebound(s, v, as, hops)
	}
	asg := as[0]
	if asg.call == nil {
		return a.classify(s, asg.rhs, hops+1)
	}
	fn, _ := typeutil.Callee(a.pass.TypesInfo, asg.call).(*types.Func)
	if o, ok := a.madeByHelper(fn, asg.index, hops); ok {
		return o
	}
	if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != contextPath || asg.index != 0 || len(asg.call.Args) == 0 {
		return origin{}
	}
	what := contextFuncs[fn.Name()]
	if what != ctxTimeout && what != ctxCancel {
		return origin{}
	}
	var parent origin
	if id, ok := ast.Unparen(asg.call.Args[0]).(*ast.Ident); ok && a.pass.TypesInfo.Uses[id] == v {
		// ctx, cancel := context.WithTimeout(ctx, d): the parameter as the
		// caller passed it.
		if isHandlerCtx(a.pass.TypesInfo, s.decl, v) {
			parent = origin{rpc, s.decl.Name}
		}
	} else {
		parent = a.classify(s, asg.call.Args[0], hops+1)
	}
	if parent.kind == request || parent.kind == rpc {
		return parent
	}
	if s.lit != nil && within(s.lit, asg.pos) {
		// Made in the deferred function, for the release: its own
		// timeout, which ends only with the parent.
		return parent
	}
	switch what {
	case ctxTimeout:
		// A timeout the work also runs under covers the work: the release
		// after it finds it expired when the work overran.
		if s.work || a.usedBeyond(s, v, asg.call) && !a.leaseEndsFirst(s, asg.call) {
			return origin{timeout, asg.call}
		}
	case ctxCancel:
		// The callee's release runs before the caller can cancel.
		if s.work {
			break
		}
		if d := a.cancelledFirst(s, asg.cancel); d != nil {
			return origin{cancelFirst, d}
		}
	}
	return parent
}

// classifyRebound classifies v, assigned more than once, when every
// assignment gives it a context of one kind, the request's or the
// handler's: ctx := r.Context() and then ctx = context.WithValue(ctx,
// k, payload) for the handler, whose value ends with its parent. A
// deferred release reads the variable when it runs, so any other mix
// (a rebinding to context.WithoutCancel) leaves it unknown.
func (a *checker) classifyRebound(s *site, v *types.Var, as []assignment, hops int) origin {
	var o origin
	for _, asg := range as {
		if asg.rhs == nil || asg.call != nil {
			return origin{}
		}
		if a.valueOf(asg.rhs, v) {
			continue
		}
		c := a.classify(s, asg.rhs, hops+1)
		if c.kind != request && c.kind != rpc || o.kind != unknown && c.kind != o.kind {
			return origin{}
		}
		if o.kind == unknown {
			o = c
		}
	}
	return o
}

// valueOf reports whether e is context.WithValue of v itself.
func (a *checker) valueOf(e ast.Expr, v *types.Var) bool {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok || len(call.Args) == 0 {
		return false
	}
	fn, _ := typeutil.Callee(a.pass.TypesInfo, call).(*types.Func)
	if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != contextPath || contextFuncs[fn.Name()] != ctxValue {
		return false
	}
	id, ok := ast.Unparen(call.Args[0]).(*ast.Ident)
	return ok && a.pass.TypesInfo.Uses[id] == v
}

// callbackParent returns the context a callback's context parameter v is
// made from: v is a parameter of a function literal of s's function that
// is passed, itself or through the one variable that holds it, to a call
// that is also given a context (session.WithTransaction(ctx, txFunc),
// whose session context is derived from ctx and ends with it).
func (a *checker) callbackParent(s *site, v *types.Var) ast.Expr {
	if s.decl == nil || s.decl.Body == nil || !ctxType(v.Type()) {
		return nil
	}
	info := a.pass.TypesInfo
	var lit *ast.FuncLit
	ast.Inspect(s.decl.Body, func(n ast.Node) bool {
		fl, ok := n.(*ast.FuncLit)
		if !ok || lit != nil {
			return lit == nil
		}
		for _, f := range fl.Type.Params.List {
			for _, name := range f.Names {
				if info.Defs[name] == v {
					lit = fl
				}
			}
		}
		return lit == nil
	})
	if lit == nil {
		return nil
	}
	// The variable the literal is assigned to, if it is assigned once.
	var holder *types.Var
	ast.Inspect(s.decl.Body, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok || len(as.Lhs) != len(as.Rhs) {
			return true
		}
		for i, r := range as.Rhs {
			if r == ast.Expr(lit) {
				if id, ok := as.Lhs[i].(*ast.Ident); ok {
					holder, _ = info.ObjectOf(id).(*types.Var)
				}
			}
		}
		return true
	})
	var parent ast.Expr
	found := 0
	ast.Inspect(s.decl.Body, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		passes := false
		var ctx ast.Expr
		for _, arg := range call.Args {
			switch x := ast.Unparen(arg).(type) {
			case *ast.FuncLit:
				passes = passes || x == lit
			case *ast.Ident:
				if holder != nil && info.Uses[x] == holder {
					passes = true
					continue
				}
			}
			if ctx == nil && typesx.IsContext(info.TypeOf(arg)) {
				ctx = arg
			}
		}
		if passes && ctx != nil {
			parent = ctx
			found++
		}
		return true
	})
	if found != 1 {
		return nil
	}
	return parent
}

// ctxFunc is what a function of package context makes.
type ctxFunc uint8

const (
	ctxOther ctxFunc = iota
	ctxLive
	ctxValue
	ctxTimeout
	ctxCancel
)

var contextFuncs = map[string]ctxFunc{
	"Background": ctxLive, "TODO": ctxLive, "WithoutCancel": ctxLive,
	"WithValue":   ctxValue,
	"WithTimeout": ctxTimeout, "WithDeadline": ctxTimeout, "WithTimeoutCause": ctxTimeout, "WithDeadlineCause": ctxTimeout,
	"WithCancel": ctxCancel, "WithCancelCause": ctxCancel,
}

// isRequestContext reports whether fn is (*net/http.Request).Context:
// r.Context() in a handler, and gin's c.Request.Context() and echo's
// c.Request().Context(), which are the same method.
func isRequestContext(fn *types.Func) bool {
	recv := fn.Type().(*types.Signature).Recv()
	if recv == nil || fn.Pkg().Path() != "net/http" || fn.Name() != "Context" {
		return false
	}
	ptr, ok := recv.Type().(*types.Pointer)
	if !ok {
		return false
	}
	n, ok := ptr.Elem().(*types.Named)
	return ok && n.Obj().Name() == "Request"
}

// isHandlerCtx reports whether v is the context parameter of a gRPC
// handler: a method (ctx context.Context, req *Msg) (resp, error) whose
// request is a protocol buffer message. gRPC cancels that context when
// the caller cancels, disconnects or its deadline passes. A context
// parameter of any other function says nothing of when it ends.
func isHandlerCtx(info *types.Info, decl *ast.FuncDecl, v *types.Var) bool {
	if decl == nil || decl.Recv == nil {
		return false
	}
	fn, _ := info.Defs[decl.Name].(*types.Func)
	if fn == nil {
		return false
	}
	sig := fn.Type().(*types.Signature)
	ps, rs := sig.Params(), sig.Results()
	if ps.Len() != 2 || ps.At(0) != v || !typesx.IsContext(v.Type()) || rs.Len() != 2 || !typesx.IsError(rs.At(1).Type()) {
		return false
	}
	req, ok := ps.At(1).Type().(*types.Pointer)
	if !ok {
		return false
	}
	return isMessage(req)
}

// protoMethods are the methods generated protocol buffer messages have:
// ProtoReflect (APIv2) or ProtoMessage (APIv1).
var protoMethods = []string{"ProtoReflect", "ProtoMessage"}

func isMessage(t types.Type) bool {
	for _, name := range protoMethods {
		obj, _, _ := types.LookupFieldOrMethod(t, true, nil, name)
		if fn, ok := obj.(*types.Func); ok && fn.Type().(*types.Signature).Params().Len() == 0 {
			return true
		}
	}
	return false
}

// assignment is one definition or assignment of a variable in a
// function: either the single expression assigned (rhs), or the call of
// a multi-value assignment (ctx, cancel := context.WithTimeout(...)),
// with the variable's index among its results and the variable the
// second result goes to.
type assignment struct {
	pos    token.Pos
	rhs    ast.Expr
	call   *ast.CallExpr
	index  int
	cancel *types.Var
}

// assignments returns every definition and assignment of v in decl; a
// variable whose address is taken or that is assigned through a pointer
// gives a second, unknown, entry.
func assignments(info *types.Info, decl *ast.FuncDecl, v *types.Var) []assignment {
	if decl == nil || decl.Body == nil {
		return nil
	}
	var out []assignment
	is := func(e ast.Expr) bool {
		id, ok := e.(*ast.Ident)
		return ok && info.ObjectOf(id) == v
	}
	varOf := func(e ast.Expr) *types.Var {
		id, ok := e.(*ast.Ident)
		if !ok {
			return nil
		}
		w, _ := info.ObjectOf(id).(*types.Var)
		return w
	}
	add := func(pos token.Pos, lhs []ast.Expr, rhs []ast.Expr) {
		for i, l := range lhs {
			if !is(l) {
				continue
			}
			switch {
			case len(lhs) == len(rhs):
				out = append(out, assignment{pos: pos, rhs: rhs[i]})
			case len(rhs) == 1:
				call, _ := ast.Unparen(rhs[0]).(*ast.CallExpr)
				a := assignment{pos: pos, rhs: rhs[0], call: call, index: i}
				if call == nil {
					a.rhs = nil // v, ok := m[k]: not a context maker
				}
				if len(lhs) == 2 && i == 0 {
					a.cancel = varOf(lhs[1])
				}
				out = append(out, a)
			default:
				out = append(out, assignment{pos: pos})
			}
		}
	}
	ast.Inspect(decl.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			add(n.Pos(), n.Lhs, n.Rhs)
		case *ast.ValueSpec:
			lhs := make([]ast.Expr, len(n.Names))
			for i, id := range n.Names {
				lhs[i] = id
			}
			if len(n.Values) > 0 {
				add(n.Pos(), lhs, n.Values)
			} else if slicesContainsObj(info, n.Names, v) {
				out = append(out, assignment{pos: n.Pos()})
			}
		case *ast.UnaryExpr:
			if n.Op == token.AND && is(ast.Unparen(n.X)) {
				out = append(out, assignment{pos: n.Pos()})
			}
		case *ast.RangeStmt:
			if (n.Key != nil && is(n.Key)) || (n.Value != nil && is(n.Value)) {
				out = append(out, assignment{pos: n.Pos()})
			}
		}
		return true
	})
	// An entry with nothing assigned is an assignment the model cannot
	// read: the variable is then unknown.
	for _, a := range out {
		if a.rhs == nil {
			return append(out, assignment{})
		}
	}
	return out
}

func slicesContainsObj(info *types.Info, ids []*ast.Ident, v *types.Var) bool {
	for _, id := range ids {
		if info.Defs[id] == v {
			return true
		}
	}
	return false
}

// usedBeyond reports whether v is read anywhere but in the release and
// in the call that made it: the work, or the acquire, runs under it.
func (a *checker) usedBeyond(s *site, v *types.Var, made *ast.CallExpr) bool {
	used := false
	ast.Inspect(s.decl.Body, func(n ast.Node) bool {
		if used || n == s.call || n == made {
			return false
		}
		if id, ok := n.(*ast.Ident); ok && a.pass.TypesInfo.Uses[id] == v {
			used = true
		}
		return true
	})
	return used
}

// cancelledFirst returns a `defer cancel()` of the release's context that
// is deferred after the release, in the same function: deferred calls run
// last in, first out, so the context is cancelled when the release runs.
func (a *checker) cancelledFirst(s *site, cancel *types.Var) *ast.DeferStmt {
	if cancel == nil {
		return nil
	}
	var found *ast.DeferStmt
	body := lockmodel.FuncBody(s.deferFn)
	typesx.OutsideClosures(body, func(n ast.Node) (bool, bool) {
		d, ok := n.(*ast.DeferStmt)
		if !ok || d.Pos() <= s.deferStmt.Pos() {
			return false, false
		}
		if id, ok := ast.Unparen(d.Call.Fun).(*ast.Ident); ok && a.pass.TypesInfo.Uses[id] == cancel {
			found = d
		}
		return found != nil, false
	})
	return found
}

func within(n ast.Node, pos token.Pos) bool { return n.Pos() <= pos && pos < n.End() }

// madeByHelper follows a context made by a function of the package whose
// body only returns a context of package context's, made from a
// request's or a handler's (timeoutCtx(c) returning
// context.WithTimeout(c.Request.Context(), d)): the context it makes
// ends with that one. Only that parent is taken from the helper; the
// rest of what it does with the context is its own.
func (a *checker) madeByHelper(fn *types.Func, index, hops int) (origin, bool) {
	if fn == nil || fn.Pkg() != a.pass.Pkg || index != 0 {
		return origin{}, false
	}
	var decl *ast.FuncDecl
	for _, d := range a.decls {
		if a.pass.TypesInfo.Defs[d.Name] == fn {
			decl = d
			break
		}
	}
	if decl == nil || decl.Body == nil || len(decl.Body.List) != 1 {
		return origin{}, false
	}
	ret, ok := decl.Body.List[0].(*ast.ReturnStmt)
	if !ok || len(ret.Results) == 0 {
		return origin{}, false
	}
	mk, ok := ast.Unparen(ret.Results[0]).(*ast.CallExpr)
	if !ok || len(mk.Args) == 0 {
		return origin{}, false
	}
	callee, _ := typeutil.Callee(a.pass.TypesInfo, mk).(*types.Func)
	if callee == nil || callee.Pkg() == nil || callee.Pkg().Path() != contextPath {
		return origin{}, false
	}
	switch contextFuncs[callee.Name()] {
	case ctxTimeout, ctxCancel, ctxValue:
	default:
		return origin{}, false
	}
	parent := a.classify(&site{decl: decl}, mk.Args[0], hops+1)
	if parent.kind == request || parent.kind == rpc {
		return parent, true
	}
	return origin{}, false
}

// leaseEndsFirst reports whether the timeout mk makes (WithTimeout(ctx,
// d), d constant) can end only after the leases of the locks s's function
// takes have lapsed: each acquire there has a constant lease shorter
// than d (the timeout starts before the acquire), and nothing there
// extends one. The release it cuts short finds
// the lock already gone, or another's, so the timeout keeps nothing held.
func (a *checker) leaseEndsFirst(s *site, mk *ast.CallExpr) bool {
	info := a.pass.TypesInfo
	fn, _ := typeutil.Callee(info, mk).(*types.Func)
	if fn == nil || fn.Name() != "WithTimeout" || len(mk.Args) != 2 {
		return false
	}
	tv, ok := info.Types[mk.Args[1]]
	if !ok || tv.Value == nil {
		return false
	}
	d, exact := constant.Int64Val(constant.ToInt(tv.Value))
	if !exact {
		return false
	}
	found := false
	for _, c := range a.m.Calls {
		if c.Decl != s.decl {
			continue
		}
		if a.m.Extends(c) && !a.isRelease(c) {
			return false
		}
		if c.Command == lockmodel.CmdSetNX || c.Command == lockmodel.CmdSet && c.Flags&lockmodel.FlagNX != 0 {
			lease, ok := a.m.Lease(c)
			if !ok || int64(lease) >= d {
				return false
			}
			found = true
		}
	}
	// A lock library's acquire too (redislock's Obtain(ctx, key, ttl,
	// opt)): a wait for the lock may take it late in the timeout, but
	// what the release cut short then leaves lapses within a lease
	// shorter than the timeout.
	for _, call := range a.m.Obtains() {
		if call.Pos() < s.decl.Pos() || call.End() > s.decl.End() {
			continue
		}
		lease, ok := a.m.LibraryLease(call)
		if !ok || int64(lease) >= d {
			return false
		}
		found = true
	}
	return found
}
