package lockmodel

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/ast/astutil"
)

var (
	// fenceWords name a fence counter on their own: "lock:{sku}:fence".
	fenceWords = newWords([]string{"fence", "fencing"})
	// epochWords name a counter of a lock's owners when the key also
	// names the lock: "lock:{sku}:epoch", lockKey+":seq". On a key of its
	// own ("doc:42:version") such a word is the data's version, which the
	// protected work bumps under the lock.
	epochWords = newWords([]string{"token", "epoch", "generation", "gen", "seq", "sequence", "version", "term"})
	// fenceDest name a variable or field that holds a fence:
	// fence := rdb.Incr(...).Val(), l.token = n.
	fenceDest = newWords([]string{"fence", "fencing", "token"})
)

// IsFenceCounter reports whether c, an INCR, draws a fencing token: its
// key names a fence, or names a lock and a counter of its owners, or its
// reply is stored under a fence name.
func (m *Model) IsFenceCounter(c *Call) bool {
	if c.Command != CmdIncr || m.keys == nil {
		return false
	}
	key := c.Key()
	if key != nil {
		if m.keys.names(key, fenceWords, 0, map[ast.Node]bool{}) {
			return true
		}
	}
	// A number written into the function's own lock value makes that
	// value unique: a token's part, which only a fence's name overrides.
	if m.replyInValue(c) && !fenceWords.MatchText(m.replyName(c)) {
		return false
	}
	if key != nil && m.namesEpoch(key) && m.IsLockKey(c, key) {
		return true
	}
	name := m.replyName(c)
	return name != "" && fenceDest.MatchText(name)
}

// replyInValue reports whether c's reply, through the variable it is
// assigned to, is part of the value an acquire of c's function writes
// (value := fmt.Sprintf("%s|%d", owner, n); SETNX lock value).
func (m *Model) replyInValue(c *Call) bool {
	var v types.Object
	if c.File != nil {
		path, _ := astutil.PathEnclosingInterval(c.File, c.Outer.Pos(), c.Outer.End())
		for i, n := range path {
			if n != c.Outer || i+1 >= len(path) {
				continue
			}
			if as, ok := path[i+1].(*ast.AssignStmt); ok && len(as.Rhs) == 1 && len(as.Lhs) > 0 {
				if id, ok := as.Lhs[0].(*ast.Ident); ok {
					v = m.Pass.TypesInfo.ObjectOf(id)
				}
			}
		}
	}
	if v == nil {
		return false
	}
	var mentions func(e ast.Node, depth int) bool
	mentions = func(e ast.Node, depth int) bool {
		found := false
		ast.Inspect(e, func(n ast.Node) bool {
			id, ok := n.(*ast.Ident)
			if !ok || found {
				return !found
			}
			obj := m.Pass.TypesInfo.Uses[id]
			if obj == v {
				found = true
			} else if def := m.keys.definition(obj); def != nil && depth < maxDepth {
				found = mentions(def, depth+1)
			}
			return !found
		})
		return found
	}
	for _, o := range m.Calls {
		if o.Decl == c.Decl && o.Acquires() && o.Value != nil && mentions(o.Value, 0) {
			return true
		}
	}
	return false
}

// replyName returns the name of the variable or field c's reply is stored
// into (fence, err := rdb.Incr(ctx, k).Result(); l.fence = ...; Lock{Fence:
// ...}), or "".
func (m *Model) replyName(c *Call) string {
	if c.File == nil {
		return ""
	}
	path, _ := astutil.PathEnclosingInterval(c.File, c.Outer.Pos(), c.Outer.End())
	var parent ast.Node
	for i, n := range path {
		if n == c.Outer && i+1 < len(path) {
			parent = path[i+1]
		}
	}
	nameOf := func(e ast.Expr) string {
		switch e := ast.Unparen(e).(type) {
		case *ast.Ident:
			return e.Name
		case *ast.SelectorExpr:
			return e.Sel.Name
		}
		return ""
	}
	switch p := parent.(type) {
	case *ast.AssignStmt:
		for i, r := range p.Rhs {
			if r != c.Outer {
				continue
			}
			if len(p.Lhs) == len(p.Rhs) {
				return nameOf(p.Lhs[i])
			}
			return nameOf(p.Lhs[0])
		}
	case *ast.ValueSpec:
		for i, r := range p.Values {
			if r == c.Outer && len(p.Names) > 0 {
				return p.Names[min(i, len(p.Names)-1)].Name
			}
		}
	case *ast.KeyValueExpr:
		if p.Value == c.Outer {
			return nameOf(p.Key)
		}
	}
	return ""
}

// NamesFence reports whether text (a key's source or identity) names a
// fence counter.
func NamesFence(text string) bool { return fenceWords.MatchText(text) }

// HelperSites returns the calls of c's function, when that function is
// unexported and named nowhere but in those calls, each with the
// function declaration that makes it: the fence drawn by a helper
// (acquireEpoch) is drawn where the helper is called.
func (m *Model) HelperSites(c *Call) (calls []*ast.CallExpr, in []*ast.FuncDecl) {
	if c.Decl == nil || c.Func != ast.Node(c.Decl) || c.Decl.Name.IsExported() {
		return nil, nil
	}
	fn, _ := m.Pass.TypesInfo.Defs[c.Decl.Name].(*types.Func)
	if fn == nil {
		return nil, nil
	}
	for _, s := range m.defs.onlyCalled(fn) {
		if s.fn != nil && s.fn != c.Decl {
			calls = append(calls, s.call)
			in = append(in, s.fn)
		}
	}
	return calls, in
}

// namesEpoch reports whether key names a counter of owners, itself or,
// for a parameter of a helper, in the argument every call gives it
// (acquireEpoch(ctx, leaderEpochKey(topic))).
func (m *Model) namesEpoch(key ast.Expr) bool {
	if m.keys.names(key, epochWords, 0, map[ast.Node]bool{}) {
		return true
	}
	id, ok := ast.Unparen(key).(*ast.Ident)
	if !ok {
		return false
	}
	p, ok := m.defs.params[m.Pass.TypesInfo.ObjectOf(id)]
	return ok && m.atEveryCall(p, 0, func(arg ast.Expr, _ int) bool {
		return m.keys.names(arg, epochWords, 0, map[ast.Node]bool{})
	})
}
