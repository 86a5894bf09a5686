package testmod

import (
	"fmt"
	"go/token"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"
)

type recorder struct{ errs []string }

func (r *recorder) Errorf(format string, args ...any) {
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}

// TestCheckMessagesFailsLongMessages keeps the length check honest: it
// must reject a long message, a long related note, a long fix title and a
// message on two lines, and pass one at the limit.
func TestCheckMessagesFailsLongMessages(t *testing.T) {
	long := strings.Repeat("x", MaxMessage+1)
	atLimit := strings.Repeat("é", MaxMessage)
	pass := &analysis.Pass{Analyzer: &analysis.Analyzer{Name: "a"}, Fset: token.NewFileSet()}
	for _, tc := range []struct {
		d    analysis.Diagnostic
		errs int
	}{
		{analysis.Diagnostic{Message: atLimit}, 0},
		{analysis.Diagnostic{Message: long}, 1},
		{analysis.Diagnostic{Message: "ok", Related: []analysis.RelatedInformation{{Message: long}}}, 1},
		{analysis.Diagnostic{Message: "ok", SuggestedFixes: []analysis.SuggestedFix{{Message: long}}}, 1},
		{analysis.Diagnostic{Message: "two\nlines"}, 1},
		{analysis.Diagnostic{Message: ""}, 1},
	} {
		r := &recorder{}
		CheckMessages(r, []*analysistest.Result{{Pass: pass, Diagnostics: []analysis.Diagnostic{tc.d}}})
		if len(r.errs) != tc.errs {
			t.Errorf("CheckMessages(%.30q...): %d errors %q, want %d", tc.d.Message, len(r.errs), r.errs, tc.errs)
		}
	}
}
