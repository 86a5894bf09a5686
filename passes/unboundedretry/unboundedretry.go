package unboundedretry

import (
	_ "embed"
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/locklint/locklint/analyzer/diag"
	"github.com/locklint/locklint/analyzer/lockmodel"
	"github.com/locklint/locklint/analyzer/loopbound"
)

//go:embed doc.go
var doc string

// Analyzer reports lock acquisition retried in a loop with no bound.
var Analyzer = &analysis.Analyzer{
	Name:     "unboundedretry",
	Doc:      diag.Doc(doc),
	URL:      "https://github.com/locklint/locklint/blob/main/docs/analyzers/unboundedretry.md",
	Requires: []*analysis.Analyzer{lockmodel.Analyzer, loopbound.Analyzer},
	Run:      run,
}

var tests bool

func init() {
	Analyzer.Flags.BoolVar(&tests, "tests", false, "also report retry loops in _test.go files")
}

func run(pass *analysis.Pass) (any, error) {
	m := pass.ResultOf[lockmodel.Analyzer].(*lockmodel.Model)
	res := pass.ResultOf[loopbound.Analyzer].(*loopbound.Result)
	// Each loop is reported once, at the innermost unbounded loop around
	// the acquisition: the loops come inner first, and an acquisition
	// inside a loop already reported is not the outer loop's.
	var reported []ast.Stmt
	for _, l := range res.Loops {
		// A test that waits for a lock is bounded by its own timeout.
		if !tests && m.InTestFile(l.Stmt) {
			continue
		}
		tries := slices.DeleteFunc(slices.Clone(l.Retried), func(t *ast.CallExpr) bool {
			return slices.ContainsFunc(reported, func(r ast.Stmt) bool { return r.Pos() <= t.Pos() && t.End() <= r.End() })
		})
		if l.Waits {
			tries = slices.DeleteFunc(tries, func(t *ast.CallExpr) bool { return standby(pass, m, t) })
		}
		if len(tries) > 0 && l.Spins {
			reported = append(reported, l.Stmt)
			pos := forPos(l.Stmt)
			diag.Report(pass, analysis.Diagnostic{
				Pos:     pos,
				End:     pos + token.Pos(len("for")),
				Message: "lock acquisition repeated in a loop with no exit that never tests its context: once the context is done, every attempt fails at once and the loop spins; return when it is done",
				Related: []analysis.RelatedInformation{{Pos: tries[0].Pos(), End: tries[0].End(), Message: "acquisition repeated here"}},
			})
			continue
		}
		if len(tries) == 0 || l.By != loopbound.Nothing {
			continue
		}
		reported = append(reported, l.Stmt)
		report(pass, res.Acquisitions.Library(tries[0]), l, tries[0])
	}
	for _, r := range res.Recursions {
		if (!tests && m.InTestFile(r.Decl)) || r.By != loopbound.Nothing {
			continue
		}
		diag.Report(pass, analysis.Diagnostic{
			Pos:     r.Self.Pos(),
			End:     r.Self.Lparen,
			Message: "lock acquisition retried by recursion with no bound; pass down a deadline or attempt count, or use " + diag.Use(res.Acquisitions.Library(r.Retried), "WithMaxWait"),
			Related: []analysis.RelatedInformation{{Pos: r.Retried.Pos(), End: r.Retried.End(), Message: "acquisition retried here"}},
		})
	}
	return nil, nil
}

func report(pass *analysis.Pass, lib lockmodel.Library, l *loopbound.Loop, try *ast.CallExpr) {
	// What a bound is, and why a constant sleep is worse, is the doc's.
	msg := "lock acquisition retried with no bound; exit on a context, deadline or attempt limit, or use " + diag.Use(lib, "WithMaxWait")
	if l.ConstantPause {
		msg = "lock acquisition retried with no bound, at a constant interval; add a bound and jitter, or use " + diag.Use(lib, "WithMaxWait")
	}
	pos := forPos(l.Stmt)
	diag.Report(pass, analysis.Diagnostic{
		Pos:     pos,
		End:     pos + token.Pos(len("for")),
		Message: msg,
		Related: []analysis.RelatedInformation{{Pos: try.Pos(), End: try.End(), Message: "acquisition retried here"}},
	})
}

func forPos(loop ast.Stmt) token.Pos {
	switch l := loop.(type) {
	case *ast.ForStmt:
		return l.For
	case *ast.RangeStmt:
		return l.For
	}
	return loop.Pos()
}

// standby reports an attempt at a leader lease, directly or through a
// helper named for the leadership: a replica that waits for the lease
// between attempts, without a deadline, is a standby doing its job.
func standby(pass *analysis.Pass, m *lockmodel.Model, try *ast.CallExpr) bool {
	if c := m.CallOf(try); c != nil {
		return m.LeaderKey(c.Key())
	}
	fn, _ := typeutil.Callee(pass.TypesInfo, try).(*types.Func)
	return fn != nil && m.LeaderName(fn.Name())
}
