package lockmodel

import (
	"go/ast"
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
