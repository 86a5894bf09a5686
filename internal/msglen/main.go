// Command msglen summarises the lengths of locklint's diagnostic messages.
// It reads locklint -json output on stdin (one or more JSON documents, one
// per run) and prints, per analyzer, how many distinct diagnostics there
// are and the median and longest message length in characters. A
// package's test variant repeats its diagnostics; each is counted once.
// With -v it also lists every message, longest first.
//
// scripts/msglen.sh runs it over the findings on testdata/ and examples/.
package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"text/tabwriter"
	"unicode/utf8"
)

// diagnostic is the part of a -json diagnostic that is measured.
type diagnostic struct {
	Posn    string `json:"posn"`
	Message string `json:"message"`
}

func main() {
	verbose := flag.Bool("v", false, "also list every message with its length, longest first")
	flag.Parse()
	byAnalyzer, err := read(os.Stdin)
	if err != nil {
		fmt.Fprintln(os.Stderr, "msglen:", err)
		os.Exit(1)
	}
	write(os.Stdout, byAnalyzer, *verbose)
}

// read decodes a stream of -json documents (package ID, then analyzer
// name, then its diagnostics or an error object) into the distinct
// messages of each analyzer.
func read(r io.Reader) (map[string][]string, error) {
	seen := map[[3]string]bool{}
	out := map[string][]string{}
	dec := json.NewDecoder(r)
	for {
		var tree map[string]map[string]json.RawMessage
		if err := dec.Decode(&tree); errors.Is(err, io.EOF) {
			return out, nil
		} else if err != nil {
			return nil, err
		}
		for pkg, analyzers := range tree {
			for name, raw := range analyzers {
				var diags []diagnostic
				if err := json.Unmarshal(raw, &diags); err != nil {
					return nil, fmt.Errorf("%s: %s: %s", pkg, name, raw)
				}
				for _, d := range diags {
					k := [3]string{name, d.Posn, d.Message}
					if !seen[k] {
						seen[k] = true
						out[name] = append(out[name], d.Message)
					}
				}
			}
		}
	}
}

func write(w io.Writer, byAnalyzer map[string][]string, verbose bool) {
	names := make([]string, 0, len(byAnalyzer))
	for name := range byAnalyzer {
		names = append(names, name)
	}
	slices.Sort(names)
	tw := tabwriter.NewWriter(w, 0, 8, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "analyzer\tmessages\tmedian\tlongest\t")
	var all []int
	for _, name := range names {
		lens := lengths(byAnalyzer[name])
		all = append(all, lens...)
		fmt.Fprintf(tw, "%s\t%d\t%s\t%d\t\n", name, len(lens), median(lens), slices.Max(lens))
	}
	if len(all) > 0 {
		fmt.Fprintf(tw, "all\t%d\t%s\t%d\t\n", len(all), median(all), slices.Max(all))
	}
	tw.Flush()
	if !verbose {
		return
	}
	for _, name := range names {
		msgs := slices.Clone(byAnalyzer[name])
		slices.SortStableFunc(msgs, func(a, b string) int { return utf8.RuneCountInString(b) - utf8.RuneCountInString(a) })
		fmt.Fprintf(w, "\n%s\n", name)
		for _, m := range slices.Compact(msgs) {
			fmt.Fprintf(w, "%4d %s\n", utf8.RuneCountInString(m), strings.ReplaceAll(m, "\n", `\n`))
		}
	}
}

func lengths(msgs []string) []int {
	out := make([]int, len(msgs))
	for i, m := range msgs {
		out[i] = utf8.RuneCountInString(m)
	}
	return out
}

// median formats the median of ns: a whole number, or one ending in .5
// when the count is even and the middle two differ in parity.
func median(ns []int) string {
	s := slices.Sorted(slices.Values(ns))
	n := len(s)
	if n%2 == 1 {
		return fmt.Sprint(s[n/2])
	}
	sum := s[n/2-1] + s[n/2]
	if sum%2 == 0 {
		return fmt.Sprint(sum / 2)
	}
	return fmt.Sprintf("%d.5", sum/2)
}
