package lockmodel

import (
	"bytes"
	"go/ast"
	"go/format"
	"go/token"
	"go/types"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// FixPath is the import path of the reference lock library that the
// diagnostics and suggested fixes point to.
const FixPath = "github.com/locklint/locklint/analyzer/fix"

// Report reports d unless a //locklint:ignore directive with a reason
// names pass's analyzer on the diagnostic's line or the line above. In a
// generated file the finding stands but its fixes are dropped: the edit
// belongs in the generator, and the drivers refuse to apply it anyway.
func Report(pass *analysis.Pass, d analysis.Diagnostic) {
	if ignored(pass, d.Pos) {
		return
	}
	if f := fileOf(pass, d.Pos); f != nil && ast.IsGenerated(f) {
		d.SuggestedFixes = nil
	}
	pass.Report(d)
}

func fileOf(pass *analysis.Pass, pos token.Pos) *ast.File {
	for _, f := range pass.Files {
		if f.FileStart <= pos && pos <= f.FileEnd {
			return f
		}
	}
	return nil
}

// ignored scans the comments of the file holding pos. Directives are rare
// and diagnostics rarer, so this costs nothing on clean code.
func ignored(pass *analysis.Pass, pos token.Pos) bool {
	tf := pass.Fset.File(pos)
	if tf == nil {
		return false
	}
	line := tf.Line(pos)
	for _, f := range pass.Files {
		if f.FileStart > pos || pos > f.FileEnd {
			continue
		}
		for _, cg := range f.Comments {
			for _, c := range cg.List {
				l := tf.Line(c.Slash)
				if l != line && l != line-1 {
					continue
				}
				if name, reason, ok := parseIgnore(c.Text); ok && reason != "" && (name == pass.Analyzer.Name || name == "all") {
					return true
				}
			}
		}
	}
	return false
}

// parseIgnore parses "//locklint:ignore <analyzer> <reason>".
func parseIgnore(text string) (name, reason string, ok bool) {
	rest, ok := strings.CutPrefix(text, "//locklint:ignore")
	if !ok || (rest != "" && rest[0] != ' ' && rest[0] != '\t') {
		return "", "", false
	}
	fields := strings.Fields(rest)
	if len(fields) == 0 {
		return "", "", false
	}
	return fields[0], strings.Join(fields[1:], " "), true
}

// Source returns the source text of n as formatted Go.
func Source(fset *token.FileSet, n ast.Node) string {
	var buf bytes.Buffer
	if err := format.Node(&buf, fset, n); err != nil {
		return ""
	}
	return buf.String()
}

// Line returns the line number of pos.
func Line(fset *token.FileSet, pos token.Pos) int { return fset.Position(pos).Line }

// ImportFix returns the name under which file can refer to the fix
// package, and the edit that adds the import when it is missing. ok is
// false when the name is taken in the file.
func ImportFix(pass *analysis.Pass, file *ast.File) (name string, edits []analysis.TextEdit, ok bool) {
	for _, imp := range file.Imports {
		path, _ := strconv.Unquote(imp.Path.Value)
		if path == FixPath {
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
			return name, []analysis.TextEdit{{Pos: gd.Rparen, End: gd.Rparen, NewText: []byte("\t" + strconv.Quote(FixPath) + "\n")}}, true
		}
		// import "x" -> import ("x"; "fix")
		spec := gd.Specs[0]
		return name, []analysis.TextEdit{
			{Pos: spec.Pos(), End: spec.Pos(), NewText: []byte("(\n\t")},
			{Pos: spec.End(), End: spec.End(), NewText: []byte("\n\t" + strconv.Quote(FixPath) + "\n)")},
		}, true
	}
	return name, []analysis.TextEdit{{Pos: file.Name.End(), End: file.Name.End(), NewText: []byte("\n\nimport " + strconv.Quote(FixPath))}}, true
}

// IsLibraryRelease reports whether fn is the lock library's owner-checked
// release or renewal, which passes a token back to the server.
func IsLibraryRelease(fn *types.Func) bool {
	return fn.Pkg() != nil && fn.Pkg().Path() == FixPath && (fn.Name() == "Release" || fn.Name() == "Refresh")
}
