package loopbound

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/cfg"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/locklint/locklint/analyzer/lockmodel"
	"github.com/locklint/locklint/internal/typesx"
)

// recursions finds functions that retry a failed acquire by calling
// themselves: the call is the loop's back edge, and the same bounds
// apply (an attempt parameter the call steps, a context, a deadline it
// passes on).
func recursions(pass *analysis.Pass, m *lockmodel.Model, acq *lockmodel.Acquisitions, sums *summaries, redis func(*ast.CallExpr) bool) []*Recursion {
	info := pass.TypesInfo
	var out []*Recursion
	for _, f := range pass.Files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			fn, _ := info.Defs[fd.Name].(*types.Func)
			if fn == nil {
				continue
			}
			selfs := selfCalls(info, fn, fd.Body)
			if len(selfs) == 0 {
				continue
			}
			tries := attempts(pass, m, acq, fd.Body)
			if len(tries) == 0 {
				continue
			}
			g := m.Graph(fd.Body)
			isSelf := func(b *cfg.Block) bool {
				for _, n := range b.Nodes {
					for _, c := range selfs {
						if n.Pos() <= c.Pos() && c.End() <= n.End() {
							return true
						}
					}
				}
				return false
			}
			all := func(*cfg.Block) bool { return true }
			tags := switchTags(fd.Body)
			var retried *ast.CallExpr
			for _, t := range tries {
				if newOutcomes(m, t, tags, true).reaches(g, all, isSelf) {
					continue // it recurses after success too: a walk, not a retry
				}
				// A call of itself on an error retries as well: while
				// Redis is down, forever, and the stack grows.
				if newOutcomes(m, t, tags, false).reaches(g, all, isSelf) || newErrorOutcomes(m, t, tags).reaches(g, all, isSelf) {
					retried = t
					break
				}
			}
			if retried == nil || stateSteps(info, fn, fd.Body, selfs) {
				continue
			}
			sc := newScope(pass, fd.Body, fd.Body, nil, redis, sums)
			sig := fn.Type().(*types.Signature)
			for _, c := range selfs {
				for i, a := range c.Args {
					if i < sig.Params().Len() {
						if p := sig.Params().At(i); steps(info, a, p) {
							sc.counters[p] = true
						}
					}
				}
			}
			out = append(out, &Recursion{Decl: fd, Self: selfs[0], Retried: retried, By: recursionBounded(g, sc, isSelf)})
		}
	}
	return out
}

// selfCalls returns the calls of fn in body, outside function literals.
func selfCalls(info *types.Info, fn *types.Func, body *ast.BlockStmt) []*ast.CallExpr {
	var out []*ast.CallExpr
	typesx.OutsideClosures(body, func(n ast.Node) (bool, bool) {
		if call, ok := n.(*ast.CallExpr); ok {
			if c, ok := typeutil.Callee(info, call).(*types.Func); ok && c.Origin() == fn {
				out = append(out, call)
			}
		}
		return false, false
	})
	return out
}

// stateSteps reports whether every call of itself passes, for a
// parameter the body switches or branches on, another value than the
// one it was given: each call moves to another state (a fallback to a
// plan the function handles otherwise), which the pass cannot bound and
// which is not the same attempt again. A context is no state: a call
// with a fresh one is a retry.
func stateSteps(info *types.Info, fn *types.Func, body *ast.BlockStmt, selfs []*ast.CallExpr) bool {
	params := fn.Type().(*types.Signature).Params()
	branched := map[types.Object]bool{}
	mark := func(e ast.Expr) {
		ast.Inspect(e, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok {
				branched[info.Uses[id]] = true
			}
			return true
		})
	}
	typesx.OutsideClosures(body, func(n ast.Node) (bool, bool) {
		switch n := n.(type) {
		case *ast.SwitchStmt:
			if n.Tag != nil {
				mark(n.Tag)
			}
		case *ast.IfStmt:
			mark(n.Cond)
		}
		return false, false
	})
	for _, c := range selfs {
		moved := false
		for i, a := range c.Args {
			if i >= params.Len() || c.Ellipsis.IsValid() {
				break
			}
			p := params.At(i)
			if typesx.IsContext(p.Type()) || !branched[p] || steps(info, a, p) {
				continue
			}
			if id, ok := ast.Unparen(a).(*ast.Ident); !ok || info.Uses[id] != p {
				moved = true
			}
		}
		if !moved {
			return false
		}
	}
	return len(selfs) > 0
}

// steps reports whether a is p ± n: the call passes the next attempt.
func steps(info *types.Info, a ast.Expr, p *types.Var) bool {
	bin, ok := ast.Unparen(a).(*ast.BinaryExpr)
	if !ok || (bin.Op != token.ADD && bin.Op != token.SUB) {
		return false
	}
	return varOf(info, bin.X) == p || varOf(info, bin.Y) == p
}

// recursionBounded returns the bound on a branch that decides between
// calling itself again and not; Nothing when no such branch is one.
func recursionBounded(g *cfg.CFG, sc *scope, isSelf func(*cfg.Block) bool) By {
	memo := map[*cfg.Block]bool{}
	var reach func(b *cfg.Block, seen map[*cfg.Block]bool) bool
	reach = func(b *cfg.Block, seen map[*cfg.Block]bool) bool {
		if v, ok := memo[b]; ok {
			return v
		}
		if seen[b] {
			return false
		}
		seen[b] = true
		r := isSelf(b)
		for _, s := range b.Succs {
			r = r || reach(s, seen)
		}
		if r {
			memo[b] = true
		}
		return r
	}
	for _, b := range g.Blocks {
		if !b.Live || len(b.Succs) != 2 {
			continue
		}
		if reach(b.Succs[0], map[*cfg.Block]bool{}) == reach(b.Succs[1], map[*cfg.Block]bool{}) {
			continue
		}
		if c := condOf(b); c != nil {
			if by := sc.isBound(c); by != Nothing {
				return by
			}
		}
	}
	return Nothing
}
