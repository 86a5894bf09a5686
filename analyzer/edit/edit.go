// Package edit builds the text edits of locklint's suggested fixes:
// importing the lock library and its adapters, deleting a statement, and rewriting a
// command call into a call of the library.
package edit

import (
	"go/ast"
	"go/token"
	"go/types"
	pathpkg "path"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/locklint/locklint/analyzer/diag"
	"github.com/locklint/locklint/analyzer/lockmodel"
)

// Import returns the names under which file can refer to the packages
// at paths from pos, and one edit that adds the imports that are
// missing. ok is false when a name is taken there (by a declaration, a
// local variable or another import), or a package is imported under _ or
// as a dot import.
func Import(pass *analysis.Pass, file *ast.File, pos token.Pos, paths ...string) (names []string, edits []analysis.TextEdit, ok bool) {
	var missing []string
	for _, p := range paths {
		name, imported, ok := importName(pass, file, pos, p)
		if !ok {
			return nil, nil, false
		}
		names = append(names, name)
		if !imported {
			missing = append(missing, strconv.Quote(p))
		}
	}
	if len(missing) == 0 {
		return names, nil, true
	}
	// Insert into the first import declaration, or after the package clause.
	for _, d := range file.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.IMPORT {
			continue
		}
		if gd.Lparen.IsValid() {
			return names, []analysis.TextEdit{{Pos: gd.Rparen, End: gd.Rparen, NewText: []byte("\t" + strings.Join(missing, "\n\t") + "\n")}}, true
		}
		// import "x" -> import ("x"; "fix")
		spec := gd.Specs[0]
		return names, []analysis.TextEdit{
			{Pos: spec.Pos(), End: spec.Pos(), NewText: []byte("(\n\t")},
			{Pos: spec.End(), End: spec.End(), NewText: []byte("\n\t" + strings.Join(missing, "\n\t") + "\n)")},
		}, true
	}
	text := "\n\nimport " + missing[0]
	if len(missing) > 1 {
		text = "\n\nimport (\n\t" + strings.Join(missing, "\n\t") + "\n)"
	}
	return names, []analysis.TextEdit{{Pos: file.Name.End(), End: file.Name.End(), NewText: []byte(text)}}, true
}

// importName returns the name under which code at pos in file refers to
// the package at path, and whether file imports it already.
func importName(pass *analysis.Pass, file *ast.File, pos token.Pos, path string) (name string, imported, ok bool) {
	for _, imp := range file.Imports {
		if p, _ := strconv.Unquote(imp.Path.Value); p != path {
			continue
		}
		name = pathpkg.Base(path)
		if imp.Name != nil {
			name = imp.Name.Name
		}
		if name == "_" || name == "." {
			return "", false, false
		}
		return name, true, free(pass, file, pos, name, path)
	}
	name = pathpkg.Base(path)
	for _, imp := range file.Imports {
		if imp.Name != nil && imp.Name.Name == name {
			return "", false, false
		}
		if imp.Name == nil {
			if p, _ := strconv.Unquote(imp.Path.Value); p == name || strings.HasSuffix(p, "/"+name) {
				return "", false, false
			}
		}
	}
	return name, false, free(pass, file, pos, name, path)
}

// free reports whether name, at pos, denotes nothing but the package at
// path: a package-level declaration or a local variable of that name
// (lock := ... is common in lock code) would shadow the import.
func free(pass *analysis.Pass, file *ast.File, pos token.Pos, name, path string) bool {
	if pass.Pkg.Scope().Lookup(name) != nil {
		return false
	}
	scope := pass.Pkg.Scope()
	if pass.TypesInfo != nil {
		if s := pass.TypesInfo.Scopes[file]; s != nil {
			scope = s
		}
	}
	_, obj := scope.Innermost(pos).LookupParent(name, pos)
	if pn, ok := obj.(*types.PkgName); ok {
		return pn.Imported().Path() == path
	}
	return obj == nil
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
// function fn for c's client: fn(ctx, client, args...), where client is
// the value the model says the library takes (through the client's
// adapter), adding the imports. The library's functions return an error,
// so the rewrite replaces c where its result is dropped or only its error
// is used (lockmodel.ErrorSite). message is the fix's title; it names
// the library as lockmodel.Library.Title does.
func LibraryCall(pass *analysis.Pass, m *lockmodel.Model, c *lockmodel.Call, fn, message, ctx string, args ...string) (analysis.SuggestedFix, bool) {
	lib, client, ok := m.LibraryArg(c)
	if !ok {
		return analysis.SuggestedFix{}, false
	}
	site, ok := m.ErrorSite(c)
	if !ok {
		return analysis.SuggestedFix{}, false
	}
	paths := []string{lib.Path}
	if lib.Adapter != "" {
		paths = append(paths, lib.Adapter)
	}
	names, edits, ok := Import(pass, c.File, site.Expr.Pos(), paths...)
	if !ok {
		return analysis.SuggestedFix{}, false
	}
	arg := diag.Source(pass.Fset, client)
	if lib.Adapter != "" {
		arg = names[1] + "." + lib.Wrap + "(" + arg + ")"
	}
	text := names[0] + "." + fn + "(" + strings.Join(append([]string{ctx, arg}, args...), ", ") + ")"
	head := []analysis.TextEdit{{Pos: site.Expr.Pos(), End: site.Expr.End(), NewText: []byte(text)}}
	if site.Blank != nil {
		// "_, err :=" keeps err, which the call now gives alone.
		head = append([]analysis.TextEdit{{Pos: site.Blank.Pos(), End: site.Err.Pos()}}, head...)
	}
	edits = append(head, edits...)
	return analysis.SuggestedFix{Message: message, TextEdits: edits}, true
}

// IsDuration reports whether t is time.Duration: a TTL a fix can pass to
// the library as it is.
func IsDuration(t types.Type) bool {
	n, ok := t.(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "time" && n.Obj().Name() == "Duration"
}

// InLiteral returns the edit that replaces bytes [off, end) of the value
// of the string literal lit with text, when each of those bytes is written
// as itself in the source: in a raw string, or in an interpreted one
// outside escapes. ok is false otherwise (an escape in the range, a raw
// string with carriage returns, which its value drops, a range outside
// the value): then no edit of the source gives that value.
func InLiteral(lit *ast.BasicLit, off, end int, text string) (analysis.TextEdit, bool) {
	src := srcOffsets(lit)
	if off < 0 || end <= off || end > len(src) {
		return analysis.TextEdit{}, false
	}
	for i := off + 1; i < end; i++ {
		if src[i] < 0 || src[i] != src[i-1]+1 {
			return analysis.TextEdit{}, false
		}
	}
	if src[off] < 0 {
		return analysis.TextEdit{}, false
	}
	pos := lit.Pos() + token.Pos(src[off])
	return analysis.TextEdit{Pos: pos, End: pos + token.Pos(end-off), NewText: []byte(text)}, true
}

// srcOffsets maps each byte of a string literal's value to its offset in
// the literal's source, or to -1 when an escape writes it. nil when lit is
// not a well-formed string literal.
func srcOffsets(lit *ast.BasicLit) []int {
	v := lit.Value
	if lit.Kind != token.STRING || len(v) < 2 || v[0] != v[len(v)-1] {
		return nil
	}
	var out []int
	if v[0] == '`' {
		// The scanner drops a raw string's carriage returns from Value
		// too: then where they were is lost.
		if int(lit.End()-lit.Pos()) != len(v) {
			return nil
		}
		for i := 1; i < len(v)-1; i++ {
			out = append(out, i)
		}
		return out
	}
	if v[0] != '"' {
		return nil
	}
	for i := 1; i < len(v)-1; {
		if v[i] != '\\' {
			out = append(out, i)
			i++
			continue
		}
		r, multi, tail, err := strconv.UnquoteChar(v[i:len(v)-1], '"')
		if err != nil {
			return nil
		}
		n := 1 // \xff and \377 write one byte
		if multi {
			n = len(string(r))
		}
		for range n {
			out = append(out, -1)
		}
		i = len(v) - 1 - len(tail)
	}
	return out
}
