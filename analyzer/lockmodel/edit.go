package lockmodel

import (
	"go/ast"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// DocOf extracts an analyzer's Doc from the source of its doc.go: the
// section under the "# Analyzer <name>" heading of the package comment.
func DocOf(src string) string {
	var lines []string
	in := false
	for _, l := range strings.Split(src, "\n") {
		if !strings.HasPrefix(l, "//") {
			if in {
				break
			}
			continue
		}
		l = strings.TrimPrefix(strings.TrimPrefix(l, "//"), " ")
		if strings.HasPrefix(l, "# Analyzer ") {
			in = true
			continue
		}
		if in {
			lines = append(lines, l)
		}
	}
	return strings.TrimSpace(strings.Join(lines, "\n"))
}

// DeleteStmt returns an edit that removes stmt and, when it is alone on
// its lines, the lines themselves.
func DeleteStmt(pass *analysis.Pass, stmt ast.Stmt) (analysis.TextEdit, bool) {
	tf := pass.Fset.File(stmt.Pos())
	if tf == nil {
		return analysis.TextEdit{}, false
	}
	src, err := pass.ReadFile(tf.Name())
	if err != nil {
		return analysis.TextEdit{}, false
	}
	start, end := tf.Offset(stmt.Pos()), tf.Offset(stmt.End())
	if start < 0 || end > len(src) {
		return analysis.TextEdit{}, false
	}
	s, e := start, end
	for s > 0 && (src[s-1] == ' ' || src[s-1] == '\t') {
		s--
	}
	for e < len(src) && (src[e] == ' ' || src[e] == '\t') {
		e++
	}
	if (s == 0 || src[s-1] == '\n') && e < len(src) && src[e] == '\n' {
		return analysis.TextEdit{Pos: tf.Pos(s), End: tf.Pos(e + 1)}, true
	}
	return analysis.TextEdit{Pos: stmt.Pos(), End: stmt.End()}, true
}

// CallFix rewrites the command call c into a call of the fix package's
// function fn with the given argument sources, adding the import. The fix
// functions return an error, so the rewrite replaces c where it stands as
// a statement (plain, deferred or go), or c.Err() anywhere.
func CallFix(pass *analysis.Pass, c *Call, fn, message string, args ...string) (analysis.SuggestedFix, bool) {
	target := ast.Node(c.Expr)
	switch {
	case c.Outer == c.Expr:
		switch s := c.Stmt.(type) {
		case *ast.ExprStmt:
			if s.X != c.Expr {
				return analysis.SuggestedFix{}, false
			}
		case *ast.DeferStmt, *ast.GoStmt:
		default:
			return analysis.SuggestedFix{}, false
		}
	case isErrCall(c.Outer, c.Expr):
		target = c.Outer
	default:
		return analysis.SuggestedFix{}, false
	}
	name, edits, ok := ImportFix(pass, c.File)
	if !ok {
		return analysis.SuggestedFix{}, false
	}
	text := name + "." + fn + "(" + strings.Join(args, ", ") + ")"
	edits = append([]analysis.TextEdit{{Pos: target.Pos(), End: target.End(), NewText: []byte(text)}}, edits...)
	return analysis.SuggestedFix{Message: message, TextEdits: edits}, true
}

// isErrCall reports whether outer is inner.Err().
func isErrCall(outer, inner ast.Expr) bool {
	call, ok := outer.(*ast.CallExpr)
	if !ok || len(call.Args) != 0 {
		return false
	}
	sel, ok := call.Fun.(*ast.SelectorExpr)
	return ok && sel.X == inner && sel.Sel.Name == "Err"
}

// IsDuration reports whether t is time.Duration.
func IsDuration(t types.Type) bool {
	n, ok := t.(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "time" && n.Obj().Name() == "Duration"
}
