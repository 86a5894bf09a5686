package lockmodel

// Claims kept: a take whose success keeps the key until its TTL, as the
// record that the work was done, and whose deletes only undo it when
// the work failed, so that the next run may retry.

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"

	"github.com/locklint/locklint/internal/typesx"
	"golang.org/x/tools/go/ast/astutil"
	"golang.org/x/tools/go/types/typeutil"
)

// claimKept reports whether d, a delete of key, undoes a claim: the key
// is taken earlier in d's function, the path that follows the take to
// the end of its statement list (the function's, or the loop body's)
// keeps it, and every delete of the key sits off that path, in a branch
// taken on a failure (onFailure: the broker said no, the confirm timed
// out). Success keeps the key
// until its TTL, as the record that the work was done; the delete lets
// the next run retry. A lock held across work is given back on that path
// too, and a lock that leaks on an early return is given back on the
// path that falls through: neither is a claim.
func (m *Model) claimKept(d *Call, key ast.Expr) bool {
	body := FuncBody(d.Func)
	if body == nil {
		return false
	}
	var take *Call
	var dels []*Call
	for _, o := range m.Calls {
		if o.Func != d.Func || o.Key() == nil || o.Queued {
			continue
		}
		switch {
		case o.Acquires() && o.Pos() < d.Pos() && m.SameKey(o, o.Key(), d, key):
			take = o
		case o.Command.IsDelete() || o.Command == CmdDelEx || o.Command == CmdEval:
			for _, k := range o.Keys {
				if m.SameKey(o, k, d, key) {
					if o.Deferred {
						return false
					}
					dels = append(dels, o)
				}
			}
		}
	}
	if take == nil || take.Stmt == nil || m.passesKey(d.Decl, d.Expr, m.KeyID(key)) {
		return false
	}
	w := m.keptWalkOf(take, dels)
	rest, ok := w.after(body)
	if !ok {
		return false
	}
	for _, o := range dels {
		if w.onTakeFailure(o) || !m.onFailure(o) && !w.givesUp(o, rest) {
			return false
		}
	}
	return w.keeps(rest, true)
}

// onTakeMiss reports whether o sits in the branch of an if on take's
// reply that runs when the take missed.
func (m *Model) onTakeMiss(take, o *Call) bool {
	if take.Stmt == nil {
		return false
	}
	return m.keptWalkOf(take, nil).onTakeFailure(o)
}

// keptWalkOf is the walk after take, with its reply named when the take
// assigns it (ok, err := rdb.SetNX(...)).
func (m *Model) keptWalkOf(take *Call, dels []*Call) *keptWalk {
	w := &keptWalk{info: m.Pass.TypesInfo, take: take, dels: dels}
	if as, ok := take.Stmt.(*ast.AssignStmt); ok && len(as.Lhs) > 0 {
		if id, ok := as.Lhs[0].(*ast.Ident); ok && id.Name != "_" {
			w.reply = w.info.ObjectOf(id)
		}
	}
	return w
}

// onTakeFailure reports whether o sits in the branch of an if on the
// take's reply that runs when the take failed: there the key is
// another's, and deleting it is no undo.
func (w *keptWalk) onTakeFailure(o *Call) bool {
	if o.File == nil {
		return false
	}
	path, _ := astutil.PathEnclosingInterval(o.File, o.Pos(), o.End())
	for i, n := range path {
		switch n := n.(type) {
		case *ast.FuncLit, *ast.FuncDecl:
			return false
		case *ast.IfStmt:
			if i == 0 || !w.mentions(n.Cond) {
				continue
			}
			pos, known := w.polarity(n.Cond)
			if known && path[i-1] == n.Body {
				return !pos
			}
			if known && path[i-1] == n.Else {
				return pos
			}
		case *ast.BlockStmt:
			if i > 0 && w.afterSuccessReturn(n, path[i-1]) {
				return true
			}
		}
	}
	return false
}

// afterSuccessReturn reports whether stmt, a statement of block, follows
// an if on the take's reply whose body runs on success and returns (if ok
// { return true }), with no else: what comes after runs only when the
// take failed.
func (w *keptWalk) afterSuccessReturn(block *ast.BlockStmt, stmt ast.Node) bool {
	for _, s := range block.List {
		if s == stmt {
			return false
		}
		ifs, ok := s.(*ast.IfStmt)
		if !ok || ifs.Pos() < w.take.End() || ifs.Else != nil || len(ifs.Body.List) == 0 || !w.mentions(ifs.Cond) {
			continue
		}
		if _, ret := ifs.Body.List[len(ifs.Body.List)-1].(*ast.ReturnStmt); !ret {
			continue
		}
		if pos, known := w.polarity(ifs.Cond); known && pos {
			return true
		}
	}
	return false
}

// givesUp reports whether o, a delete of the key, sits innermost in an
// if that the take's success reaches (an if of rest), on a condition of
// the work rather than of the take (no items to check out), whose body
// ends in a return, or in a continue of the loop whose item the take
// claimed (no rider near this order): the work cannot go on, and the
// taker gives its own fresh claim back before it leaves. A delete on the
// take's own failure (!ok) would remove another's key, and is not this.
func (w *keptWalk) givesUp(o *Call, rest []ast.Stmt) bool {
	if o.File == nil {
		return false
	}
	path, _ := astutil.PathEnclosingInterval(o.File, o.Pos(), o.End())
	for i, n := range path {
		switch n := n.(type) {
		case *ast.FuncLit, *ast.FuncDecl, *ast.CaseClause, *ast.CommClause:
			return false
		case *ast.IfStmt:
			if i == 0 || path[i-1] == n.Cond || path[i-1] == n.Init {
				continue
			}
			if path[i-1] != n.Body || len(n.Body.List) == 0 || w.mentions(n.Cond) {
				return false
			}
			cont := false
			switch last := n.Body.List[len(n.Body.List)-1].(type) {
			case *ast.ReturnStmt:
			case *ast.BranchStmt:
				if last.Tok != token.CONTINUE || last.Label != nil {
					return false
				}
				cont = true
			default:
				return false
			}
			for _, s := range rest {
				if contains(s, n) {
					// A continue must be the take's loop's: no loop
					// of the work's own lies between.
					return !cont || !inLoopWithin(path[i:], s)
				}
			}
			return false
		}
	}
	return false
}

// inLoopWithin reports whether a loop sits among the enclosing nodes in
// path (innermost first) before top is reached.
func inLoopWithin(path []ast.Node, top ast.Stmt) bool {
	for _, n := range path {
		if n == top {
			return false
		}
		switch n.(type) {
		case *ast.ForStmt, *ast.RangeStmt:
			return true
		}
	}
	return false
}

// keptWalk follows the statements after a take, looking for a path to
// their end that keeps the key.
type keptWalk struct {
	info  *types.Info
	take  *Call
	reply types.Object // the take's first result, if named
	dels  []*Call
}

// after returns the statements that run once the take succeeded: those
// after it in its list, or the body of the if whose condition is the
// take's success.
func (w *keptWalk) after(body *ast.BlockStmt) ([]ast.Stmt, bool) {
	var rest []ast.Stmt
	ok := false
	typesx.OutsideClosures(body, func(n ast.Node) (bool, bool) {
		list := typesx.Stmts(n)
		for i, s := range list {
			ifs, isIf := s.(*ast.IfStmt)
			// if ok, _ := rdb.SetNX(...); !ok { ... }: the take is the
			// if's init, its reply tested by the condition.
			inInit := isIf && ifs.Init != nil && ifs.Init == w.take.Stmt && w.mentions(ifs.Cond)
			if s != w.take.Stmt && !inInit {
				continue
			}
			if !isIf || !contains(ifs.Cond, w.take.Expr) && !inInit {
				rest, ok = list[i+1:], true
				return true, false
			}
			switch pos, known := w.polarity(ifs.Cond); {
			case known && pos:
				rest, ok = ifs.Body.List, true
			case known && ifs.Else == nil:
				rest, ok = list[i+1:], true
			}
			return true, false
		}
		return false, false
	})
	return rest, ok
}

// keeps reports whether some path through list reaches its end without
// deleting the key; top is true for the list that follows the take,
// whose last statement may end the function or the iteration.
func (w *keptWalk) keeps(list []ast.Stmt, top bool) bool {
	for i, s := range list {
		if !w.passes(s, top && i == len(list)-1) {
			return false
		}
	}
	return true
}

// passes reports whether some path through s goes on after it (or, for
// the last statement of the list after the take, ends there) without
// deleting the key.
func (w *keptWalk) passes(s ast.Stmt, last bool) bool {
	switch s := s.(type) {
	case *ast.ReturnStmt, *ast.BranchStmt:
		return last && !w.deletes(s)
	case *ast.LabeledStmt:
		return w.passes(s.Stmt, last)
	case *ast.BlockStmt:
		return w.keeps(s.List, false)
	case *ast.IfStmt:
		if w.deletes(s.Init) || w.deletes(s.Cond) {
			return false
		}
		orElse := s.Else == nil || w.passes(s.Else, false)
		if w.mentions(s.Cond) {
			switch pos, known := w.polarity(s.Cond); {
			case !known:
				return false
			case pos:
				// The success branch's own last return ends the path
				// that keeps the key (if ok { ...; return info, nil }).
				return w.keeps(s.Body.List, true)
			default:
				return orElse
			}
		}
		return w.keeps(s.Body.List, false) || orElse
	case *ast.SelectStmt:
		for _, cl := range s.Body.List {
			cc := cl.(*ast.CommClause)
			if !w.deletes(cc.Comm) && w.keeps(cc.Body, false) {
				return true
			}
		}
		return false
	case *ast.SwitchStmt, *ast.TypeSwitchStmt:
		var clauses []ast.Stmt
		if sw, ok := s.(*ast.SwitchStmt); ok {
			if w.deletes(sw.Init) || w.deletes(sw.Tag) {
				return false
			}
			clauses = sw.Body.List
		} else {
			clauses = s.(*ast.TypeSwitchStmt).Body.List
		}
		dflt := false
		for _, cl := range clauses {
			cc := cl.(*ast.CaseClause)
			dflt = dflt || cc.List == nil
			if w.keeps(cc.Body, false) {
				return true
			}
		}
		return !dflt
	case *ast.ExprStmt:
		if call, ok := ast.Unparen(s.X).(*ast.CallExpr); ok {
			if id, ok := ast.Unparen(call.Fun).(*ast.Ident); ok && id.Name == "panic" && w.info.Uses[id] == types.Universe.Lookup("panic") {
				return false
			}
		}
	}
	return !w.deletes(s)
}

// deletes reports whether n holds a delete of the key.
func (w *keptWalk) deletes(n ast.Node) bool {
	if n == nil {
		return false
	}
	for _, d := range w.dels {
		if contains(n, d.Expr) {
			return true
		}
	}
	return false
}

// mentions reports whether cond reads the take's reply or holds the take.
func (w *keptWalk) mentions(cond ast.Expr) bool {
	if contains(cond, w.take.Expr) {
		return true
	}
	return w.reply != nil && typesx.Refers(w.info, cond, w.reply)
}

// polarity says whether cond being true means the take succeeded (pos),
// when it can tell: ok, !ok, err != nil || !ok, reply == "OK", n == 1.
func (w *keptWalk) polarity(cond ast.Expr) (pos, known bool) {
	switch e := ast.Unparen(cond).(type) {
	case *ast.UnaryExpr:
		if e.Op == token.NOT {
			p, k := w.polarity(e.X)
			return !p, k
		}
	case *ast.BinaryExpr:
		switch e.Op {
		case token.LAND, token.LOR:
			for _, side := range []ast.Expr{e.X, e.Y} {
				if !w.mentions(side) {
					continue
				}
				p, k := w.polarity(side)
				// a && b true: both hold, so b's side tells (err == nil
				// && !ok: not taken); a || b true: one holds, which says
				// the take failed only if that side says so (err != nil
				// || !ok).
				if k && (e.Op == token.LAND || !p) {
					return p, true
				}
				return false, false
			}
		case token.EQL, token.NEQ:
			for _, pair := range [][2]ast.Expr{{e.X, e.Y}, {e.Y, e.X}} {
				if !w.mentions(pair[0]) || w.mentions(pair[1]) {
					continue
				}
				took, ok := w.success(pair[1])
				if !ok {
					return false, false
				}
				return took == (e.Op == token.EQL), true
			}
		}
		return false, false
	}
	if w.mentions(cond) {
		if t := w.info.TypeOf(cond); t != nil && typesx.IsBool(t) {
			return true, true
		}
	}
	return false, false
}

// success says whether a take's reply equal to v means it succeeded:
// "OK", true and 1 do; "", false, 0 and nil do not.
func (w *keptWalk) success(v ast.Expr) (took, ok bool) {
	if id, isID := ast.Unparen(v).(*ast.Ident); isID && w.info.Uses[id] == types.Universe.Lookup("nil") {
		return false, true
	}
	tv, has := w.info.Types[v]
	if !has || tv.Value == nil {
		return false, false
	}
	switch tv.Value.Kind() {
	case constant.String:
		switch constant.StringVal(tv.Value) {
		case "OK":
			return true, true
		case "":
			return false, true
		}
	case constant.Bool:
		return constant.BoolVal(tv.Value), true
	case constant.Int:
		if n, exact := constant.Int64Val(tv.Value); exact && (n == 0 || n == 1) {
			return n == 1, true
		}
	}
	return false, false
}

// contains reports whether inner lies within n.
func contains(n ast.Node, inner ast.Node) bool {
	return n.Pos() <= inner.Pos() && inner.End() <= n.End()
}

// onFailure reports whether c sits, innermost, in a branch taken when
// something failed: the body of an if on an error (err != nil), on a
// negation (!ok, !c.Ack) or on either of those joined by ||, or a
// select case that receives a timeout or a cancellation. A delete under
// a compare of the value read back (value == token) is a release.
func (m *Model) onFailure(c *Call) bool {
	if c.File == nil {
		return false
	}
	path, _ := astutil.PathEnclosingInterval(c.File, c.Pos(), c.End())
	for i, n := range path {
		switch n := n.(type) {
		case *ast.FuncLit, *ast.FuncDecl:
			return false
		case *ast.IfStmt:
			if i > 0 && path[i-1] == n.Body {
				return m.failureCond(n.Cond)
			}
			if i > 0 && path[i-1] != n.Cond && path[i-1] != n.Init {
				return false // the else branch
			}
		case *ast.CommClause:
			return m.timeoutCase(n.Comm)
		case *ast.CaseClause:
			return false
		}
	}
	return false
}

// failureCond reports whether cond holds when something failed: err !=
// nil, !ok, or a || of which one side is such.
func (m *Model) failureCond(cond ast.Expr) bool {
	switch e := ast.Unparen(cond).(type) {
	case *ast.UnaryExpr:
		return e.Op == token.NOT
	case *ast.BinaryExpr:
		if e.Op == token.LOR {
			return m.failureCond(e.X) || m.failureCond(e.Y)
		}
	}
	return m.errorCheck(cond)
}

// timeoutCase reports whether a select case receives from a timer
// (time.After, a Timer's or Ticker's C) or a context's Done.
func (m *Model) timeoutCase(comm ast.Stmt) bool {
	var recv ast.Expr
	switch s := comm.(type) {
	case *ast.ExprStmt:
		recv = s.X
	case *ast.AssignStmt:
		if len(s.Rhs) == 1 {
			recv = s.Rhs[0]
		}
	}
	u, ok := ast.Unparen(recv).(*ast.UnaryExpr)
	if !ok || u.Op != token.ARROW {
		return false
	}
	info := m.Pass.TypesInfo
	switch x := ast.Unparen(u.X).(type) {
	case *ast.CallExpr:
		fn, _ := typeutil.Callee(info, x).(*types.Func)
		if fn == nil || fn.Pkg() == nil {
			return false
		}
		if fn.Pkg().Path() == "time" && fn.Name() == "After" {
			return true
		}
		sel, ok := ast.Unparen(x.Fun).(*ast.SelectorExpr)
		return ok && fn.Name() == "Done" && typesx.HasContextMethods(info.TypeOf(sel.X))
	case *ast.SelectorExpr:
		return x.Sel.Name == "C" && (typesx.IsNamedOrPointer(info.TypeOf(x.X), "time", "Timer") || typesx.IsNamedOrPointer(info.TypeOf(x.X), "time", "Ticker"))
	}
	return false
}
