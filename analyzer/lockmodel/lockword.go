package lockmodel

import (
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// defaultWords are the words that mark a Redis key as a lock key when one of
// them appears as a whole word in the key's expression.
var defaultWords = []string{
	"lock", "mutex", "mtx", "lease", "leader", "semaphore", "redlock", "dlock",
}

// suffixes are the inflections a lock word may carry and still count:
// "locks", "locked", "locker", "leases", "leadership".
var suffixes = []string{"", "s", "es", "ed", "er", "ers", "ing", "ship"}

// notLockWords are whole words that start with a lock word but mean
// something else. Splitting already keeps "block" and "clock" apart; these
// are compounds written as one word.
var notLockWords = map[string]bool{
	"leaderboard":  true,
	"leaderboards": true,
	"locksmith":    true,
	"lockstep":     true,
}

// Words is a set of lock words. The zero value matches nothing; use
// newWords or defaultWordSet.
type Words struct {
	set map[string]bool
}

// newWords returns a word set built from words, lower-cased.
func newWords(words []string) *Words {
	w := &Words{set: make(map[string]bool, len(words))}
	for _, s := range words {
		if s = strings.ToLower(strings.TrimSpace(s)); s != "" {
			w.set[s] = true
		}
	}
	return w
}

// defaultWordSet returns the default lock words.
func defaultWordSet() *Words { return newWords(defaultWords) }

// List returns the words in a stable order.
func (w *Words) List() []string {
	out := make([]string, 0, len(w.set))
	for _, s := range defaultWords {
		if w.set[s] {
			out = append(out, s)
		}
	}
	var extra []string
	for s := range w.set {
		if !slices.Contains(defaultWords, s) {
			extra = append(extra, s)
		}
	}
	slices.Sort(extra)
	return append(out, extra...)
}

// String renders the set in the flag syntax.
func (w *Words) String() string {
	if w == nil {
		return ""
	}
	return strings.Join(w.List(), ",")
}

// Set parses the flag syntax: a comma-separated list replaces the words;
// entries starting with + or - widen or narrow the current set.
func (w *Words) Set(s string) error {
	if w.set == nil {
		w.set = map[string]bool{}
	}
	replaced := false
	for _, f := range strings.Split(s, ",") {
		f = strings.ToLower(strings.TrimSpace(f))
		if f == "" {
			continue
		}
		switch f[0] {
		case '+':
			w.set[f[1:]] = true
		case '-':
			delete(w.set, f[1:])
		default:
			if !replaced {
				w.set = map[string]bool{}
				replaced = true
			}
			w.set[f] = true
		}
	}
	for k := range w.set {
		if k == "" || strings.IndexFunc(k, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) >= 0 {
			return fmt.Errorf("lock word %q: want letters and digits only", k)
		}
	}
	return nil
}

// Match reports whether one whole word (already lower-cased) is a lock word.
func (w *Words) Match(word string) bool {
	if notLockWords[word] {
		return false
	}
	for _, suf := range suffixes {
		stem, ok := strings.CutSuffix(word, suf)
		if ok && w.set[stem] {
			return true
		}
	}
	return false
}

// MatchText reports whether text (an identifier, a key literal, a format
// string) contains a lock word as a whole word.
func (w *Words) MatchText(text string) bool {
	for _, word := range splitWords(text) {
		if w.Match(word) {
			return true
		}
	}
	return false
}

// splitWords splits identifiers and key strings into lower-case words at
// camelCase humps, digits and any non-alphanumeric separator, so
// "userLockKey", "user_lock", "lock:{id}" and "HTTPLock" all yield "lock".
func splitWords(s string) []string {
	var words []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			words = append(words, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	runes := make([]rune, 0, utf8.RuneCountInString(s))
	for _, r := range s {
		runes = append(runes, r)
	}
	for i, r := range runes {
		switch {
		case unicode.IsLetter(r):
			if unicode.IsUpper(r) && len(cur) > 0 {
				prev := runes[i-1]
				nextLower := i+1 < len(runes) && unicode.IsLower(runes[i+1])
				// "userLock" breaks before L; "HTTPLock" breaks before the
				// L that starts a lower-case run.
				if unicode.IsLower(prev) || (unicode.IsUpper(prev) && nextLower) {
					flush()
				}
			}
			cur = append(cur, r)
		case unicode.IsDigit(r):
			// Digits end a word: "lock2" is "lock".
			flush()
		default:
			flush()
		}
	}
	flush()
	return words
}
