package lockmodel

// Forced releases: a delete that a function named for forcing sends on
// purpose, whoever holds the key.

import "strings"

// Forced reports whether c sits in a function named for forcing a
// release (ForceRelease, forceUnlock, force_delete): an operator's or
// an admin's way out, beside the owner-checked release, that deletes the
// key whoever holds it by design (Redisson's forceUnlock, Laravel's
// forceRelease). Its missing owner check is the point, not a defect.
func (m *Model) Forced(c *Call) bool {
	if c.Decl == nil || c.Func != c.Decl {
		return false
	}
	return forceName(c.Decl.Name.Name)
}

// forceName reports whether a function's name starts a word with
// "force": Force, forceX, x_force, XForce; not enforce.
func forceName(name string) bool {
	lower := strings.ToLower(name)
	return strings.HasPrefix(lower, "force") || strings.Contains(name, "Force") || strings.Contains(lower, "_force")
}
