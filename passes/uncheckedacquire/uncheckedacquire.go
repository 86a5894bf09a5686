package uncheckedacquire

import (
	_ "embed"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/astutil"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/locklint/locklint/analyzer/diag"
	"github.com/locklint/locklint/analyzer/lockmodel"
	"github.com/locklint/locklint/internal/typesx"
)

//go:embed doc.go
var doc string

// Analyzer reports lock acquires whose result is not checked before the
// work they guard.
var Analyzer = &analysis.Analyzer{
	Name:     "uncheckedacquire",
	Doc:      diag.Doc(doc),
	URL:      "https://github.com/locklint/locklint/blob/main/docs/analyzers/uncheckedacquire.md",
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
	for _, c := range m.Calls {
		// A queued acquire's reply comes with the batch's; a deferred one
		// guards nothing.
		if !c.Acquires() || c.Queued || c.Deferred || c.Func == nil || (!tests && m.IsTestFile(c)) {
			continue
		}
		checkAcquire(pass, m, c)
	}
	for _, call := range m.Obtains() {
		if !tests && m.InTestFile(call) {
			continue
		}
		checkObtain(pass, m, call)
	}
	return nil, nil
}

// receipt is what the code does with a result: where it goes, and the
// variables that take its reply and its error.
type receipt struct {
	discarded bool // a statement of its own, or assigned to _ only
	returned  bool // the operand of a return statement
	elsewhere bool // used in an expression, stored, or sent: the code has it
	reply     *types.Var
	err       *types.Var
	replyAny  bool // some part other than the error is received at all
}

// receive reads what happens to r, whose enclosing nodes are parents.
func receive(info *types.Info, r ast.Expr, parents []ast.Node) receipt {
	if len(parents) == 0 {
		return receipt{elsewhere: true}
	}
	var lhs []ast.Expr
	switch p := parents[0].(type) {
	case *ast.ExprStmt:
		return receipt{discarded: true}
	case *ast.ReturnStmt:
		return receipt{returned: true}
	case *ast.AssignStmt:
		if len(p.Rhs) != 1 || p.Rhs[0] != r {
			return receipt{elsewhere: true}
		}
		lhs = p.Lhs
	case *ast.ValueSpec:
		if len(p.Values) != 1 || p.Values[0] != r {
			return receipt{elsewhere: true}
		}
		for _, n := range p.Names {
			lhs = append(lhs, n)
		}
	default:
		return receipt{elsewhere: true}
	}
	var rc receipt
	types_ := resultTypes(info.TypeOf(r))
	if len(types_) != len(lhs) {
		return receipt{elsewhere: true}
	}
	blank := true
	for i, l := range lhs {
		id, ok := ast.Unparen(l).(*ast.Ident)
		if !ok {
			// Stored in a field or an element: the code keeps it.
			return receipt{elsewhere: true}
		}
		isErr := types.Identical(types_[i], types.Universe.Lookup("error").Type())
		if !isErr {
			rc.replyAny = true
		}
		if id.Name == "_" {
			continue
		}
		blank = false
		v, _ := info.ObjectOf(id).(*types.Var)
		if v == nil || (!isErr && rc.reply != nil) {
			return receipt{elsewhere: true}
		}
		if isErr {
			rc.err = v
		} else {
			rc.reply = v
		}
	}
	rc.discarded = blank
	return rc
}

func resultTypes(t types.Type) []types.Type {
	if tup, ok := t.(*types.Tuple); ok {
		out := make([]types.Type, tup.Len())
		for i := range tup.Len() {
			out[i] = tup.At(i).Type()
		}
		return out
	}
	if t == nil {
		return nil
	}
	return []types.Type{t}
}

// reads returns the identifiers that read v in fn. Assignments to v are
// not reads, and neither is `_ = v`, which only silences the compiler.
func reads(info *types.Info, fn ast.Node, v *types.Var) []*ast.Ident {
	written := map[*ast.Ident]bool{}
	var out []*ast.Ident
	ast.Inspect(fn, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			blank := true
			for _, l := range n.Lhs {
				if id, ok := l.(*ast.Ident); ok {
					written[id] = true
					blank = blank && id.Name == "_"
				} else {
					blank = false
				}
			}
			if blank && n.Tok == token.ASSIGN {
				for _, r := range n.Rhs {
					if id, ok := ast.Unparen(r).(*ast.Ident); ok {
						written[id] = true
					}
				}
			}
		case *ast.Ident:
			if !written[n] && info.Uses[n] == v {
				out = append(out, n)
			}
		}
		return true
	})
	return out
}

// onlyChoosesDefer reports whether every read of the reply is the
// condition of an if whose branches only defer (the release): the work
// after the if runs on both branches.
func onlyChoosesDefer(file *ast.File, ids []*ast.Ident) bool {
	if len(ids) == 0 {
		return false
	}
	for _, id := range ids {
		path, _ := astutil.PathEnclosingInterval(file, id.Pos(), id.End())
		var ifs *ast.IfStmt
		for _, n := range path {
			if s, ok := n.(*ast.IfStmt); ok {
				ifs = s
				break
			}
			if _, ok := n.(ast.Stmt); ok {
				return false
			}
		}
		if ifs == nil || !(ifs.Cond.Pos() <= id.Pos() && id.End() <= ifs.Cond.End()) {
			return false
		}
		if !defersOnly(ifs.Body) {
			return false
		}
		switch e := ifs.Else.(type) {
		case nil:
		case *ast.BlockStmt:
			if !defersOnly(e) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

func defersOnly(b *ast.BlockStmt) bool {
	if len(b.List) == 0 {
		return false
	}
	for _, s := range b.List {
		if _, ok := s.(*ast.DeferStmt); !ok {
			return false
		}
	}
	return true
}

// workAfter reports whether anything but a return follows the statement
// that holds the acquire, in its block or an enclosing one of its
// function: a set-if-absent followed by a return guards nothing.
func workAfter(parents []ast.Node, at token.Pos) bool {
	for _, n := range parents {
		switch n.(type) {
		case *ast.FuncDecl, *ast.FuncLit:
			return false
		}
		for _, s := range typesx.Stmts(n) {
			if s.Pos() <= at {
				continue
			}
			switch s.(type) {
			case *ast.ReturnStmt, *ast.EmptyStmt:
			default:
				return true
			}
		}
	}
	return false
}

// held reports whether the package treats c's key as held: it deletes,
// expires or releases (with a script) the same key somewhere, directly or
// by passing it to a function of its own that does (release(conn, key))
// or to the lock library's release, or c's own function is a lock function by its name. A set-if-absent
// whose key nothing releases is a default or a one-time marker.
func held(pass *analysis.Pass, m *lockmodel.Model, c *lockmodel.Call) bool {
	if ev, _ := m.LockKey(c, c.Key()); ev == lockmodel.ByFunc {
		return true
	}
	id := m.KeyID(c.Key())
	releasers := map[*types.Func]bool{}
	for _, o := range m.Calls {
		if o == c || o.Acquires() {
			continue
		}
		if !o.Command.IsDelete() && !o.Command.IsExpire() && o.Command != lockmodel.CmdDelEx && o.Command != lockmodel.CmdEval {
			continue
		}
		for _, k := range o.Keys {
			if m.KeyID(k) == id {
				return true
			}
		}
		if o.Decl != nil {
			if fn, ok := pass.TypesInfo.Defs[o.Decl.Name].(*types.Func); ok {
				releasers[fn] = true
			}
		}
	}
	found := false
	ast.Inspect(c.Func, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if found || !ok {
			return !found
		}
		if fn, _ := typeutil.Callee(pass.TypesInfo, call).(*types.Func); fn != nil && (releasers[fn.Origin()] || lockmodel.IsLibraryRelease(fn)) {
			for _, a := range call.Args {
				if m.KeyID(a) == id {
					found = true
				}
			}
		}
		return !found
	})
	return found
}

// missWords says what a lost acquire gives, for a message.
func missWords(miss lockmodel.Miss) string {
	if miss == lockmodel.MissNilReply {
		return "a nil reply"
	}
	return "false (0)"
}

func checkAcquire(pass *analysis.Pass, m *lockmodel.Model, c *lockmodel.Call) {
	r, parents := m.Reply(c)
	rc := receive(pass.TypesInfo, r, parents)
	if rc.elsewhere {
		return
	}
	key := c.Key()
	if key == nil || !m.IsLockKey(c, key) {
		return
	}
	acq := lockmodel.AcquireName(c)
	use := diag.Use(m.Library(c), "Obtain")
	miss := m.Miss(c)
	if rc.returned {
		reportHelper(pass, m, c, r, parents, miss)
		return
	}
	if !held(pass, m, c) || !workAfter(parents, r.End()) {
		return
	}
	report := func(format string, args ...any) {
		diag.Report(pass, analysis.Diagnostic{Pos: c.Pos(), End: c.End(), Message: fmt.Sprintf(format, args...)})
	}
	var replyReads []*ast.Ident
	if rc.reply != nil {
		replyReads = reads(pass.TypesInfo, c.Func, rc.reply)
	}
	errRead := rc.err != nil && len(reads(pass.TypesInfo, c.Func, rc.err)) > 0
	switch {
	case rc.discarded:
		report("result of %s discarded: the code after it runs whether or not the lock was taken; check it, or use %s", acq, use)
	case rc.reply != nil && len(replyReads) > 0:
		if onlyChoosesDefer(c.File, replyReads) {
			report("%s from %s only decides whether to defer the release: the work runs without the lock too; return when it is not taken", diag.Quote(rc.reply.Name()), acq)
		}
	case rc.reply != nil && !errRead:
		report("%s from %s is never read: the code after it runs whether or not the lock was taken; return when it is not taken", diag.Quote(rc.reply.Name()), acq)
	case !errRead:
		report("result of %s discarded: the code after it runs whether or not the lock was taken; check it, or use %s", acq, use)
	case miss.InReply():
		// The error alone is read; a miss leaves it nil.
		report("only the error of %s is checked, but a held lock gives %s and no error; check the reply, or use %s", acq, missWords(miss), use)
	}
}

// reportHelper reports an acquire whose function returns its error alone,
// when a miss leaves that error nil: every caller proceeds.
func reportHelper(pass *analysis.Pass, m *lockmodel.Model, c *lockmodel.Call, r ast.Expr, parents []ast.Node, miss lockmodel.Miss) {
	if !miss.InReply() {
		return
	}
	ret := parents[0].(*ast.ReturnStmt)
	if len(ret.Results) != 1 || ret.Results[0] != r || !typesx.IsError(pass.TypesInfo.TypeOf(r)) {
		return
	}
	var sig *types.Signature
	var name string
	switch fn := c.Func.(type) {
	case *ast.FuncDecl:
		sig, _ = pass.TypesInfo.TypeOf(fn.Name).(*types.Signature)
		if f, ok := pass.TypesInfo.Defs[fn.Name].(*types.Func); ok {
			sig, name = f.Type().(*types.Signature), fn.Name.Name
		}
	case *ast.FuncLit:
		sig, _ = pass.TypesInfo.TypeOf(fn).(*types.Signature)
		name = "this function"
	}
	if sig == nil || sig.Results().Len() != 1 {
		return
	}
	if name != "this function" {
		name = diag.Quote(name)
	}
	diag.Report(pass, analysis.Diagnostic{Pos: c.Pos(), End: c.End(), Message: fmt.Sprintf(
		"%s returns only the error of %s, nil when another holds the lock, so its callers proceed; return whether it was taken",
		name, lockmodel.AcquireName(c))})
}

// checkObtain reports a call of the lock library's acquire whose error
// is dropped, or tested only for ErrNotObtained.
func checkObtain(pass *analysis.Pass, m *lockmodel.Model, call *ast.CallExpr) {
	file := fileOf(pass, call.Pos())
	if file == nil {
		return
	}
	path, _ := astutil.PathEnclosingInterval(file, call.Pos(), call.End())
	i := 0
	for i < len(path) && path[i] != ast.Node(call) {
		i++
	}
	if i >= len(path) {
		return
	}
	parents := path[i+1:]
	rc := receive(pass.TypesInfo, call, parents)
	if rc.elsewhere || rc.returned {
		return
	}
	var fn ast.Node
	for _, n := range parents {
		if _, ok := n.(*ast.FuncDecl); ok {
			fn = n
			break
		}
		if _, ok := n.(*ast.FuncLit); ok {
			fn = n
			break
		}
	}
	if fn == nil || !workAfter(parents, call.End()) {
		return
	}
	name := diag.Code(pass.Fset, call.Fun)
	report := func(format string, args ...any) {
		diag.Report(pass, analysis.Diagnostic{Pos: call.Pos(), End: call.End(), Message: fmt.Sprintf(format, args...)})
	}
	// A lock compared with nil is checked, whatever the error's fate.
	if rc.reply != nil && comparedWithNil(pass.TypesInfo, fn, rc.reply) {
		return
	}
	if rc.err == nil {
		report("error of %s discarded: the code after it runs without the lock when it is not obtained; return on the error", name)
		return
	}
	ids := reads(pass.TypesInfo, fn, rc.err)
	if len(ids) == 0 {
		report("error of %s never read: the code after it runs without the lock when it is not obtained; return on the error", name)
		return
	}
	for _, id := range ids {
		if loggedOnly(pass.TypesInfo, m, file, id) {
			report("%s's not-obtained error is only logged: the code after it runs without the lock when another holds it; return on it", name)
			return
		}
	}
	for _, id := range ids {
		if test, _ := notObtainedTest(pass.TypesInfo, m, file, id); test == nil {
			return
		}
	}
	report("only %s's not-obtained error is checked: any other error runs the code after it without the lock; return on every error", name)
}

// loggedOnly reports whether id, a read of an acquire's error, is the test
// of an if that holds when another holds the lock (err ==
// ErrNotObtained, errors.Is(err, ErrNotObtained)) whose body only calls
// something that returns, a log line, with work after the if: the branch
// falls through into the work.
func loggedOnly(info *types.Info, m *lockmodel.Model, file *ast.File, id *ast.Ident) bool {
	test, held := notObtainedTest(info, m, file, id)
	if test == nil || !held {
		return false
	}
	path, _ := astutil.PathEnclosingInterval(file, test.Pos(), test.End())
	i := slices.Index(path, ast.Node(test))
	if i < 0 || i+2 > len(path) {
		return false
	}
	ifs, ok := path[i+1].(*ast.IfStmt)
	if !ok || ifs.Cond != test || len(ifs.Body.List) == 0 {
		return false
	}
	for _, s := range ifs.Body.List {
		es, ok := s.(*ast.ExprStmt)
		if !ok {
			return false
		}
		call, ok := ast.Unparen(es.X).(*ast.CallExpr)
		if !ok || m.NoReturn(call) {
			return false
		}
	}
	return workAfter(path[i+2:], ifs.End())
}

// notObtainedTest returns the test that id, a read of an acquire's error,
// is an operand of when it only compares it with the not-obtained error
// (errors.Is(err, ErrNotObtained), err == ErrNotObtained or !=), and
// whether the test holds when another holds the lock; nil otherwise.
func notObtainedTest(info *types.Info, m *lockmodel.Model, file *ast.File, id *ast.Ident) (ast.Expr, bool) {
	path, _ := astutil.PathEnclosingInterval(file, id.Pos(), id.End())
	if len(path) < 2 {
		return nil, false
	}
	isSentinel := func(e ast.Expr) bool {
		var obj types.Object
		switch e := ast.Unparen(e).(type) {
		case *ast.Ident:
			obj = info.Uses[e]
		case *ast.SelectorExpr:
			obj = info.Uses[e.Sel]
		}
		return obj != nil && m.NotObtainedError(obj)
	}
	switch p := path[1].(type) {
	case *ast.BinaryExpr:
		if (p.Op == token.EQL || p.Op == token.NEQ) && (isSentinel(p.X) || isSentinel(p.Y)) {
			return p, p.Op == token.EQL
		}
	case *ast.CallExpr:
		fn, _ := typeutil.Callee(info, p).(*types.Func)
		if fn != nil && fn.Pkg() != nil && fn.Pkg().Path() == "errors" && fn.Name() == "Is" &&
			len(p.Args) == 2 && p.Args[0] == ast.Expr(id) && isSentinel(p.Args[1]) {
			return p, true
		}
	}
	return nil, false
}

// comparedWithNil reports whether v is compared with == or != in fn.
func comparedWithNil(info *types.Info, fn ast.Node, v *types.Var) bool {
	found := false
	ast.Inspect(fn, func(n ast.Node) bool {
		be, ok := n.(*ast.BinaryExpr)
		if found || !ok || (be.Op != token.EQL && be.Op != token.NEQ) {
			return !found
		}
		for _, side := range []ast.Expr{be.X, be.Y} {
			if id, ok := ast.Unparen(side).(*ast.Ident); ok && info.Uses[id] == v {
				found = true
			}
		}
		return !found
	})
	return found
}

func fileOf(pass *analysis.Pass, pos token.Pos) *ast.File {
	for _, f := range pass.Files {
		if f.FileStart <= pos && pos <= f.FileEnd {
			return f
		}
	}
	return nil
}
