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

// mayReturn is the mayReturn argument of cfg.New: panic, os.Exit,
// runtime.Goexit, log.Fatal* and log.Panic* end the function, and so do
// the loggers that follow log's convention (logrus, zap, glog: a
// function or method named Fatal* or Panic* that returns nothing, or a
// zerolog event begun by one and sent). A full no-return analysis
// (ctrlflow) would build the graph of every function in every package;
// the passes need one only for the few functions around an acquisition.
func mayReturn(info *types.Info) func(*ast.CallExpr) bool {
	return func(call *ast.CallExpr) bool {
		switch obj := typeutil.Callee(info, call).(type) {
		case *types.Builtin:
			return obj.Name() != "panic"
		case *types.Func:
			return lookup(obj) != apiNoReturn && !loggerEnds(info, call, obj)
		}
		return true
	}
}

// fatalNames are log's names for a line that ends the function.
var fatalNames = map[string]bool{
	"Fatal": true, "Fatalf": true, "Fatalln": true, "Fatalw": true,
	"Panic": true, "Panicf": true, "Panicln": true, "Panicw": true,
}

// loggerEnds reports whether call, to fn, is a logger's fatal line: fn is
// named as log's and returns nothing, or fn returns nothing and its
// receiver is an event that such a call began (log.Fatal().Msg("x")).
func loggerEnds(info *types.Info, call *ast.CallExpr, fn *types.Func) bool {
	sig := fn.Type().(*types.Signature)
	if sig.Results().Len() != 0 {
		return false
	}
	if fatalNames[fn.Name()] {
		return true
	}
	for e := call.Fun; ; {
		sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
		if !ok {
			return false
		}
		inner, ok := ast.Unparen(sel.X).(*ast.CallExpr)
		if !ok {
			return false
		}
		if f, ok := typeutil.Callee(info, inner).(*types.Func); ok && fatalNames[f.Name()] {
			return true
		}
		e = inner.Fun
	}
}
