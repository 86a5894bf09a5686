package main

import (
	"strings"
	"testing"
)

// TestReadCountsEachDiagnosticOnce feeds two runs in which a package and
// its test variant repeat one diagnostic, and an analyzer that failed.
func TestReadCountsEachDiagnosticOnce(t *testing.T) {
	in := `{"p": {"a": [{"posn": "f.go:1:1", "message": "one"}, {"posn": "f.go:2:1", "message": "three"}]},
 "p [p.test]": {"a": [{"posn": "f.go:1:1", "message": "one"}], "b": {"error": "boom"}}}
{"q": {"b": [{"posn": "g.go:1:1", "message": "four"}]}}`
	got, err := read(strings.NewReader(in))
	if err == nil {
		t.Fatalf("read accepted an analyzer error object: %v", got)
	}
	got, err = read(strings.NewReader(strings.Replace(in, `{"error": "boom"}`, `[]`, 1)))
	if err != nil {
		t.Fatal(err)
	}
	if len(got["a"]) != 2 || len(got["b"]) != 1 {
		t.Errorf("read = %v, want 2 messages of a and 1 of b", got)
	}
}

func TestMedian(t *testing.T) {
	for _, tc := range []struct {
		ns   []int
		want string
	}{
		{[]int{5}, "5"},
		{[]int{9, 1, 5}, "5"},
		{[]int{1, 3}, "2"},
		{[]int{4, 1}, "2.5"},
	} {
		if got := median(tc.ns); got != tc.want {
			t.Errorf("median(%v) = %s, want %s", tc.ns, got, tc.want)
		}
	}
}
