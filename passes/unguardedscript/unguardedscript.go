package unguardedscript

import (
	_ "embed"
	"fmt"
	"go/token"

	"golang.org/x/tools/go/analysis"

	"github.com/locklint/locklint/analyzer/diag"
	"github.com/locklint/locklint/analyzer/lockmodel"
)

//go:embed doc.go
var doc string

// Analyzer reports lock keys deleted or renewed by a Lua script with no
// owner check.
var Analyzer = &analysis.Analyzer{
	Name:     "unguardedscript",
	Doc:      diag.Doc(doc),
	URL:      "https://github.com/locklint/locklint/blob/main/docs/analyzers/unguardedscript.md",
	Requires: []*analysis.Analyzer{lockmodel.Analyzer},
	Run:      run,
}

var tests bool

func init() {
	Analyzer.Flags.BoolVar(&tests, "tests", false, "also report scripts run from _test.go files")
}

type place struct {
	at   token.Pos
	lua  int
	key  int
	file string
}

func run(pass *analysis.Pass) (any, error) {
	m := pass.ResultOf[lockmodel.Analyzer].(*lockmodel.Model)
	if !m.Relevant() {
		return nil, nil
	}
	seen := map[place]bool{}
	for _, c := range m.Calls {
		if c.Command != lockmodel.CmdEval || (!tests && m.IsTestFile(c)) {
			continue
		}
		text, ok := m.ScriptText(c)
		if !ok {
			continue
		}
		calls := lockmodel.LuaCalls(text.Text)
		for _, w := range calls {
			var verb string
			switch {
			case w.Removes():
				verb = "removes"
			case w.Extends():
				verb = "extends"
			default:
				continue
			}
			for i, k := range w.Keys {
				if k == 0 || (i > 0 && verb == "extends") {
					continue
				}
				if lockmodel.LuaChecked(calls, w, k) || checkedAlias(m, c, calls, w, k) || acquiredBefore(calls, w, k) || companion(m, c, calls, w, k) || verb == "extends" && (countedBefore(calls, w, k) || collection(calls, k)) {
					continue
				}
				why, ok := lockish(m, c, calls, w, i, k)
				if !ok {
					continue
				}
				p := place{text.At.Pos(), w.At, k, text.File}
				if seen[p] {
					continue
				}
				seen[p] = true
				report(pass, text, w, k, why)
			}
		}
	}
	return nil, nil
}

// checkedAlias reports whether the script checks the owner on another
// KEYS index that this call passes the same key for: a script written for
// a lock and a separate lease key, run with one key in both places.
func checkedAlias(m *lockmodel.Model, c *lockmodel.Call, calls []*lockmodel.LuaCall, w *lockmodel.LuaCall, k int) bool {
	if k > len(c.Keys) {
		return false
	}
	for _, g := range calls {
		j := g.Key()
		if !g.ReadsOwner() || j == 0 || j == k || j > len(c.Keys) || g.CheckedAt < 0 || g.CheckedAt >= w.At {
			continue
		}
		if m.SameKey(c, c.Keys[j-1], c, c.Keys[k-1]) {
			return true
		}
	}
	return false
}

// acquiredBefore reports whether the script took key k itself before w:
// SETNX then EXPIRE, or EXISTS then SET then PEXPIRE, in one script is
// one atomic step.
func acquiredBefore(calls []*lockmodel.LuaCall, w *lockmodel.LuaCall, k int) bool {
	for i, a := range calls {
		if a.At < w.At && a.Key() == k && lockmodel.LuaAcquires(calls, i) {
			return true
		}
	}
	return false
}

// companion reports whether KEYS[k] is a record kept beside the lock at
// another key, and w runs under that lock's owner check: the script
// takes the other key (SET NX) and writes KEYS[k] only with plain SETs,
// and nothing in the package takes KEYS[k] itself (a ticket's key naming
// the seat its ticket holds, deleted with the seat's hold once the
// seat's owner is checked).
func companion(m *lockmodel.Model, c *lockmodel.Call, calls []*lockmodel.LuaCall, w *lockmodel.LuaCall, k int) bool {
	if k > len(c.Keys) {
		return false
	}
	written := false
	for i, a := range calls {
		if a.Key() != k {
			continue
		}
		if lockmodel.LuaAcquires(calls, i) {
			return false
		}
		written = written || a.Stores()
	}
	if !written || m.TakenElsewhere(c, c.Keys[k-1]) {
		return false
	}
	for i, a := range calls {
		j := a.Key()
		if j > 0 && j != k && lockmodel.LuaAcquires(calls, i) && lockmodel.LuaChecked(calls, w, j) {
			return true
		}
	}
	return false
}

// countedBefore reports whether the script INCRs key k before w: a
// counter's TTL (a sequence, a rate window), which no holder owns.
func countedBefore(calls []*lockmodel.LuaCall, w *lockmodel.LuaCall, k int) bool {
	for _, a := range calls {
		if a.At < w.At && a.Key() == k && a.Increments() {
			return true
		}
	}
	return false
}

// collection reports whether the script keeps members at key k (a
// sorted set of leases, a list): the key's TTL is the collection's, which
// no one holder owns, and extending it extends nobody's lock.
func collection(calls []*lockmodel.LuaCall, k int) bool {
	for _, a := range calls {
		if a.Key() == k && a.Collects() {
			return true
		}
	}
	return false
}

// lockish tells why KEYS[k], argument i of w, is a lock, if it is one.
func lockish(m *lockmodel.Model, c *lockmodel.Call, calls []*lockmodel.LuaCall, w *lockmodel.LuaCall, i, k int) (string, bool) {
	if k <= len(c.Keys) && m.IsLockKey(c, c.Keys[k-1]) {
		return "lock key " + diag.KeyText(m, c, c.Keys[k-1]), true
	}
	for j, a := range calls {
		if a.Key() == k && lockmodel.LuaAcquires(calls, j) {
			return fmt.Sprintf("acquired with %s on Lua line %d", a.Command, a.Line), true
		}
	}
	if n := w.Names[i]; n != "" && m.Words.MatchText(n) {
		return "lock key " + diag.Quote(n), true
	}
	return "", false
}

func report(pass *analysis.Pass, text lockmodel.ScriptText, w *lockmodel.LuaCall, k int, why string) {
	where := fmt.Sprintf("Lua line %d", w.Line)
	if text.File != "" {
		where = fmt.Sprintf("%s:%d", text.File, w.Line)
	}
	// Why an unchecked write in a script still removes or extends the
	// next holder's lock is the doc's.
	msg := fmt.Sprintf("%s: %s of KEYS[%d] (%s) with no owner check; compare GET KEYS[%d] to the token first",
		where, w.Command, k, why, k)
	diag.Report(pass, analysis.Diagnostic{Pos: text.At.Pos(), End: text.At.End(), Message: msg})
}
