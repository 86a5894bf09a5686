// Package bugmarkers reads the BUG(analyzer) comments that mark, in
// examples/, each line locklint must report; the driver and integration
// tests compare what a tool reports with them.
package bugmarkers

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

// Finding is one expected or reported diagnostic, reduced to its place and
// analyzer.
type Finding struct {
	File     string // slash-separated, relative to the directory linted
	Line     int
	Analyzer string
}

func (f Finding) String() string { return fmt.Sprintf("%s:%d: %s", f.File, f.Line, f.Analyzer) }

// Sort orders findings by file, line and analyzer.
func Sort(fs []Finding) {
	slices.SortFunc(fs, func(a, b Finding) int { return strings.Compare(a.String(), b.String()) })
}

// Join renders findings one per line, for test failure messages.
func Join(fs []Finding) string {
	var sb strings.Builder
	for _, f := range fs {
		sb.WriteString("  " + f.String() + "\n")
	}
	return sb.String()
}

var marker = regexp.MustCompile(`// BUG\((\w+)\)`)

// Read returns the markers under dir/examples whose analyzer is enabled,
// sorted, with paths relative to dir.
func Read(dir string, enabled func(analyzer string) bool) ([]Finding, error) {
	var out []Finding
	err := filepath.WalkDir(filepath.Join(dir, "examples"), func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") {
			return err
		}
		f, err := os.Open(path)
		if err != nil {
			return err
		}
		defer f.Close()
		rel, err := filepath.Rel(dir, path)
		if err != nil {
			return err
		}
		sc := bufio.NewScanner(f)
		for line := 1; sc.Scan(); line++ {
			for _, m := range marker.FindAllStringSubmatch(sc.Text(), -1) {
				if enabled(m[1]) {
					out = append(out, Finding{filepath.ToSlash(rel), line, m[1]})
				}
			}
		}
		return sc.Err()
	})
	Sort(out)
	return out, err
}
