package lockmodel

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/cfg"
	"golang.org/x/tools/go/types/typeutil"
)

// FuncBody returns the body of a *ast.FuncDecl or *ast.FuncLit (such as
// Call.Func), or nil.
func FuncBody(fn ast.Node) *ast.BlockStmt {
	switch fn := fn.(type) {
	case *ast.FuncDecl:
		return fn.Body
	case *ast.FuncLit:
		return fn.Body
	}
	return nil
}

// Graph returns the control-flow graph of body, a function's or a loop's,
// built on first use and shared by the passes (which run concurrently on
// one model), so a function that two passes look at is built once.
func (m *Model) Graph(body *ast.BlockStmt) *cfg.CFG {
	m.graphsMu.Lock()
	defer m.graphsMu.Unlock()
	if g, ok := m.graphs[body]; ok {
		return g
	}
	if m.graphs == nil {
		m.graphs = map[*ast.BlockStmt]*cfg.CFG{}
	}
	g := cfg.New(body, mayReturn(m.Pass.TypesInfo))
	m.graphs[body] = g
	return g
}

// mayReturn is the mayReturn argument of cfg.New: panic, os.Exit, runtime.Goexit, log.Fatal* and
// log.Panic* end the function. A full no-return analysis (ctrlflow) would
// build the graph of every function in every package; the passes need one
// only for the few functions around an acquisition.
func mayReturn(info *types.Info) func(*ast.CallExpr) bool {
	return func(call *ast.CallExpr) bool {
		switch obj := typeutil.Callee(info, call).(type) {
		case *types.Builtin:
			return obj.Name() != "panic"
		case *types.Func:
			return lookup(obj) != apiNoReturn
		}
		return true
	}
}
