package setnxexpire

import (
	_ "embed"
	"fmt"
	"go/ast"

	"golang.org/x/tools/go/analysis"

	"github.com/locklint/locklint/analyzer/diag"
	"github.com/locklint/locklint/analyzer/edit"
	"github.com/locklint/locklint/analyzer/lockmodel"
)

//go:embed doc.go
var doc string

// Analyzer reports SETNX followed by a separate EXPIRE of the same key,
// and lock keys acquired with no TTL.
var Analyzer = &analysis.Analyzer{
	Name:     "setnxexpire",
	Doc:      diag.Doc(doc),
	URL:      "https://github.com/locklint/locklint/blob/main/docs/analyzers/setnxexpire.md",
	Requires: []*analysis.Analyzer{lockmodel.Analyzer},
	Run:      run,
}

func run(pass *analysis.Pass) (any, error) {
	m := pass.ResultOf[lockmodel.Analyzer].(*lockmodel.Model)
	if !m.Relevant() {
		return nil, nil
	}
	paired := map[*lockmodel.Call]bool{}
	for _, p := range m.SplitAcquires() {
		paired[p.Acquire] = true
		if m.KeptMarker(p) || m.EnsuredMarker(p) {
			continue
		}
		reportPair(pass, m, p)
	}
	for _, c := range m.Calls {
		// A test that takes a key with no expiry is exercising SETNX
		// itself, on a server it throws away.
		if !c.Acquires() || !c.NoTTL || paired[c] || m.IsTestFile(c) || !m.IsLockKey(c, c.Key()) {
			continue
		}
		// Taken for good and released nowhere: a one-time marker (an init
		// guard), not a lock that a dead holder leaves behind. A lock
		// function's key is its callers' to release.
		if !m.Held(c) {
			continue
		}
		msg := fmt.Sprintf("lock key %s acquired with no expiry; %s", diag.KeyText(m, c, c.Key()), setTTL(m, c))
		if b := c.TTLBranch; b != nil {
			msg = fmt.Sprintf("lock key %s acquired with no expiry unless the branch on line %d sets %s; give the TTL a default, or use %s",
				diag.KeyText(m, c, c.Key()), diag.Line(pass.Fset, b.Pos()), diag.Code(pass.Fset, c.TTL), diag.Use(m.Library(c), "Obtain"))
		}
		diag.Report(pass, analysis.Diagnostic{Pos: c.Pos(), End: c.End(), Message: msg})
	}
	return nil, nil
}

// setTTL is the remedy of every finding, with the library entry for c's
// client; why a separate EXPIRE or none is a bug is the doc's.
func setTTL(m *lockmodel.Model, c *lockmodel.Call) string {
	return "set the TTL in the acquire (SET NX PX) or use " + diag.Use(m.Library(c), "Obtain")
}

func reportPair(pass *analysis.Pass, m *lockmodel.Model, p lockmodel.Pair) {
	a, e := p.Acquire, p.Expire
	line := diag.Line(pass.Fset, e.Pos())
	acq := lockmodel.AcquireName(a)
	msg := fmt.Sprintf("%s and the %s on line %d are separate commands; %s", acq, e.Command, line, setTTL(m, a))
	if a.Queued && !a.TakesFirst {
		// Queued, the EXPIRE is sent whatever the SETNX replies.
		msg = fmt.Sprintf("the %s queued on line %d runs even when this %s fails; %s", e.Command, line, acq, setTTL(m, a))
	}
	d := analysis.Diagnostic{
		Pos:     a.Pos(),
		End:     a.End(),
		Message: msg,
		Related: []analysis.RelatedInformation{{Pos: e.Pos(), End: e.End(), Message: fmt.Sprintf("separate %s here", e.Command)}},
	}
	if fix, ok := moveTTL(pass, m, a, e); ok {
		d.SuggestedFixes = []analysis.SuggestedFix{fix}
	}
	diag.Report(pass, d)
}

// moveTTL builds the fix for go-redis: SetNX(ctx, k, v, 0) gets the
// EXPIRE's duration, and the EXPIRE statement goes away.
func moveTTL(pass *analysis.Pass, m *lockmodel.Model, a, e *lockmodel.Call) (analysis.SuggestedFix, bool) {
	if !a.Lease || a.Command != lockmodel.CmdSetNX {
		return analysis.SuggestedFix{}, false
	}
	if !e.Lease || !e.Command.IsExpire() {
		return analysis.SuggestedFix{}, false
	}
	if !edit.IsDuration(pass.TypesInfo.TypeOf(e.TTL)) || !m.InScope(e.TTL, a.Pos()) {
		return analysis.SuggestedFix{}, false
	}
	stmt, ok := e.Stmt.(*ast.ExprStmt)
	if !ok || stmt.X != e.Outer {
		return analysis.SuggestedFix{}, false
	}
	del, ok := edit.DeleteStmt(pass, stmt)
	if !ok {
		return analysis.SuggestedFix{}, false
	}
	return analysis.SuggestedFix{
		Message: fmt.Sprintf("Set the TTL in SetNX and remove the separate %s", e.Command),
		TextEdits: []analysis.TextEdit{
			{Pos: a.TTL.Pos(), End: a.TTL.End(), NewText: []byte(diag.Source(pass.Fset, e.TTL))},
			del,
		},
	}, true
}
