package releasectx

// Releases in the branch that runs once their context is done: the case
// of a select on ctx.Done(), the body of if ctx.Err() != nil.

import (
	"go/ast"
	"go/token"
	"go/types"
)

// doneBranch returns the select case or if statement, around carrier in
// the same function, that runs only once ctx is done, when ctx is a
// variable that the branch does not assign before carrier; nil
// otherwise.
func (a *checker) doneBranch(stack []ast.Node, carrier *ast.CallExpr, ctx ast.Expr) ast.Node {
	info := a.pass.TypesInfo
	v := a.ctxVar(ctx)
	if v == nil {
		return nil
	}
	var decl *ast.FuncDecl
	for _, n := range stack {
		if d, ok := n.(*ast.FuncDecl); ok {
			decl = d
			break
		}
	}
	if decl == nil {
		// A literal at package level: its assignments are not indexed.
		return nil
	}
	for i := len(stack) - 1; i > 0; i-- {
		var body []ast.Stmt
		var branch ast.Node
		switch n := stack[i].(type) {
		case *ast.FuncDecl, *ast.FuncLit:
			return nil
		case *ast.CommClause:
			if a.isDone(n.Comm, v) {
				body, branch = n.Body, n
			}
		case *ast.BlockStmt:
			if ifs, ok := stack[i-1].(*ast.IfStmt); ok && ifs.Body == n && ifs.Init == nil && a.errNotNil(ifs.Cond, v) {
				body, branch = n.List, ifs
			}
		}
		if branch == nil {
			continue
		}
		if len(body) == 0 {
			return branch
		}
		for _, as := range assignments(info, decl, v) {
			if body[0].Pos() <= as.pos && as.pos < carrier.Pos() {
				return nil
			}
		}
		return branch
	}
	return nil
}

// isDone reports whether comm is <-v.Done().
func (a *checker) isDone(comm ast.Stmt, v *types.Var) bool {
	es, ok := comm.(*ast.ExprStmt)
	if !ok {
		return false
	}
	u, ok := ast.Unparen(es.X).(*ast.UnaryExpr)
	return ok && u.Op == token.ARROW && a.methodOf(u.X, v, "Done")
}

// errNotNil reports whether cond is v.Err() != nil.
func (a *checker) errNotNil(cond ast.Expr, v *types.Var) bool {
	b, ok := ast.Unparen(cond).(*ast.BinaryExpr)
	if !ok || b.Op != token.NEQ {
		return false
	}
	x, y := b.X, b.Y
	if id, ok := ast.Unparen(x).(*ast.Ident); ok && id.Name == "nil" {
		x, y = y, x
	}
	nilID, ok := ast.Unparen(y).(*ast.Ident)
	return ok && nilID.Name == "nil" && a.methodOf(x, v, "Err")
}

// methodOf reports whether e is v.name() with no arguments.
func (a *checker) methodOf(e ast.Expr, v *types.Var, name string) bool {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok || len(call.Args) != 0 {
		return false
	}
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != name {
		return false
	}
	id, ok := ast.Unparen(sel.X).(*ast.Ident)
	return ok && a.pass.TypesInfo.Uses[id] == v
}
