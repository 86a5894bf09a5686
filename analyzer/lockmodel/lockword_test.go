package lockmodel

import (
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestLockWordsWholeWords(t *testing.T) {
	w := defaultWordSet()
	for _, s := range []string{
		"userLockKey", "lock:{id}", "HTTPLock", "mutex_name", "leader-election",
		"locks", "jobs:42:lock", "LEASE", "redlock", "dlock:x", "mtx2", "leadership",
	} {
		if !w.MatchText(s) {
			t.Errorf("MatchText(%q) = false, want a lock word", s)
		}
	}
	// Near misses: a lock word inside another word, or a compound that
	// means something else.
	for _, s := range []string{
		"block", "clock", "blocklist", "flock", "leaderboard", "leaderboards",
		"unlockable", "locksmith", "lockstep", "clock-skew", "cache:user", "",
	} {
		if w.MatchText(s) {
			t.Errorf("MatchText(%q) = true, want no lock word", s)
		}
	}
}

func TestSplitWords(t *testing.T) {
	for in, want := range map[string][]string{
		"userLockKey":     {"user", "lock", "key"},
		"HTTPLock":        {"http", "lock"},
		"lock:{id}":       {"lock", "id"},
		"mutex_name":      {"mutex", "name"},
		"leader-election": {"leader", "election"},
		"lock2":           {"lock"},
		"":                nil,
	} {
		if got := splitWords(in); !slices.Equal(got, want) {
			t.Errorf("splitWords(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestWordsSet(t *testing.T) {
	w := defaultWordSet()
	if err := w.Set("+guard,-leader"); err != nil {
		t.Fatal(err)
	}
	if !w.MatchText("guardKey") || w.MatchText("leader") || !w.MatchText("lock") {
		t.Errorf("after +guard,-leader: %s", w)
	}
	if err := w.Set("only"); err != nil || w.String() != "only" {
		t.Errorf("plain list replaces: %s, %v", w, err)
	}
	if err := w.Set("bad word"); err == nil {
		t.Error(`Set("bad word"): no error`)
	}
}

// FuzzSplitWords checks that splitting never panics, yields lower-case
// words of letters only, and never invents text the input lacks.
func FuzzSplitWords(f *testing.F) {
	for _, s := range []string{
		"userLockKey", "lock:{id}", "HTTPLock", "mutex_name", "leader-election",
		"block", "clock", "blocklist", "flock", "leaderboard", "ǅLock", "İlock", "\xff\xfeLOCK", "σΣLock",
	} {
		f.Add(s)
	}
	w := defaultWordSet()
	f.Fuzz(func(t *testing.T, s string) {
		words := splitWords(s)
		lower := strings.ToLower(s)
		for _, word := range words {
			if word == "" {
				t.Fatalf("splitWords(%q) has an empty word", s)
			}
			if !utf8.ValidString(word) && utf8.ValidString(s) {
				t.Fatalf("splitWords(%q) = %q: invalid UTF-8 from valid input", s, words)
			}
			if utf8.ValidString(s) && !strings.Contains(lower, word) && word == strings.ToLower(word) && strings.ToUpper(word) != word {
				// Case folding can change lengths (İ); only plain ASCII
				// words must appear verbatim.
				if isASCII(word) && isASCII(s) {
					t.Fatalf("splitWords(%q): word %q is not in the input", s, word)
				}
			}
		}
		if w.MatchText(s) != slices.ContainsFunc(words, w.Match) {
			t.Fatalf("MatchText(%q) disagrees with Match over splitWords", s)
		}
	})
}

// FuzzWordsSet checks that any flag value either fails cleanly or leaves a
// set whose words all survive a round trip through String and Set.
func FuzzWordsSet(f *testing.F) {
	for _, s := range []string{"+guard,-leader", "lock", ",,", "+", "-", "a,+b,-a", "ÄÖ,+ß", "lock:x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		w := defaultWordSet()
		if err := w.Set(s); err != nil {
			return
		}
		again := newWords(nil)
		if err := again.Set(w.String()); err != nil && w.String() != "" {
			t.Fatalf("Set(%q) then Set(String()=%q): %v", s, w.String(), err)
		}
		for _, word := range w.List() {
			if !w.MatchText(word) && !notLockWords[word] && splitWords(word) != nil && len(splitWords(word)) == 1 && splitWords(word)[0] == word {
				t.Fatalf("word %q of the set does not match itself", word)
			}
		}
	})
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}
