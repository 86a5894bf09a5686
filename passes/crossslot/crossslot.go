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
	URL:      "https://github.com/locklint/locklint#crossslot",
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
			if same, known := m.SameSlot(a, b); same || !known {
				continue
			}
			lockFence := (m.IsLockKey(c, a) && isFence(j)) || (m.IsLockKey(c, b) && isFence(i))
			if kind == "" && !anyClient && !lockFence {
				continue
			}
			report(pass, c, a, b, kind, lockFence)
			return
		}
	}
}

// incremented returns the KEYS indices the script INCRs: fence counters.
func incremented(m *lockmodel.Model, c *lockmodel.Call) map[int]bool {
	out := map[int]bool{}
	text, ok := m.ScriptText(c)
	if !ok {
		return out
	}
	for _, lc := range lockmodel.LuaCalls(text.Text) {
		if lc.Increments() {
			out[lc.Key()] = true
		}
	}
	return out
}

func report(pass *analysis.Pass, c *lockmodel.Call, a, b ast.Expr, kind string, lockFence bool) {
	src := func(e ast.Expr) string { return diag.Source(pass.Fset, e) }
	var why string
	switch {
	case kind == lockmodel.Ring:
		why = "a Ring runs the script on the shard of the first key, where the other key may not live"
	case kind != "":
		why = fmt.Sprintf("through a %s on Redis Cluster the script fails with CROSSSLOT", kind)
	default:
		why = "on Redis Cluster the script fails with CROSSSLOT"
	}
	msg := fmt.Sprintf("keys %s and %s of this script can hash to different Cluster slots (no common {hash tag}): %s; put the part they share in braces, as in \"lock:{id}\" and \"fence:{id}\"",
		src(a), src(b), why)
	if lockFence {
		msg += ", or issue the fence with fix.Obtain and fix.WithFencing, which keeps the fence key in the lock key's slot"
	}
	diag.Report(pass, analysis.Diagnostic{Pos: c.Pos(), End: c.End(), Message: msg})
}
