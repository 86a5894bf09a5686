package analyzer_test

import (
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/locklint/locklint/analyzer"
	"github.com/locklint/locklint/internal/testmod"
)

// noop is the baseline: an analyzer that returns at once, so the checker's
// own bookkeeping over the same package graph is subtracted by eye.
var noop = &analysis.Analyzer{
	Name: "noop",
	Doc:  "noop: report nothing",
	Run:  func(*analysis.Pass) (any, error) { return nil, nil },
}

// noopFact is noop with a fact type, so the checker runs it over every
// dependency, as it runs the suite (unboundedretry exports facts): the
// driver's own cost per package, which the suite cannot go below.
var noopFact = &analysis.Analyzer{
	Name:      "noopfact",
	Doc:       "noopfact: report nothing, over every dependency",
	Run:       func(*analysis.Pass) (any, error) { return nil, nil },
	FactTypes: []analysis.Fact{new(noFact)},
}

type noFact struct{}

func (*noFact) AFact() {}

// load type-checks pattern and its dependencies once; the benchmarks then
// time only the analysis. Some passes export facts, so the checker runs
// them over every dependency too, as the drivers do.
func load(b *testing.B, pattern string) []*packages.Package {
	b.Helper()
	cfg := &packages.Config{Mode: packages.LoadAllSyntax, Dir: testmod.Dir(b)}
	pkgs, err := packages.Load(cfg, pattern)
	if err != nil || packages.PrintErrors(pkgs) > 0 {
		b.Fatalf("load %s: %v", pattern, err)
	}
	return pkgs
}

func benchAnalyze(b *testing.B, pattern string, analyzers []*analysis.Analyzer) {
	pkgs := load(b, pattern)
	for b.Loop() {
		if _, err := checker.Analyze(analyzers, pkgs, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// encoding/json and its dependencies import no Redis client: every pass
// takes the fast path, so the suite should cost about what noop does.
func BenchmarkSuiteNoRedis(b *testing.B) {
	benchAnalyze(b, "encoding/json", analyzer.Analyzers())
}

func BenchmarkNoopNoRedis(b *testing.B) {
	benchAnalyze(b, "encoding/json", []*analysis.Analyzer{noop})
}

func BenchmarkNoopFactsNoRedis(b *testing.B) {
	benchAnalyze(b, "encoding/json", []*analysis.Analyzer{noopFact})
}

// A Redis-heavy package (go-redis and the lock shapes the passes report),
// over go-redis itself as a dependency.
func BenchmarkSuiteRedisHeavy(b *testing.B) {
	benchAnalyze(b, "locklint.test/unconditionaldel/goredis", analyzer.Analyzers())
}

func BenchmarkNoopRedisHeavy(b *testing.B) {
	benchAnalyze(b, "locklint.test/unconditionaldel/goredis", []*analysis.Analyzer{noop})
}
