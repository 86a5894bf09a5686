package lockmodel

// Forced releases: a delete that a function named for forcing sends on
// purpose, whoever holds the key.

import (
	"strings"
	"unicode"
)

// Forced reports whether c sits in a function named for forcing a
// release (ForceRelease, forceUnlock, force_delete): an operator's or
// an admin's way out, beside the owner-checked release, that deletes the
// key whoever holds it by design (Redisson's forceUnlock, Laravel's
// forceRelease). Its missing owner check is the point, not a defect.
//
// Its doc comment may say so instead ("Unlock force-clears the migration
// lock", "deletes the lock forcibly"): the author's word for what the
// function is for.
func (m *Model) Forced(c *Call) bool {
	if c.Decl == nil || c.Func != c.Decl {
		return false
	}
	return forceName(c.Decl.Name.Name) || c.Decl.Doc != nil && forceWord(c.Decl.Doc.Text())
}

// forceWord reports whether text has a word that starts with "forc"
// (force, forced, force-clears, forcibly); not enforce.
func forceWord(text string) bool {
	lower := strings.ToLower(text)
	for i := 0; ; {
		j := strings.Index(lower[i:], "forc")
		if j < 0 {
			return false
		}
		j += i
		if j == 0 || !unicode.IsLetter(rune(lower[j-1])) {
			return true
		}
		i = j + 4
	}
}

// forceName reports whether a function's name starts a word with
// "force": Force, forceX, x_force, XForce; not enforce.
func forceName(name string) bool {
	lower := strings.ToLower(name)
	return strings.HasPrefix(lower, "force") || strings.Contains(name, "Force") || strings.Contains(lower, "_force")
}
