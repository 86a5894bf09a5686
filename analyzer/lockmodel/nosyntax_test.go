package lockmodel

import (
	"go/token"
	"go/types"
	"testing"

	"golang.org/x/tools/go/analysis"
)

// TestNoSyntax runs the model on a dependency that the standalone driver
// reads for facts only, from export data: no files and no type
// information (a lock library that imports a client, such as redsync).
// It must build an empty model, not fail.
func TestNoSyntax(t *testing.T) {
	client := types.NewPackage("github.com/redis/go-redis/v9", "redis")
	pkg := types.NewPackage("github.com/go-redsync/redsync/v4", "redsync")
	pkg.SetImports([]*types.Package{client})
	pass := &analysis.Pass{
		Analyzer:          Analyzer,
		Fset:              token.NewFileSet(),
		Pkg:               pkg,
		ImportObjectFact:  func(types.Object, analysis.Fact) bool { return false },
		ImportPackageFact: func(*types.Package, analysis.Fact) bool { return false },
		ExportObjectFact:  func(types.Object, analysis.Fact) {},
		ExportPackageFact: func(analysis.Fact) {},
		AllObjectFacts:    func() []analysis.ObjectFact { return nil },
		AllPackageFacts:   func() []analysis.PackageFact { return nil },
		Report:            func(analysis.Diagnostic) {},
		ResultOf:          map[*analysis.Analyzer]any{},
	}
	res, err := run(pass)
	if err != nil {
		t.Fatalf("run: %v", err)
	}
	if m := res.(*Model); len(m.Calls) != 0 || len(m.Obtains()) != 0 {
		t.Errorf("model of a package with no syntax has %d calls and %d obtains, want none", len(m.Calls), len(m.Obtains()))
	}
}
