package testmod

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"
)

// MaxMessage is the most characters a diagnostic's message may have. A
// finding is read where users read it, a golangci-lint line, a
// code-scanning annotation or an editor hover: one short sentence of what
// is wrong and what to do, with the explanation in the analyzer's doc.
const MaxMessage = 200

// Run is analysistest.Run on the testdata module, with the messages of
// what it reports checked by CheckMessages. A fact expectation may be met
// by an analyzer that a requires (see meetFacts).
func Run(t *testing.T, a *analysis.Analyzer, patterns ...string) []*analysistest.Result {
	t.Helper()
	r := &factRecorder{T: t}
	results := analysistest.Run(r, Dir(t), a, patterns...)
	r.meetFacts(results)
	CheckMessages(t, results)
	return results
}

// RunWithSuggestedFixes is analysistest.RunWithSuggestedFixes on the
// testdata module, with the messages checked by CheckMessages.
func RunWithSuggestedFixes(t *testing.T, a *analysis.Analyzer, patterns ...string) []*analysistest.Result {
	t.Helper()
	results := analysistest.RunWithSuggestedFixes(t, Dir(t), a, patterns...)
	CheckMessages(t, results)
	return results
}

// CheckMessages reports every diagnostic whose message, related
// information or suggested fix says more than one line of at most
// MaxMessage characters.
func CheckMessages(t analysistest.Testing, results []*analysistest.Result) {
	if h, ok := t.(interface{ Helper() }); ok {
		h.Helper()
	}
	for _, r := range results {
		for _, d := range r.Diagnostics {
			texts := []string{d.Message}
			for _, rel := range d.Related {
				texts = append(texts, rel.Message)
			}
			for _, f := range d.SuggestedFixes {
				texts = append(texts, f.Message)
			}
			for _, s := range texts {
				if msg := messageProblem(s); msg != "" {
					t.Errorf("%s: %s: %s: %q", r.Pass.Fset.Position(d.Pos), r.Pass.Analyzer.Name, msg, s)
				}
			}
		}
	}
}

func messageProblem(s string) string {
	switch n := utf8.RuneCountInString(s); {
	case n > MaxMessage:
		return fmt.Sprintf("message of %d characters, over %d", n, MaxMessage)
	case strings.ContainsAny(s, "\n\r"):
		return "message on more than one line"
	case strings.TrimSpace(s) == "":
		return "empty message"
	}
	return ""
}
