package lockmodel

// Forced releases: a delete that a function named for forcing sends on
// purpose, whoever holds the key.

import (
	"go/ast"
	"go/token"
	"strconv"
	"strings"
	"unicode"

	"golang.org/x/tools/go/ast/astutil"
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
//
// Or the branch says so: the delete runs only where an if's condition
// names forcing (if req.Force, if c.Query("force") == "1"), an
// operator's explicit request to clear a lock a dead run left behind.
func (m *Model) Forced(c *Call) bool {
	if c.Decl == nil {
		return false
	}
	if c.Func == c.Decl && (forceName(c.Decl.Name.Name) || c.Decl.Doc != nil && forceWord(c.Decl.Doc.Text())) {
		return true
	}
	return c.File != nil && m.forcedBranch(c)
}

// forcedBranch reports whether c runs in the body of an if, within its
// function, whose condition names forcing: an identifier or a selector
// named for it, or a string literal that is one (a query parameter).
func (m *Model) forcedBranch(c *Call) bool {
	path, _ := astutil.PathEnclosingInterval(c.File, c.Pos(), c.End())
	for i, n := range path {
		if n == c.Func {
			return false
		}
		ifs, ok := n.(*ast.IfStmt)
		if !ok || i == 0 || path[i-1] != ast.Node(ifs.Body) {
			continue
		}
		found := false
		ast.Inspect(ifs.Cond, func(x ast.Node) bool {
			switch x := x.(type) {
			case *ast.Ident:
				found = found || forceName(x.Name)
			case *ast.BasicLit:
				if x.Kind == token.STRING {
					if v, err := strconv.Unquote(x.Value); err == nil && forceName(v) {
						found = true
					}
				}
			case *ast.FuncLit:
				return false
			}
			return !found
		})
		if found {
			return true
		}
	}
	return false
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
