package lockmodel_test

import (
	"fmt"
	"go/ast"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/locklint/locklint/analyzer/lockmodel"
	"github.com/locklint/locklint/internal/testmod"
	"github.com/locklint/locklint/internal/typesx"
)

// debug reports every command the model records, as one line:
//
//	CMD key=K[,K...] [value=V] [ttl=T|ttl=none] [flags] [queued] [tx] [watched] [via=F] [lock=EVIDENCE]
//
// so that the model's reading of each client is tested directly, and a
// reader can see what the passes are given.
var debug = &analysis.Analyzer{
	Name:     "modeldebug",
	Doc:      "modeldebug: report every command the lock model records",
	Requires: []*analysis.Analyzer{lockmodel.Analyzer},
	Run: func(pass *analysis.Pass) (any, error) {
		m := pass.ResultOf[lockmodel.Analyzer].(*lockmodel.Model)
		for _, c := range m.Calls {
			pass.Reportf(c.Pos(), "%s", describe(m, c))
		}
		return nil, nil
	},
}

var evidence = map[lockmodel.Evidence]string{
	lockmodel.ByName:    "name",
	lockmodel.ByAcquire: "acquire",
	lockmodel.ByFunc:    "func",
	lockmodel.ByCaller:  "caller",
	lockmodel.ByPair:    "pair",
	lockmodel.ByCheck:   "check",
}

func describe(m *lockmodel.Model, c *lockmodel.Call) string {
	src := func(e ast.Expr) string { return typesx.Source(m.Pass.Fset, e) }
	var b strings.Builder
	b.WriteString(c.Command.String())
	if len(c.Keys) > 0 {
		keys := make([]string, len(c.Keys))
		for i, k := range c.Keys {
			keys[i] = src(k)
		}
		fmt.Fprintf(&b, " key=%s", strings.Join(keys, ","))
	}
	if c.Value != nil {
		fmt.Fprintf(&b, " value=%s", src(c.Value))
	}
	switch {
	case c.TTL != nil && !c.NoTTL:
		fmt.Fprintf(&b, " ttl=%s", src(c.TTL))
	case c.NoTTL:
		b.WriteString(" ttl=none")
	}
	for _, f := range []struct {
		on   bool
		name string
	}{
		{c.Flags&lockmodel.FlagNX != 0, "NX"},
		{c.Flags&lockmodel.FlagXX != 0, "XX"},
		{c.Flags&lockmodel.FlagIFEQ != 0, "IFEQ"},
		{c.Flags&lockmodel.FlagKeepTTL != 0, "KEEPTTL"},
		{c.Flags&lockmodel.FlagGet != 0, "GET"},
		{c.Flags&lockmodel.FlagUnknown != 0, "unknown"},
		{c.Queued, "queued"},
		{c.Tx, "tx"},
		{c.Watched != nil, "watched"},
		{c.Compared, "compared"},
		{c.TakesFirst, "takesfirst"},
		{c.Window, "window"},
	} {
		if f.on {
			b.WriteString(" " + f.name)
		}
	}
	if c.Via != nil {
		fmt.Fprintf(&b, " via=%s", c.Via.Name())
	}
	if k := c.Key(); k != nil {
		if ev, _ := m.LockKey(c, k); ev != lockmodel.NotLock {
			fmt.Fprintf(&b, " lock=%s", evidence[ev])
		}
	}
	return b.String()
}

func TestModelGoRedis(t *testing.T) {
	analysistest.Run(t, testmod.Dir(t), debug, "locklint.test/lockmodel/goredis")
}

func TestModelOlderGoRedis(t *testing.T) {
	analysistest.Run(t, testmod.Dir(t), debug, "locklint.test/lockmodel/oldgoredis")
}

func TestModelRedigo(t *testing.T) {
	analysistest.Run(t, testmod.Dir(t), debug, "locklint.test/lockmodel/redigo")
}

func TestModelRueidis(t *testing.T) {
	analysistest.Run(t, testmod.Dir(t), debug, "locklint.test/lockmodel/rueidis")
}

func TestModelWrappers(t *testing.T) {
	analysistest.Run(t, testmod.Dir(t), debug, "locklint.test/lockmodel/wrappers/...")
}
