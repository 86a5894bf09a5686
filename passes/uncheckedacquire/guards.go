package uncheckedacquire

// Whether a check guards the work: a reply that only chooses a defer, a
// not-obtained error that is only logged, an acquire with no work after
// it.

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ast/astutil"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/locklint/locklint/analyzer/lockmodel"
	"github.com/locklint/locklint/internal/typesx"
)

// onlyChoosesDefer reports whether every read of the reply is the
// condition of an if whose branches only defer (the release): the work
// after the if runs on both branches.
func onlyChoosesDefer(file *ast.File, ids []*ast.Ident) bool {
	if len(ids) == 0 {
		return false
	}
	for _, id := range ids {
		path, _ := astutil.PathEnclosingInterval(file, id.Pos(), id.End())
		var ifs *ast.IfStmt
		for _, n := range path {
			if s, ok := n.(*ast.IfStmt); ok {
				ifs = s
				break
			}
			if _, ok := n.(ast.Stmt); ok {
				return false
			}
		}
		if ifs == nil || !(ifs.Cond.Pos() <= id.Pos() && id.End() <= ifs.Cond.End()) {
			return false
		}
		if !defersOnly(ifs.Body) {
			return false
		}
		switch e := ifs.Else.(type) {
		case nil:
		case *ast.BlockStmt:
			if !defersOnly(e) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

func defersOnly(b *ast.BlockStmt) bool {
	if len(b.List) == 0 {
		return false
	}
	for _, s := range b.List {
		if _, ok := s.(*ast.DeferStmt); !ok {
			return false
		}
	}
	return true
}

// workAfter reports whether anything but a return follows the statement
// that holds the acquire, in its block or an enclosing one of its
// function: a set-if-absent followed by a return guards nothing. A pause
// followed by continue (a leader loop's back-off before it tries again)
// leads back to the acquire, not into work.
func workAfter(info *types.Info, parents []ast.Node, at token.Pos) bool {
	for _, n := range parents {
		switch n.(type) {
		case *ast.FuncDecl, *ast.FuncLit:
			return false
		}
		for _, s := range typesx.Stmts(n) {
			if s.Pos() <= at {
				continue
			}
			switch s := s.(type) {
			case *ast.ReturnStmt, *ast.EmptyStmt:
			case *ast.BranchStmt:
				if s.Tok == token.CONTINUE {
					return false
				}
				return true
			default:
				if !pause(info, s) {
					return true
				}
			}
		}
	}
	return false
}

// pause reports whether s only waits: time.Sleep, or a select whose
// every case receives and then returns or goes on.
func pause(info *types.Info, s ast.Stmt) bool {
	switch s := s.(type) {
	case *ast.ExprStmt:
		call, ok := ast.Unparen(s.X).(*ast.CallExpr)
		if !ok {
			return false
		}
		fn, _ := typeutil.Callee(info, call).(*types.Func)
		return typesx.IsTimeFunc(fn, "Sleep")
	case *ast.SelectStmt:
		for _, c := range s.Body.List {
			cc := c.(*ast.CommClause)
			if _, send := cc.Comm.(*ast.SendStmt); send {
				return false
			}
			for _, b := range cc.Body {
				switch b.(type) {
				case *ast.ReturnStmt, *ast.EmptyStmt:
				default:
					return false
				}
			}
		}
		return true
	}
	return false
}

// loggedOnly reports whether id, a read of an acquire's error, is the test
// of an if that holds when another holds the lock (err ==
// ErrNotObtained, errors.Is(err, ErrNotObtained)) whose body only calls
// something that returns, a log line, with work after the if: the branch
// falls through into the work. An err != nil that an earlier branch's
// not-obtained test precedes (if err == ErrNotObtained { return } else if
// err != nil { log... }) holds only for the other errors: othersLogged.
func loggedOnly(info *types.Info, m *lockmodel.Model, file *ast.File, id *ast.Ident) bool {
	test, held := notObtainedTest(info, m, file, id)
	if test == nil {
		// err != nil holds for every failure, the held lock's among them.
		test, held = nonNilTest(info, file, id), true
		if test != nil && afterHeldTest(info, m, file, id, test) {
			return false
		}
	}
	return test != nil && held && logsThrough(m, file, test)
}

// othersLogged reports whether id is the err != nil of an else-if whose
// if tested the not-obtained error first, and whose body only logs, with
// work after: the other errors run the work without the lock.
func othersLogged(info *types.Info, m *lockmodel.Model, file *ast.File, id *ast.Ident) bool {
	test := nonNilTest(info, file, id)
	return test != nil && afterHeldTest(info, m, file, id, test) && logsThrough(m, file, test)
}

// afterHeldTest reports whether test is the condition of an else-if whose
// if holds, for id's variable, when another holds the lock.
func afterHeldTest(info *types.Info, m *lockmodel.Model, file *ast.File, id *ast.Ident, test ast.Expr) bool {
	path, _ := astutil.PathEnclosingInterval(file, test.Pos(), test.End())
	i := slices.Index(path, ast.Node(test))
	if i < 0 || i+2 >= len(path) {
		return false
	}
	ifs, ok := path[i+1].(*ast.IfStmt)
	if !ok || ifs.Cond != test {
		return false
	}
	prev, ok := path[i+2].(*ast.IfStmt)
	if !ok || prev.Else != ast.Stmt(ifs) {
		return false
	}
	obj := info.Uses[id]
	found := false
	ast.Inspect(prev.Cond, func(n ast.Node) bool {
		if r, ok := n.(*ast.Ident); ok && !found && obj != nil && info.Uses[r] == obj {
			if t, held := notObtainedTest(info, m, file, r); t != nil && held {
				found = true
			}
		}
		return !found
	})
	return found
}

// logsThrough reports whether test is the condition of an if whose body
// only calls things that return (log lines), with work after the if.
func logsThrough(m *lockmodel.Model, file *ast.File, test ast.Expr) bool {
	path, _ := astutil.PathEnclosingInterval(file, test.Pos(), test.End())
	i := slices.Index(path, ast.Node(test))
	if i < 0 || i+2 > len(path) {
		return false
	}
	// switch { case errors.Is(err, ErrNotObtained): log(...) }: the
	// case's body, then the work after the switch.
	if cc, ok := path[i+1].(*ast.CaseClause); ok && i+3 < len(path) {
		sw, ok := path[i+3].(*ast.SwitchStmt)
		if !ok || sw.Tag != nil || sw.Init != nil || len(cc.List) != 1 || cc.List[0] != test || !onlyCalls(m, cc.Body) {
			return false
		}
		return workAfter(m.Pass.TypesInfo, path[i+4:], sw.End())
	}
	ifs, ok := path[i+1].(*ast.IfStmt)
	if !ok || ifs.Cond != test || !onlyCalls(m, ifs.Body.List) {
		return false
	}
	// An else-if's work is after its outermost if.
	j := i + 2
	for j < len(path) {
		if p, ok := path[j].(*ast.IfStmt); ok && p.Else == path[j-1] {
			j++
			continue
		}
		break
	}
	return workAfter(m.Pass.TypesInfo, path[j:], path[j-1].End())
}

// onlyCalls reports whether list is one or more calls that return (log
// lines) and nothing else.
func onlyCalls(m *lockmodel.Model, list []ast.Stmt) bool {
	if len(list) == 0 {
		return false
	}
	for _, s := range list {
		es, ok := s.(*ast.ExprStmt)
		if !ok {
			return false
		}
		call, ok := ast.Unparen(es.X).(*ast.CallExpr)
		if !ok || m.NoReturn(call) {
			return false
		}
	}
	return true
}

// notObtainedTest returns the test that id, a read of an acquire's error,
// is an operand of when it only compares it with the not-obtained error
// (errors.Is(err, ErrNotObtained), err == ErrNotObtained or !=), and
// whether the test holds when another holds the lock; nil otherwise.
func notObtainedTest(info *types.Info, m *lockmodel.Model, file *ast.File, id *ast.Ident) (ast.Expr, bool) {
	path, _ := astutil.PathEnclosingInterval(file, id.Pos(), id.End())
	if len(path) < 2 {
		return nil, false
	}
	isSentinel := m.NamesNotObtained
	switch p := path[1].(type) {
	case *ast.BinaryExpr:
		if (p.Op == token.EQL || p.Op == token.NEQ) && (isSentinel(p.X) || isSentinel(p.Y)) {
			return p, p.Op == token.EQL
		}
	case *ast.CallExpr:
		fn, _ := typeutil.Callee(info, p).(*types.Func)
		if fn != nil && fn.Pkg() != nil && fn.Pkg().Path() == "errors" && fn.Name() == "Is" &&
			len(p.Args) == 2 && p.Args[0] == ast.Expr(id) && isSentinel(p.Args[1]) {
			return p, true
		}
	}
	return nil, false
}

// releaseIfs returns the reads of the reply that are the whole test of an
// if with no else whose body only releases (if locked { Unlock(key) }),
// by a function that drops a key, deferred or not, its error handled or
// not.
func releaseIfs(info *types.Info, file *ast.File, at ast.Node, ids []*ast.Ident, drops func(*types.Func) bool) map[*ast.Ident]bool {
	acq, _ := at.(*ast.CallExpr)
	releases := func(e ast.Expr) bool {
		call, ok := ast.Unparen(e).(*ast.CallExpr)
		if !ok {
			return false
		}
		fn, _ := typeutil.Callee(info, call).(*types.Func)
		return drops(fn) && givesBack(info, call, acq)
	}
	onlyReleases := func(b *ast.BlockStmt) bool {
		if len(b.List) == 0 {
			return false
		}
		for _, s := range b.List {
			switch s := s.(type) {
			case *ast.ExprStmt:
				if !releases(s.X) {
					return false
				}
			case *ast.DeferStmt:
				if !releases(s.Call) {
					return false
				}
			case *ast.AssignStmt:
				if len(s.Rhs) != 1 || !releases(s.Rhs[0]) {
					return false
				}
			case *ast.IfStmt:
				// if err := Unlock(key); err != nil { log(err) }
				init, ok := s.Init.(*ast.AssignStmt)
				if !ok || len(init.Rhs) != 1 || !releases(init.Rhs[0]) || s.Else != nil {
					return false
				}
			default:
				return false
			}
		}
		return true
	}
	out := map[*ast.Ident]bool{}
	for _, id := range ids {
		path, _ := astutil.PathEnclosingInterval(file, id.Pos(), id.End())
		if len(path) < 2 {
			continue
		}
		if ifs, ok := path[1].(*ast.IfStmt); ok && ifs.Cond == ast.Expr(id) && ifs.Else == nil && onlyReleases(ifs.Body) {
			out[id] = true
		}
	}
	return out
}

// missFallsThrough returns the if whose test of the reply holds on a miss
// (if !ok, ok == false) when its body can end without leaving and work
// follows it: the branch for a lock held elsewhere runs on into the work
// (the event is re-enqueued, then processed anyway). Every other read of
// the reply must be one of rel (it only chooses the release). The body
// must not assign the reply (a retry that takes the lock).
func missFallsThrough(info *types.Info, m *lockmodel.Model, file *ast.File, reply *types.Var, ids []*ast.Ident, rel map[*ast.Ident]bool) *ast.IfStmt {
	var miss *ast.IfStmt
	for _, id := range ids {
		if rel[id] {
			continue
		}
		path, _ := astutil.PathEnclosingInterval(file, id.Pos(), id.End())
		if len(path) < 3 {
			return nil
		}
		test, ok := path[1].(ast.Expr)
		if !ok || !holdsOnMiss(test, id) {
			return nil
		}
		ifs, ok := path[2].(*ast.IfStmt)
		if !ok || ifs.Cond != test || ifs.Else != nil || miss != nil || assigns(info, ifs.Body, reply) || !fallsThrough(m, ifs.Body) {
			return nil
		}
		if !workAfter(info, path[3:], ifs.End()) {
			return nil
		}
		miss = ifs
	}
	return miss
}

// holdsOnMiss reports whether test, an operand of which is id, is !id,
// id == false or false == id.
func holdsOnMiss(test ast.Expr, id *ast.Ident) bool {
	isFalse := func(e ast.Expr) bool {
		f, ok := ast.Unparen(e).(*ast.Ident)
		return ok && f.Name == "false"
	}
	switch t := test.(type) {
	case *ast.UnaryExpr:
		return t.Op == token.NOT && ast.Unparen(t.X) == ast.Expr(id)
	case *ast.BinaryExpr:
		return t.Op == token.EQL && (t.X == ast.Expr(id) && isFalse(t.Y) || t.Y == ast.Expr(id) && isFalse(t.X))
	}
	return false
}

// assigns reports whether n assigns v.
func assigns(info *types.Info, n ast.Node, v *types.Var) bool {
	found := false
	ast.Inspect(n, func(n ast.Node) bool {
		if a, ok := n.(*ast.AssignStmt); ok {
			for _, l := range a.Lhs {
				if id, ok := ast.Unparen(l).(*ast.Ident); ok && info.ObjectOf(id) == v {
					found = true
				}
			}
		}
		return !found
	})
	return found
}

// fallsThrough reports whether the block can end without leaving its
// function or loop: its last statement is a simple one, or an if one of
// whose ways falls through. Other statements (a loop, a switch, a
// labelled one) are taken to leave: when unsure, stay silent.
func fallsThrough(m *lockmodel.Model, b *ast.BlockStmt) bool {
	if len(b.List) == 0 {
		return true
	}
	switch s := b.List[len(b.List)-1].(type) {
	case *ast.ExprStmt:
		call, ok := ast.Unparen(s.X).(*ast.CallExpr)
		return !ok || !m.NoReturn(call)
	case *ast.AssignStmt, *ast.IncDecStmt, *ast.DeclStmt, *ast.SendStmt, *ast.GoStmt, *ast.DeferStmt, *ast.EmptyStmt:
		return true
	case *ast.BlockStmt:
		return fallsThrough(m, s)
	case *ast.IfStmt:
		switch e := s.Else.(type) {
		case nil:
			return true
		case *ast.BlockStmt:
			return fallsThrough(m, s.Body) || fallsThrough(m, e)
		case *ast.IfStmt:
			return fallsThrough(m, s.Body) || fallsThrough(m, &ast.BlockStmt{List: []ast.Stmt{e}})
		}
	}
	return false
}

// nonNilTest returns the test err != nil that id, a read of an acquire's
// error, is an operand of; nil otherwise.
func nonNilTest(info *types.Info, file *ast.File, id *ast.Ident) ast.Expr {
	path, _ := astutil.PathEnclosingInterval(file, id.Pos(), id.End())
	if len(path) < 2 {
		return nil
	}
	b, ok := path[1].(*ast.BinaryExpr)
	if !ok || b.Op != token.NEQ {
		return nil
	}
	if info.Types[b.X].IsNil() || info.Types[b.Y].IsNil() {
		return b
	}
	return nil
}

// missLetThrough reports an if whose test, err != nil && err !=
// ErrNotObtained (or !errors.Is(err, ErrNotObtained)), reads id and
// leaves the function on every error but the miss, when no other read of
// the error asks for the miss (ids are every read): a held lock runs the
// code after the if.
func missLetThrough(info *types.Info, m *lockmodel.Model, file *ast.File, id *ast.Ident, ids []*ast.Ident) bool {
	if nonNilTest(info, file, id) == nil {
		return false
	}
	path, _ := astutil.PathEnclosingInterval(file, id.Pos(), id.End())
	v := info.Uses[id]
	excluded := false
	var ifs *ast.IfStmt
	for _, n := range path[1:] {
		switch n := n.(type) {
		case *ast.BinaryExpr:
			if n.Op != token.LAND && n != path[1] {
				return false
			}
			for _, side := range []ast.Expr{n.X, n.Y} {
				excluded = excluded || excludesMiss(info, m, side, v)
			}
			continue
		case *ast.ParenExpr:
			continue
		case *ast.IfStmt:
			ifs = n
		}
		break
	}
	if ifs == nil || !excluded || ifs.Else != nil || len(ifs.Body.List) == 0 {
		return false
	}
	if _, ok := ifs.Body.List[len(ifs.Body.List)-1].(*ast.ReturnStmt); !ok {
		return false
	}
	for _, o := range ids {
		if o.Pos() >= ifs.Cond.Pos() && o.End() <= ifs.Cond.End() {
			continue
		}
		if _, eq := notObtainedTest(info, m, file, o); eq {
			return false
		}
	}
	return true
}

// excludesMiss reports whether e is err != ErrNotObtained or
// !errors.Is(err, ErrNotObtained), for err the variable v.
func excludesMiss(info *types.Info, m *lockmodel.Model, e ast.Expr, v types.Object) bool {
	isSentinel := m.NamesNotObtained
	isV := func(e ast.Expr) bool {
		id, ok := ast.Unparen(e).(*ast.Ident)
		return ok && info.Uses[id] == v
	}
	switch e := ast.Unparen(e).(type) {
	case *ast.BinaryExpr:
		return e.Op == token.NEQ && (isV(e.X) && isSentinel(e.Y) || isSentinel(e.X) && isV(e.Y))
	case *ast.UnaryExpr:
		call, ok := ast.Unparen(e.X).(*ast.CallExpr)
		if e.Op != token.NOT || !ok || len(call.Args) != 2 {
			return false
		}
		fn, _ := typeutil.Callee(info, call).(*types.Func)
		return fn != nil && fn.Pkg() != nil && fn.Pkg().Path() == "errors" && fn.Name() == "Is" && isV(call.Args[0]) && isSentinel(call.Args[1])
	}
	return false
}

// givesBack reports whether rel, a call of a function that deletes a key,
// may give back what acq took: it passes one of acq's arguments (a
// context aside), is a method of acq's handle, or names nothing to tell
// (no argument but a context). A sweep that deletes other keys
// (cleanupExpired(ctx, now)) gives back nothing.
func givesBack(info *types.Info, rel, acq *ast.CallExpr) bool {
	if acq == nil {
		return true
	}
	if h := handleOf(info, rel); h != nil && h == handleOf(info, acq) {
		return true
	}
	args := 0
	for _, a := range rel.Args {
		if typesx.IsContext(info.TypeOf(a)) {
			continue
		}
		args++
		for _, b := range acq.Args {
			if sameArg(info, a, b) {
				return true
			}
		}
	}
	return args == 0
}

// sameArg reports whether a and b name the same variable, or read alike.
func sameArg(info *types.Info, a, b ast.Expr) bool {
	ia, okA := ast.Unparen(a).(*ast.Ident)
	ib, okB := ast.Unparen(b).(*ast.Ident)
	if okA && okB {
		return info.Uses[ia] != nil && info.Uses[ia] == info.Uses[ib]
	}
	return types.ExprString(a) == types.ExprString(b)
}
