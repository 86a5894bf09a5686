package crossslot

import (
	_ "embed"
	"fmt"
	"go/ast"

	"golang.org/x/tools/go/analysis"

	"github.com/locklint/locklint/analyzer/diag"
	"github.com/locklint/locklint/analyzer/lockmodel"
)

//go:embed doc.go
var doc string

// Analyzer reports multi-key Lua scripts whose keys share no hash tag.
var Analyzer = &analysis.Analyzer{
	Name:     "crossslot",
	Doc:      diag.Doc(doc),
	URL:      "https://github.com/locklint/locklint/blob/main/docs/analyzers/crossslot.md",
	Requires: []*analysis.Analyzer{lockmodel.Analyzer},
	Run:      run,
}

var anyClient bool

func init() {
	Analyzer.Flags.BoolVar(&anyClient, "anyclient", false, "treat every client as a Redis Cluster client (redigo, rueidis and go-redis *Client too)")
}

func run(pass *analysis.Pass) (any, error) {
	m := pass.ResultOf[lockmodel.Analyzer].(*lockmodel.Model)
	if !m.Relevant() {
		return nil, nil
	}
	for _, c := range m.Calls {
		if c.Command != lockmodel.CmdEval || len(c.Keys) < 2 {
			continue
		}
		check(pass, m, c)
	}
	return nil, nil
}

func check(pass *analysis.Pass, m *lockmodel.Model, c *lockmodel.Call) {
	kind := m.ClusterClient(c)
	incr := incremented(m, c)
	isFence := func(i int) bool {
		return incr[i+1] || lockmodel.NamesFence(diag.Source(pass.Fset, c.Keys[i])) || lockmodel.NamesFence(m.KeyID(c.Keys[i]))
	}
	for i := range c.Keys {
		for j := i + 1; j < len(c.Keys); j++ {
			a, b := c.Keys[i], c.Keys[j]
			derived := false
			if same, known := m.SameSlot(a, b); same {
				continue
			} else if !known {
				// A key handed in whole cannot be read, unless the
				// package derives the other from it with no tag.
				if derived = m.UntaggedDerived(a, b); !derived {
					continue
				}
			}
			lockFence := (m.IsLockKey(c, a) && isFence(j)) || (m.IsLockKey(c, b) && isFence(i))
			if kind == "" && !anyClient && !lockFence && !(derived && m.AnyClient(c)) {
				continue
			}
			report(pass, m, c, a, b, kind, lockFence)
			return
		}
	}
}

// incremented returns the KEYS indices the script steps by one and
// whose count it returns: fence counters. A count the script keeps to
// itself (readers of a read-write lock) is no fence.
func incremented(m *lockmodel.Model, c *lockmodel.Call) map[int]bool {
	out := map[int]bool{}
	text, ok := m.ScriptText(c)
	if !ok {
		return out
	}
	for _, lc := range lockmodel.LuaCalls(text.Text) {
		if lc.Fences() && lc.Returned {
			out[lc.Key()] = true
		}
	}
	return out
}

func report(pass *analysis.Pass, m *lockmodel.Model, c *lockmodel.Call, a, b ast.Expr, kind string, lockFence bool) {
	// Which clients fail with CROSSSLOT, and why a Ring differs, is the
	// doc's; the message says what to change.
	where := "may hash to different Cluster slots"
	if kind == lockmodel.Ring {
		where = "may be on different Ring shards"
	}
	msg := fmt.Sprintf("%s and %s %s; share one {hash tag}", diag.Code(pass.Fset, a), diag.Code(pass.Fset, b), where)
	if lockFence {
		msg += ", or use " + diag.Use(m.Library(c), "WithFencing")
	}
	diag.Report(pass, analysis.Diagnostic{Pos: c.Pos(), End: c.End(), Message: msg})
}
