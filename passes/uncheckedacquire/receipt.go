package uncheckedacquire

// What the code does with an acquire's result: where it goes, the
// variables that take its reply and its error, and where they are read.

import (
	"go/ast"
	"go/token"
	"go/types"
)

// receipt is what the code does with a result: where it goes, and the
// variables that take its reply and its error.
type receipt struct {
	discarded bool // a statement of its own, or assigned to _ only
	returned  bool // the operand of a return statement
	elsewhere bool // used in an expression, stored, or sent: the code has it
	reply     *types.Var
	err       *types.Var
	replyAny  bool // some part other than the error is received at all
}

// receive reads what happens to r, whose enclosing nodes are parents.
func receive(info *types.Info, r ast.Expr, parents []ast.Node) receipt {
	if len(parents) == 0 {
		return receipt{elsewhere: true}
	}
	var lhs []ast.Expr
	switch p := parents[0].(type) {
	case *ast.ExprStmt:
		return receipt{discarded: true}
	case *ast.ReturnStmt:
		return receipt{returned: true}
	case *ast.AssignStmt:
		if len(p.Rhs) != 1 || p.Rhs[0] != r {
			return receipt{elsewhere: true}
		}
		lhs = p.Lhs
	case *ast.ValueSpec:
		if len(p.Values) != 1 || p.Values[0] != r {
			return receipt{elsewhere: true}
		}
		for _, n := range p.Names {
			lhs = append(lhs, n)
		}
	default:
		return receipt{elsewhere: true}
	}
	var rc receipt
	types_ := resultTypes(info.TypeOf(r))
	if len(types_) != len(lhs) {
		return receipt{elsewhere: true}
	}
	blank := true
	for i, l := range lhs {
		id, ok := ast.Unparen(l).(*ast.Ident)
		if !ok {
			// Stored in a field or an element: the code keeps it.
			return receipt{elsewhere: true}
		}
		isErr := types.Identical(types_[i], types.Universe.Lookup("error").Type())
		if !isErr {
			rc.replyAny = true
		}
		if id.Name == "_" {
			continue
		}
		blank = false
		v, _ := info.ObjectOf(id).(*types.Var)
		if v == nil || (!isErr && rc.reply != nil) {
			return receipt{elsewhere: true}
		}
		if isErr {
			rc.err = v
		} else {
			rc.reply = v
		}
	}
	rc.discarded = blank
	return rc
}

func resultTypes(t types.Type) []types.Type {
	if tup, ok := t.(*types.Tuple); ok {
		out := make([]types.Type, tup.Len())
		for i := range tup.Len() {
			out[i] = tup.At(i).Type()
		}
		return out
	}
	if t == nil {
		return nil
	}
	return []types.Type{t}
}

// readsFrom returns the reads of v in fn that the value assigned at from
// reaches: those after from that no later assignment of v comes before
// on their way (one in the same block or a block around them; one in a
// branch beside them does not), and those in the condition of a loop
// whose body assigns v there. A variable reused for every call's error
// (err = ...) is read for other calls before it and after its next
// assignment.
func readsFrom(info *types.Info, fn ast.Node, v *types.Var, from token.Pos) []*ast.Ident {
	// The assignments of v after from, each with the innermost block (or
	// case) around it: a read in that block after it sees its value.
	type assign struct {
		pos   token.Pos
		block ast.Node
	}
	var assigns []assign
	var conds []ast.Expr
	var stack []ast.Node
	ast.Inspect(fn, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		switch n := n.(type) {
		case *ast.AssignStmt:
			if n.Pos() > from {
				for _, l := range n.Lhs {
					if id, ok := ast.Unparen(l).(*ast.Ident); ok && info.ObjectOf(id) == v {
						assigns = append(assigns, assign{n.Pos(), innermostBlock(stack)})
					}
				}
			}
		case *ast.ForStmt:
			// A loop's condition runs after its body: err = m.Lock() at
			// the end of `for err != nil { ... }` is read by it.
			if n.Cond != nil && n.Body.Pos() < from && from < n.Body.End() {
				conds = append(conds, n.Cond)
			}
		}
		stack = append(stack, n)
		return true
	})
	within := func(outer, inner ast.Node) bool { return outer.Pos() <= inner.Pos() && inner.End() <= outer.End() }
	var out []*ast.Ident
	for _, id := range reads(info, fn, v) {
		reached := id.Pos() > from
		for _, c := range conds {
			reached = reached || within(c, id)
		}
		for _, a := range assigns {
			if a.pos < id.Pos() && a.block != nil && within(a.block, id) {
				reached = false
			}
		}
		if reached {
			out = append(out, id)
		}
	}
	return out
}

// innermostBlock returns the innermost block or case clause of stack.
func innermostBlock(stack []ast.Node) ast.Node {
	for i := len(stack) - 1; i >= 0; i-- {
		switch stack[i].(type) {
		case *ast.BlockStmt, *ast.CaseClause, *ast.CommClause:
			return stack[i]
		}
	}
	return nil
}

// reads returns the identifiers that read v in fn. Assignments to v are
// not reads, and neither is `_ = v`, which only silences the compiler.
func reads(info *types.Info, fn ast.Node, v *types.Var) []*ast.Ident {
	written := map[*ast.Ident]bool{}
	var out []*ast.Ident
	ast.Inspect(fn, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			blank := true
			for _, l := range n.Lhs {
				if id, ok := l.(*ast.Ident); ok {
					written[id] = true
					blank = blank && id.Name == "_"
				} else {
					blank = false
				}
			}
			if blank && n.Tok == token.ASSIGN {
				for _, r := range n.Rhs {
					if id, ok := ast.Unparen(r).(*ast.Ident); ok {
						written[id] = true
					}
				}
			}
		case *ast.Ident:
			if !written[n] && info.Uses[n] == v {
				out = append(out, n)
			}
		}
		return true
	})
	return out
}

// comparedWithNil reports whether v is compared with == or != in fn.
func comparedWithNil(info *types.Info, fn ast.Node, v *types.Var) bool {
	found := false
	ast.Inspect(fn, func(n ast.Node) bool {
		be, ok := n.(*ast.BinaryExpr)
		if found || !ok || (be.Op != token.EQL && be.Op != token.NEQ) {
			return !found
		}
		for _, side := range []ast.Expr{be.X, be.Y} {
			if id, ok := ast.Unparen(side).(*ast.Ident); ok && info.Uses[id] == v {
				found = true
			}
		}
		return !found
	})
	return found
}

// namedResult reports whether v is a named result of one of fns (the
// acquire's declaration and the function literal it is in): the reply
// goes back to the caller with the function's return, bare or not, even
// when a goroutine of the function stores it (ok, err = ...Result()).
func namedResult(info *types.Info, v *types.Var, fns ...ast.Node) bool {
	for _, fn := range fns {
		var ft *ast.FuncType
		switch f := fn.(type) {
		case *ast.FuncDecl:
			if f != nil {
				ft = f.Type
			}
		case *ast.FuncLit:
			if f != nil {
				ft = f.Type
			}
		}
		if ft == nil || ft.Results == nil {
			continue
		}
		for _, field := range ft.Results.List {
			for _, name := range field.Names {
				if info.Defs[name] == v {
					return true
				}
			}
		}
	}
	return false
}
