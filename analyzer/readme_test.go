package analyzer_test

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/locklint/locklint/analyzer"
	"github.com/locklint/locklint/internal/docs"
)

// TestREADMECoversTheSuite keeps the documents in step with the suite:
// every analyzer has its row in the README's table, linking its page;
// its URL is that page; its nogo label is in the integrations page; every
// one of its flags is in the usage page's flags table.
func TestREADMECoversTheSuite(t *testing.T) {
	read := func(name string) string {
		data, err := os.ReadFile(filepath.Join("..", name))
		if err != nil {
			t.Fatal(err)
		}
		return string(data)
	}
	readme, usage, integrations := read("README.md"), read("docs/usage.md"), read("docs/integrations.md")
	if n := strings.Count(readme, "\n"); n > 250 {
		t.Errorf("README.md has %d lines; keep it under 250 and put depth in docs/", n)
	}
	for _, a := range analyzer.Analyzers() {
		page := docs.Dir + "/" + a.Name + ".md"
		if row := "| [" + a.Name + "](" + page + ") |"; !strings.Contains(readme, row) {
			t.Errorf("README's analyzer table lacks %s", row)
		}
		if a.URL != docs.URL(a) {
			t.Errorf("%s: URL %s, want its page %s", a.Name, a.URL, docs.URL(a))
		}
		if label := `"@com_github_locklint_locklint//passes/` + a.Name + `"`; !strings.Contains(integrations, label) {
			t.Errorf("docs/integrations.md's nogo deps lack %s", label)
		}
		a.Flags.VisitAll(func(f *flag.Flag) {
			if row := "| `-" + a.Name + "." + f.Name + "` |"; !strings.Contains(usage, row) {
				t.Errorf("docs/usage.md's flags table lacks %s", row)
			}
		})
	}
}

// TestAnalyzerPagesAreFresh fails when a page under docs/analyzers is not
// what go generate ./analyzer makes of the analyzer's doc.go now, or when
// a page has no analyzer.
func TestAnalyzerPagesAreFresh(t *testing.T) {
	want := map[string]bool{}
	for _, a := range analyzer.Analyzers() {
		name := a.Name + ".md"
		want[name] = true
		got, err := os.ReadFile(filepath.Join("..", docs.Dir, name))
		if err != nil {
			t.Errorf("%v; run go generate ./analyzer", err)
			continue
		}
		if string(got) != docs.Page(a, docs.Source(a)) {
			t.Errorf("%s/%s is stale; run go generate ./analyzer", docs.Dir, name)
		}
	}
	entries, err := os.ReadDir(filepath.Join("..", docs.Dir))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if !want[e.Name()] {
			t.Errorf("%s/%s is no analyzer's page", docs.Dir, e.Name())
		}
	}
}
