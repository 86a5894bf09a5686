package testmod

import (
	"fmt"
	"regexp"
	"strconv"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"
	"golang.org/x/tools/go/analysis/checker"
)

// unmetFact is analysistest's complaint about a fact expectation that the
// analyzer under test did not meet.
var unmetFact = regexp.MustCompile("^(.+):([0-9]+): no fact was reported matching (.+)$")

// factRecorder is the test, except that it keeps analysistest's
// complaints about unmet fact expectations for meetFacts.
type factRecorder struct {
	*testing.T
	unmet []string
}

func (r *factRecorder) Errorf(format string, args ...any) {
	r.Helper()
	msg := fmt.Sprintf(format, args...)
	if unmetFact.MatchString(msg) {
		r.unmet = append(r.unmet, msg)
		return
	}
	r.T.Errorf("%s", msg)
}

// meetFacts lets an analyzer that the one under test requires meet a fact
// expectation: a pass's facts are often computed by an analyzer of its
// own (unboundedretry's acquirers and bounds by loopbound), and the
// testdata says what the pass relies on. A fact meets an expectation when
// it is on an object declared on the expectation's line and its text
// matches. Unexpected facts of a required analyzer are its own tests'.
func (r *factRecorder) meetFacts(results []*analysistest.Result) {
	r.Helper()
	for _, msg := range r.unmet {
		m := unmetFact.FindStringSubmatch(msg)
		line, _ := strconv.Atoi(m[2])
		pattern, err := strconv.Unquote(m[3])
		if err != nil {
			r.Errorf("%s", msg)
			continue
		}
		rx := regexp.MustCompile(pattern)
		if !requiredFact(results, m[1], line, rx) {
			r.Errorf("%s", msg)
		}
	}
}

func requiredFact(results []*analysistest.Result, file string, line int, rx *regexp.Regexp) bool {
	for _, res := range results {
		seen := map[*checker.Action]bool{}
		var found func(act *checker.Action) bool
		found = func(act *checker.Action) bool {
			for _, dep := range act.Deps {
				if seen[dep] || dep.Package != act.Package {
					continue
				}
				seen[dep] = true
				for _, f := range dep.AllObjectFacts() {
					posn := dep.Package.Fset.Position(f.Object.Pos())
					if f.Object.Pkg() == dep.Package.Types && posn.Filename == file && posn.Line == line && rx.MatchString(fmt.Sprint(f.Fact)) {
						return true
					}
				}
				if found(dep) {
					return true
				}
			}
			return false
		}
		if found(res.Action) {
			return true
		}
	}
	return false
}
