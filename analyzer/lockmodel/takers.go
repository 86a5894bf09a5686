package lockmodel

// Take and drop helpers of another package: a service's own pkg/redis
// whose Lock(key) bool takes a lock and whose Unlock(key) deletes it.
// Their callers are in other packages, so the model exports both as
// facts.

import (
	"go/ast"
	"go/types"
)

// TakesLock is the fact that a function is a Taker: it takes a lock and
// returns whether it got it as its only bool result.
type TakesLock struct{}

func (*TakesLock) AFact()           {}
func (*TakesLock) String() string   { return "takes a lock" }
func (*TakesLock) Scope() FactScope { return ClientScope }

// DropsKey is the fact that a function's own body deletes a key: DEL,
// UNLINK, DELEX or a script.
type DropsKey struct{}

func (*DropsKey) AFact()           {}
func (*DropsKey) String() string   { return "drops a key" }
func (*DropsKey) Scope() FactScope { return ClientScope }

// Drops reports whether fn's own body deletes a key (DropsKey): a
// function of this package, or one of another that carries the fact.
func (m *Model) Drops(fn *types.Func) bool {
	if fn == nil {
		return false
	}
	if fn.Pkg() != m.Pass.Pkg {
		return m.Pass.ImportObjectFact(fn.Origin(), new(DropsKey))
	}
	return m.drops[fn]
}

// dropFuncs returns the functions of the package whose own body deletes
// a key.
func (m *Model) dropFuncs() map[*types.Func]bool {
	out := map[*types.Func]bool{}
	for _, c := range m.Calls {
		if c.Decl != nil && (c.Command.IsDelete() || c.Command == CmdDelEx || c.Command == CmdEval) {
			if fn, ok := m.Pass.TypesInfo.Defs[c.Decl.Name].(*types.Func); ok {
				out[fn] = true
			}
		}
	}
	return out
}

// exportTakers exports TakesLock and DropsKey for the package's exported
// functions and methods.
func exportTakers(m *Model) {
	for fn := range m.drops {
		if fn.Exported() {
			m.Pass.ExportObjectFact(fn, &DropsKey{})
		}
	}
	seen := map[*ast.FuncDecl]bool{}
	for _, c := range m.Calls {
		d := c.Decl
		if d == nil || seen[d] || !d.Name.IsExported() || !c.Acquires() {
			continue
		}
		seen[d] = true
		if fn, ok := m.Pass.TypesInfo.Defs[d.Name].(*types.Func); ok && m.Taker(fn) {
			m.Pass.ExportObjectFact(fn, &TakesLock{})
		}
	}
}
