package lockmodel

// Scripts kept in package variables of another package: a service's
// constants package that declares var UnlockScript = `...` beside its key
// formats. A variable's value is not in the export data, as a constant's
// is, so the package that declares it says it with a fact.

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"
)

// ScriptVar is the fact that a package-level string variable holds a Lua
// script from its declaration on and is never assigned again.
type ScriptVar struct{ Text string }

func (*ScriptVar) AFact() {}

func (*ScriptVar) String() string { return "holds a script" }

// Scope: a constants package reaches no client.
func (*ScriptVar) Scope() FactScope { return MainModuleScope }

// exportScriptVars records a ScriptVar fact for each exported
// package-level variable whose initial value is a constant text that
// calls Redis, when nothing in the package assigns it again.
func exportScriptVars(m *Model) {
	info := m.Pass.TypesInfo
	found := map[*types.Var]string{}
	for _, f := range m.Pass.Files {
		for _, d := range f.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.VAR {
				continue
			}
			for _, s := range gd.Specs {
				vs := s.(*ast.ValueSpec)
				if len(vs.Names) != len(vs.Values) {
					continue
				}
				for i, id := range vs.Names {
					v, _ := info.Defs[id].(*types.Var)
					if v == nil || !id.IsExported() {
						continue
					}
					if text, ok := constStringOf(info, vs.Values[i]); ok && callsRedis(text) {
						found[v] = text
					}
				}
			}
		}
	}
	if len(found) == 0 {
		return
	}
	for _, f := range m.Pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			var lhs []ast.Expr
			switch n := n.(type) {
			case *ast.AssignStmt:
				lhs = n.Lhs
			case *ast.UnaryExpr:
				if n.Op == token.AND {
					lhs = []ast.Expr{n.X}
				}
			}
			for _, l := range lhs {
				if id, ok := ast.Unparen(l).(*ast.Ident); ok {
					if v, ok := info.Uses[id].(*types.Var); ok {
						delete(found, v)
					}
				}
			}
			return true
		})
	}
	for v, text := range found {
		m.Pass.ExportObjectFact(v, &ScriptVar{Text: text})
	}
}

// callsRedis reports whether text reads as a Lua script that sends a
// command.
func callsRedis(text string) bool {
	return strings.Contains(text, "redis.call") || strings.Contains(text, "redis.pcall") || strings.Contains(text, "server.call")
}

// importedScript returns the text of v, a variable of another package
// that holds a script.
func (m *Model) importedScript(v *types.Var) (string, bool) {
	if v.Pkg() == nil || v.Pkg() == m.Pass.Pkg {
		return "", false
	}
	var f ScriptVar
	if !m.Pass.ImportObjectFact(v, &f) {
		return "", false
	}
	return f.Text, true
}
