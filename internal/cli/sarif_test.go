package cli_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/locklint/locklint/analyzer"
	"github.com/locklint/locklint/internal/testmod"
)

// sarifOut is what the test reads back from -format=sarif.
type sarifOut struct {
	Runs []struct {
		Tool struct {
			Driver struct {
				Rules []struct {
					ID               string                `json:"id"`
					ShortDescription struct{ Text string } `json:"shortDescription"`
					FullDescription  struct{ Text string } `json:"fullDescription"`
					Help             struct{ Text string }
					HelpURI          string `json:"helpUri"`
				} `json:"rules"`
			} `json:"driver"`
		} `json:"tool"`
		AutomationDetails struct{ ID string } `json:"automationDetails"`
		Results           []struct {
			RuleID              string                `json:"ruleId"`
			PartialFingerprints map[string]string     `json:"partialFingerprints"`
			Message             struct{ Text string } `json:"message"`
			Locations           []struct {
				PhysicalLocation struct {
					ArtifactLocation struct{ URI string } `json:"artifactLocation"`
					Region           struct {
						StartLine, StartColumn, EndLine, EndColumn int
					} `json:"region"`
				} `json:"physicalLocation"`
			} `json:"locations"`
			RelatedLocations []json.RawMessage `json:"relatedLocations"`
			Fixes            []struct {
				ArtifactChanges []struct {
					Replacements []struct {
						DeletedRegion   struct{ StartLine, StartColumn, EndLine, EndColumn int } `json:"deletedRegion"`
						InsertedContent *struct{ Text string }                                   `json:"insertedContent"`
					} `json:"replacements"`
				} `json:"artifactChanges"`
			} `json:"fixes"`
		} `json:"results"`
	} `json:"runs"`
}

// TestSARIFOnExamples validates -format=sarif against the official SARIF
// 2.1.0 schema and checks it reports what the BUG markers say.
func TestSARIFOnExamples(t *testing.T) {
	bin := buildTool(t)
	cmd := exec.Command(bin, "-format=sarif", "./...")
	cmd.Dir = examples
	out, err := cmd.Output()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 3 {
		t.Fatalf("locklint -format=sarif: got %v, want exit status 3\n%s", err, out)
	}

	data, err := os.ReadFile(filepath.Join("testdata", "sarif-schema-2.1.0.json"))
	if err != nil {
		t.Fatal(err)
	}
	sch, err := loadSchema(data)
	if err != nil {
		t.Fatal(err)
	}
	var doc any
	if err := json.Unmarshal(out, &doc); err != nil {
		t.Fatalf("output is not JSON: %v\n%s", err, out)
	}
	if errs := sch.validate(doc); len(errs) > 0 {
		t.Fatalf("output does not conform to the SARIF 2.1.0 schema:\n%s", strings.Join(errs, "\n"))
	}

	var log sarifOut
	if err := json.Unmarshal(out, &log); err != nil {
		t.Fatal(err)
	}
	if len(log.Runs) != 1 {
		t.Fatalf("%d runs, want 1", len(log.Runs))
	}
	run := log.Runs[0]
	// The rule carries the analyzer's whole documentation, the result the
	// one-line finding.
	docs := map[string]string{}
	var names []string
	for _, a := range analyzer.Analyzers() {
		names = append(names, a.Name)
		docs[a.Name] = a.Doc
	}
	var ruleIDs []string
	for _, r := range run.Tool.Driver.Rules {
		ruleIDs = append(ruleIDs, r.ID)
		if r.HelpURI == "" || !strings.HasPrefix(r.Help.Text, r.ID+": ") {
			t.Errorf("rule %s: helpUri %q, help %.40q", r.ID, r.HelpURI, r.Help.Text)
		}
		if r.FullDescription.Text != docs[r.ID] || r.Help.Text != docs[r.ID] {
			t.Errorf("rule %s: fullDescription %.40q and help %.40q, want the analyzer's Doc", r.ID, r.FullDescription.Text, r.Help.Text)
		}
		if first, _, _ := strings.Cut(docs[r.ID], "\n"); r.ShortDescription.Text != first {
			t.Errorf("rule %s: shortDescription %q, want %q", r.ID, r.ShortDescription.Text, first)
		}
	}
	if !slices.Equal(ruleIDs, names) {
		t.Errorf("rules %v, want one per analyzer %v", ruleIDs, names)
	}

	var got []finding
	var related, fixes int
	for _, r := range run.Results {
		pl := r.Locations[0].PhysicalLocation
		reg := pl.Region
		if reg.StartLine == 0 || reg.StartColumn == 0 || reg.EndLine < reg.StartLine || (reg.EndLine == reg.StartLine && reg.EndColumn <= reg.StartColumn) {
			t.Errorf("%s: bad region %+v", pl.ArtifactLocation.URI, reg)
		}
		if n := utf8.RuneCountInString(r.Message.Text); n == 0 || n > testmod.MaxMessage || strings.Contains(r.Message.Text, "\n") {
			t.Errorf("%s:%d: message.text of %d characters, want one line of 1 to %d: %q", pl.ArtifactLocation.URI, reg.StartLine, n, testmod.MaxMessage, r.Message.Text)
		}
		// URIs are relative to the directory the driver ran in.
		got = append(got, finding{File: "examples/" + pl.ArtifactLocation.URI, Line: reg.StartLine, Analyzer: r.RuleID})
		related += len(r.RelatedLocations)
		for _, f := range r.Fixes {
			for _, c := range f.ArtifactChanges {
				for _, rep := range c.Replacements {
					if rep.DeletedRegion.StartLine == 0 || rep.InsertedContent == nil {
						t.Errorf("%s:%d: fix replacement %+v lacks a region or content", pl.ArtifactLocation.URI, reg.StartLine, rep)
					}
				}
			}
			fixes++
		}
	}
	sortFindings(got)
	if want := expected(t, root); !slices.Equal(got, want) {
		t.Errorf("SARIF results differ from the BUG markers\ngot:\n%s\nwant:\n%s", join(got), join(want))
	}
	if related == 0 || fixes == 0 {
		t.Errorf("%d related locations and %d fixes on the examples; want some of each", related, fixes)
	}
}

// TestSARIFSelectsAnalyzers checks that -NAME selects analyzers in SARIF
// mode as it does in multichecker's.
func TestSARIFSelectsAnalyzers(t *testing.T) {
	bin := buildTool(t)
	only := analyzer.Analyzers()[0].Name
	cmd := exec.Command(bin, "-format", "sarif", "-"+only, "./...")
	cmd.Dir = examples
	out, _ := cmd.Output()
	var log sarifOut
	if err := json.Unmarshal(out, &log); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	for _, r := range log.Runs[0].Results {
		if r.RuleID != only {
			t.Errorf("-%s: got a %s result", only, r.RuleID)
		}
	}
}

func TestSARIFLoadErrorExits1(t *testing.T) {
	bin := buildTool(t)
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module broken\n\ngo 1.26\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "b.go"), []byte("package broken\n\nfunc f() { undefined() }\n"), 0o644)
	cmd := exec.Command(bin, "-format=sarif", "./...")
	cmd.Dir = dir
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 {
		t.Errorf("locklint -format=sarif on a package that does not type-check: got %v, want exit status 1", err)
	}
}

// TestSchemaValidatorRejects keeps the hand-written validator honest: a
// log that breaks the schema in the ways a writer could must fail.
func TestSchemaValidatorRejects(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "sarif-schema-2.1.0.json"))
	if err != nil {
		t.Fatal(err)
	}
	sch, err := loadSchema(data)
	if err != nil {
		t.Fatal(err)
	}
	ok := `{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"x"}},"results":[{"message":{"text":"m"},"locations":[{"physicalLocation":{"artifactLocation":{"uri":"a.go"},"region":{"startLine":1,"startColumn":1}}}]}]}]}`
	for name, doc := range map[string]string{
		"valid":            ok,
		"unknown property": strings.Replace(ok, `"message"`, `"bogus":1,"message"`, 1),
		"wrong version":    strings.Replace(ok, `"2.1.0"`, `"2.0.0"`, 1),
		"line zero":        strings.Replace(ok, `"startLine":1`, `"startLine":0`, 1),
		"no driver name":   strings.Replace(ok, `"name":"x"`, `"fullName":"x"`, 1),
	} {
		var v any
		if err := json.Unmarshal([]byte(doc), &v); err != nil {
			t.Fatal(err)
		}
		errs := sch.validate(v)
		if (name == "valid") != (len(errs) == 0) {
			t.Errorf("%s: errors %v", name, errs)
		}
	}
}

// TestSARIFFingerprintsFollowTheCode: every result has a partial
// fingerprint, no two alike; lines added above the findings move them but
// leave their fingerprints unchanged; -sarif-category names the run.
func TestSARIFFingerprintsFollowTheCode(t *testing.T) {
	bin := buildTool(t)
	dir := filepath.Join(t.TempDir(), "examples")
	if out, err := exec.Command("cp", "-r", examples, dir).CombinedOutput(); err != nil {
		t.Fatalf("cp: %v\n%s", err, out)
	}
	mod, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	mod = []byte(strings.ReplaceAll(string(mod), "=> ../", "=> "+root+"/"))
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), mod, 0o644); err != nil {
		t.Fatal(err)
	}
	type result struct {
		rule, fingerprint string
		line              int
	}
	run := func() (string, []result) {
		cmd := exec.Command(bin, "-format=sarif", "-sarif-category=billing", "./...")
		cmd.Dir = dir
		out, err := cmd.Output()
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 3 {
			t.Fatalf("locklint -format=sarif: got %v, want exit status 3\n%s", err, out)
		}
		var log sarifOut
		if err := json.Unmarshal(out, &log); err != nil {
			t.Fatal(err)
		}
		var rs []result
		for _, r := range log.Runs[0].Results {
			rs = append(rs, result{r.RuleID, r.PartialFingerprints["locklintLine/v1"], r.Locations[0].PhysicalLocation.Region.StartLine})
		}
		return log.Runs[0].AutomationDetails.ID, rs
	}
	id, before := run()
	if id != "billing/" {
		t.Errorf("automationDetails.id %q, want %q", id, "billing/")
	}
	seen := map[string]bool{}
	for _, r := range before {
		if r.fingerprint == "" || seen[r.fingerprint] {
			t.Errorf("%s at line %d: fingerprint %q missing or repeated", r.rule, r.line, r.fingerprint)
		}
		seen[r.fingerprint] = true
	}
	// Two lines above every package clause move every finding down.
	err = filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") {
			return err
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(path, append([]byte("// Two lines added\n// above everything.\n\n"), src...), 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	_, after := run()
	if len(after) != len(before) {
		t.Fatalf("%d results after the edit, %d before", len(after), len(before))
	}
	for i := range before {
		if after[i].line != before[i].line+3 {
			t.Errorf("%s: line %d after the edit, want %d", before[i].rule, after[i].line, before[i].line+3)
		}
		if after[i].fingerprint != before[i].fingerprint {
			t.Errorf("%s at line %d: fingerprint changed by lines added above it", before[i].rule, before[i].line)
		}
	}
}
