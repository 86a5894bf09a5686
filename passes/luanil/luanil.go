package luanil

import (
	_ "embed"
	"fmt"
	"go/ast"
	"go/token"
	"strconv"

	"golang.org/x/tools/go/analysis"

	"github.com/locklint/locklint/analyzer/diag"
	"github.com/locklint/locklint/analyzer/edit"
	"github.com/locklint/locklint/analyzer/lockmodel"
)

//go:embed doc.go
var doc string

// Analyzer reports Lua scripts that compare a Redis reply with nil.
var Analyzer = &analysis.Analyzer{
	Name:     "luanil",
	Doc:      diag.Doc(doc),
	URL:      "https://github.com/locklint/locklint/blob/main/docs/analyzers/luanil.md",
	Requires: []*analysis.Analyzer{lockmodel.Analyzer},
	Run:      run,
}

// place is one nil operand of one script text, which several calls may
// run.
type place struct {
	at  token.Pos
	off int
}

func run(pass *analysis.Pass) (any, error) {
	m := pass.ResultOf[lockmodel.Analyzer].(*lockmodel.Model)
	if !m.Relevant() {
		return nil, nil
	}
	seen := map[place]bool{}
	for _, c := range m.Calls {
		if c.Command != lockmodel.CmdEval {
			continue
		}
		text, ok := m.ScriptText(c)
		if !ok {
			continue
		}
		for _, call := range lockmodel.LuaCalls(text.Text) {
			for _, n := range call.NilChecks {
				p := place{text.At.Pos(), n.NilOff}
				if seen[p] {
					continue
				}
				seen[p] = true
				report(pass, text, call, n)
			}
		}
	}
	return nil, nil
}

func report(pass *analysis.Pass, text lockmodel.ScriptText, call *lockmodel.LuaCall, n lockmodel.LuaNilCheck) {
	where := fmt.Sprintf("Lua line %d", n.Line)
	if text.File != "" {
		where = fmt.Sprintf("%s:%d", text.File, n.Line)
	}
	reply := "reply"
	if call.Command != "" {
		reply = call.Command + " reply"
	}
	// Why a reply is never nil (Redis gives Lua false for a nil reply) is
	// the doc's; the message says what the comparison then does.
	holds := map[bool]string{true: "never holds", false: "always holds"}[n.Op == "=="]
	d := analysis.Diagnostic{Pos: text.At.Pos(), End: text.At.End()}
	if n.Not {
		// not v == nil is (not v) == nil: a boolean against nil.
		d.Message = fmt.Sprintf("%s: `not` applies before `%s`, so this compares a boolean with nil and %s; test the %s itself (`if v then`)",
			where, n.Op, holds, reply)
		diag.Report(pass, d)
		return
	}
	d.Message = fmt.Sprintf("%s: %s %s nil %s, as a nil reply is false in Lua; compare with false", where, reply, n.Op, holds)
	if fix, ok := toFalse(text, n); ok {
		d.SuggestedFixes = []analysis.SuggestedFix{fix}
	}
	diag.Report(pass, d)
}

// toFalse rewrites the nil operand as false, when the script is one
// string literal whose bytes there are written as themselves.
func toFalse(text lockmodel.ScriptText, n lockmodel.LuaNilCheck) (analysis.SuggestedFix, bool) {
	lit, ok := text.At.(*ast.BasicLit)
	if !ok || text.File != "" {
		return analysis.SuggestedFix{}, false
	}
	if v, err := strconv.Unquote(lit.Value); err != nil || v != text.Text {
		return analysis.SuggestedFix{}, false
	}
	e, ok := edit.InLiteral(lit, n.NilOff, n.NilEnd, "false")
	if !ok {
		return analysis.SuggestedFix{}, false
	}
	return analysis.SuggestedFix{Message: "Compare the reply with false", TextEdits: []analysis.TextEdit{e}}, true
}
