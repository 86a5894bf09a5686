package uncheckedacquire

// Whether a check guards the work: a reply that only chooses a defer, a
// not-obtained error that is only logged, an acquire with no work after
// it.

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ast/astutil"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/locklint/locklint/analyzer/lockmodel"
	"github.com/locklint/locklint/internal/typesx"
)

// onlyChoosesDefer reports whether every read of the reply is the
// condition of an if whose branches only defer (the release): the work
// after the if runs on both branches.
func onlyChoosesDefer(file *ast.File, ids []*ast.Ident) bool {
	if len(ids) == 0 {
		return false
	}
	for _, id := range ids {
		path, _ := astutil.PathEnclosingInterval(file, id.Pos(), id.End())
		var ifs *ast.IfStmt
		for _, n := range path {
			if s, ok := n.(*ast.IfStmt); ok {
				ifs = s
				break
			}
			if _, ok := n.(ast.Stmt); ok {
				return false
			}
		}
		if ifs == nil || !(ifs.Cond.Pos() <= id.Pos() && id.End() <= ifs.Cond.End()) {
			return false
		}
		if !defersOnly(ifs.Body) {
			return false
		}
		switch e := ifs.Else.(type) {
		case nil:
		case *ast.BlockStmt:
			if !defersOnly(e) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

func defersOnly(b *ast.BlockStmt) bool {
	if len(b.List) == 0 {
		return false
	}
	for _, s := range b.List {
		if _, ok := s.(*ast.DeferStmt); !ok {
			return false
		}
	}
	return true
}

// workAfter reports whether anything but a return follows the statement
// that holds the acquire, in its block or an enclosing one of its
// function: a set-if-absent followed by a return guards nothing.
func workAfter(parents []ast.Node, at token.Pos) bool {
	for _, n := range parents {
		switch n.(type) {
		case *ast.FuncDecl, *ast.FuncLit:
			return false
		}
		for _, s := range typesx.Stmts(n) {
			if s.Pos() <= at {
				continue
			}
			switch s.(type) {
			case *ast.ReturnStmt, *ast.EmptyStmt:
			default:
				return true
			}
		}
	}
	return false
}

// loggedOnly reports whether id, a read of an acquire's error, is the test
// of an if that holds when another holds the lock (err ==
// ErrNotObtained, errors.Is(err, ErrNotObtained)) whose body only calls
// something that returns, a log line, with work after the if: the branch
// falls through into the work.
func loggedOnly(info *types.Info, m *lockmodel.Model, file *ast.File, id *ast.Ident) bool {
	test, held := notObtainedTest(info, m, file, id)
	if test == nil || !held {
		return false
	}
	path, _ := astutil.PathEnclosingInterval(file, test.Pos(), test.End())
	i := slices.Index(path, ast.Node(test))
	if i < 0 || i+2 > len(path) {
		return false
	}
	ifs, ok := path[i+1].(*ast.IfStmt)
	if !ok || ifs.Cond != test || len(ifs.Body.List) == 0 {
		return false
	}
	for _, s := range ifs.Body.List {
		es, ok := s.(*ast.ExprStmt)
		if !ok {
			return false
		}
		call, ok := ast.Unparen(es.X).(*ast.CallExpr)
		if !ok || m.NoReturn(call) {
			return false
		}
	}
	return workAfter(path[i+2:], ifs.End())
}

// notObtainedTest returns the test that id, a read of an acquire's error,
// is an operand of when it only compares it with the not-obtained error
// (errors.Is(err, ErrNotObtained), err == ErrNotObtained or !=), and
// whether the test holds when another holds the lock; nil otherwise.
func notObtainedTest(info *types.Info, m *lockmodel.Model, file *ast.File, id *ast.Ident) (ast.Expr, bool) {
	path, _ := astutil.PathEnclosingInterval(file, id.Pos(), id.End())
	if len(path) < 2 {
		return nil, false
	}
	isSentinel := func(e ast.Expr) bool {
		var obj types.Object
		switch e := ast.Unparen(e).(type) {
		case *ast.Ident:
			obj = info.Uses[e]
		case *ast.SelectorExpr:
			obj = info.Uses[e.Sel]
		}
		return obj != nil && m.NotObtainedError(obj)
	}
	switch p := path[1].(type) {
	case *ast.BinaryExpr:
		if (p.Op == token.EQL || p.Op == token.NEQ) && (isSentinel(p.X) || isSentinel(p.Y)) {
			return p, p.Op == token.EQL
		}
	case *ast.CallExpr:
		fn, _ := typeutil.Callee(info, p).(*types.Func)
		if fn != nil && fn.Pkg() != nil && fn.Pkg().Path() == "errors" && fn.Name() == "Is" &&
			len(p.Args) == 2 && p.Args[0] == ast.Expr(id) && isSentinel(p.Args[1]) {
			return p, true
		}
	}
	return nil, false
}
