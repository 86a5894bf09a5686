package lockmodel

// Undo on failure: a delete that only gives a key back when the work
// after its take failed, so that another process may retry.

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"
	"time"

	"github.com/locklint/locklint/internal/typesx"
	"golang.org/x/tools/go/types/typeutil"
)

// UndoOnFailure reports whether c, a delete of key, only undoes a take
// when the work after it failed: it sits in an "if err != nil" block and
// nothing else in the function deletes the key, or the take's success
// keeps the key (claimKept). That is a process-once
// marker ("on failure let someone retry"), released on purpose, not a
// lock held across work and then released without an owner check.
func (m *Model) UndoOnFailure(c *Call, key ast.Expr) bool {
	if m.undoneByCallers(c, key) {
		return true
	}
	if c.Decl == nil || c.Decl.Body == nil || m.releasedElsewhere(c, key) {
		return false
	}
	if m.rollsBackKept(c, key) {
		return true
	}
	if c.Deferred {
		if !m.undoneOnFailedReturn(c) {
			return false
		}
		return m.onlyDelete(c, key)
	}
	if m.claimKept(c, key) {
		return true
	}
	body := c.Decl.Body
	onError := false
	ast.Inspect(body, func(n ast.Node) bool {
		ifs, ok := n.(*ast.IfStmt)
		if !ok || onError {
			return !onError
		}
		if ifs.Body.Pos() <= c.Pos() && c.End() <= ifs.Body.End() && m.errorCheck(ifs.Cond) {
			onError = true
		}
		return !onError
	})
	if !onError {
		return false
	}
	return m.onlyDelete(c, key)
}

// releasedElsewhere reports whether another function of the package
// deletes keys of key's family: the take's success keeps a lock that
// a release of its own gives back later (LockCoupon and UnlockCoupon),
// so a delete on the take's failure path gives back a lock too. That
// delete runs soon after the take: only a take whose lease is short
// enough to lapse within a slow request can have lost the key by then,
// so a take with a longer lease, or one whose lease is not seen, keeps
// the undo reading.
func (m *Model) releasedElsewhere(c *Call, key ast.Expr) bool {
	fam, ok := m.counterFamily(key)
	if !ok {
		return false
	}
	elsewhere := false
	for _, o := range m.Calls {
		if o.Decl == c.Decl || o.Decl == nil || !o.Command.IsDelete() || o.Key() == nil {
			continue
		}
		if f, ok := m.counterFamily(o.Key()); ok && f == fam && !m.takesFamilyBefore(o, fam) {
			elsewhere = true
			break
		}
	}
	if !elsewhere {
		return false
	}
	for _, o := range m.Calls {
		if o.Decl == c.Decl && o.Acquires() && o.Pos() < c.Pos() && o.Key() != nil && m.SameKey(o, o.Key(), c, key) {
			return m.shortLease(o)
		}
	}
	return true
}

// takesFamilyBefore reports whether o's function takes a key of family
// fam before o: its delete gives back its own take (another handler's
// undo of the same marker), not a lock that a take elsewhere holds.
func (m *Model) takesFamilyBefore(o *Call, fam string) bool {
	for _, t := range m.Calls {
		if t.Decl != o.Decl || !t.Acquires() || t.Pos() >= o.Pos() || t.Key() == nil {
			continue
		}
		if f, ok := m.counterFamily(t.Key()); ok && f == fam {
			return true
		}
	}
	return false
}

// onlyDelete reports whether c is the only delete of key in its function,
// and the function does not hand the key to a caller that may delete it.
func (m *Model) onlyDelete(c *Call, key ast.Expr) bool {
	for _, o := range m.Calls {
		if o == c || o.Decl != c.Decl || !(o.Command.IsDelete() || o.Command == CmdDelEx || o.Command == CmdEval) {
			continue
		}
		for _, k := range o.Keys {
			if m.SameKey(o, k, c, key) {
				return false
			}
		}
	}
	return !m.passesKey(c.Decl, c.Expr, m.KeyID(key))
}

// errorCheck reports whether cond is err != nil for an error-typed err.
func (m *Model) errorCheck(cond ast.Expr) bool {
	be, ok := ast.Unparen(cond).(*ast.BinaryExpr)
	if ok && (be.Op == token.GTR || be.Op == token.NEQ) && m.errorsLen(be.X) {
		// len(c.Errors) > 0: a handler recorded errors.
		if tv := m.Pass.TypesInfo.Types[be.Y]; tv.Value != nil && tv.Value.String() == "0" {
			return true
		}
	}
	if !ok || be.Op != token.NEQ {
		return false
	}
	for _, pair := range [][2]ast.Expr{{be.X, be.Y}, {be.Y, be.X}} {
		if id, ok := ast.Unparen(pair[1]).(*ast.Ident); ok && id.Name == "nil" {
			if t := m.Pass.TypesInfo.TypeOf(pair[0]); t != nil && types.Identical(t, types.Universe.Lookup("error").Type()) {
				return true
			}
		}
	}
	return false
}

// errorsLen reports whether e is len of a slice of errors (a web
// framework's list of what its handlers recorded).
func (m *Model) errorsLen(e ast.Expr) bool {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok || len(call.Args) != 1 {
		return false
	}
	id, ok := ast.Unparen(call.Fun).(*ast.Ident)
	if !ok {
		return false
	}
	if b, ok := m.Pass.TypesInfo.Uses[id].(*types.Builtin); !ok || b.Name() != "len" {
		return false
	}
	t := m.Pass.TypesInfo.TypeOf(call.Args[0])
	if t == nil {
		return false
	}
	s, ok := t.Underlying().(*types.Slice)
	errType := types.Universe.Lookup("error").Type().Underlying().(*types.Interface)
	return ok && types.Implements(s.Elem(), errType)
}

// undoneOnFailedReturn reports whether c, a deferred call, runs only when
// its function returns an error: it sits in the body of an if in a
// function literal that the function defers, whose condition holds only
// when the function's named error result is not nil (err != nil, alone
// or joined by && to other conditions). On success the key stays.
func (m *Model) undoneOnFailedReturn(c *Call) bool {
	lit, ok := c.Func.(*ast.FuncLit)
	if !ok || c.File == nil {
		return false
	}
	var deferred bool
	ast.Inspect(c.Decl.Body, func(n ast.Node) bool {
		if d, ok := n.(*ast.DeferStmt); ok && d.Call.Fun == lit {
			deferred = true
		}
		return !deferred
	})
	if !deferred {
		return false
	}
	results := map[types.Object]bool{}
	if rs := c.Decl.Type.Results; rs != nil {
		for _, f := range rs.List {
			for _, id := range f.Names {
				results[m.Pass.TypesInfo.Defs[id]] = true
			}
		}
	}
	var onResultErr func(cond ast.Expr) bool
	onResultErr = func(cond ast.Expr) bool {
		be, ok := ast.Unparen(cond).(*ast.BinaryExpr)
		if !ok {
			return false
		}
		if be.Op == token.LAND {
			return onResultErr(be.X) || onResultErr(be.Y)
		}
		if !m.errorCheck(be) {
			return false
		}
		for _, e := range []ast.Expr{be.X, be.Y} {
			if id, ok := ast.Unparen(e).(*ast.Ident); ok && results[m.Pass.TypesInfo.Uses[id]] {
				return true
			}
		}
		return false
	}
	found := false
	ast.Inspect(lit.Body, func(n ast.Node) bool {
		ifs, ok := n.(*ast.IfStmt)
		if !ok || found {
			return !found
		}
		if ifs.Body.Pos() <= c.Pos() && c.End() <= ifs.Body.End() && onResultErr(ifs.Cond) {
			found = true
		}
		return !found
	})
	return found
}

// minGuardLease is the shortest lease that the guard clauses after a
// take cannot outlast: lookups and checks, no work.
const minGuardLease = 10 * time.Second

// GivenBackAtOnce reports whether c, a delete of key that is not
// deferred, gives back its own function's take on a guard clause right
// after the take's check, before any work, in a function that releases
// the key again after the work. The take's statement and the if whose
// body holds c are in one statement list; every statement between them
// is an assignment, a declaration or another guard (an if with no else
// whose body ends the path), one of which tests the take's reply; c's if
// is not on the take's miss, and its body ends the path too, with c
// before anything but assignments. With a lease of ten seconds or more,
// nothing between can have let it lapse: the key c deletes is the one
// the take set, and the lock's defect, if any, is at the release after
// the work (a poller's exits on an expired task, before its goroutine
// polls and defers the release).
func (m *Model) GivenBackAtOnce(c *Call, key ast.Expr) bool {
	if c.Deferred || c.Queued || c.Stmt == nil {
		return false
	}
	var take *Call
	for _, o := range m.Calls {
		if o.Func == c.Func && o.Acquires() && o.Stmt != nil && o.Pos() < c.Pos() && o.Key() != nil && m.SameKey(o, o.Key(), c, key) {
			take = o
		}
	}
	if take == nil || m.onTakeMiss(take, c) {
		return false
	}
	if d, ok := m.Lease(take); !ok || d < minGuardLease {
		return false
	}
	list, i := stmtIndex(FuncBody(c.Func), take.Stmt.Pos())
	if i < 0 || list[i] != take.Stmt {
		return false
	}
	replies := assigned(m.Pass.TypesInfo, take.Stmt)
	checked := false
	for _, s := range list[i+1:] {
		if !contains(s, c.Stmt) {
			if !guardStmt(m, s) {
				return false
			}
			if ifs, ok := s.(*ast.IfStmt); ok && refersAny(m.Pass.TypesInfo, ifs.Cond, replies) {
				checked = true
			}
			continue
		}
		ifs, ok := s.(*ast.IfStmt)
		if !ok || !checked || ifs.Else != nil || !m.endsPath(ifs.Body.List) {
			return false
		}
		for _, b := range ifs.Body.List {
			if b == c.Stmt {
				return m.releasedAfter(c, key, ifs.End()) || m.roundTripsOnly(list[i+1:], ifs)
			}
			if _, ok := b.(*ast.AssignStmt); !ok {
				return false
			}
		}
		return false
	}
	return false
}

// roundTripsOnly reports whether the statements of list up to the if
// last, with last's init and condition, do no work of their own
// (bookkeeping). A hold kept on success has no release after the work
// (another function gives it back), and its guard clauses' deletes are
// still the take's own when only a few round trips came between.
func (m *Model) roundTripsOnly(list []ast.Stmt, last *ast.IfStmt) bool {
	for _, s := range list {
		if s == ast.Stmt(last) {
			return m.bookkeeping(last.Init) && m.bookkeeping(last.Cond)
		}
		if !m.bookkeeping(s) {
			return false
		}
	}
	return false
}

// bookkeeping reports whether n does no work of its own: every call in it
// is a Redis command sent on the client (not through a helper of the
// package, which may do more), a method of a client's reply, a builtin or
// conversion, a function of a standard package that computes locally
// (parsing, formatting, encoding, the clock), or a log line; n defines no
// function.
func (m *Model) bookkeeping(n ast.Node) bool {
	if n == nil {
		return true
	}
	info := m.Pass.TypesInfo
	ok := true
	ast.Inspect(n, func(n ast.Node) bool {
		if !ok {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			ok = false
		case *ast.CallExpr:
			if c := m.byID[n]; c != nil && c.Via == nil {
				return true
			}
			if tv, found := info.Types[n.Fun]; found && (tv.IsType() || tv.IsBuiltin()) {
				return true
			}
			fn, _ := typeutil.Callee(info, n).(*types.Func)
			if fn == nil || fn.Pkg() == nil || !(clientPackage(fn.Pkg().Path()) || localStd(fn) || logCall(fn)) {
				ok = false
			}
		}
		return ok
	})
	return ok
}

// logCall reports whether fn writes a log line: a function of a logging
// package, or a logger's method.
func logCall(fn *types.Func) bool {
	switch path := fn.Pkg().Path(); {
	case path == "log" || path == "log/slog" || path == "go.uber.org/zap" || path == "github.com/sirupsen/logrus" || path == "github.com/rs/zerolog" || path == "github.com/rs/zerolog/log":
		return true
	case strings.HasSuffix(path, "/logger") || strings.HasSuffix(path, "/log") || strings.HasSuffix(path, "/logx") || strings.HasSuffix(path, "/glog"):
		return true
	}
	return false
}

// localStd reports whether fn, of a standard package, computes locally
// and at once: no I/O, no sleeping, no waiting.
func localStd(fn *types.Func) bool {
	switch fn.Pkg().Path() {
	case "fmt":
		return strings.HasPrefix(fn.Name(), "Sprint") || fn.Name() == "Errorf"
	case "time":
		switch fn.Name() {
		case "Sleep", "After", "Tick", "AfterFunc", "NewTimer", "NewTicker":
			return false
		}
		return true
	case "errors", "strconv", "strings", "bytes", "encoding/json", "encoding/hex", "encoding/base64",
		"encoding/binary", "math", "sort", "slices", "maps", "unicode", "unicode/utf8":
		return true
	}
	return false
}

// releasedAfter reports whether c's function deletes key again after
// pos: in a later statement, a deferred call or a goroutine, with a
// command or the lock library's Release (once the release after the
// work is fixed, the guard clauses before it stay what they were).
func (m *Model) releasedAfter(c *Call, key ast.Expr, pos token.Pos) bool {
	for _, o := range m.Calls {
		if o == c || o.Decl != c.Decl || o.Pos() < pos || !(o.Command.IsDelete() || o.Command == CmdDelEx || o.Command == CmdEval) {
			continue
		}
		for _, k := range o.Keys {
			if m.SameKey(o, k, c, key) {
				return true
			}
		}
	}
	found := false
	ast.Inspect(c.Decl.Body, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if found || !ok || call.Pos() < pos {
			return !found
		}
		if fn, ok := typeutil.Callee(m.Pass.TypesInfo, call).(*types.Func); ok && fn.Name() == "Release" && IsLibraryRelease(fn) {
			for _, a := range call.Args {
				if m.sameKeyBetween(a, call.Pos(), key, c.Pos()) {
					found = true
				}
			}
		}
		return !found
	})
	return found
}

// assigned returns the variables a statement assigns.
func assigned(info *types.Info, s ast.Stmt) []types.Object {
	as, ok := s.(*ast.AssignStmt)
	if !ok {
		return nil
	}
	var out []types.Object
	for _, l := range as.Lhs {
		if id, ok := ast.Unparen(l).(*ast.Ident); ok && id.Name != "_" {
			if obj := info.ObjectOf(id); obj != nil {
				out = append(out, obj)
			}
		}
	}
	return out
}

// refersAny reports whether e refers to one of objs.
func refersAny(info *types.Info, e ast.Expr, objs []types.Object) bool {
	for _, obj := range objs {
		if typesx.Refers(info, e, obj) {
			return true
		}
	}
	return false
}

// guardStmt reports whether s only computes or checks: an assignment, a
// declaration, or an if with no else whose body ends the path.
func guardStmt(m *Model, s ast.Stmt) bool {
	switch s := s.(type) {
	case *ast.AssignStmt, *ast.DeclStmt, *ast.EmptyStmt:
		return true
	case *ast.IfStmt:
		return s.Else == nil && m.endsPath(s.Body.List)
	}
	return false
}

// endsPath reports whether a statement list leaves its enclosing one:
// it ends in a return, a branch (continue, break, goto) or a call that
// does not return.
func (m *Model) endsPath(list []ast.Stmt) bool {
	if len(list) == 0 {
		return false
	}
	switch s := list[len(list)-1].(type) {
	case *ast.ReturnStmt, *ast.BranchStmt:
		return true
	case *ast.ExprStmt:
		call, ok := ast.Unparen(s.X).(*ast.CallExpr)
		return ok && m.NoReturn(call)
	}
	return false
}
