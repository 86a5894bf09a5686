package lockmodel

import (
	"cmp"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"
)

// batch is what a pipeline or transaction variable stands for.
type batch struct {
	tx      bool
	watched []ast.Expr // keys of the WATCH whose transaction this is
}

type builder struct {
	m    *Model
	pass *analysis.Pass
	// batches maps a pipeline/transaction variable (a TxPipelined callback
	// parameter, the result of TxPipeline()) to what it queues into.
	batches map[types.Object]*batch
	// watchTx maps a Watch callback's *Tx parameter to the watched keys.
	watchTx map[types.Object][]ast.Expr
	// multi tracks redigo connections between MULTI and EXEC, per function.
	multi map[multiKey]*batch
	// forwarders are this package's functions that send one command built
	// from their parameters; reach remembers which packages can reach a
	// client, whose functions may carry Forwarder facts.
	forwarders map[*types.Func]*Forwarder
	reach      map[*types.Package]bool
	// ports remembers what each interface method called is as a port
	// method (nil: not one, or one the package implements).
	ports map[*types.Func]*portMethodOf
}

type multiKey struct {
	fn   ast.Node
	conn types.Object
}

func (b *builder) collect(files []*ast.File) {
	b.batches = map[types.Object]*batch{}
	b.watchTx = map[types.Object][]ast.Expr{}
	b.multi = map[multiKey]*batch{}
	walk(files, func(cur cursor) {
		var call *ast.CallExpr
		switch n := cur.Node().(type) {
		case *ast.CallExpr:
			call = n
		case *ast.ForStmt, *ast.RangeStmt:
			if body := funcBody(cur); body != nil {
				b.m.loops = append(b.m.loops, Loop{Stmt: n.(ast.Stmt), Body: body})
			}
			return
		default:
			return
		}
		fn, _ := typeutil.Callee(b.pass.TypesInfo, call).(*types.Func)
		if fn == nil || fn.Pkg() == nil {
			return
		}
		client, ok := clientPaths[fn.Pkg().Path()]
		if !ok && isObtain(b.pass.TypesInfo, call) {
			b.m.obtains = append(b.m.obtains, call)
			return
		}
		if !ok {
			if p := b.portMethod(fn); p != nil {
				// A Redis port's method is its command, sent through an
				// interface a suggested fix cannot pass to the library.
				if c := b.goRedisWith(cur, call, fn, p.name, p.params); c != nil {
					c.Client, c.Via = GoRedis, fn
					b.add(cur, c)
				}
				return
			}
			// Whether a function of this package forwards to a command is
			// known once all its commands are (forward), from its calls in
			// the definition index.
			if c := b.wrapped(cur, call, fn); c != nil {
				b.add(cur, c)
			}
			return
		}
		var c *Call
		switch client {
		case GoRedis:
			c = b.goRedis(cur, call, fn)
		case Redigo:
			c = b.redigo(cur, call, fn)
		case Rueidis:
			c = b.rueidis(cur, call, fn)
		case GoFrame:
			c = b.goframe(call, fn)
		}
		if c == nil {
			return
		}
		c.Client = client
		c.Module = fn.Pkg().Path()
		c.Module = strings.TrimSuffix(c.Module, "/internal/cmds")
		b.add(cur, c)
	})
	b.forward()
	// Whether an INCR's count only starts a window is known once the
	// EXPIREs after it are commands of the model.
	for _, c := range b.m.Calls {
		if c.TakesFirst && b.windowOnly(c) {
			c.TakesFirst, c.Window = false, true
		}
	}
}

// windowOnly reports whether the only use of c's count, an INCR's reply,
// is `if n == 1 { <TTL of the same key> }`: the first increment starts a
// lockout or rate-limit window and the count decides nothing else, so
// the INCR takes nothing, whatever the key is called.
func (b *builder) windowOnly(c *Call) bool {
	vars := b.replyVars(c)
	windows, other := 0, false
	ast.Inspect(c.Func, func(n ast.Node) bool {
		if other {
			return false
		}
		switch n := n.(type) {
		case *ast.IfStmt:
			if b.startsWindow(c, n, vars) {
				windows++
				// The count's use in the condition is the window's; the
				// INCR itself may be the Init.
				if n.Init != nil {
					ast.Inspect(n.Init, func(m ast.Node) bool {
						if id, ok := m.(*ast.Ident); ok && b.usesVar(id, vars) {
							other = true
						}
						return !other
					})
				}
				return false
			}
		case *ast.Ident:
			if b.usesVar(n, vars) {
				other = true
			}
		}
		return !other
	})
	return windows > 0 && !other
}

// replyVars returns the variables c's reply is assigned to, in its own
// statement or in the Init of the if it is part of.
func (b *builder) replyVars(c *Call) []types.Object {
	var as *ast.AssignStmt
	switch s := c.Stmt.(type) {
	case *ast.AssignStmt:
		as = s
	case *ast.IfStmt:
		as, _ = s.Init.(*ast.AssignStmt)
	}
	if as == nil || len(as.Rhs) != 1 || as.Rhs[0] != c.Outer || len(as.Lhs) == 0 {
		return nil
	}
	if obj := b.objOf(as.Lhs[0]); obj != nil {
		return []types.Object{obj}
	}
	return nil
}

// usesVar reports whether id reads one of vars (its definition does not).
func (b *builder) usesVar(id *ast.Ident, vars []types.Object) bool {
	obj := b.pass.TypesInfo.Uses[id]
	return obj != nil && slices.Contains(vars, obj)
}

// startsWindow reports whether s is `if [... &&] n == 1 [&& ...] { body }`
// with no else, n being c's count, the other conjuncts not reading it, and
// a body of statements that only set the TTL of c's key.
func (b *builder) startsWindow(c *Call, s *ast.IfStmt, vars []types.Object) bool {
	if s.Else != nil || len(s.Body.List) == 0 {
		return false
	}
	isCount := func(e ast.Expr) bool {
		e = ast.Unparen(e)
		if e == c.Outer {
			return true
		}
		id, ok := e.(*ast.Ident)
		return ok && b.usesVar(id, vars)
	}
	ones := 0
	var conjuncts func(e ast.Expr) bool
	conjuncts = func(e ast.Expr) bool {
		be, ok := ast.Unparen(e).(*ast.BinaryExpr)
		if ok && be.Op == token.LAND {
			return conjuncts(be.X) && conjuncts(be.Y)
		}
		if ok && be.Op == token.EQL {
			for i, side := range []ast.Expr{be.X, be.Y} {
				if n, isOne := b.constInt(ast.Unparen([]ast.Expr{be.Y, be.X}[i])); isOne && n == 1 && isCount(side) {
					ones++
					return true
				}
			}
		}
		reads := false
		ast.Inspect(e, func(n ast.Node) bool {
			if x, ok := n.(ast.Expr); ok && isCount(x) {
				reads = true
			}
			return !reads
		})
		return !reads
	}
	if !conjuncts(s.Cond) || ones != 1 {
		return false
	}
	for _, st := range s.Body.List {
		switch st := st.(type) {
		case *ast.ExprStmt:
		case *ast.AssignStmt:
			for _, l := range st.Lhs {
				if id, ok := l.(*ast.Ident); !ok || id.Name != "_" {
					return false
				}
			}
		default:
			return false
		}
		ttls := 0
		ok := true
		ast.Inspect(st, func(n ast.Node) bool {
			call, isCall := n.(*ast.CallExpr)
			if !isCall {
				return ok
			}
			if e := b.m.byID[call]; e != nil {
				if !e.Command.IsExpire() || !b.m.SameKey(c, c.Key(), e, e.Key()) {
					ok = false
				}
				ttls++
			}
			return ok
		})
		if !ok || ttls == 0 {
			return false
		}
	}
	return true
}

// add records a command found at cur.
func (b *builder) add(cur cursor, c *Call) {
	b.place(cur, c)
	switch c.Command {
	case CmdGet:
		c.Compared = b.compared(cur, c)
		c.Read = !b.comparedWith(c, func(ast.Expr) bool { return true })
	case CmdIncr:
		c.TakesFirst = !c.Queued && b.comparedOne(c)
	}
	b.m.Calls = append(b.m.Calls, c)
	b.m.byID[c.Expr] = c
}

// forward finds this package's forwarders, turns the calls of them into
// commands until no new forwarder appears (a wrapper of a wrapper), and
// exports their facts for the packages that call them.
func (b *builder) forward() {
	b.forwarders = map[*types.Func]*Forwarder{}
	b.m.forwarders = b.forwarders
	done := map[*ast.FuncDecl]bool{}
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
		if !found {
			break
		}
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
	scope := b.pass.Pkg.Scope()
	for _, name := range scope.Names() {
		tn, ok := scope.Lookup(name).(*types.TypeName)
		if !ok || !tn.Exported() || tn.IsAlias() || !types.IsInterface(tn.Type()) {
			continue
		}
		iface := tn.Type().Underlying().(*types.Interface)
		for i := range iface.NumExplicitMethods() {
			m := iface.ExplicitMethod(i)
			if !m.Exported() {
				continue
			}
			if f := b.forwardingImplementation(m); f != nil {
				b.pass.ExportObjectFact(m, f)
			}
		}
	}
}

// place fills in the enclosing function, file and defer status.
func (b *builder) place(cur cursor, c *Call) {
	for f := range cur.Enclosing((*ast.FuncDecl)(nil), (*ast.FuncLit)(nil), (*ast.File)(nil)) {
		switch n := f.Node().(type) {
		case *ast.File:
			c.File = n
		case *ast.FuncDecl:
			if c.Func == nil {
				c.Func = n
			}
			c.Decl = n
		case *ast.FuncLit:
			if c.Func == nil {
				c.Func = n
			}
			if !c.Deferred && deferredLit(f) {
				c.Deferred = true
			}
		}
	}
	// Climb the chain on the result (rdb.Del(ctx, k).Err()) to its
	// statement; a chained call is deferred when the statement is a defer.
	c.Outer = c.Expr
	for p := cur.Parent(); p.Valid(); p = p.Parent() {
		switch n := p.Node().(type) {
		case *ast.SelectorExpr:
			if n.X != c.Outer {
				return
			}
			continue
		case *ast.CallExpr:
			if n.Fun != c.Outer && !isSelOf(n.Fun, c.Outer) && !b.replyHelper(n, c.Outer) {
				return
			}
			c.Outer = n
			continue
		case ast.Stmt:
			c.Stmt = n
			if _, ok := n.(*ast.DeferStmt); ok {
				c.Deferred = true
			}
		}
		return
	}
}

func isSelOf(fun, x ast.Expr) bool {
	sel, ok := fun.(*ast.SelectorExpr)
	return ok && sel.X == x
}

// deferredLit reports whether the function literal at cur is called by a
// defer statement: defer func() { ... }().
func deferredLit(cur cursor) bool {
	p := cur.Parent()
	call, ok := p.Node().(*ast.CallExpr)
	if !ok || call.Fun != cur.Node() {
		return false
	}
	d, ok := p.Parent().Node().(*ast.DeferStmt)
	return ok && d.Call == call
}

// params maps a callee's parameter names to argument indices.
func params(fn *types.Func) map[string]int {
	sig := fn.Type().(*types.Signature)
	out := make(map[string]int, sig.Params().Len())
	for i := range sig.Params().Len() {
		out[sig.Params().At(i).Name()] = i
	}
	return out
}

// arg returns the argument for the named parameter, or nil.
func arg(call *ast.CallExpr, ps map[string]int, names ...string) ast.Expr {
	for _, name := range names {
		if i, ok := ps[name]; ok && i < len(call.Args) {
			return call.Args[i]
		}
	}
	return nil
}

// variadic returns the arguments from the named parameter on, or the
// elements of a []T{...} literal passed to a slice parameter.
func variadic(call *ast.CallExpr, ps map[string]int, name string) []ast.Expr {
	i, ok := ps[name]
	if !ok || i >= len(call.Args) {
		return nil
	}
	if call.Ellipsis.IsValid() {
		return sliceElems(call.Args[i])
	}
	return call.Args[i:]
}

// spreadKeys returns the keys of a DEL whose keys are spread from a
// slice: a literal's elements, or those a local variable is built from,
// a literal or make and then append(v, k, ...) only (the start-up sweep
// that deletes every job's key in one command). A slice built any other
// way leaves the keys unknown.
func (b *builder) spreadKeys(e ast.Expr) []ast.Expr {
	if els := sliceElems(e); els != nil {
		return els
	}
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return nil
	}
	v, _ := b.pass.TypesInfo.Uses[id].(*types.Var)
	if v == nil || v.Parent() == nil || v.Parent() == b.pass.Pkg.Scope() || len(b.m.defs.elems[v]) > 0 {
		return nil
	}
	var keys []ast.Expr
	for _, d := range b.m.defs.vars[v] {
		switch val := ast.Unparen(d.val).(type) {
		case nil:
			if d.addr || d.tuple != nil || !d.zero {
				return nil
			}
		case *ast.CompositeLit:
			keys = append(keys, sliceElems(val)...)
		case *ast.CallExpr:
			fn, _ := typeutil.Callee(b.pass.TypesInfo, val).(*types.Builtin)
			switch {
			case d.addr || fn == nil:
				return nil
			case fn.Name() == "make":
			case fn.Name() == "append" && !val.Ellipsis.IsValid() && len(val.Args) > 1:
				if first, ok := ast.Unparen(val.Args[0]).(*ast.Ident); !ok || b.pass.TypesInfo.Uses[first] != v {
					return nil
				}
				keys = append(keys, val.Args[1:]...)
			default:
				return nil
			}
		default:
			return nil
		}
	}
	return keys
}

func sliceElems(e ast.Expr) []ast.Expr {
	if lit, ok := ast.Unparen(e).(*ast.CompositeLit); ok {
		for _, el := range lit.Elts {
			if _, kv := el.(*ast.KeyValueExpr); kv {
				return nil
			}
		}
		return lit.Elts
	}
	return nil
}

// constString returns the constant string value of e, if it has one.
func (b *builder) constString(e ast.Expr) (string, bool) {
	return constStringOf(b.pass.TypesInfo, e)
}

func constStringOf(info *types.Info, e ast.Expr) (string, bool) {
	if e == nil {
		return "", false
	}
	if tv, ok := info.Types[e]; ok && tv.Value != nil && tv.Value.Kind() == constant.String {
		return constant.StringVal(tv.Value), true
	}
	return "", false
}

// noTTL reports whether an expiry argument means "no expiry": constant
// zero, or a negative constant such as go-redis KeepTTL, which on a key NX
// just created keeps no TTL at all.
func (b *builder) noTTL(e ast.Expr) bool {
	if e == nil {
		return true
	}
	tv, ok := b.pass.TypesInfo.Types[e]
	if !ok || tv.Value == nil {
		return false
	}
	switch tv.Value.Kind() {
	case constant.Int, constant.Float:
		return constant.Sign(tv.Value) <= 0
	}
	return false
}

// recvOf returns the receiver expression of a method call.
func recvOf(call *ast.CallExpr) ast.Expr {
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
		return sel.X
	}
	return nil
}

// objOf returns the object an identifier (possibly parenthesized) denotes.
func (b *builder) objOf(e ast.Expr) types.Object {
	if id, ok := ast.Unparen(e).(*ast.Ident); ok {
		return b.pass.TypesInfo.ObjectOf(id)
	}
	return nil
}

// upper normalizes a command or flag spelling.
func upper(s string) string { return strings.ToUpper(strings.TrimSpace(s)) }

// constInt returns the constant integer value of e, if it has one.
func (b *builder) constInt(e ast.Expr) (int, bool) {
	if tv, ok := b.pass.TypesInfo.Types[e]; ok && tv.Value != nil && tv.Value.Kind() == constant.Int {
		if n, exact := constant.Int64Val(tv.Value); exact && n >= 0 && n < 1<<16 {
			return int(n), true
		}
	}
	return 0, false
}

// compared reports whether a GET's reply is compared with == or !=: as an
// operand (rdb.Get(ctx, k).Val() == token), or through a variable it is
// assigned to (v, err := rdb.Get(ctx, k).Result(); if v != token).
// constant reports whether e is a constant, or a local variable whose one
// definition is (want := "version-2"; ... if val != want).
func (b *builder) constant(e ast.Expr) bool {
	e = ast.Unparen(e)
	if tv, ok := b.pass.TypesInfo.Types[e]; ok && tv.Value != nil {
		return true
	}
	if def := b.m.keys.definition(b.objOf(e)); def != nil {
		tv, ok := b.pass.TypesInfo.Types[def]
		return ok && tv.Value != nil
	}
	return false
}

func (b *builder) compared(cur cursor, c *Call) bool {
	// A reply compared with a constant ("done", "", "1") reads a state
	// flag or asserts a value in a test; an owner token is never a
	// constant, so that is no owner check.
	return b.comparedWith(c, func(other ast.Expr) bool { return !b.constant(other) })
}

// comparedOne reports whether an INCR's reply is compared with the
// constant 1: the caller that made the counter 1 holds the key.
func (b *builder) comparedOne(c *Call) bool {
	return b.comparedWith(c, func(other ast.Expr) bool {
		n, ok := b.constInt(ast.Unparen(other))
		return ok && n == 1
	})
}

// comparedWith reports whether c's reply, directly or through the
// variable it is assigned to, is an operand of == or != whose other
// operand satisfies ok.
func (b *builder) comparedWith(c *Call, match func(other ast.Expr) bool) bool {
	var vars []types.Object
	switch s := c.Stmt.(type) {
	case *ast.AssignStmt:
		if len(s.Rhs) == 1 && s.Rhs[0] == c.Outer && len(s.Lhs) > 0 {
			if obj := b.objOf(s.Lhs[0]); obj != nil {
				vars = append(vars, obj)
			}
		}
	case *ast.IfStmt, *ast.ReturnStmt, *ast.ExprStmt, *ast.SwitchStmt:
	}
	if s, ok := c.Stmt.(*ast.IfStmt); ok {
		if as, ok := s.Init.(*ast.AssignStmt); ok && len(as.Rhs) == 1 && as.Rhs[0] == c.Outer && len(as.Lhs) > 0 {
			if obj := b.objOf(as.Lhs[0]); obj != nil {
				vars = append(vars, obj)
			}
		}
	}
	body := c.Func
	if body == nil {
		return false
	}
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		be, ok := n.(*ast.BinaryExpr)
		if found || !ok || (be.Op != token.EQL && be.Op != token.NEQ) {
			return !found
		}
		for i, side := range []ast.Expr{be.X, be.Y} {
			side = ast.Unparen(side)
			if !match([]ast.Expr{be.Y, be.X}[i]) {
				continue
			}
			if side == c.Outer {
				found = true
			}
			if obj := b.objOf(side); obj != nil {
				for _, v := range vars {
					if v == obj {
						found = true
					}
				}
			}
		}
		return !found
	})
	return found
}

// replyHelper reports whether call is a redigo reply conversion such as
// redis.String(conn.Do(...)) applied to x.
func (b *builder) replyHelper(call *ast.CallExpr, x ast.Expr) bool {
	if len(call.Args) == 0 || call.Args[0] != x {
		return false
	}
	fn, _ := typeutil.Callee(b.pass.TypesInfo, call).(*types.Func)
	return fn != nil && fn.Pkg() != nil && clientPaths[fn.Pkg().Path()] == Redigo && fn.Type().(*types.Signature).Recv() == nil
}

// funcBody returns the body of the innermost function around cur.
func funcBody(cur cursor) *ast.BlockStmt {
	for f := range cur.Enclosing((*ast.FuncDecl)(nil), (*ast.FuncLit)(nil)) {
		if body := FuncBody(f.Node()); body != nil {
			return body
		}
	}
	return nil
}
