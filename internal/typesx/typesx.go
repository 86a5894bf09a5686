// Package typesx holds the type, syntax and control-flow predicates that
// the model and the passes share, each answered once, and the source text
// of a node.
package typesx

import (
	"bytes"
	"go/ast"
	"go/format"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/cfg"
)

// IsBool reports whether t's underlying type is bool.
func IsBool(t types.Type) bool {
	if t == nil {
		return false
	}
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Kind() == types.Bool
}

// IsError reports whether t is the predeclared error type.
func IsError(t types.Type) bool {
	return t != nil && types.Identical(t, types.Universe.Lookup("error").Type())
}

// IsString reports whether t's underlying type is a string type.
func IsString(t types.Type) bool {
	if t == nil {
		return false
	}
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsString != 0
}

// Nameable reports whether fn is an object of pkg that other packages can
// name, and so carry an analysis fact: not another package's (a method of
// an interface pkg declares from another's generic one), not an
// instantiation.
func Nameable(pkg *types.Package, fn *types.Func) bool {
	return fn.Pkg() == pkg && fn.Origin() == fn
}

// IsEmptyInterface reports whether t's underlying type is an interface
// with no methods (any).
func IsEmptyInterface(t types.Type) bool {
	if t == nil {
		return false
	}
	i, ok := t.Underlying().(*types.Interface)
	return ok && i.NumMethods() == 0
}

// IsNamed reports whether t is the named type pkg.name itself.
func IsNamed(t types.Type, pkg, name string) bool {
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == pkg && n.Obj().Name() == name
}

// IsNamedOrPointer reports whether t is pkg.name or a pointer to it.
func IsNamedOrPointer(t types.Type, pkg, name string) bool {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	return IsNamed(t, pkg, name)
}

// IsContext reports whether t is context.Context itself.
func IsContext(t types.Type) bool { return IsNamed(t, "context", "Context") }

// HasContextMethods reports whether t has context.Context's method set:
// a context of a framework's own type (gin's *Context) counts.
func HasContextMethods(t types.Type) bool {
	if t == nil {
		return false
	}
	for _, name := range []string{"Deadline", "Done", "Err", "Value"} {
		obj, _, _ := types.LookupFieldOrMethod(t, true, nil, name)
		if _, ok := obj.(*types.Func); !ok {
			return false
		}
	}
	return true
}

// IsTimeFunc reports whether fn is one of the package time's functions
// (not methods) named names: time.Sleep, time.After.
func IsTimeFunc(fn *types.Func, names ...string) bool {
	if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != "time" {
		return false
	}
	if sig, ok := fn.Type().(*types.Signature); !ok || sig.Recv() != nil {
		return false
	}
	return slices.Contains(names, fn.Name())
}

// IsDuration reports whether t is time.Duration.
func IsDuration(t types.Type) bool { return IsNamed(t, "time", "Duration") }

// BlockOf returns the first live block of g with a node that holds n, and
// that node's index; nil when none does.
func BlockOf(g *cfg.CFG, n ast.Node) (*cfg.Block, int) {
	for _, b := range g.Blocks {
		if !b.Live {
			continue
		}
		for i, m := range b.Nodes {
			if m.Pos() <= n.Pos() && n.End() <= m.End() {
				return b, i
			}
		}
	}
	return nil, 0
}

// Innermost returns the block of g, live or not, whose node holds pos most
// narrowly, and that node's index (-1 when none does): a range statement
// is a node of its loop header and spans its whole body, so a position in
// the body is found in the body's own block.
func Innermost(g *cfg.CFG, pos token.Pos) (*cfg.Block, int) {
	var best *cfg.Block
	bi := -1
	var size token.Pos
	for _, b := range g.Blocks {
		for i, n := range b.Nodes {
			if pos < n.Pos() || pos >= n.End() {
				continue
			}
			if best == nil || n.End()-n.Pos() < size {
				best, bi, size = b, i, n.End()-n.Pos()
			}
		}
	}
	return best, bi
}

// Stmts returns the statement list that n holds directly: a block's,
// a case clause's or a select clause's body; nil for any other node.
func Stmts(n ast.Node) []ast.Stmt {
	switch n := n.(type) {
	case *ast.BlockStmt:
		return n.List
	case *ast.CaseClause:
		return n.Body
	case *ast.CommClause:
		return n.Body
	}
	return nil
}

// Refers reports whether an identifier under n uses obj; nil obj never
// matches.
func Refers(info *types.Info, n ast.Node, obj types.Object) bool {
	if obj == nil {
		return false
	}
	found := false
	ast.Inspect(n, func(x ast.Node) bool {
		if id, ok := x.(*ast.Ident); ok && info.Uses[id] == obj {
			found = true
		}
		return !found
	})
	return found
}

// OutsideClosures reports whether match holds for a node of root outside
// function literals, whose bodies do not run where they are written; a
// root that is itself a literal is not entered. The walk stops at the
// first node match finds; match's second result skips that node's
// children. A walk that only collects returns false, skip from match.
func OutsideClosures(root ast.Node, match func(n ast.Node) (found, skip bool)) bool {
	found := false
	ast.Inspect(root, func(n ast.Node) bool {
		if found || n == nil {
			return false
		}
		if _, ok := n.(*ast.FuncLit); ok {
			return false
		}
		var skip bool
		found, skip = match(n)
		return !found && !skip
	})
	return found
}

// RecvBase returns the type name of a receiver type expression: T in T,
// *T, T[P] and *T[P]; "" for any other shape.
func RecvBase(e ast.Expr) string {
	for {
		switch t := e.(type) {
		case *ast.StarExpr:
			e = t.X
		case *ast.ParenExpr:
			e = t.X
		case *ast.IndexExpr:
			e = t.X
		case *ast.IndexListExpr:
			e = t.X
		case *ast.Ident:
			return t.Name
		default:
			return ""
		}
	}
}

// Source returns the source text of n as formatted Go, or "" when n
// cannot be printed.
func Source(fset *token.FileSet, n ast.Node) string {
	var buf bytes.Buffer
	if err := format.Node(&buf, fset, n); err != nil {
		return ""
	}
	return buf.String()
}

// FileOf returns the file of files that holds pos, or nil.
func FileOf(files []*ast.File, pos token.Pos) *ast.File {
	for _, f := range files {
		if f.FileStart <= pos && pos <= f.FileEnd {
			return f
		}
	}
	return nil
}
