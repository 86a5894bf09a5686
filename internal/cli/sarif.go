package cli

import (
	"crypto/sha256"
	"encoding/hex"
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
		AutomationDetails  *sarifAutomation            `json:"automationDetails,omitempty"`
		OriginalURIBaseIDs map[string]sarifArtifactLoc `json:"originalUriBaseIds,omitempty"`
		Results            []sarifResult               `json:"results"`
		ColumnKind         string                      `json:"columnKind"`
	}
	sarifAutomation struct {
		ID string `json:"id"`
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
		// PartialFingerprints identify a result across edits that move
		// it, so that a code-scanning alert follows its code.
		PartialFingerprints map[string]string `json:"partialFingerprints,omitempty"`
		lineText            string            // the flagged line, for the fingerprint
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

// A code-scanning service keeps one set of alerts per category: a
// repository that lints several modules or configurations uploads one run
// per category.
const (
	defaultCategory    = "locklint"
	sarifCategoryUsage = "SARIF automationDetails category: one per lint job whose alerts a code-scanning service keeps apart"
)

// fingerprintKey names locklint's partial fingerprint.
const fingerprintKey = "locklintLine/v1"

// buildSARIF turns the root diagnostics into one SARIF run and returns it
// with the number of results. Rules list the whole suite, not only the
// analyzers that ran, so that rule indexes are stable across invocations.
func buildSARIF(g *checker.Graph, suite []*analysis.Analyzer, pkgs []*packages.Package, wd, category string) (*sarifLog, int) {
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
	if category != "" {
		run.AutomationDetails = &sarifAutomation{ID: strings.TrimSuffix(category, "/") + "/"}
	}
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
			r.lineText = cols.line(fset.Position(d.Pos))
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
	fingerprint(run.Results)
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

// fingerprint gives each result a hash of what it is and where in the
// code, not on which line: the rule, the file, the flagged line's text
// with its spacing normalised, and how many results alike come before it
// in the file. Lines added or removed above a finding leave it unchanged.
// rs are in file and line order.
func fingerprint(rs []sarifResult) {
	before := map[string]int{}
	for i := range rs {
		r := &rs[i]
		what := strings.Join([]string{r.RuleID, r.Locations[0].PhysicalLocation.ArtifactLocation.URI, r.lineText}, "\x00")
		n := before[what]
		before[what]++
		h := sha256.Sum256(fmt.Appendf(nil, "%s\x00%d", what, n))
		r.PartialFingerprints = map[string]string{fingerprintKey: hex.EncodeToString(h[:16])}
	}
}

// columns converts go/token's byte columns to the UTF-16 code-unit columns
// that SARIF assumes by default.
type columns struct{ files map[string][]byte }

func (c *columns) utf16(p token.Position) int {
	src := c.source(p.Filename)
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

func (c *columns) source(filename string) []byte {
	src, ok := c.files[filename]
	if !ok {
		src, _ = os.ReadFile(filename)
		c.files[filename] = src
	}
	return src
}

// line returns p's line, its spacing normalised.
func (c *columns) line(p token.Position) string {
	src := c.source(p.Filename)
	start := p.Offset - (p.Column - 1)
	if start < 0 || p.Offset > len(src) {
		return ""
	}
	line, _, _ := strings.Cut(string(src[start:]), "\n")
	return strings.Join(strings.Fields(line), " ")
}
