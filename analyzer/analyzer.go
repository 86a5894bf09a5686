// Package analyzer is the locklint suite: every analyzer locklint runs, in
// one list, for drivers (cmd/locklint, the golangci-lint plugin, nogo) to
// consume. The shared model of Redis commands and lock keys that the
// passes build on lives in analyzer/lockmodel; the reference lock library
// that the diagnostics point to lives in analyzer/fix (the go-redis v9
// front), analyzer/fix/lock (its core) and the core's client adapters
// beside it, and lockmodel.Library says which of them a finding names.
package analyzer

//go:generate go run ../internal/docs/gendocs -root ..

import (
	"golang.org/x/tools/go/analysis"

	"github.com/locklint/locklint/passes/constanttoken"
	"github.com/locklint/locklint/passes/crossslot"
	"github.com/locklint/locklint/passes/luanil"
	"github.com/locklint/locklint/passes/plainpexpire"
	"github.com/locklint/locklint/passes/releasectx"
	"github.com/locklint/locklint/passes/setnxexpire"
	"github.com/locklint/locklint/passes/splitfence"
	"github.com/locklint/locklint/passes/unboundedretry"
	"github.com/locklint/locklint/passes/uncheckedacquire"
	"github.com/locklint/locklint/passes/unconditionaldel"
	"github.com/locklint/locklint/passes/unguardedscript"
)

// Analyzers returns the locklint analyzers, in a stable order.
func Analyzers() []*analysis.Analyzer {
	return []*analysis.Analyzer{
		setnxexpire.Analyzer,
		unconditionaldel.Analyzer,
		plainpexpire.Analyzer,
		unboundedretry.Analyzer,
		crossslot.Analyzer,
		unguardedscript.Analyzer,
		constanttoken.Analyzer,
		splitfence.Analyzer,
		luanil.Analyzer,
		releasectx.Analyzer,
		uncheckedacquire.Analyzer,
	}
}
