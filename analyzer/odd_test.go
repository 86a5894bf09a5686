package analyzer_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/locklint/locklint/analyzer"
	"github.com/locklint/locklint/internal/testmod"
)

// oddPackages are shapes real code has and the fixtures of single passes
// rarely do: type parameters over clients, method values, embedded client
// interfaces, dot imports, build constraints, //line directives and
// generated files. Every analyzer of the suite runs on each of them.
var oddPackages = []string{
	"generics", "methodvalue", "embedding", "dotimport",
	"buildtags", "linedirective", "generated", "foreigniface",
}

// positionsMoved are packages whose //line directives send diagnostics to
// files no want comment can sit in: only errors and panics count there.
var positionsMoved = map[string]bool{"linedirective": true}

// facts are exported by some passes for their own use across packages;
// the odd packages assert diagnostics, not facts.
var factMsg = regexp.MustCompile(`: unexpected fact: `)

// recorder collects what analysistest would report, so that one `// want`
// comment may be satisfied by any analyzer of the suite.
type recorder struct{ msgs []string }

func (r *recorder) Errorf(format string, args ...any) {
	r.msgs = append(r.msgs, fmt.Sprintf(format, args...))
}

var surplus = regexp.MustCompile(`^(\S+:\d+): no diagnostic was reported matching (.*)$`)

// TestOddCode runs the whole suite on every odd package. A panic fails the
// test by itself; an analyzer error or an unexpected diagnostic fails it
// here; an expectation fails only when no analyzer met it.
func TestOddCode(t *testing.T) {
	dir := testmod.Dir(t)
	for _, name := range oddPackages {
		t.Run(name, func(t *testing.T) {
			unmet := map[string]int{} // expectation -> analyzers that missed it
			analyzers := analyzer.Analyzers()
			for _, a := range analyzers {
				r := &recorder{}
				results := analysistest.Run(r, dir, a, "locklint.test/oddcode/"+name)
				for _, res := range results {
					if res.Err != nil {
						t.Errorf("%s: %v", a.Name, res.Err)
					}
				}
				testmod.CheckMessages(t, results)
				for _, m := range r.msgs {
					if factMsg.MatchString(m) || positionsMoved[name] {
						continue
					}
					if sm := surplus.FindStringSubmatch(m); sm != nil {
						unmet[m]++
						continue
					}
					t.Errorf("%s: %s", a.Name, m)
				}
			}
			for m, n := range unmet {
				if n == len(analyzers) {
					t.Errorf("%s", strings.TrimSpace(m))
				}
			}
		})
	}
}

// TestRegressions runs each analyzer on the false positives the sweep over
// real modules found (testdata/<analyzer>/regressions/<shape>), each named
// for the shape it pins.
func TestRegressions(t *testing.T) {
	dir := testmod.Dir(t)
	for _, a := range analyzer.Analyzers() {
		pattern := "locklint.test/" + a.Name + "/regressions/..."
		if _, err := os.Stat(filepath.Join(dir, a.Name, "regressions")); err != nil {
			continue
		}
		t.Run(a.Name, func(t *testing.T) {
			testmod.Run(t, a, pattern)
		})
	}
}
