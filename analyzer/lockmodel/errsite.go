package lockmodel

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/ast/astutil"
	"golang.org/x/tools/go/types/typeutil"
)

// ErrorSite is where a suggested fix may put a call that returns only an
// error in place of a command: the command's result is discarded, or only
// its error is used.
type ErrorSite struct {
	// Expr is the expression to replace: the call that sends the
	// command, or the call that takes its error (rdb.Del(ctx, k).Err(),
	// client.Do(ctx, cmd).Error()).
	Expr ast.Expr
	// Blank, when not nil, is the blank identifier that receives the
	// reply in `_, err := conn.Do(...)`, and Err what receives the error;
	// the fix removes the blank and the comma, leaving the error.
	Blank *ast.Ident
	Err   ast.Expr
}

// errMethods are the methods that give a command's error alone, by the
// package that declares the result type: go-redis's Cmd.Err and
// rueidis's RedisResult.Error.
var errMethods = map[Client]string{GoRedis: "Err", Rueidis: "Error"}

// ErrorSite returns where a fix can replace c by a call of the library,
// or false when c's result is used for more than its error.
func (m *Model) ErrorSite(c *Call) (ErrorSite, bool) {
	if c.File == nil {
		return ErrorSite{}, false
	}
	path, _ := astutil.PathEnclosingInterval(c.File, c.Expr.Pos(), c.Expr.End())
	i := 0
	for i < len(path) && path[i] != ast.Node(c.Expr) {
		i++
	}
	if i == len(path) {
		return ErrorSite{}, false
	}
	parent := func() ast.Node {
		if i+1 < len(path) {
			return path[i+1]
		}
		return nil
	}
	send := ast.Expr(c.Expr)
	if c.Client == Rueidis {
		// The builder chain's Build() is sent by client.Do(ctx, cmd).
		do, ok := parent().(*ast.CallExpr)
		if !ok || len(do.Args) != 2 || do.Args[1] != c.Expr || !m.isRueidisDo(do) {
			return ErrorSite{}, false
		}
		send, i = do, i+1
	}
	switch p := parent().(type) {
	case *ast.ExprStmt:
		return ErrorSite{Expr: send}, true
	case *ast.DeferStmt, *ast.GoStmt:
		return ErrorSite{Expr: send}, true
	case *ast.AssignStmt:
		// _, err := conn.Do("DEL", key): the reply is dropped.
		if blank, ok := p.Lhs[0].(*ast.Ident); ok && blank.Name == "_" && len(p.Lhs) == 2 && len(p.Rhs) == 1 && p.Rhs[0] == send {
			return ErrorSite{Expr: send, Blank: blank, Err: p.Lhs[1]}, true
		}
	case *ast.SelectorExpr:
		name, ok := errMethods[c.Client]
		if !ok || p.X != send || p.Sel.Name != name || i+2 >= len(path) {
			break
		}
		if call, ok := path[i+2].(*ast.CallExpr); ok && call.Fun == p && len(call.Args) == 0 {
			return ErrorSite{Expr: call}, true
		}
	}
	return ErrorSite{}, false
}

// isRueidisDo reports whether call is a rueidis or valkey-go client's Do,
// which sends one built command.
func (m *Model) isRueidisDo(call *ast.CallExpr) bool {
	f, _ := typeutil.Callee(m.Pass.TypesInfo, call).(*types.Func)
	return f != nil && f.Pkg() != nil && clientPaths[f.Pkg().Path()] == Rueidis && f.Name() == "Do"
}
