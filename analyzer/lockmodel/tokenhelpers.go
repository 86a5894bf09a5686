package lockmodel

import (
	"fmt"
	"go/ast"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// TokenHelper is the fact that an exported function returns, as its first
// result, a value of a known origin: a service's util.RandString (math/rand
// seeded from the clock), idgen.Host (os.Hostname), or util.NewToken
// (crypto/rand). An acquire in another package that stores what it returns
// is classified as if the helper were its own. Unknown origins are not
// recorded.
type TokenHelper struct {
	Origin Origin
	Trail  Trail
}

func (*TokenHelper) AFact() {}

func (h *TokenHelper) String() string {
	return fmt.Sprintf("returns a token of origin %d (%+v)", h.Origin, h.Trail)
}

// Token helpers live where a service keeps its utilities, in packages that
// may never touch Redis; a dependency's are not followed (the knowledge
// table names the token libraries).
func (*TokenHelper) Scope() FactScope { return MainModuleScope }

// HoldsMainModuleFacts reports whether pass analyzes a package whose
// functions may carry MainModuleScope facts although it cannot reach a
// client: a package of the main module, not of the standard library or a
// client's module.
func HoldsMainModuleFacts(pass *analysis.Pass) bool {
	var module string
	if pass.Module != nil {
		module = pass.Module.Path
	}
	return !isStdPass(pass) && !InClientModule(pass.Pkg.Path(), module) && InMainModule(pass)
}

func isStdPass(pass *analysis.Pass) bool {
	if pass.Module != nil && pass.Module.Path != "" && pass.Module.Path != "std" {
		return false
	}
	first, _, _ := strings.Cut(pass.Pkg.Path(), "/")
	return !strings.Contains(first, ".")
}

// exportTokenHelpers records a TokenHelper fact for each exported function
// and method of the package whose first result is a string, a byte slice
// or an integer of a known origin.
func exportTokenHelpers(m *Model) {
	t := m.Tokens()
	for _, f := range m.Pass.Files {
		for _, d := range f.Decls {
			decl, ok := d.(*ast.FuncDecl)
			if !ok || decl.Body == nil || !decl.Name.IsExported() {
				continue
			}
			fn, _ := m.Pass.TypesInfo.Defs[decl.Name].(*types.Func)
			if fn == nil || !tokenResult(fn) {
				continue
			}
			src := t.helperOrigin(decl, newTokenState(nil, false), 0)
			if src.Origin == OriginFresh || src.Origin.Weak() {
				m.Pass.ExportObjectFact(fn, &TokenHelper{Origin: src.Origin, Trail: src.Trail})
			}
		}
	}
}

// tokenResult reports whether fn's first result can hold a token.
func tokenResult(fn *types.Func) bool {
	res := fn.Type().(*types.Signature).Results()
	if res.Len() == 0 {
		return false
	}
	switch u := res.At(0).Type().Underlying().(type) {
	case *types.Basic:
		return u.Info()&(types.IsString|types.IsInteger) != 0
	case *types.Slice:
		b, ok := u.Elem().Underlying().(*types.Basic)
		return ok && b.Kind() == types.Byte
	}
	return false
}

// importedHelper classifies a call of another package's function by its
// TokenHelper fact.
func (t *Tokens) importedHelper(fn *types.Func, call *ast.CallExpr) (TokenOrigin, bool) {
	if fn.Pkg() == t.m.Pass.Pkg {
		return TokenOrigin{}, false
	}
	var h TokenHelper
	if !t.m.Pass.ImportObjectFact(fn.Origin(), &h) {
		return TokenOrigin{}, false
	}
	src := TokenOrigin{Origin: h.Origin, Trail: h.Trail}
	if h.Origin.Weak() {
		src.Trail.Helper = fn.Pkg().Name() + "." + fn.Name()
		src.At = call
	}
	return src, true
}
