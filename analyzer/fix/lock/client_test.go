package lock

import (
	"slices"
	"testing"
	"time"
)

// A command the library made carries its words boxed already; a client
// wrapper that rewrites a word (a key prefix, say) before passing the
// command on must get its own words from Values, not the boxed ones.
func TestValuesOfRewrittenCommand(t *testing.T) {
	words := func(c Command) []any {
		var w []any
		for _, part := range [][]string{c.Head, c.Keys, c.Args} {
			for _, s := range part {
				w = append(w, s)
			}
		}
		return w
	}
	made := func() Command { return releaseScript.command(false, nil, []string{"lock"}, []string{"token"}) }

	c := made()
	if got := c.Values(); !slices.Equal(got, words(c)) {
		t.Errorf("as made: Values = %v, want %v", got, words(c))
	}
	c.Keys = []string{"ns:lock"}
	if got := c.Values(); !slices.Equal(got, words(c)) {
		t.Errorf("key replaced: Values = %v, want %v", got, words(c))
	}
	c = made()
	c.Args[0] = "other"
	if got := c.Values(); !slices.Equal(got, words(c)) {
		t.Errorf("argument rewritten in place: Values = %v, want %v", got, words(c))
	}
	c = made()
	c.Args = append(c.Args, "extra")
	if got := c.Values(); !slices.Equal(got, words(c)) {
		t.Errorf("argument appended: Values = %v, want %v", got, words(c))
	}
	c = Command{Head: []string{"GET"}, Keys: []string{"lock"}}
	if got := c.Values(); !slices.Equal(got, words(c)) {
		t.Errorf("made elsewhere: Values = %v, want %v", got, words(c))
	}
}

// The lease's word is kept for the next Obtain, and a new length replaces it.
func TestMsWord(t *testing.T) {
	for _, d := range []int64{2000, 2000, 150, 2000} {
		if got, want := msWord(time.Duration(d)*time.Millisecond), itoa(d); got != want {
			t.Errorf("msWord(%dms) = %q, want %q", d, got, want)
		}
		if got := word(itoa(d)); got != itoa(d) {
			t.Errorf("word(%q) = %v", itoa(d), got)
		}
	}
}
