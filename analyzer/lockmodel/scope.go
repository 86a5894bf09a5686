package lockmodel

// Which packages and files the model and its facts cover: the scope a
// driver loads from source, and test files.

import (
	"go/ast"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// FactScope says which packages export a fact type. The standalone
// driver loads those from source and every other package from export
// data, so a fact type must say where it can live.
type FactScope int

const (
	// ClientScope: only packages that reach a Redis client; the model
	// returns before any syntax elsewhere.
	ClientScope FactScope = iota + 1
	// MainModuleScope: those, and the packages of the main module (whose
	// module has no version), where a service keeps its own helpers.
	MainModuleScope
)

// ScopedFact is a fact type that says where it can live.
type ScopedFact interface {
	analysis.Fact
	Scope() FactScope
}

// Scope of the model's facts.
func (*Forwarder) Scope() FactScope { return ClientScope }
func (*Acquirer) Scope() FactScope  { return ClientScope }

// ScopeOf returns where facts of f's type can live; 0 when f does not say,
// and then they may live anywhere.
func ScopeOf(f analysis.Fact) FactScope {
	if s, ok := f.(ScopedFact); ok {
		return s.Scope()
	}
	return 0
}

// InMainModule reports whether pass analyzes a package of the main module
// (or one outside any module): the packages MainModuleScope facts may
// come from.
func InMainModule(pass *analysis.Pass) bool {
	return pass.Module == nil || pass.Module.Version == ""
}

// IsTestFile reports whether c sits in a _test.go file.
func (m *Model) IsTestFile(c *Call) bool { return m.InTestFile(c.Expr) }

// InTestFile reports whether n sits in a _test.go file.
func (m *Model) InTestFile(n ast.Node) bool {
	return strings.HasSuffix(m.Pass.Fset.File(n.Pos()).Name(), "_test.go")
}
