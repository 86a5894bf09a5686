// Package docs renders each analyzer's page from its documentation (the
// "# Analyzer" section of its doc.go, as Analyzer.Doc carries it), so that
// the page an analyzer's URL names and its doc.go never disagree.
package docs

import (
	"flag"
	"fmt"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// Dir is where the pages live, from the repository root.
const Dir = "docs/analyzers"

// Page returns a's page: its name, its summary, its documentation with
// the indented examples as Go code blocks, and its flags.
func Page(a *analysis.Analyzer, source string) string {
	var b strings.Builder
	summary, body, _ := strings.Cut(a.Doc, "\n")
	summary = strings.TrimPrefix(summary, a.Name+": ")
	fmt.Fprintf(&b, "<!-- Generated from %s by go generate ./analyzer; DO NOT EDIT. -->\n\n", source)
	fmt.Fprintf(&b, "# %s\n\n%s.\n\n", a.Name, strings.TrimSuffix(upperFirst(summary), "."))
	code := false
	for _, l := range strings.Split(strings.TrimSpace(body), "\n") {
		switch {
		case strings.HasPrefix(l, "\t") && !code:
			b.WriteString("\n```go\n")
			code = true
		case !strings.HasPrefix(l, "\t") && l != "" && code:
			b.WriteString("```\n\n")
			code = false
		case l == "" && code:
			// A blank line inside a code block ends it only if prose follows.
			b.WriteString("\n")
			continue
		}
		if code {
			b.WriteString(strings.TrimPrefix(l, "\t") + "\n")
			continue
		}
		b.WriteString(l + "\n")
	}
	if code {
		b.WriteString("```\n")
	}
	var flags []string
	a.Flags.VisitAll(func(f *flag.Flag) {
		flags = append(flags, fmt.Sprintf("| `-%s.%s` | `%s` | %s |", a.Name, f.Name, f.DefValue, f.Usage))
	})
	if len(flags) > 0 {
		b.WriteString("\n## Flags\n\n| flag | default | meaning |\n|---|---|---|\n")
		b.WriteString(strings.Join(flags, "\n") + "\n")
	}
	return tidy(b.String())
}

// tidy collapses the blank lines a closed code block leaves doubled.
func tidy(s string) string {
	for strings.Contains(s, "\n\n\n") {
		s = strings.ReplaceAll(s, "\n\n\n", "\n\n")
	}
	s = strings.ReplaceAll(s, "\n\n```\n\n", "\n```\n\n")
	return s
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// URL is the address of a's page.
func URL(a *analysis.Analyzer) string {
	return "https://github.com/locklint/locklint/blob/main/" + Dir + "/" + a.Name + ".md"
}

// Source names the doc.go a's documentation comes from.
func Source(a *analysis.Analyzer) string { return "passes/" + a.Name + "/doc.go" }
