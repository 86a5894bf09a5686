package lockmodel

import (
	"go/ast"
	"go/types"

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

// MayReturn is the mayReturn argument of cfg.New for the passes that build
// control-flow graphs: panic, os.Exit, runtime.Goexit, log.Fatal* and
// log.Panic* end the function. A full no-return analysis (ctrlflow) would
// build the graph of every function in every package; the passes need one
// only for the few functions around an acquisition.
func MayReturn(info *types.Info) func(*ast.CallExpr) bool {
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
