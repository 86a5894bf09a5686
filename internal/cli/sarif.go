package cli

import (
	"fmt"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"
)

// The subset of SARIF 2.1.0 that locklint writes.
type (
	sarifLog struct {
		Schema  string     `json:"$schema"`
		Version string     `json:"version"`
		Runs    []sarifRun `json:"runs"`
	}
	sarifRun struct {
		Tool               sarifTool                   `json:"tool"`
		OriginalURIBaseIDs map[string]sarifArtifactLoc `json:"originalUriBaseIds,omitempty"`
		Results            []sarifResult               `json:"results"`
		ColumnKind         string                      `json:"columnKind"`
	}
	sarifTool struct {
		Driver sarifDriver `json:"driver"`
	}
	sarifDriver struct {
		Name           string      `json:"name"`
		Version        string      `json:"version,omitempty"`
		InformationURI string      `json:"informationUri"`
		Rules          []sarifRule `json:"rules"`
	}
	sarifRule struct {
		ID               string       `json:"id"`
		Name             string       `json:"name"`
		ShortDescription sarifMessage `json:"shortDescription"`
		FullDescription  sarifMessage `json:"fullDescription"`
		Help             sarifMessage `json:"help"`
		HelpURI          string       `json:"helpUri,omitempty"`
	}
	sarifMessage struct {
		Text string `json:"text"`
	}
	sarifResult struct {
		RuleID           string          `json:"ruleId"`
		RuleIndex        int             `json:"ruleIndex"`
		Level            string          `json:"level"`
		Message          sarifMessage    `json:"message"`
		Locations        []sarifLocation `json:"locations"`
		RelatedLocations []sarifLocation `json:"relatedLocations,omitempty"`
		Fixes            []sarifFix      `json:"fixes,omitempty"`
	}
	sarifLocation struct {
		ID               *int          `json:"id,omitempty"`
		PhysicalLocation sarifPhysical `json:"physicalLocation"`
		Message          *sarifMessage `json:"message,omitempty"`
	}
	sarifPhysical struct {
		ArtifactLocation sarifArtifactLoc `json:"artifactLocation"`
		Region           sarifRegion      `json:"region"`
	}
	sarifArtifactLoc struct {
		URI       string `json:"uri"`
		URIBaseID string `json:"uriBaseId,omitempty"`
	}
	sarifRegion struct {
		StartLine   int `json:"startLine"`
		StartColumn int `json:"startColumn"`
		EndLine     int `json:"endLine"`
		EndColumn   int `json:"endColumn"`
	}
	sarifFix struct {
		Description     sarifMessage          `json:"description"`
		ArtifactChanges []sarifArtifactChange `json:"artifactChanges"`
	}
	sarifArtifactChange struct {
		ArtifactLocation sarifArtifactLoc   `json:"artifactLocation"`
		Replacements     []sarifReplacement `json:"replacements"`
	}
	sarifReplacement struct {
		DeletedRegion   sarifRegion   `json:"deletedRegion"`
		InsertedContent *sarifMessage `json:"insertedContent,omitempty"`
	}
)

const srcRoot = "%SRCROOT%"

// buildSARIF turns the root diagnostics into one SARIF run and returns it
// with the number of results. Rules list the whole suite, not only the
// analyzers that ran, so that rule indexes are stable across invocations.
func buildSARIF(g *checker.Graph, suite []*analysis.Analyzer, pkgs []*packages.Package, wd string) (*sarifLog, int) {
	var fset *token.FileSet
	if len(pkgs) > 0 {
		fset = pkgs[0].Fset
	}
	drv := sarifDriver{Name: "locklint", Version: version(), InformationURI: "https://github.com/locklint/locklint"}
	index := map[string]int{}
	for i, a := range suite {
		index[a.Name] = i
		short, _, _ := strings.Cut(a.Doc, "\n")
		drv.Rules = append(drv.Rules, sarifRule{
			ID: a.Name, Name: a.Name,
			ShortDescription: sarifMessage{short},
			FullDescription:  sarifMessage{a.Doc},
			Help:             sarifMessage{a.Doc},
			HelpURI:          a.URL,
		})
	}
	cols := &columns{files: map[string][]byte{}}
	loc := func(pos, end token.Pos) (sarifArtifactLoc, sarifRegion) {
		if !end.IsValid() {
			end = pos
		}
		p, e := fset.Position(pos), fset.Position(end)
		return artifact(p.Filename, wd), sarifRegion{
			StartLine: p.Line, StartColumn: cols.utf16(p),
			EndLine: e.Line, EndColumn: cols.utf16(e),
		}
	}
	run := sarifRun{Tool: sarifTool{Driver: drv}, Results: []sarifResult{}, ColumnKind: "utf16CodeUnits"}
	if wd != "" {
		run.OriginalURIBaseIDs = map[string]sarifArtifactLoc{srcRoot: {URI: fileURI(wd) + "/"}}
	}
	// Test variants of a package repeat its diagnostics; report each once.
	seen := map[string]bool{}
	for act := range g.All() {
		if !act.IsRoot {
			continue
		}
		for _, d := range act.Diagnostics {
			al, reg := loc(d.Pos, d.End)
			key := fmt.Sprint(act.Analyzer.Name, al.URI, reg, d.Message)
			if seen[key] {
				continue
			}
			seen[key] = true
			r := sarifResult{
				RuleID: act.Analyzer.Name, RuleIndex: index[act.Analyzer.Name], Level: "warning",
				Message:   sarifMessage{d.Message},
				Locations: []sarifLocation{{PhysicalLocation: sarifPhysical{al, reg}}},
			}
			for i, rel := range d.Related {
				ral, rreg := loc(rel.Pos, rel.End)
				id := i + 1
				r.RelatedLocations = append(r.RelatedLocations, sarifLocation{
					ID: &id, PhysicalLocation: sarifPhysical{ral, rreg}, Message: &sarifMessage{rel.Message},
				})
			}
			for _, sf := range d.SuggestedFixes {
				fix := sarifFix{Description: sarifMessage{sf.Message}}
				byFile := map[string]int{}
				for _, te := range sf.TextEdits {
					fal, freg := loc(te.Pos, te.End)
					i, ok := byFile[fal.URI]
					if !ok {
						i = len(fix.ArtifactChanges)
						byFile[fal.URI] = i
						fix.ArtifactChanges = append(fix.ArtifactChanges, sarifArtifactChange{ArtifactLocation: fal})
					}
					ch := &fix.ArtifactChanges[i]
					ch.Replacements = append(ch.Replacements, sarifReplacement{
						DeletedRegion: freg, InsertedContent: &sarifMessage{string(te.NewText)},
					})
				}
				if len(fix.ArtifactChanges) > 0 {
					r.Fixes = append(r.Fixes, fix)
				}
			}
			run.Results = append(run.Results, r)
		}
	}
	slices.SortStableFunc(run.Results, func(a, b sarifResult) int {
		pa, pb := a.Locations[0].PhysicalLocation, b.Locations[0].PhysicalLocation
		if c := strings.Compare(pa.ArtifactLocation.URI, pb.ArtifactLocation.URI); c != 0 {
			return c
		}
		if pa.Region.StartLine != pb.Region.StartLine {
			return pa.Region.StartLine - pb.Region.StartLine
		}
		return pa.Region.StartColumn - pb.Region.StartColumn
	})
	return &sarifLog{
		Schema:  "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json",
		Version: "2.1.0",
		Runs:    []sarifRun{run},
	}, len(run.Results)
}

// artifact names a file relative to the working directory when it lies
// under it, as code-scanning services expect repository-relative paths.
func artifact(filename, wd string) sarifArtifactLoc {
	if wd != "" {
		if rel, err := filepath.Rel(wd, filename); err == nil && !strings.HasPrefix(rel, "..") && !filepath.IsAbs(rel) {
			return sarifArtifactLoc{URI: filepath.ToSlash(rel), URIBaseID: srcRoot}
		}
	}
	return sarifArtifactLoc{URI: fileURI(filename)}
}

func fileURI(path string) string {
	p := filepath.ToSlash(path)
	if !strings.HasPrefix(p, "/") {
		p = "/" + p
	}
	return "file://" + p
}

// columns converts go/token's byte columns to the UTF-16 code-unit columns
// that SARIF assumes by default.
type columns struct{ files map[string][]byte }

func (c *columns) utf16(p token.Position) int {
	src, ok := c.files[p.Filename]
	if !ok {
		src, _ = os.ReadFile(p.Filename)
		c.files[p.Filename] = src
	}
	start := p.Offset - (p.Column - 1)
	if start < 0 || p.Offset > len(src) {
		return p.Column
	}
	n := 1
	for b := src[start:p.Offset]; len(b) > 0; {
		r, size := utf8.DecodeRune(b)
		b = b[size:]
		n += len(utf16.Encode([]rune{r}))
	}
	return n
}
