package lockmodel

import (
	"go/ast"
	"go/types"
	"go/version"

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
