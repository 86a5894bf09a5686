package lockmodel_test

import (
	"go/ast"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/locklint/locklint/analyzer/lockmodel"
	"github.com/locklint/locklint/internal/testmod"
	"github.com/locklint/locklint/internal/typesx"
)

// libraryDebug reports, for every command, the library entry the model
// names for its client, the client value a fix would pass, and what the
// fix would replace:
//
//	CMD ENTRY client=VALUE|none site=EXPR|none [blank]
var libraryDebug = &analysis.Analyzer{
	Name:     "librarydebug",
	Doc:      "librarydebug: report the lock library entry of every command",
	Requires: []*analysis.Analyzer{lockmodel.Analyzer},
	Run: func(pass *analysis.Pass) (any, error) {
		m := pass.ResultOf[lockmodel.Analyzer].(*lockmodel.Model)
		src := func(e ast.Expr) string { return typesx.Source(pass.Fset, e) }
		for _, c := range m.Calls {
			if !c.Command.IsDelete() {
				continue
			}
			client := "none"
			lib, v, ok := m.LibraryArg(c)
			if ok {
				client = src(v)
			}
			site := "none"
			if s, ok := m.ErrorSite(c); ok {
				site = src(s.Expr)
				if s.Blank != nil {
					site += " blank"
				}
			}
			entry := lib.Name() + ".Release"
			if lib.Wrap != "" {
				entry += " via " + lib.AdapterName() + "." + lib.Wrap
			}
			pass.Reportf(c.Pos(), "%s %s client=%s site=%s", c.Command, entry, client, site)
		}
		return nil, nil
	},
}

func TestLibraryPerClient(t *testing.T) {
	analysistest.Run(t, testmod.Dir(t), libraryDebug, "locklint.test/lockmodel/library")
}
