// Package diag is how locklint's passes report: the //locklint:ignore
// directives, generated files, the source text quoted in messages, the
// words for what the model found (words.go), and the analyzer
// documentation taken from each pass's doc.go.
//
// A message is one short sentence, what is wrong here and what to do,
// with code in backticks (Code, Quote); the explanation lives in the
// analyzer's doc and README section, which the analyzer's URL reaches.
package diag

import (
	"go/ast"
	"go/token"
	"strings"

	"github.com/locklint/locklint/internal/typesx"
	"golang.org/x/tools/go/analysis"
)

// Report reports d unless a //locklint:ignore directive with a reason
// names pass's analyzer on the diagnostic's line or the line above. In a
// generated file the finding stands but its fixes are dropped: the edit
// belongs in the generator, and the drivers refuse to apply it anyway.
func Report(pass *analysis.Pass, d analysis.Diagnostic) {
	if ignored(pass, d.Pos) {
		return
	}
	if f := typesx.FileOf(pass.Files, d.Pos); f != nil && ast.IsGenerated(f) {
		d.SuggestedFixes = nil
	}
	pass.Report(d)
}

// ignored scans the comments of the file holding pos. Directives are rare
// and diagnostics rarer, so this costs nothing on clean code.
func ignored(pass *analysis.Pass, pos token.Pos) bool {
	tf := pass.Fset.File(pos)
	if tf == nil {
		return false
	}
	line := tf.Line(pos)
	f := typesx.FileOf(pass.Files, pos)
	if f == nil {
		return false
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
func Source(fset *token.FileSet, n ast.Node) string { return typesx.Source(fset, n) }

// maxCode is how much source a message quotes: enough for the keys real
// code writes ("jobs:" + job + ":lock", fmt.Sprintf("lock:{%s}", id)),
// short enough that two of them leave room for the rest of one line.
const maxCode = 40

// Code returns the source text of n quoted as code for a message, in
// backticks as gopls and staticcheck quote it: on one line, and cut to
// maxCode characters with an ellipsis when longer. Source that holds a
// backtick (a raw string literal) is quoted with two, as in Markdown.
func Code(fset *token.FileSet, n ast.Node) string {
	return Quote(Source(fset, n))
}

// Quote quotes src, source text or a name, as Code does.
func Quote(src string) string {
	src = strings.Join(strings.Fields(src), " ")
	if r := []rune(src); len(r) > maxCode {
		src = strings.TrimRight(string(r[:maxCode-1]), " ") + "…"
	}
	if strings.Contains(src, "`") {
		return "`` " + src + " ``"
	}
	return "`" + src + "`"
}

// Line returns the line number of pos.
func Line(fset *token.FileSet, pos token.Pos) int { return fset.Position(pos).Line }

// Doc extracts an analyzer's Doc from the source of its doc.go: the
// section under the "# Analyzer <name>" heading of the package comment.
// It panics when there is none, as x/tools' MustExtractDoc does: a pass
// without documentation is a build mistake, not a runtime condition.
func Doc(src string) string {
	var lines []string
	in, found := false, false
	for _, l := range strings.Split(src, "\n") {
		if !strings.HasPrefix(l, "//") {
			if in {
				break
			}
			continue
		}
		l = strings.TrimPrefix(strings.TrimPrefix(l, "//"), " ")
		if strings.HasPrefix(l, "# Analyzer ") {
			in, found = true, true
			continue
		}
		if in {
			lines = append(lines, l)
		}
	}
	doc := strings.TrimSpace(strings.Join(lines, "\n"))
	if !found || doc == "" {
		panic("diag.Doc: no \"# Analyzer <name>\" section in doc.go")
	}
	return doc
}
