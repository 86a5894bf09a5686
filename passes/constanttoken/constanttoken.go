package constanttoken

import (
	_ "embed"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/astutil"
	"golang.org/x/tools/go/cfg"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/locklint/locklint/analyzer/diag"
	"github.com/locklint/locklint/analyzer/lockmodel"
	"github.com/locklint/locklint/internal/typesx"
)

//go:embed doc.go
var doc string

// Analyzer reports lock acquires whose token is not unique per acquisition.
var Analyzer = &analysis.Analyzer{
	Name:     "constanttoken",
	Doc:      diag.Doc(doc),
	URL:      "https://github.com/locklint/locklint/blob/main/docs/analyzers/constanttoken.md",
	Requires: []*analysis.Analyzer{lockmodel.Analyzer},
	Run:      run,
}

var tests bool

func init() {
	Analyzer.Flags.BoolVar(&tests, "tests", false, "also report acquires in _test.go files")
}

func run(pass *analysis.Pass) (any, error) {
	m := pass.ResultOf[lockmodel.Analyzer].(*lockmodel.Model)
	if !m.Relevant() {
		return nil, nil
	}
	var acquires []*lockmodel.Call
	for _, c := range m.Calls {
		// Tests store fixed values on purpose, to play another holder.
		if !c.Acquires() || c.Value == nil && c.ScriptValue == "" || (!tests && m.IsTestFile(c)) || !m.IsLockKey(c, c.Key()) || m.Marker(c) {
			continue
		}
		acquires = append(acquires, c)
	}
	toks := m.Tokens()
	for _, ct := range m.CtorTokens() {
		if !tests && m.InTestFile(ct.Call) {
			continue
		}
		// An identity drawn once and given to every handle may be a
		// leader's, which the key in the other package would tell.
		if src := toks.ClassifyArg(ct); src.Origin.Weak() && !src.Drawn {
			reportCtor(pass, ct, src)
		}
	}
	for _, v := range m.ValueFuncs() {
		if !tests && m.InTestFile(v.Call) {
			continue
		}
		if src := toks.ClassifyValueFunc(v); src.Origin.Weak() && !src.Drawn {
			reportValueFunc(pass, v, src)
		}
	}
	if len(acquires) == 0 {
		return nil, nil
	}
	loops := &reuse{pass: pass, m: m}
	for _, c := range acquires {
		src := toks.Classify(c)
		switch {
		case (src.Drawn || src.Given) && m.LeaderAcquire(c):
			// A leader lease's holder is the process: an identity drawn
			// once for it, or given to it by its maker (a replica's id),
			// is unique to its holder.
		case src.Origin.Weak() && m.Uncompared(c):
			// Compared by nothing: the unchecked release is the lock's
			// one defect, and unconditionaldel reports it, naming the
			// value its fix must not keep.
		case m.WideDraw(c, src):
			// A wide math/rand draw per acquisition, from a source each
			// process seeds its own way, is as unique as the owner check
			// that compares it needs.
			if rel := loops.reacquired(c); rel != nil {
				reportReuse(pass, m, c, rel)
			}
		case src.Origin.Weak():
			reportWeak(pass, m, c, src)
		case m.LeaderAcquire(c):
			// A leader takes its lease again under the identity it holds
			// it by: the same process, so the same holder.
		default:
			if rel := loops.reacquired(c); rel != nil {
				reportReuse(pass, m, c, rel)
			}
		}
	}
	return nil, nil
}

// useFresh is the remedy of every finding, with the library entry for c's
// client; why a shared token lets one holder release or renew another's
// lock is the doc's.
func useFresh(m *lockmodel.Model, c *lockmodel.Call) string {
	return "use " + diag.Use(m.Library(c), "Obtain") + " or a crypto/rand token"
}

func reportWeak(pass *analysis.Pass, m *lockmodel.Model, c *lockmodel.Call, src lockmodel.TokenOrigin) {
	d := analysis.Diagnostic{
		Pos: c.Pos(),
		End: c.End(),
		Message: fmt.Sprintf("lock key %s acquired with a non-unique token (%s); %s",
			diag.KeyText(m, c, c.Key()), diag.Trail(src.Trail), useFresh(m, c)),
	}
	if src.At != nil && (src.At.Pos() < c.Pos() || src.At.Pos() >= c.End()) {
		d.Related = []analysis.RelatedInformation{{Pos: src.At.Pos(), End: src.At.End(), Message: "token made here"}}
	}
	diag.Report(pass, d)
}

// reportCtor reports a call of another package's constructor that gives
// the token of the lock its value acquires: the finding is here, where
// the value is chosen.
func reportCtor(pass *analysis.Pass, ct lockmodel.CtorToken, src lockmodel.TokenOrigin) {
	key := diag.Quote(ct.Fact.Key)
	if k := ct.KeyArg(); k != nil {
		key = diag.Code(pass.Fset, k)
	}
	d := analysis.Diagnostic{
		Pos: ct.Call.Pos(),
		End: ct.Call.End(),
		Message: fmt.Sprintf("lock key %s acquired with a non-unique token (%s); use %s or a crypto/rand token",
			key, diag.Trail(src.Trail), diag.Use(ct.Library(), "Obtain")),
	}
	if arg := ct.Arg(); src.At != nil && (src.At.Pos() < arg.Pos() || src.At.Pos() >= arg.End()) {
		d.Related = []analysis.RelatedInformation{{Pos: src.At.Pos(), End: src.At.End(), Message: "token made here"}}
	}
	diag.Report(pass, d)
}

// reportValueFunc reports the option that gives a lock library the
// function every lock value of its mutexes is made by.
func reportValueFunc(pass *analysis.Pass, v lockmodel.ValueFunc, src lockmodel.TokenOrigin) {
	d := analysis.Diagnostic{
		Pos: v.Call.Pos(),
		End: v.Call.End(),
		Message: fmt.Sprintf("lock values made by %s are not unique per acquisition (%s), and the library compares them; use a crypto/rand token",
			diag.Code(pass.Fset, v.Call.Fun), diag.Trail(src.Trail)),
	}
	if src.At != nil && (src.At.Pos() < v.Call.Pos() || src.At.Pos() >= v.Call.End()) {
		d.Related = []analysis.RelatedInformation{{Pos: src.At.Pos(), End: src.At.End(), Message: "token made here"}}
	}
	diag.Report(pass, d)
}

func reportReuse(pass *analysis.Pass, m *lockmodel.Model, c *lockmodel.Call, rel ast.Node) {
	diag.Report(pass, analysis.Diagnostic{
		Pos: c.Pos(),
		End: c.End(),
		Message: fmt.Sprintf("lock key %s acquired again with token %s after the release on line %d; make the token inside the loop",
			diag.KeyText(m, c, c.Key()), diag.Code(pass.Fset, c.Value), diag.Line(pass.Fset, rel.Pos())),
		Related: []analysis.RelatedInformation{{Pos: rel.Pos(), End: rel.End(), Message: "released here; the loop then acquires again with the same token"}},
	})
}

// reuse finds a token variable made once and reused across acquisitions:
// a path in the function's control-flow graph from a release of the lock
// back to its acquire that does not assign the variable again. Retries of
// one acquisition never pass a release, so they stay silent.
type reuse struct {
	pass *analysis.Pass
	m    *lockmodel.Model
	// releasers are this package's functions that send a release.
	releasers map[*types.Func]bool
}

func (r *reuse) reacquired(c *lockmodel.Call) ast.Node {
	info := r.pass.TypesInfo
	id, ok := ast.Unparen(c.Value).(*ast.Ident)
	if !ok {
		return nil
	}
	v, ok := info.ObjectOf(id).(*types.Var)
	body := lockmodel.FuncBody(c.Func)
	if !ok || v.IsField() || body == nil || v.Pos() < c.Func.Pos() || v.Pos() >= c.Func.End() {
		return nil
	}
	rels := r.releases(c, v, body)
	if len(rels) == 0 {
		return nil
	}
	var kills []token.Pos
	ast.Inspect(body, func(n ast.Node) bool {
		var lhs []ast.Expr
		switch n := n.(type) {
		case *ast.AssignStmt:
			lhs = n.Lhs
		case *ast.IncDecStmt:
			lhs = []ast.Expr{n.X}
		case *ast.RangeStmt:
			lhs = []ast.Expr{n.Key, n.Value}
		case *ast.ValueSpec:
			for _, name := range n.Names {
				lhs = append(lhs, name)
			}
		}
		for _, l := range lhs {
			if lid, ok := l.(*ast.Ident); ok && info.ObjectOf(lid) == v {
				kills = append(kills, lid.Pos())
			}
		}
		return true
	})
	g := r.m.Graph(body)
	for _, rel := range rels {
		if r.onError(c.File, rel) {
			continue
		}
		if reaches(g, rel.Pos(), c.Pos(), kills) {
			return rel
		}
	}
	return nil
}

// releases returns the calls in c's function, not deferred, that give the
// lock back or renew it: a DEL/UNLINK/DELEX/EVAL of its key or carrying
// the token, an owner-checked SET, the library's Release or Refresh
// (fix's or lock's) with the token, and a call of a release helper of
// this package with the token.
func (r *reuse) releases(c *lockmodel.Call, v *types.Var, body *ast.BlockStmt) []ast.Node {
	m := r.m
	keyID := m.KeyID(c.Key())
	var out []ast.Node
	for _, o := range m.Calls {
		if o == c || o.Func != c.Func || o.Deferred || !releaseCmd(o) {
			continue
		}
		same := typesx.Refers(r.pass.TypesInfo, o.Expr, v)
		for _, k := range o.Keys {
			same = same || m.KeyID(k) == keyID
		}
		if same {
			out = append(out, o.Expr)
		}
	}
	if r.releasers == nil {
		r.releasers = map[*types.Func]bool{}
		for _, o := range m.Calls {
			if releaseCmd(o) && o.Decl != nil {
				if fn, ok := r.pass.TypesInfo.Defs[o.Decl.Name].(*types.Func); ok {
					r.releasers[fn] = true
				}
			}
		}
	}
	deferred := map[*ast.CallExpr]bool{}
	typesx.OutsideClosures(body, func(n ast.Node) (bool, bool) {
		switch n := n.(type) {
		case *ast.DeferStmt:
			deferred[n.Call] = true
		case *ast.CallExpr:
			if deferred[n] || m.CallOf(n) != nil {
				return false, false
			}
			fn, _ := typeutil.Callee(r.pass.TypesInfo, n).(*types.Func)
			if fn == nil || fn.Pkg() == nil {
				return false, false
			}
			isFix := lockmodel.IsLibraryRelease(fn)
			if !isFix && !r.releasers[fn.Origin()] {
				return false, false
			}
			for _, a := range n.Args {
				if id, ok := ast.Unparen(a).(*ast.Ident); ok && r.pass.TypesInfo.ObjectOf(id) == v {
					out = append(out, n)
					break
				}
			}
		}
		return false, false
	})
	return out
}

// onError reports whether rel, in file (the acquire's: releases are
// looked for in its function), runs only when a call failed: it sits in
// the body of an if err != nil. Clearing a lock whose acquire reply was
// lost, then retrying, is still one acquisition.
func (r *reuse) onError(file *ast.File, rel ast.Node) bool {
	if file == nil {
		return false
	}
	path, _ := astutil.PathEnclosingInterval(file, rel.Pos(), rel.End())
	for _, n := range path {
		switch n := n.(type) {
		case *ast.FuncDecl, *ast.FuncLit:
			return false
		case *ast.IfStmt:
			if n.Body.Pos() <= rel.Pos() && rel.End() <= n.Body.End() && errNotNil(r.pass.TypesInfo, n.Cond) {
				return true
			}
		}
	}
	return false
}

// errNotNil reports whether cond is, or has a conjunct, x != nil for an
// error x.
func errNotNil(info *types.Info, cond ast.Expr) bool {
	be, ok := ast.Unparen(cond).(*ast.BinaryExpr)
	if !ok {
		return false
	}
	switch be.Op {
	case token.LAND, token.LOR:
		return errNotNil(info, be.X) || errNotNil(info, be.Y)
	case token.NEQ:
		for _, side := range [2][2]ast.Expr{{be.X, be.Y}, {be.Y, be.X}} {
			if tv, ok := info.Types[side[1]]; ok && tv.IsNil() && types.Identical(info.TypeOf(side[0]), types.Universe.Lookup("error").Type()) {
				return true
			}
		}
	}
	return false
}

// releaseCmd reports whether o gives a lock back: a delete, a script, or
// an owner-checked write. A GET compared with the token only reads who
// holds the key.
func releaseCmd(o *lockmodel.Call) bool {
	switch o.Command {
	case lockmodel.CmdDel, lockmodel.CmdUnlink, lockmodel.CmdGetDel, lockmodel.CmdDelEx, lockmodel.CmdEval:
		return true
	case lockmodel.CmdSet:
		return o.Flags&lockmodel.FlagIFEQ != 0
	}
	return false
}

// reaches reports whether the node at to can run after the node at from
// on some path of g that assigns none of kills in between.
func reaches(g *cfg.CFG, from, to token.Pos, kills []token.Pos) bool {
	fb, fi := typesx.Innermost(g, from)
	tb, ti := typesx.Innermost(g, to)
	if fb == nil || tb == nil {
		return false
	}
	killed := func(b *cfg.Block, lo, hi int) bool {
		for i := lo; i < hi && i < len(b.Nodes); i++ {
			n := b.Nodes[i]
			for _, k := range kills {
				if k >= n.Pos() && k < n.End() {
					return true
				}
			}
		}
		return false
	}
	if fb == tb && fi < ti {
		return !killed(fb, fi+1, ti)
	}
	if killed(fb, fi+1, len(fb.Nodes)) {
		return false
	}
	seen := map[*cfg.Block]bool{}
	queue := append([]*cfg.Block(nil), fb.Succs...)
	for len(queue) > 0 {
		b := queue[0]
		queue = queue[1:]
		if seen[b] {
			continue
		}
		seen[b] = true
		if b == tb {
			if !killed(b, 0, ti) {
				return true
			}
			continue
		}
		if killed(b, 0, len(b.Nodes)) {
			continue
		}
		queue = append(queue, b.Succs...)
	}
	return false
}
