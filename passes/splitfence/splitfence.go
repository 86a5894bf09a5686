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
	URL:      "https://github.com/locklint/locklint#splitfence",
	Requires: []*analysis.Analyzer{lockmodel.Analyzer},
	Run:      run,
}

// acquire is an acquisition in the INCR's function: a SETNX / SET NX of a
// lock key, or a call of a function of this package that acquires.
type acquire struct {
	call *lockmodel.Call // nil for a call of an acquirer
	expr *ast.CallExpr
	name string // "SETNX", "SET NX", or the acquirer's name
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
		if !ok || atomic(m, c, a) {
			continue
		}
		report(pass, c, a)
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
				out = append(out, acquire{call: c, expr: call, name: lockmodel.AcquireName(c)})
			}
			return true
		}
		if acq.Acquires(call) {
			if fn, ok := typeutil.Callee(pass.TypesInfo, call).(*types.Func); ok {
				out = append(out, acquire{expr: call, name: "the acquire through " + fn.Name()})
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

func report(pass *analysis.Pass, c *lockmodel.Call, a acquire) {
	key := diag.Source(pass.Fset, c.Key())
	line := diag.Line(pass.Fset, a.expr.Pos())
	var msg string
	switch {
	case c.Queued && a.call != nil && a.call.Queued && c.Func == a.call.Func:
		msg = fmt.Sprintf("fence counter %s is queued beside the acquire (%s on line %d) but not in its transaction: a pipeline is not atomic (on a Cluster the two keys may even sit on different nodes), so the fence is not tied to the acquisition it numbers",
			key, a.name, line)
	case c.Pos() < a.expr.Pos():
		msg = fmt.Sprintf("fence counter %s incremented before the acquire (%s on line %d), in a separate round trip: fences are then not ordered like acquisitions, so a holder can win the lock with a smaller fence than a stale holder's, and the resource rejects the holder and accepts the stale writer",
			key, a.name, line)
	default:
		msg = fmt.Sprintf("fence counter %s incremented in a separate round trip after the acquire (%s on line %d): a holder that pauses between the two can draw its fence after its lease expired and another holder acquired, and then writes with the newer fence",
			key, a.name, line)
	}
	msg += "; issue the fence in the acquire itself: fix.Obtain(ctx, client, key, ttl, fix.WithFencing()) from github.com/locklint/locklint/analyzer/fix (or fix.WithFenceKey to keep this counter) runs SET NX and INCR in one Lua script"
	diag.Report(pass, analysis.Diagnostic{
		Pos:     c.Pos(),
		End:     c.End(),
		Message: msg,
		Related: []analysis.RelatedInformation{{Pos: a.expr.Pos(), End: a.expr.End(), Message: fmt.Sprintf("the %s acquire, a separate round trip", a.name)}},
	})
}
