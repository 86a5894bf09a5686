// Package edit builds the text edits of locklint's suggested fixes:
// importing the lock library, deleting a statement, and rewriting a
// command call into a call of the library.
package edit

import (
	"go/ast"
	"go/token"
	"go/types"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/locklint/locklint/analyzer/lockmodel"
)

// ImportLibrary returns the name under which file can refer to the lock
// library, and the edit that adds the import when it is missing. ok is
// false when the name is taken in the file, or the library is imported
// under _ or as a dot import.
func ImportLibrary(pass *analysis.Pass, file *ast.File) (name string, edits []analysis.TextEdit, ok bool) {
	for _, imp := range file.Imports {
		path, _ := strconv.Unquote(imp.Path.Value)
		if path == lockmodel.LibraryPath {
			if imp.Name != nil {
				if imp.Name.Name == "_" || imp.Name.Name == "." {
					return "", nil, false
				}
				return imp.Name.Name, nil, true
			}
			return "fix", nil, true
		}
	}
	name = "fix"
	if pass.Pkg.Scope().Lookup(name) != nil {
		return "", nil, false
	}
	for _, imp := range file.Imports {
		if imp.Name != nil && imp.Name.Name == name {
			return "", nil, false
		}
		if imp.Name == nil {
			if p, _ := strconv.Unquote(imp.Path.Value); p == name || strings.HasSuffix(p, "/"+name) {
				return "", nil, false
			}
		}
	}
	// Insert into the first import declaration, or after the package clause.
	for _, d := range file.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.IMPORT {
			continue
		}
		if gd.Lparen.IsValid() {
			return name, []analysis.TextEdit{{Pos: gd.Rparen, End: gd.Rparen, NewText: []byte("\t" + strconv.Quote(lockmodel.LibraryPath) + "\n")}}, true
		}
		// import "x" -> import ("x"; "fix")
		spec := gd.Specs[0]
		return name, []analysis.TextEdit{
			{Pos: spec.Pos(), End: spec.Pos(), NewText: []byte("(\n\t")},
			{Pos: spec.End(), End: spec.End(), NewText: []byte("\n\t" + strconv.Quote(lockmodel.LibraryPath) + "\n)")},
		}, true
	}
	return name, []analysis.TextEdit{{Pos: file.Name.End(), End: file.Name.End(), NewText: []byte("\n\nimport " + strconv.Quote(lockmodel.LibraryPath))}}, true
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

// LibraryCall rewrites the command call c into a call of the library's
// function fn with the given argument sources, adding the import. The
// library's functions return an error, so the rewrite replaces c where it
// stands as a statement (plain, deferred or go), or c.Err() anywhere.
func LibraryCall(pass *analysis.Pass, c *lockmodel.Call, fn, message string, args ...string) (analysis.SuggestedFix, bool) {
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
	name, edits, ok := ImportLibrary(pass, c.File)
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

// IsDuration reports whether t is time.Duration: a TTL a fix can pass to
// the library as it is.
func IsDuration(t types.Type) bool {
	n, ok := t.(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "time" && n.Obj().Name() == "Duration"
}
