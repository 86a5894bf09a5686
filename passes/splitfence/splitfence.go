package splitfence

import (
	_ "embed"
	"fmt"
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/locklint/locklint/analyzer/diag"
	"github.com/locklint/locklint/analyzer/lockmodel"
)

//go:embed doc.go
var doc string

// Analyzer reports fence counters incremented apart from the acquire.
var Analyzer = &analysis.Analyzer{
	Name:     "splitfence",
	Doc:      diag.Doc(doc),
	URL:      "https://github.com/locklint/locklint/blob/main/docs/analyzers/splitfence.md",
	Requires: []*analysis.Analyzer{lockmodel.Analyzer},
	Run:      run,
}

// acquire is an acquisition in the INCR's function: a SETNX / SET NX of a
// lock key, or a call of a function of this package that acquires.
type acquire struct {
	call *lockmodel.Call // nil for a call of an acquirer
	expr *ast.CallExpr
	name string // "the SETNX", "the SET NX", or the acquirer's name in backticks
}

func run(pass *analysis.Pass) (any, error) {
	m := pass.ResultOf[lockmodel.Analyzer].(*lockmodel.Model)
	if !m.Relevant() {
		return nil, nil
	}
	var incrs []*lockmodel.Call
	for _, c := range m.Calls {
		if c.Command == lockmodel.CmdIncr && c.Decl != nil && m.IsFenceCounter(c) {
			incrs = append(incrs, c)
		}
	}
	if len(incrs) == 0 {
		return nil, nil
	}
	acq := m.Acquisitions(nil)
	byDecl := map[*ast.FuncDecl][]acquire{}
	for _, c := range incrs {
		if _, ok := byDecl[c.Decl]; !ok {
			byDecl[c.Decl] = acquires(pass, m, acq, c.Decl)
		}
		a, ok := nearest(byDecl[c.Decl], c)
		if !ok {
			// A helper that draws the fence for its caller: its calls
			// after an acquire of the caller's are the INCR's.
			calls, in := m.HelperSites(c)
			for i, call := range calls {
				if _, ok := byDecl[in[i]]; !ok {
					byDecl[in[i]] = acquires(pass, m, acq, in[i])
				}
				if a, ok := before(byDecl[in[i]], call); ok {
					report(pass, m, c, a, call)
					break
				}
			}
			continue
		}
		if atomic(m, c, a) {
			continue
		}
		report(pass, m, c, a, nil)
	}
	return nil, nil
}

// acquires lists the acquisitions in decl, in source order.
func acquires(pass *analysis.Pass, m *lockmodel.Model, acq *lockmodel.Acquisitions, decl *ast.FuncDecl) []acquire {
	var out []acquire
	ast.Inspect(decl, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		if c := m.CallOf(call); c != nil {
			if c.Acquires() && m.IsLockKey(c, c.Key()) {
				out = append(out, acquire{call: c, expr: call, name: "the " + lockmodel.AcquireName(c)})
			}
			return true
		}
		if acq.Acquires(call) {
			if fn, ok := typeutil.Callee(pass.TypesInfo, call).(*types.Func); ok {
				out = append(out, acquire{expr: call, name: diag.Quote(fn.Name())})
			} else {
				out = append(out, acquire{expr: call, name: "the acquire"})
			}
		}
		return true
	})
	return out
}

// nearest returns the acquisition closest to the INCR: the last one
// before it, or else the first one after it.
func nearest(as []acquire, c *lockmodel.Call) (acquire, bool) {
	var before, after *acquire
	for i := range as {
		a := &as[i]
		switch {
		case a.expr.End() <= c.Pos():
			before = a
		case a.expr.Pos() >= c.End() && after == nil:
			after = a
		}
	}
	if before != nil {
		return *before, true
	}
	if after != nil {
		return *after, true
	}
	return acquire{}, false
}

// before returns the last acquisition that ends before call.
func before(as []acquire, call *ast.CallExpr) (acquire, bool) {
	for i := len(as) - 1; i >= 0; i-- {
		if as[i].expr.End() <= call.Pos() {
			return as[i], true
		}
	}
	return acquire{}, false
}

// atomic reports whether the INCR runs in one step with the acquire: both
// queued in the same MULTI/EXEC, where the INCR also runs when NX fails
// (a gap in the fences, which a fencing resource does not mind), or the
// INCR queued in a transaction that WATCHes the lock key, which EXEC
// aborts if the lock changed hands.
func atomic(m *lockmodel.Model, c *lockmodel.Call, a acquire) bool {
	if a.call == nil {
		return false
	}
	if c.Tx && a.call.Tx && c.Func == a.call.Func && c.Recv != nil && a.call.Recv != nil && m.KeyID(c.Recv) == m.KeyID(a.call.Recv) {
		return true
	}
	return m.Watches(c, a.call.Key())
}

// report reports c, an INCR drawn after or before a; site, when not nil,
// is the call of c's function that draws it after a.
func report(pass *analysis.Pass, m *lockmodel.Model, c *lockmodel.Call, a acquire, site *ast.CallExpr) {
	head := fmt.Sprintf("%s of fence %s", c.Command, diag.Code(pass.Fset, c.Key()))
	line := diag.Line(pass.Fset, a.expr.Pos())
	// Why each of these lets a stale holder write with a valid fence is
	// the doc's.
	var msg string
	switch {
	case site != nil:
		msg = fmt.Sprintf("%s, drawn by %s after %s on line %d, is a separate round trip", head, diag.Quote(c.Decl.Name.Name), a.name, line)
	case c.Queued && a.call != nil && a.call.Queued && c.Func == a.call.Func:
		msg = fmt.Sprintf("%s is pipelined with %s on line %d, not in a transaction", head, a.name, line)
	case c.Pos() < a.expr.Pos():
		msg = fmt.Sprintf("%s before %s on line %d is a separate round trip", head, a.name, line)
	default:
		msg = fmt.Sprintf("%s after %s on line %d is a separate round trip", head, a.name, line)
	}
	diag.Report(pass, analysis.Diagnostic{
		Pos:     c.Pos(),
		End:     c.End(),
		Message: msg + "; use " + diag.Use(m.Library(c), "WithFencing"),
		Related: []analysis.RelatedInformation{{Pos: a.expr.Pos(), End: a.expr.End(), Message: "acquired here, in a separate round trip"}},
	})
}
