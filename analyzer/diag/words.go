package diag

// The words for what the model found: the model returns facts (the
// evidence that a key is a lock, the trail of a token's value, the
// library entry for a client), and messages say them here, in one
// wording for every pass.

import (
	"fmt"
	"go/ast"
	"go/token"
	"path/filepath"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/locklint/locklint/analyzer/lockmodel"
	"github.com/locklint/locklint/internal/typesx"
)

// KeyText renders a lock key for a message: its source quoted as code,
// and for a key known by usage the note that says why it is a lock:
// `key` (key of `(*RedisLock).Unlock`).
func KeyText(m *lockmodel.Model, c *lockmodel.Call, key ast.Expr) string {
	text := Code(m.Pass.Fset, key)
	if ev, why := m.LockKey(c, key); ev == lockmodel.ByFunc || ev == lockmodel.ByCaller || ev == lockmodel.ByPair {
		if note := whyNote(m.Pass.Fset, why); note != "" {
			text += " (" + note + ")"
		}
	}
	return text
}

// whyNote says what made a key a lock by usage. Plain names keep the note
// short; the positions of a pair's helpers are in their own findings.
func whyNote(fset *token.FileSet, why lockmodel.Why) string {
	switch {
	case why.Helper != nil:
		return "key passed to " + Quote(why.Helper.Name())
	case why.Func != nil:
		return "key of " + Quote(funcName(why.Func))
	case why.Arg != nil:
		pos := fset.Position(why.Call.Pos())
		return fmt.Sprintf("passed %s at %s:%d", Code(fset, why.Arg), filepath.Base(pos.Filename), pos.Line)
	case why.Caller != nil:
		return "taken by " + Quote(why.Take.Name.Name) + " and deleted by " + Quote(why.Drop.Name.Name) + " in " + Quote(why.Caller.Name.Name)
	}
	return ""
}

// funcName renders a declaration's name as Go documentation does: F, or
// (*T).M, or (T).M.
func funcName(d *ast.FuncDecl) string {
	if d.Recv == nil || len(d.Recv.List) == 0 {
		return d.Name.Name
	}
	t := d.Recv.List[0].Type
	star := ""
	if s, ok := ast.Unparen(t).(*ast.StarExpr); ok {
		star, t = "*", s.X
	}
	return "(" + star + typesx.RecvBase(t) + ")." + d.Name.Name
}

// Use names the library function or option fn for a message, with the
// adapter the code needs: `fix.Release`, `lock.Release` via
// `fixredigo.Conn`, or `lock.Release` for a client with no adapter.
func Use(l lockmodel.Library, fn string) string { return refer(l, fn, Quote) }

// UseTitle names fn as Use does, unquoted, for a suggested fix's title.
func UseTitle(l lockmodel.Library, fn string) string {
	return refer(l, fn, func(s string) string { return s })
}

func refer(l lockmodel.Library, fn string, quote func(string) string) string {
	s := quote(l.Name() + "." + fn)
	if l.Wrap != "" {
		s += " via " + quote(l.AdapterName()+"."+l.Wrap)
	}
	return s
}

// SharedValue says, at a release or renewal, that the lock was taken with
// a value every holder stores (src's), at acquire a, and what takes it
// with a token of its own; the remedy is at the acquire, not here.
func SharedValue(a *lockmodel.Call, src lockmodel.TokenOrigin, l lockmodel.Library) analysis.RelatedInformation {
	return analysis.RelatedInformation{Pos: a.Pos(), End: a.End(),
		Message: fmt.Sprintf("taken with %s, which every holder stores; take it with %s", Trail(src.Trail), Use(l, "Obtain"))}
}

// Trail says where a token's value came from, the variables it passed
// through first: "field `token`, the goroutine id (`runtime.Stack`),
// returned by `owner`".
func Trail(t lockmodel.Trail) string {
	var b strings.Builder
	for _, s := range t.Through {
		switch s.Kind {
		case lockmodel.StepVar:
			b.WriteString("package-level variable " + Quote(s.Name) + ", ")
		case lockmodel.StepParam:
			b.WriteString("parameter " + Quote(s.Name) + ", given ")
		case lockmodel.StepField:
			b.WriteString("field " + Quote(s.Name) + ", ")
		}
	}
	b.WriteString(source(t.Source))
	if t.Helper != "" {
		b.WriteString(", returned by " + Quote(t.Helper))
	}
	return b.String()
}

func source(s lockmodel.Source) string {
	switch s.Kind {
	case lockmodel.SourceConstant:
		return "the constant " + Quote(s.Name)
	case lockmodel.SourceConstants:
		return "a constant"
	case lockmodel.SourceCounter:
		return "loop counter " + Quote(s.Name) + ", the same in every process"
	case lockmodel.SourceFunc:
		return Quote(s.Name)
	case lockmodel.SourceGoroutineID:
		return "the goroutine id (" + Quote("runtime.Stack") + ")"
	case lockmodel.SourceSetOnce:
		if s.Name == "" {
			return "set once per process"
		}
		return "set once in " + Quote(s.Name)
	}
	return s.Name
}
