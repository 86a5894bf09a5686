package unconditionaldel

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

// Analyzer reports DEL/UNLINK/GETDEL of a lock key with no atomic owner check.
var Analyzer = &analysis.Analyzer{
	Name:     "unconditionaldel",
	Doc:      diag.Doc(doc),
	URL:      "https://github.com/locklint/locklint/blob/main/docs/analyzers/unconditionaldel.md",
	Requires: []*analysis.Analyzer{lockmodel.Analyzer},
	Run:      run,
}

var tests bool

func init() {
	Analyzer.Flags.BoolVar(&tests, "tests", false, "also report deletes in _test.go files")
}

func run(pass *analysis.Pass) (any, error) {
	m := pass.ResultOf[lockmodel.Analyzer].(*lockmodel.Model)
	if !m.Relevant() {
		return nil, nil
	}
	for _, c := range m.Calls {
		if g := m.SelfCompare(c); g != nil && (tests || !m.IsTestFile(c)) && m.IsLockKey(g, g.Key()) {
			reportSelf(pass, m, c, g)
			continue
		}
		if !(c.Command.IsDelete() || c.EndsNow) || (!tests && m.IsTestFile(c)) || m.Forced(c) || m.ResetsLocks(c) {
			continue
		}
		for _, k := range c.Keys {
			if m.Watches(c, k) || m.UndoOnFailure(c, k) || m.GivenBackAtOnce(c, k) || m.NoLease(c, k) || m.TTLRepair(c) {
				continue
			}
			if !m.IsLockKey(c, k) {
				continue
			}
			g := m.CompareRead(c, k)
			if m.ComparesOwnName(g) {
				break
			}
			report(pass, m, c, k, g)
			break
		}
	}
	return nil, nil
}

// useRelease is the remedy of every finding: one atomic, owner-checked
// command, through the library entry for c's client. Why a plain or a
// two-step DEL deletes the next holder's lock is the doc's.
func useRelease(m *lockmodel.Model, c *lockmodel.Call) string {
	return "release with " + diag.Use(m.Library(c), "Release") + " (DELEX IFEQ or compare-and-delete)"
}

func report(pass *analysis.Pass, m *lockmodel.Model, c *lockmodel.Call, k ast.Expr, g *lockmodel.Call) {
	key := diag.KeyText(m, c, k)
	d := analysis.Diagnostic{Pos: c.Pos(), End: c.End()}
	what := c.Command.String()
	if c.EndsNow {
		// EXPIREAT now, EXPIRE 0: the key goes at once, as with DEL.
		what += " that ends it now"
	}
	if g != nil {
		d.Message = fmt.Sprintf("GET on line %d and this %s of lock key %s are two round trips; %s",
			diag.Line(pass.Fset, g.Pos()), what, key, useRelease(m, c))
		d.Related = []analysis.RelatedInformation{{Pos: g.Pos(), End: g.End(), Message: "owner read here, in a separate round trip"}}
	} else {
		d.Message = fmt.Sprintf("%s of lock key %s without an owner check; %s", what, key, useRelease(m, c))
	}
	if a, src, shared := m.SharedValue(c, k); shared {
		// The remedy takes the lock with the library too: no rewrite of
		// the release alone would be a fix (release offers none).
		d.Related = append(d.Related, diag.SharedValue(a, src, m.Library(c)))
	}
	if fix, ok := release(pass, m, c, k); ok {
		d.SuggestedFixes = []analysis.SuggestedFix{fix}
	}
	diag.Report(pass, d)
}

// reportSelf reports a release script given, as its owner, the value a
// GET just read from the key it deletes.
func reportSelf(pass *analysis.Pass, m *lockmodel.Model, c, g *lockmodel.Call) {
	diag.Report(pass, analysis.Diagnostic{
		Pos: c.Pos(), End: c.End(),
		Message: fmt.Sprintf("%s compares lock key %s with the value read from it on line %d, so it deletes whoever holds it; %s",
			c.Command.String(), diag.KeyText(m, g, g.Key()), diag.Line(pass.Fset, g.Pos()), useRelease(m, c)),
		Related: []analysis.RelatedInformation{{Pos: g.Pos(), End: g.End(), Message: "the owner compared is read here, not the token the lock was taken with"}},
	})
}

// release rewrites a DEL of one key whose token is known into the
// library's Release(ctx, client, key, token) for c's client: fix.Release
// for go-redis v9, lock.Release with the client's adapter otherwise. A
// command sent with no context (redigo's Do) gets no fix: the library
// takes one, and inventing it would hide the missing deadline.
func release(pass *analysis.Pass, m *lockmodel.Model, c *lockmodel.Call, k ast.Expr) (analysis.SuggestedFix, bool) {
	if len(c.Keys) != 1 || c.Ctx == nil || c.Expr.Ellipsis.IsValid() || c.EndsNow {
		// A key spread from a slice was written where the slice is built.
		return analysis.SuggestedFix{}, false
	}
	token := m.ReleaseToken(c, k)
	if token == "" {
		return analysis.SuggestedFix{}, false
	}
	src := func(e ast.Expr) string { return diag.Source(pass.Fset, e) }
	title := "Release with " + diag.UseTitle(m.Library(c), "Release") + " (owner-checked DELEX IFEQ or compare-and-delete)"
	return edit.LibraryCall(pass, m, c, "Release", title, src(c.Ctx), src(k), token)
}
