package loopbound

// Where a path from an acquire goes on its assumed outcome, and what it learns on the way.

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/cfg"

	"github.com/locklint/locklint/internal/typesx"
)

// assign records what an assignment or declaration tells about its
// variables.
func (o *outcomes) assign(n ast.Node, vars env) {
	var lhs, rhs []ast.Expr
	switch n := n.(type) {
	case *ast.AssignStmt:
		lhs, rhs = n.Lhs, n.Rhs
		if n.Tok != token.ASSIGN && n.Tok != token.DEFINE {
			for _, l := range lhs {
				if obj := o.lhsObj(l); obj != nil && o.depends(n, vars) {
					vars[obj] = tainted
				}
			}
			return
		}
	case *ast.DeclStmt:
		gd, ok := n.Decl.(*ast.GenDecl)
		if !ok {
			return
		}
		for _, s := range gd.Specs {
			if vs, ok := s.(*ast.ValueSpec); ok && len(vs.Values) > 0 {
				var l []ast.Expr
				for _, id := range vs.Names {
					l = append(l, id)
				}
				o.bind(l, vs.Values, vars)
			}
		}
		return
	default:
		return
	}
	o.bind(lhs, rhs, vars)
}

func (o *outcomes) bind(lhs, rhs []ast.Expr, vars env) {
	var vals []outcome
	switch {
	case len(lhs) == len(rhs):
		for _, r := range rhs {
			vals = append(vals, o.value(r, vars))
		}
	case len(rhs) == 1 && ast.Unparen(rhs[0]) == o.result:
		vals = o.results()
	case len(rhs) == 1:
		v := unknown
		if o.depends(rhs[0], vars) {
			v = tainted
		}
		for range lhs {
			vals = append(vals, v)
		}
	}
	for i, l := range lhs {
		if obj := o.lhsObj(l); obj != nil && i < len(vals) {
			vars[obj] = vals[i]
		}
	}
}

func (o *outcomes) lhsObj(e ast.Expr) types.Object {
	if id, ok := ast.Unparen(e).(*ast.Ident); ok {
		if obj := o.info.Defs[id]; obj != nil {
			return obj
		}
		return o.info.Uses[id]
	}
	return nil
}

// switchTags maps each case expression of a tag switch in n to the tag,
// so that a case of switch reply { case "OK": } depends on the reply.
func switchTags(n ast.Node) map[ast.Expr]ast.Expr {
	tags := map[ast.Expr]ast.Expr{}
	ast.Inspect(n, func(n ast.Node) bool {
		if s, ok := n.(*ast.SwitchStmt); ok && s.Tag != nil {
			for _, c := range s.Body.List {
				for _, e := range c.(*ast.CaseClause).List {
					tags[e] = s.Tag
				}
			}
		}
		return true
	})
	return tags
}

// reaches reports whether, on the assumed outcome of the acquire, a path
// from it within the graph's region (inside) arrives at a target block.
// A branch whose condition depends on the acquire in a way not modelled
// is not followed when looking for success (so that an unread reply
// keeps a loop a retry) and is followed both ways for failure.
func (o *outcomes) reaches(g *cfg.CFG, inside func(*cfg.Block) bool, target func(*cfg.Block) bool) bool {
	start, at := typesx.BlockOf(g, o.acquire)
	if start == nil {
		return true // not found: keep the loop a retry
	}
	// A block is walked again when a path brings other knowledge to it,
	// up to a budget; past it the answer is the one that keeps reporting.
	type visit struct {
		b   *cfg.Block
		env string
	}
	seen := map[visit]bool{}
	budget := 4 * len(g.Blocks)
	var walk func(b *cfg.Block, from int, vars env) bool
	walk = func(b *cfg.Block, from int, vars env) bool {
		if budget--; budget < 0 {
			return !o.success
		}
		for _, n := range b.Nodes[from:] {
			o.assign(n, vars)
		}
		var succs []*cfg.Block
		switch len(b.Succs) {
		case 0:
			return false
		case 1:
			succs = b.Succs
		default:
			v := unknown
			if c, ok := o.cond(b); ok {
				v = o.value(c, vars)
			}
			switch v {
			case isTrue:
				succs = b.Succs[:1]
			case isFalse:
				succs = b.Succs[1:]
			case tainted, isNil, notNil:
				// A branch that cannot leave the loop on either side
				// (sleep or not before the next pass) decides nothing.
				if o.success && canLeave(b.Succs, inside, target) {
					return false
				}
				succs = b.Succs
			default:
				succs = b.Succs
			}
		}
		for _, s := range succs {
			if target(s) && o.enters(s, vars) {
				return true
			}
			v := visit{s, vars.key()}
			if s == start || seen[v] || !inside(s) {
				continue
			}
			seen[v] = true
			if walk(s, 0, vars.clone()) {
				return true
			}
		}
		return false
	}
	return walk(start, at, env{})
}

// canLeave reports whether a path from one of from, within the region
// and short of a target block, leaves the region or ends (a return, a
// panic).
func canLeave(from []*cfg.Block, inside, target func(*cfg.Block) bool) bool {
	seen := map[*cfg.Block]bool{}
	stack := slices.Clone(from)
	for len(stack) > 0 {
		b := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[b] || target(b) {
			continue
		}
		seen[b] = true
		if !inside(b) || len(b.Succs) == 0 {
			return true
		}
		stack = append(stack, b.Succs...)
	}
	return false
}

// enters reports whether arriving at target goes on into it: a loop
// header whose condition the path has settled to false (for !locked,
// after locked = true) ends the loop instead.
func (o *outcomes) enters(target *cfg.Block, vars env) bool {
	if target.Kind != cfg.KindForLoop || len(target.Succs) != 2 {
		return true
	}
	c, ok := o.cond(target)
	if !ok {
		return true
	}
	vars = vars.clone()
	for _, n := range target.Nodes[:len(target.Nodes)-1] {
		o.assign(n, vars)
	}
	switch o.value(c, vars) {
	case isFalse:
		return false
	case unknown, isTrue:
		return true
	}
	return !o.success
}

// cond returns the boolean a two-way block branches on: its last node,
// or tag == case for a tag switch.
func (o *outcomes) cond(b *cfg.Block) (ast.Expr, bool) {
	if len(b.Nodes) == 0 || b.Succs[0].Kind == cfg.KindSelectCaseBody {
		return nil, false
	}
	e, ok := b.Nodes[len(b.Nodes)-1].(ast.Expr)
	if !ok {
		return nil, false
	}
	if tag, ok := o.tags[e]; ok {
		return &ast.BinaryExpr{X: tag, Op: token.EQL, Y: e}, true
	}
	return e, true
}
