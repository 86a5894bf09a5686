package lockmodel

import (
	"go/ast"
	"go/constant"
	"go/types"
	"go/version"

	"golang.org/x/tools/go/ast/astutil"
	"golang.org/x/tools/go/types/typeutil"
)

// randPerProcess reports whether the package's math/rand draws differ
// from process to process: no source of the package is seeded with a
// constant, and the global source is seeded from the clock (rand.Seed
// with a time reading), or by the runtime (math/rand/v2, or math/rand
// from Go 1.20 on, as the module's go line selects). Answered once.
func (m *Model) randPerProcess() bool {
	if m.randSeeded != 0 {
		return m.randSeeded > 0
	}
	m.randSeeded = -1
	info := m.Pass.TypesInfo
	constSeed, clockSeed, v2 := false, false, false
	for _, f := range m.Pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			fn, _ := typeutil.Callee(info, call).(*types.Func)
			if fn == nil || fn.Pkg() == nil || !isMathRand(fn.Pkg().Path()) {
				return true
			}
			v2 = v2 || fn.Pkg().Path() == "math/rand/v2"
			if fn.Name() == "Seed" && fn.Type().(*types.Signature).Recv() == nil {
				m.randReseeded = true
			}
			switch fn.Name() {
			case "Seed", "NewSource", "NewPCG", "NewChaCha8":
				for _, a := range call.Args {
					if tv, ok := info.Types[a]; ok && tv.Value != nil {
						constSeed = true
					} else if readsClock(info, a) {
						clockSeed = true
					}
				}
			}
			return true
		})
	}
	auto := v2
	if mod := m.Pass.Module; mod != nil && mod.GoVersion != "" {
		auto = auto || version.Compare("go"+mod.GoVersion, "go1.20") >= 0
	}
	if !constSeed && (clockSeed || auto) {
		m.randSeeded = 1
	}
	return m.randSeeded > 0
}

// readsClock reports whether e reads time.Now.
func readsClock(info *types.Info, e ast.Expr) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok {
			if fn, _ := typeutil.Callee(info, call).(*types.Func); fn != nil && fn.Pkg() != nil && fn.Pkg().Path() == "time" && fn.Name() == "Now" {
				found = true
			}
		}
		return !found
	})
	return found
}

// WideDraw reports whether src, the math/rand value of c, is as good as
// unique to its acquisition: drawn per acquisition (not kept by a
// constructor or a package-level variable; a field only when c's own
// function draws it) from a source the runtime seeds per process
// (runtimeSeeded), and not one number of a small range
// (rand.Intn(1000)); a string of many draws from a small alphabet is
// wide. A source seeded from the clock is not: processes started in one
// tick draw alike, and the draws can be guessed.
func (m *Model) WideDraw(c *Call, src TokenOrigin) bool {
	if src.Origin != OriginMathRand || src.Drawn {
		return false
	}
	call, _ := src.At.(*ast.CallExpr)
	if call == nil || !m.runtimeSeeded(call) {
		return false
	}
	for _, s := range src.Trail.Through {
		if s.Kind == StepVar || s.Kind == StepField && (c.Decl == nil || call.Pos() < c.Decl.Pos() || call.End() > c.Decl.End()) {
			return false
		}
	}
	if !m.smallRange(call) {
		return true
	}
	// One draw of a small range, unless a loop around it draws many.
	for _, f := range m.Pass.Files {
		if f.FileStart > call.Pos() || call.End() > f.FileEnd {
			continue
		}
		path, _ := astutil.PathEnclosingInterval(f, call.Pos(), call.End())
		for _, n := range path {
			switch n.(type) {
			case *ast.ForStmt, *ast.RangeStmt:
				return true
			case *ast.FuncDecl, *ast.FuncLit:
				return false
			}
		}
	}
	return false
}

// runtimeSeeded reports whether call, a math/rand draw, draws from the
// global source the runtime seeds at random per process: math/rand/v2's
// functions, or math/rand's from Go 1.20 on (the module's go line) in a
// package that never calls rand.Seed. A method of a source made with
// New is seeded by its maker.
func (m *Model) runtimeSeeded(call *ast.CallExpr) bool {
	fn, _ := typeutil.Callee(m.Pass.TypesInfo, call).(*types.Func)
	if fn == nil || fn.Pkg() == nil || fn.Type().(*types.Signature).Recv() != nil {
		return false
	}
	switch fn.Pkg().Path() {
	case "math/rand/v2":
		return true
	case "math/rand":
	default:
		return false
	}
	mod := m.Pass.Module
	if mod == nil || mod.GoVersion == "" || version.Compare("go"+mod.GoVersion, "go1.20") < 0 {
		return false
	}
	m.randPerProcess() // finds the package's seeding
	return !m.randReseeded
}

// smallRange reports whether call draws one number below a constant
// bound of fewer than 2^32 values (rand.Intn(1000), r.Int63n(1e6)).
func (m *Model) smallRange(call *ast.CallExpr) bool {
	fn, _ := typeutil.Callee(m.Pass.TypesInfo, call).(*types.Func)
	if fn == nil || fn.Pkg() == nil || !isMathRand(fn.Pkg().Path()) || len(call.Args) != 1 {
		return false
	}
	switch fn.Name() {
	case "Intn", "Int31n", "Int63n", "IntN", "Int32N", "Int64N", "UintN", "Uint32N", "Uint64N", "N":
	default:
		return false
	}
	tv, ok := m.Pass.TypesInfo.Types[call.Args[0]]
	if !ok || tv.Value == nil {
		return false
	}
	n, exact := constant.Uint64Val(constant.ToInt(tv.Value))
	return exact && n < 1<<32
}
