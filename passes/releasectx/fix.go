package releasectx

// The suggested fix: the release under context.WithoutCancel with a
// timeout of its own, and what the fix must keep (the values a deferred
// call reads, the names it adds).

import (
	"fmt"
	"go/ast"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/locklint/locklint/analyzer/edit"
	"github.com/locklint/locklint/internal/typesx"
)

// releaseTimeout is the bound the fix gives the release.
const releaseTimeout = "2*time.Second"

// fix runs the release under context.WithoutCancel(ctx) with a timeout of
// its own. A deferred call becomes a deferred closure, which evaluates
// its arguments at exit rather than at the defer, so every variable the
// call reads must keep its value after the defer; in a deferred closure
// the context is made before the statement of the release.
func (a *checker) fix(s *site, ctx ast.Expr) (analysis.SuggestedFix, bool) {
	file := a.fileOf(s.call)
	if file == nil {
		return analysis.SuggestedFix{}, false
	}
	tf := a.pass.Fset.File(s.call.Pos())
	src, err := a.pass.ReadFile(tf.Name())
	if err != nil {
		return analysis.SuggestedFix{}, false
	}
	text := func(n ast.Node) string { return string(src[tf.Offset(n.Pos()):tf.Offset(n.End())]) }
	indent := func(n ast.Node) string {
		off := tf.Offset(n.Pos())
		start := off
		for start > 0 && src[start-1] != '\n' {
			start--
		}
		ws := src[start:off]
		if strings.TrimLeft(string(ws), " \t") != "" {
			return ""
		}
		return string(ws)
	}
	// The call with the release's context in place of ctx.
	call := text(s.call)
	rel := func(name string) string {
		off := tf.Offset(ctx.Pos()) - tf.Offset(s.call.Pos())
		end := tf.Offset(ctx.End()) - tf.Offset(s.call.Pos())
		return call[:off] + name + call[end:]
	}
	decl := func(names []string, rctx, cancel, ind string) string {
		return fmt.Sprintf("%s, %s := %s.WithTimeout(%s.WithoutCancel(%s), %s)\n%sdefer %s()\n",
			rctx, cancel, names[0], names[0], text(ctx), strings.Replace(releaseTimeout, "time", names[1], 1), ind, cancel)
	}
	title := "Release under context.WithoutCancel with a timeout of its own"
	if s.lit == nil {
		ind := indent(s.deferStmt)
		if ind == "" && tf.Offset(s.deferStmt.Pos()) > 0 || !a.stable(s, s.call) {
			return analysis.SuggestedFix{}, false
		}
		rctx, cancel, ok := names(func(name string) bool { return !mentions(s.call, name) })
		if !ok {
			return analysis.SuggestedFix{}, false
		}
		imports, edits, ok := edit.Import(a.pass, file, s.deferStmt.Pos(), contextPath, "time")
		if !ok {
			return analysis.SuggestedFix{}, false
		}
		body := ind + "\t" + decl(imports, rctx, cancel, ind+"\t") + ind + "\t" + rel(rctx) + "\n"
		edits = append([]analysis.TextEdit{{Pos: s.deferStmt.Pos(), End: s.deferStmt.End(),
			NewText: []byte("defer func() {\n" + body + ind + "}()")}}, edits...)
		return analysis.SuggestedFix{Message: title, TextEdits: edits}, true
	}
	stmt, block := a.stmtIn(s)
	if stmt == nil {
		return analysis.SuggestedFix{}, false
	}
	ind := indent(stmt)
	if ind == "" {
		return analysis.SuggestedFix{}, false
	}
	scope := a.pass.TypesInfo.Scopes[block]
	rctx, cancel, ok := names(func(name string) bool {
		if scope != nil && scope.Lookup(name) != nil {
			return false
		}
		for _, n := range block.List {
			if n.End() > stmt.Pos() && mentions(n, name) {
				return false
			}
		}
		return true
	})
	if !ok {
		return analysis.SuggestedFix{}, false
	}
	imports, edits, ok := edit.Import(a.pass, file, stmt.Pos(), contextPath, "time")
	if !ok {
		return analysis.SuggestedFix{}, false
	}
	edits = append([]analysis.TextEdit{
		{Pos: stmt.Pos(), End: stmt.Pos(), NewText: []byte(decl(imports, rctx, cancel, ind) + ind)},
		{Pos: ctx.Pos(), End: ctx.End(), NewText: []byte(rctx)},
	}, edits...)
	return analysis.SuggestedFix{Message: title, TextEdits: edits}, true
}

// names picks the names of the release's context and cancel function
// among a few, the first that ok accepts.
func names(ok func(string) bool) (rctx, cancel string, found bool) {
	pick := func(cands ...string) string {
		for _, c := range cands {
			if ok(c) {
				return c
			}
		}
		return ""
	}
	rctx, cancel = pick("rctx", "releaseCtx"), pick("cancel", "releaseCancel")
	return rctx, cancel, rctx != "" && cancel != ""
}

// mentions reports whether an identifier spelled name appears in n.
func mentions(n ast.Node, name string) bool {
	found := false
	ast.Inspect(n, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && id.Name == name {
			found = true
		}
		return !found
	})
	return found
}

// stable reports whether every local variable call reads keeps its value
// from the defer to the function's end: no assignment to it after the
// defer, and no closure that could assign it.
func (a *checker) stable(s *site, call *ast.CallExpr) bool {
	info := a.pass.TypesInfo
	vars := map[*types.Var]bool{}
	typesx.OutsideClosures(call, func(n ast.Node) (bool, bool) {
		if id, ok := n.(*ast.Ident); ok {
			if v, ok := info.Uses[id].(*types.Var); ok && !v.IsField() && v.Parent() != nil && v.Parent() != a.pass.Pkg.Scope() {
				vars[v] = true
			}
		}
		return false, false
	})
	for v := range vars {
		for _, asg := range assignments(info, s.decl, v) {
			if asg.pos > s.deferStmt.Pos() || asg.rhs == nil {
				return false
			}
		}
	}
	return true
}

// stmtIn returns the statement of the deferred literal's body, in a
// block, before which the release's context is made: the one that holds
// the release call, or the innermost if or switch whose header holds it.
// A call in a loop's header runs more than once and gets no fix.
func (a *checker) stmtIn(s *site) (ast.Stmt, *ast.BlockStmt) {
	pos := s.call.Pos()
	block := s.lit.Body
	for {
		var st ast.Stmt
		for _, x := range block.List {
			if within(x, pos) {
				st = x
			}
		}
		var inner *ast.BlockStmt
		switch x := st.(type) {
		case nil:
			return nil, nil
		case *ast.BlockStmt:
			inner = x
		case *ast.IfStmt:
			if pos < x.Body.Pos() {
				return x, block
			}
			inner = x.Body
			if !within(x.Body, pos) {
				if b, ok := x.Else.(*ast.BlockStmt); ok {
					inner = b
				} else {
					return nil, nil
				}
			}
		case *ast.SwitchStmt:
			if pos < x.Body.Pos() {
				return x, block
			}
			return nil, nil
		case *ast.ForStmt:
			if pos < x.Body.Pos() {
				return nil, nil
			}
			inner = x.Body
		case *ast.RangeStmt:
			if pos < x.Body.Pos() {
				return nil, nil
			}
			inner = x.Body
		case *ast.LabeledStmt, *ast.TypeSwitchStmt, *ast.SelectStmt:
			return nil, nil
		default:
			return st, block
		}
		block = inner
	}
}

func (a *checker) fileOf(n ast.Node) *ast.File { return typesx.FileOf(a.pass.Files, n.Pos()) }
