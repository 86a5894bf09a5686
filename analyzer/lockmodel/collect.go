package lockmodel

// The walk: one pass over the package's syntax that hands each call to
// its client's reader (or to the port, forwarder and wrapper readers) and
// places the command it finds in its function, statement and batch.

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"
)

// batch is what a pipeline or transaction variable stands for.
type batch struct {
	tx      bool
	watched []ast.Expr // keys of the WATCH whose transaction this is
	watchAt token.Pos  // where that WATCH starts
}

type builder struct {
	m    *Model
	pass *analysis.Pass
	// noParse turns off isReply's following of a reply parsed into a
	// number; parsedOnly are the GETs compared only so (see
	// dropParsedCompares).
	noParse    bool
	parsedOnly []*Call
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
	b.namedWatchCallbacks(files)
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
		if knownFunc(fn, valueOptions, valueOptionNames) && len(call.Args) == 1 {
			v := ValueFunc{Call: call}
			for f := range cur.Enclosing((*ast.FuncDecl)(nil)) {
				v.Decl = f.Node().(*ast.FuncDecl)
			}
			b.m.valueFuncs = append(b.m.valueFuncs, v)
			return
		}
		if !ok && (isObtain(b.pass.TypesInfo, call) || LibraryAcquire(fn)) {
			b.m.obtains = append(b.m.obtains, call)
			return
		}
		if !ok && b.obtainer(fn) {
			// A module's own acquire is also the command it forwards
			// to: its token and its key are read there (wrapped).
			b.m.obtains = append(b.m.obtains, call)
		}
		if !ok {
			if c := b.redigoPort(cur, call, fn); c != nil {
				b.add(cur, c)
				return
			}
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
	b.m.markRecordStores()
	b.forward()
	// Whether an INCR's count only starts a window is known once the
	// EXPIREs after it are commands of the model.
	for _, c := range b.m.Calls {
		if c.TakesFirst && c.Command == CmdIncr && b.windowOnly(c) {
			c.TakesFirst, c.Window = false, true
		} else if c.Command == CmdIncr && !c.TakesFirst && !c.Queued && b.countAgainstLimit(c) {
			c.Window = true
		}
	}
}

// add records a command found at cur.
func (b *builder) add(cur cursor, c *Call) {
	b.place(cur, c)
	switch c.Command {
	case CmdGet, CmdGetDel:
		c.Compared = b.compared(cur, c)
		c.Read = !c.Compared && !b.comparedWith(c, func(ast.Expr) bool { return true }) && !valueDropped(c)
	case CmdIncr:
		c.TakesFirst = !c.Queued && b.comparedOne(c)
	case CmdSet:
		// GETSET whose old value is compared with "": the caller that
		// found the key empty holds it.
		c.TakesFirst = c.Verb() == "GETSET" && !c.Queued && b.comparedEmpty(c)
	case CmdExpire, CmdPExpire, CmdExpireAt, CmdPExpireAt:
		c.EndsNow = b.endsNow(c)
	}
	b.m.Calls = append(b.m.Calls, c)
	b.m.byID[c.Expr] = c
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

// valueDropped reports whether c's statement throws its reply's value
// away: c alone as a statement, only its error kept (.Err(), or the
// value assigned to _). A GET so sent reads nothing as data.
func valueDropped(c *Call) bool {
	outer := c.Outer
	if outer == nil {
		outer = c.Expr
	}
	if call, ok := ast.Unparen(outer).(*ast.CallExpr); ok {
		if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok && sel.Sel.Name == "Err" && len(call.Args) == 0 {
			return true
		}
	}
	switch s := c.Stmt.(type) {
	case *ast.ExprStmt:
		return ast.Unparen(s.X) == outer
	case *ast.AssignStmt:
		if len(s.Rhs) != 1 || ast.Unparen(s.Rhs[0]) != outer || len(s.Lhs) == 0 {
			return false
		}
		id, ok := ast.Unparen(s.Lhs[0]).(*ast.Ident)
		return ok && id.Name == "_"
	}
	return false
}
