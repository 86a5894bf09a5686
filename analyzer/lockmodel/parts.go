package lockmodel

// The parts a key is built from, for questions that one part of the key
// can decide (a request's id makes it one request's marker; a fresh
// value makes it one run's name).

import (
	"go/ast"
	"go/types"
	"strings"

	"golang.org/x/tools/go/types/typeutil"
)

// partVerdict is what a question makes of one part of a key.
type partVerdict uint8

const (
	partWalk    partVerdict = iota // look through it as any key is read
	partArgs                       // a call: look into its arguments
	partStop                       // says nothing; look no further into it
	partDecides                    // answers the question for the key
)

// keyParts reports whether part decides any part of key, walking, to a
// depth, through local variables' single definitions, concatenation and
// the arguments of fmt.Sprint*, strconv and strings calls. part is asked
// first of every expression met.
func (m *Model) keyParts(key ast.Expr, depth int, part func(e ast.Expr, depth int) partVerdict) bool {
	info := m.Pass.TypesInfo
	found := false
	var visit func(e ast.Expr, depth int)
	visit = func(e ast.Expr, depth int) {
		if found || depth > maxDepth {
			return
		}
		e = ast.Unparen(e)
		v := part(e, depth)
		switch v {
		case partDecides:
			found = true
			return
		case partStop:
			return
		}
		switch e := e.(type) {
		case *ast.Ident:
			if def := m.keys.definition(info.ObjectOf(e)); def != nil {
				visit(def, depth+1)
			}
		case *ast.BinaryExpr:
			visit(e.X, depth+1)
			visit(e.Y, depth+1)
		case *ast.CallExpr:
			if v == partArgs || formats(typeutil.Callee(info, e)) {
				for _, a := range e.Args {
					visit(a, depth+1)
				}
			}
		}
	}
	visit(key, depth)
	return found
}

// formats reports whether fn only formats its arguments into text:
// fmt.Sprint*, strconv, strings.
func formats(obj types.Object) bool {
	fn, _ := obj.(*types.Func)
	if fn == nil || fn.Pkg() == nil {
		return false
	}
	switch path := fn.Pkg().Path(); {
	case path == "fmt" && strings.HasPrefix(fn.Name(), "Sprint"), path == "strconv", path == "strings":
		return true
	}
	return false
}
