package lockmodel

import (
	"go/ast"
	"iter"
	"reflect"
)

// cursor is a node with the path from its file down to it. The model walks
// each package's syntax with ast.Inspect and a stack instead of building an
// inspector.Inspector: an inspector's index is about the size of the syntax
// it covers, and under go vet, where one process analyses one package, it
// was most of what locklint added to the peak memory of the largest
// packages. A cursor is valid only during the visit that received it.
type cursor struct{ path []ast.Node }

// Node returns the node at the cursor, or nil above the file.
func (c cursor) Node() ast.Node {
	if len(c.path) == 0 {
		return nil
	}
	return c.path[len(c.path)-1]
}

// Valid reports whether the cursor is at a node.
func (c cursor) Valid() bool { return len(c.path) > 0 }

// Parent returns the cursor of the enclosing node.
func (c cursor) Parent() cursor {
	if len(c.path) == 0 {
		return c
	}
	return cursor{c.path[:len(c.path)-1]}
}

// Enclosing yields the cursor itself and then its ancestors, innermost
// first, that have one of the types of the given nodes (all, if none).
func (c cursor) Enclosing(types ...ast.Node) iter.Seq[cursor] {
	want := make([]reflect.Type, len(types))
	for i, t := range types {
		want[i] = reflect.TypeOf(t)
	}
	return func(yield func(cursor) bool) {
		for i := len(c.path); i > 0; i-- {
			n := c.path[i-1]
			if len(want) > 0 {
				t := reflect.TypeOf(n)
				match := false
				for _, w := range want {
					match = match || w == t
				}
				if !match {
					continue
				}
			}
			if !yield(cursor{c.path[:i]}) {
				return
			}
		}
	}
}

// walk visits every node of files in depth-first order.
func walk(files []*ast.File, visit func(cur cursor)) {
	var stack []ast.Node
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			if n == nil {
				stack = stack[:len(stack)-1]
				return true
			}
			stack = append(stack, n)
			visit(cursor{stack})
			return true
		})
	}
}
