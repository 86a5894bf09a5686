package lockmodel

// Keys unique to one run: a name that only the run that made it can
// write, so nobody contends for it, whatever word it carries.

import (
	"go/ast"
	"go/constant"
	"go/types"
	"strings"

	"github.com/locklint/locklint/internal/typesx"
	"golang.org/x/tools/go/types/typeutil"
)

// runKey reports whether key, built in its function, has a part that the
// run building it made fresh: a random value, or a clock reading to the
// second or finer (lock:<ns>:<run start>). No other process can make
// that key, so its SET takes nothing from anyone and its DEL is the
// run's own clean-up: an in-progress marker, not a lock. A reading cut
// to a period (a day's layout, Truncate) names a slot that every run of
// the period contends for, and does not count.
func (m *Model) runKey(key ast.Expr) bool {
	if m.keys == nil || key == nil {
		return false
	}
	return m.freshPart(key, 0)
}

// freshPart is runKey at a depth. A part may be a parameter that every
// call of its unexported function fills with a fresh name: the execution
// id made per dispatch (exec-<task>-<UnixNano>) and handed to the helper
// that writes task:lock:<exec id>.
func (m *Model) freshPart(key ast.Expr, depth int) bool {
	info := m.Pass.TypesInfo
	tokens := m.Tokens()
	return m.keyParts(key, depth, func(e ast.Expr, depth int) partVerdict {
		switch e := e.(type) {
		case *ast.Ident:
			obj := info.ObjectOf(e)
			if m.counterReply(obj) {
				return partDecides
			}
			if m.keys.definition(obj) != nil {
				return partWalk
			}
			if p, ok := m.defs.params[obj]; ok && m.freshAtEveryCall(p, depth+1) {
				return partDecides
			}
			return partStop
		case *ast.CallExpr:
			if fineClock(info, e, m.keys, 0) {
				return partDecides
			}
			fn, _ := typeutil.Callee(info, e).(*types.Func)
			if fn == nil || fn.Pkg() == nil || formats(fn) {
				return partWalk
			}
			st := newTokenState(nil, false)
			if tokens.expr(e, st, 0).Origin == OriginFresh {
				return partDecides
			}
			return partStop
		}
		return partWalk
	})
}

// counterReply reports whether obj holds what an INCR or DECR returned,
// directly or as the first result of the call (n, err := ...Result()).
// Each caller sees that value once, so a key made of it is a slot nobody
// else names (stock:<award>_<count left after DECR>).
func (m *Model) counterReply(obj types.Object) bool {
	var x ast.Expr
	if v, ok := obj.(*types.Var); ok && !v.IsField() && v.Pkg() != nil && v.Parent() != v.Pkg().Scope() {
		if d, ok := m.defs.only(obj); ok {
			x = d.val
			if d.tuple != nil && d.index == 0 {
				x = d.tuple
			}
		}
	}
	for range maxDepth {
		call, ok := ast.Unparen(x).(*ast.CallExpr)
		if !ok {
			return false
		}
		if c := m.byID[call]; c != nil {
			return c.Command == CmdIncr || c.Command == CmdDecr
		}
		// The reply's accessor: rdb.Decr(ctx, k).Result() or .Val().
		sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		if !ok {
			return false
		}
		x = sel.X
	}
	return false
}

// freshAtEveryCall reports whether every call of p's function passes a
// fresh name for p: the function is unexported, named only in calls, and
// called at least once outside tests. A test's call with a fixed id
// ("exec-001") exercises the helper; it contends with no run.
func (m *Model) freshAtEveryCall(p param, depth int) bool {
	return m.atEveryCall(p, depth, m.freshPart)
}

// atEveryCall reports whether every call of p's function passes for p an
// argument of which part says: the function is unexported, named only in
// calls, and called at least once outside tests.
func (m *Model) atEveryCall(p param, depth int, part func(ast.Expr, int) bool) bool {
	if p.fn.Exported() || depth > maxDepth {
		return false
	}
	fn := p.fn.Origin()
	sites := m.defs.onlyCalled(fn)
	if sites == nil {
		return false
	}
	n := 0
	for _, s := range sites {
		if strings.HasSuffix(m.Pass.Fset.Position(s.call.Pos()).Filename, "_test.go") {
			continue
		}
		if p.index >= len(s.call.Args) || !part(s.call.Args[p.index], depth) {
			return false
		}
		n++
	}
	return n > 0
}

// runFamilies returns the families (counterFamily) whose every take in
// the package is of a run's own key: in-progress markers, whose plain
// DEL or EXPIRE elsewhere (by whoever records the run's end, with the id
// read back from a database) touches nothing another run holds.
func (m *Model) runFamilies() map[string]bool {
	var fams map[string]bool
	contended := map[string]bool{}
	for _, c := range m.Calls {
		if !(c.Acquires() || c.TakesFirst) || c.Key() == nil {
			continue
		}
		fam, ok := m.counterFamily(c.Key())
		if !ok {
			continue
		}
		if !m.runKey(c.Key()) {
			contended[fam] = true
			continue
		}
		if fams == nil {
			fams = map[string]bool{}
		}
		fams[fam] = true
	}
	for f := range contended {
		delete(fams, f)
	}
	return fams
}

// fineClock reports whether call reads time.Now to the second or finer:
// UnixNano, UnixMilli, UnixMicro, Unix, or Format with a layout that
// shows seconds, of a time.Now() reading, directly or through locals.
func fineClock(info *types.Info, call *ast.CallExpr, keys *keyIndex, depth int) bool {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok || !typesx.IsNamed(info.TypeOf(sel.X), "time", "Time") {
		return false
	}
	switch sel.Sel.Name {
	case "UnixNano", "UnixMilli", "UnixMicro", "Unix":
	case "Format":
		if len(call.Args) != 1 {
			return false
		}
		tv, ok := info.Types[call.Args[0]]
		if !ok || tv.Value == nil || tv.Value.Kind() != constant.String || !strings.Contains(constant.StringVal(tv.Value), "05") {
			return false
		}
	default:
		return false
	}
	return nowReading(info, sel.X, keys, depth)
}

// nowReading reports whether e is time.Now(), kept as it is read (UTC,
// Local, In change only its zone), directly or through locals.
func nowReading(info *types.Info, e ast.Expr, keys *keyIndex, depth int) bool {
	for ; depth <= maxDepth; depth++ {
		switch x := ast.Unparen(e).(type) {
		case *ast.Ident:
			def := keys.definition(info.ObjectOf(x))
			if def == nil {
				return false
			}
			e = def
			continue
		case *ast.CallExpr:
			fn, _ := typeutil.Callee(info, x).(*types.Func)
			if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != "time" {
				return false
			}
			switch fn.Name() {
			case "Now":
				return true
			case "UTC", "Local", "In":
				e = x.Fun.(*ast.SelectorExpr).X
				continue
			}
		}
		return false
	}
	return false
}
