package lockmodel

// One-shot markers: an acquire of a key that nothing releases, renews or
// checks (a per-period "already ran" marker, a cool-down that only
// expires), whose value guards nothing a token could protect.

import (
	"cmp"
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ast/astutil"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/locklint/locklint/internal/typesx"
)

// Marker reports whether an acquire takes a key that nothing in the
// package releases, renews or checks: a per-period "already ran" marker
// (SETNX report:lock:<day> with a TTL and no release). Its value is never
// compared, so it guards nothing a token could protect. Only keys whose
// identity is closed in this function (constants and locals, no parameter
// or field), or that only an unexported helper of the package makes (a
// throttle key built from the caller's arguments), count: a key that comes in from outside may be released where it came
// from.
func (m *Model) Marker(c *Call) bool {
	if m.unreleasedEntry(c) || m.onlyTakenField(c) || m.privateFamilyOnce(c) {
		return true
	}
	key := c.Key()
	// Through a helper, the release may be another helper the model does
	// not see into.
	// An acquire whose result is returned, or queued, reports to code
	// that may hold and release it.
	if (c.Queued || returned(c) || m.replyReturned(c)) && !m.privateKey(key) {
		// A take helper whose every caller builds the key from a
		// constant text (acquireLock(fmt.Sprintf("LOCK_ONCE_%s", id),
		// ...)) hands its reply to callers the package shows: the
		// package's commands on keys of those texts say whether
		// anything gives them back.
		if c.Queued || key == nil {
			return false
		}
		// So does a gate helper that builds the key itself from a
		// constant text (fmt.Sprintf("ci:prune:%x", sum)) and returns
		// only whether it took it: a release would need a key of that
		// text, which the package's commands show.
		if _, _, _, ok := m.builtParam(c, key); !ok && !m.keptBuiltKey(c, key) {
			return false
		}
	}
	// Through a lock helper, the release may be another helper the
	// model does not see into; through a layer that forwards the
	// command (a service's own SetNx), only if some call of the package
	// hands such a key to code the model does not read.
	if !c.Acquires() || key == nil || c.ViaLock && !m.seenTakeHelper(c.Via) {
		return false
	}
	// A key built in the function from constants and locals, or one that
	// only an unexported helper of the package makes, is released, if
	// anywhere, by a command of this package on a key that helper makes.
	closed := m.closedKey(c, key)
	fam, ok := m.helperKey(key)
	var sites []callSite
	var index int
	// A key built here from a constant text and the caller's arguments
	// (fmt.Sprintf("bonus:lock:%s:%s", user, day)) is released, if
	// anywhere in the package, by a command on a key of the same text.
	var text string
	texts := map[string]bool{}
	if !closed && !ok {
		// A parameter of an unexported function that only its callers
		// here name, each passing a key that one helper makes.
		fam, sites, index, ok = m.helperParam(c, key)
		if !ok {
			if text, ok = m.builtKey(key); ok {
				texts[text] = true
			} else if sites, index, texts, ok = m.builtParam(c, key); !ok {
				// Nor each call of a dedupe helper (acquireLock(k, ttl)) a
				// key built from a constant text.
				return false
			}
		}
	}
	id := m.KeyID(key)
	if m.passesKey(c.Decl, c.Expr, id) || c.Via != nil && m.handsOn(id, text) {
		return false
	}
	for _, s := range sites {
		if m.passesKey(s.fn, s.call, m.KeyID(s.call.Args[index])) {
			return false
		}
	}
	var self types.Object
	if sites != nil {
		self = m.Pass.TypesInfo.Defs[c.Decl.Name]
	}
	for _, o := range m.Calls {
		// A call of the acquiring function is this acquisition again.
		if o == c || o.Key() == nil || sites != nil && o.Via == self {
			continue
		}
		var touched ast.Expr
		whole := true
		for _, k := range o.Keys {
			f, fok := m.helperKey(k)
			touches := m.KeyID(k) == id || fam != nil && fok && f == fam
			if len(texts) > 0 && !touches {
				t, tok := m.counterFamily(k)
				touches = tok && texts[t]
				if !touches && m.wholeKey(k) {
					// A key that comes in whole may be this one, unless
					// every caller makes it with the marker's own maker
					// and another constant (a helper that drains the set
					// the marker guards).
					if !m.otherMade(o, k, texts) && !m.listedOthers(k, texts) && !m.otherTexts(o, k, texts) {
						touched = cmp.Or(touched, k)
					}
					continue
				}
			}
			if touches {
				touched, whole = cmp.Or(touched, k), false
			}
		}
		if touched == nil || (whole || o.Decl != c.Decl) && o.Acquires() && !o.ReleasesOrChecks() {
			// Another take of a key that may be this one (a throttle
			// helper's SETNX of its parameter, another handler's take of
			// the same marker) releases nothing.
			continue
		}
		// A delete that only undoes the take when the work failed leaves
		// the marker in place after every run that succeeded; an EXPIRE
		// that re-arms it keeps it, and one that gives the take its TTL
		// is part of the take.
		if o.Command.IsDelete() && m.sentHere(o) && m.UndoOnFailure(o, touched) || m.Rearmed(o) || m.splitTTL(o) {
			continue
		}
		if o.ReleasesOrChecks() || o.Acquires() || o.Via != nil {
			return false
		}
	}
	return true
}

// keptBuiltKey reports whether key is built in c's function, an
// unexported one, from a constant text with no lock word (only the
// helper's name calls it a lock) and stays there: no return statement
// of the function names the local that holds it.
func (m *Model) keptBuiltKey(c *Call, key ast.Expr) bool {
	if c.Decl == nil || c.Decl.Name.IsExported() || c.Func != ast.Node(c.Decl) {
		return false
	}
	if text, ok := m.builtKey(key); !ok || m.Words.MatchText(text) {
		return false
	}
	id, ok := ast.Unparen(key).(*ast.Ident)
	if !ok {
		return true // built in the call itself: nothing else names it
	}
	obj := m.Pass.TypesInfo.ObjectOf(id)
	return obj != nil && FuncBody(c.Func) != nil && !m.namedInReturn(c.Func, obj, c.Expr)
}

// seenTakeHelper reports whether fn is a take helper of this package
// (takeHelper: one acquire, whether it took returned): the model sees
// all it sends, so no release hides in it.
func (m *Model) seenTakeHelper(fn *types.Func) bool {
	return fn != nil && fn.Pkg() == m.Pass.Pkg && m.takeHelper(fn) != nil
}

// sentHere reports whether c sends its command where it is written: a
// client call, or one through a client wrapper of another module (go-zero's
// DelCtx), not through a helper of the service that may do more.
func (m *Model) sentHere(c *Call) bool {
	if c.Via == nil {
		return true
	}
	p, mod := c.Via.Pkg(), m.Pass.Module
	return p != nil && mod != nil && mod.Path != "" && !inModule(m.Pass, p.Path())
}

// splitTTL reports whether e is an EXPIRE that gives a take of its key,
// earlier in its function and with no TTL of its own, that TTL: part of
// the take, not a renewal or a release.
func (m *Model) splitTTL(e *Call) bool {
	if !e.Command.IsExpire() || e.Func == nil || e.Key() == nil {
		return false
	}
	for _, a := range m.Calls {
		if a.Acquires() && a.NoTTL && m.expiresTake(a, e) {
			return true
		}
	}
	return false
}

// unreleasedEntry reports whether c is the acquire of an exported
// function that nothing in the package calls, on a key its callers pass
// and that only the function's name calls a lock,
// in a package with no command that could release, renew or check such a
// key (its only releases are a lock type's, on its receiver's fields): a
// cool-down that only expires, Lock(conn, name, ttl). Its callers are in
// other packages, and its value guards nothing here.
func (m *Model) unreleasedEntry(c *Call) bool {
	if !c.Acquires() || c.Via != nil || c.Decl == nil || c.Func != c.Decl || c.Key() == nil {
		return false
	}
	fn, _ := m.Pass.TypesInfo.Defs[c.Decl.Name].(*types.Func)
	if fn == nil || !fn.Exported() || len(m.defs.calls[fn]) > 0 {
		return false
	}
	if _, _, ok := m.paramKey(fn, c.Key()); !ok {
		return false
	}
	if ev, _ := m.LockKey(c, c.Key()); ev != ByFunc {
		return false
	}
	for _, o := range m.Calls {
		if o == c || !o.ReleasesOrChecks() {
			continue
		}
		for _, k := range o.Keys {
			if !strings.Contains(m.KeyID(k), "recv(") {
				return false
			}
		}
	}
	return true
}

// helperParam returns, for a key that is a parameter of c's function,
// the helper that makes what every call of the function passes there,
// with those calls and the parameter's index: the function must be named
// nowhere but in those calls (defIndex.calledOnly).
func (m *Model) helperParam(c *Call, key ast.Expr) (*types.Func, []callSite, int, bool) {
	sites, index, args, ok := m.paramArgs(c, key)
	if !ok {
		return nil, nil, 0, false
	}
	var fam *types.Func
	for _, a := range args {
		f, ok := m.helperKey(a)
		if !ok || fam != nil && f != fam {
			return nil, nil, 0, false
		}
		fam = f
	}
	return fam, sites, index, true
}

// builtParam is helperParam for a parameter whose every call passes a
// key built from a constant text ("d:i:"+id, "lock:exec:"+id): the texts
// of those keys.
func (m *Model) builtParam(c *Call, key ast.Expr) ([]callSite, int, map[string]bool, bool) {
	sites, index, args, ok := m.paramArgs(c, key)
	if !ok {
		return nil, 0, nil, false
	}
	texts := map[string]bool{}
	for _, a := range args {
		t, ok := m.builtKey(a)
		if !ok {
			return nil, 0, nil, false
		}
		texts[t] = true
	}
	return sites, index, texts, true
}

// otherMade reports whether k, a parameter of o's function, is made by
// each of that function's callers with a constant argument, by the one
// function that makes every key of texts (the texts callText gives),
// and never as one of them: keys.Key(collectTempl, id) beside a marker
// of keys.Key(collectLockTempl, id).
func (m *Model) otherMade(o *Call, k ast.Expr, texts map[string]bool) bool {
	var maker string
	for t := range texts {
		f, _, ok := strings.Cut(t, "(")
		if !ok || !strings.HasPrefix(f, "func ") || maker != "" && f != maker {
			return false
		}
		maker = f
	}
	_, _, args, ok := m.paramArgs(o, k)
	if !ok || maker == "" {
		return false
	}
	for _, a := range args {
		call := m.keyCall(a)
		if call == nil || !constArg(m.Pass.TypesInfo, call) {
			return false
		}
		fn, _ := typeutil.Callee(m.Pass.TypesInfo, call).(*types.Func)
		if fn == nil || "func "+fn.FullName() != maker || texts[m.callText(maker, call)] {
			return false
		}
	}
	return true
}

// otherTexts reports whether k, a parameter of o's unexported function,
// is given by each of that function's callers here as a key built from a
// constant text, none of them one of texts: a rate limiter's script run
// on dj:risk:order_rate:ip:<ip> beside a withdrawal throttle's marker.
func (m *Model) otherTexts(o *Call, k ast.Expr, texts map[string]bool) bool {
	if o.Decl == nil || o.Decl.Name.IsExported() {
		return false
	}
	if _, ok := m.counterFamily(k); ok {
		return false
	}
	fams := m.familiesAt(o, k)
	if len(fams) == 0 {
		return false
	}
	for _, f := range fams {
		if texts[f] {
			return false
		}
	}
	return true
}

// listedOthers reports whether k is the value of a range over a slice
// literal of this function whose every key is built from a constant
// text, none of them one of texts: a reset that deletes a member's
// records (verify:state:<id>, verify:nudge:<id>) beside a marker of
// another text.
func (m *Model) listedOthers(k ast.Expr, texts map[string]bool) bool {
	id, ok := ast.Unparen(k).(*ast.Ident)
	if !ok {
		return false
	}
	over := ast.Unparen(m.rangedOver(id))
	if s, ok := over.(*ast.Ident); ok {
		over = ast.Unparen(m.keys.definition(m.Pass.TypesInfo.Uses[s]))
	}
	lit, ok := over.(*ast.CompositeLit)
	if !ok || len(lit.Elts) == 0 {
		return false
	}
	for _, e := range lit.Elts {
		t, ok := m.builtKey(e)
		if !ok || texts[t] {
			return false
		}
	}
	return true
}

// paramArgs returns, for a key that is a parameter of c's function, the
// calls of that function (named nowhere else: defIndex.calledOnly), the
// parameter's index and what each call passes there.
func (m *Model) paramArgs(c *Call, key ast.Expr) ([]callSite, int, []ast.Expr, bool) {
	id, ok := ast.Unparen(key).(*ast.Ident)
	if !ok || c.Decl == nil {
		return nil, 0, nil, false
	}
	p, ok := m.defs.params[m.Pass.TypesInfo.Uses[id]]
	if !ok || m.Pass.TypesInfo.Defs[c.Decl.Name] != p.fn {
		return nil, 0, nil, false
	}
	sites, ok := m.defs.calledOnly(p.fn, true)
	if !ok {
		return nil, 0, nil, false
	}
	args := make([]ast.Expr, 0, len(sites))
	for _, s := range sites {
		if s.fn == nil || len(s.call.Args) <= p.index || s.call.Ellipsis.IsValid() {
			return nil, 0, nil, false
		}
		args = append(args, s.call.Args[p.index])
	}
	return sites, p.index, args, true
}

// helperKey returns the unexported helper of the package that makes key
// (through local variables and strings.ToLower and its kin): a key no
// other package can make, whatever the arguments.
func (m *Model) helperKey(key ast.Expr) (*types.Func, bool) {
	info := m.Pass.TypesInfo
	for depth := 0; depth <= maxDepth; depth++ {
		switch e := ast.Unparen(key).(type) {
		case *ast.Ident:
			def := m.keys.definition(info.ObjectOf(e))
			if def == nil {
				return nil, false
			}
			key = def
			continue
		case *ast.CallExpr:
			fn, _ := typeutil.Callee(info, e).(*types.Func)
			switch {
			case fn == nil || fn.Pkg() == nil:
			case fn.Pkg().Path() == "strings" && len(e.Args) > 0:
				key = e.Args[0]
				continue
			case fn.Pkg() == m.Pass.Pkg && !fn.Exported():
				return fn, true
			}
		}
		return nil, false
	}
	return nil, false
}

// closedKey reports whether key is built only from constants and local
// variables of c's function, through their single definitions.
func (m *Model) closedKey(c *Call, key ast.Expr) bool {
	closed := true
	info := m.Pass.TypesInfo
	var visit func(e ast.Node, depth int)
	visit = func(e ast.Node, depth int) {
		if depth > maxDepth {
			closed = false
			return
		}
		ast.Inspect(e, func(n ast.Node) bool {
			if !closed {
				return false
			}
			switch n := n.(type) {
			case *ast.SelectorExpr:
				sel := info.Selections[n]
				if sel == nil {
					return false // a qualified name: time.Now
				}
				if sel.Kind() == types.FieldVal {
					closed = false
					return false
				}
				visit(n.X, depth+1) // a method of a closed value
				return false
			case *ast.Ident:
				switch obj := info.Uses[n].(type) {
				case *types.Var:
					if obj.Parent() == nil || obj.Pkg() == nil || obj.Parent() == obj.Pkg().Scope() {
						closed = false // package variable
						return false
					}
					def := m.keys.definition(obj)
					if def == nil {
						closed = false // a parameter, or assigned more than once
						return false
					}
					visit(def, depth+1)
				}
			}
			return true
		})
	}
	visit(key, 0)
	return closed
}

// passesKey reports whether d hands the key with identity id to a call
// other than by that is not a command (fix.Release(ctx, rdb, key, token),
// a helper of its own): that call may release it. A function of the
// package that only derives other keys from it (jobRunningKey(key))
// releases nothing of this one.
func (m *Model) passesKey(d *ast.FuncDecl, by *ast.CallExpr, id string) bool {
	if d == nil || d.Body == nil {
		return false
	}
	found := false
	ast.Inspect(d.Body, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if found || !ok || call == by || m.byID[call] != nil {
			return !found
		}
		if m.logCall(call) || m.builderCall(call) || inSync(m.Pass.TypesInfo, call) {
			// A log line names the key, a command builder
			// (B().Set().Key(k)) writes it into the command, an
			// in-process fallback (a sync.Map's LoadOrStore) keeps it in
			// memory: none hands it to code that could release it.
			return true
		}
		for i, a := range call.Args {
			if m.KeyID(a) == id && !m.derivesOnly(call, i) {
				found = true
			}
		}
		return !found
	})
	return found
}

// inSync reports whether call is a function or method of package sync.
func inSync(info *types.Info, call *ast.CallExpr) bool {
	fn, _ := typeutil.Callee(info, call).(*types.Func)
	return fn != nil && fn.Pkg() != nil && fn.Pkg().Path() == "sync"
}

// handsOn reports whether a call of the package that the model does not
// read as a command (nor a log line) is given a key of identity id or,
// when text is set, one built from that text: a release the model cannot
// see may be behind it.
func (m *Model) handsOn(id, text string) bool {
	if m.handed == nil {
		m.handed = m.handedArgs()
	}
	return m.handed.ids[id] || text != "" && m.handed.texts[text]
}

// handedKeys are what handsOn looks up.
type handedKeys struct{ ids, texts map[string]bool }

// handedArgs collects, in one walk of the package, the identities and
// built texts of the string arguments of calls that send no command and
// write no log line.
func (m *Model) handedArgs() *handedKeys {
	h := &handedKeys{ids: map[string]bool{}, texts: map[string]bool{}}
	for _, f := range m.Pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || m.byID[call] != nil || m.logCall(call) {
				return true
			}
			for _, a := range call.Args {
				if !typesx.IsString(m.Pass.TypesInfo.TypeOf(a)) {
					continue
				}
				if id := m.KeyID(a); id != "" {
					h.ids[id] = true
				}
				if t, ok := m.counterFamily(a); ok {
					h.texts[t] = true
				}
			}
			return true
		})
	}
	return h
}

// derivesOnly reports whether call calls a function of the package that
// uses its i-th parameter only as an argument of unexported helpers of
// the package that make a string: the keys it touches are others. A
// string-making helper called with the key derives a key itself.
func (m *Model) derivesOnly(call *ast.CallExpr, i int) bool {
	info := m.Pass.TypesInfo
	fn, _ := typeutil.Callee(info, call).(*types.Func)
	if fn == nil || fn.Pkg() != m.Pass.Pkg || call.Ellipsis.IsValid() {
		return false
	}
	if keyHelper(fn) {
		return true
	}
	sig := fn.Type().(*types.Signature)
	if i >= sig.Params().Len() || sig.Variadic() && i == sig.Params().Len()-1 {
		return false
	}
	p := sig.Params().At(i)
	decl := m.defs.funcs[fn]
	if decl == nil || decl.Body == nil {
		return false
	}
	body := decl.Body
	uses, derived := 0, 0
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Ident:
			if info.Uses[n] == p {
				uses++
			}
		case *ast.CallExpr:
			if f, _ := typeutil.Callee(info, n).(*types.Func); f != nil && f.Pkg() == m.Pass.Pkg && keyHelper(f) {
				for _, a := range n.Args {
					if id, ok := ast.Unparen(a).(*ast.Ident); ok && info.Uses[id] == p {
						derived++
					}
				}
			}
		}
		return true
	})
	return uses > 0 && uses == derived
}

// keyHelper reports an unexported function that returns one string.
func keyHelper(fn *types.Func) bool {
	sig := fn.Type().(*types.Signature)
	if fn.Exported() || sig.Results().Len() != 1 {
		return false
	}
	b, ok := sig.Results().At(0).Type().Underlying().(*types.Basic)
	return ok && b.Info()&types.IsString != 0
}

// builtKey returns the family of a key built in its function from a
// constant text and other parts (a concatenation or fmt.Sprintf), not
// one that comes in whole as a parameter or a field.
func (m *Model) builtKey(key ast.Expr) (string, bool) {
	if m.wholeKey(key) {
		return "", false
	}
	if _, consts := m.keyFamily(key); !consts {
		call := m.keyCall(key)
		if call == nil {
			return "", false
		}
		fn := m.makerFunc(call)
		if fn == nil {
			return "", false
		}
		// Made from a constant (key("lock", job)), by a method (a
		// namespace's, rdb.Key(...)), or by another package's maker of
		// one kind of key (OrderPaidLockKey(id)).
		if constArg(m.Pass.TypesInfo, call) || fn.Signature().Recv() != nil || fn.Pkg() != m.Pass.Pkg {
			return m.counterFamily(key)
		}
		return "", false
	}
	return m.counterFamily(key)
}

// constArg reports whether one of call's arguments is a constant string.
func constArg(info *types.Info, call *ast.CallExpr) bool {
	for _, a := range call.Args {
		if _, ok := constStringOf(info, a); ok {
			return true
		}
	}
	return false
}

// wholeKey reports whether k is, through local variables, a parameter,
// a field, an element or a package variable: a key that comes from
// elsewhere.
func (m *Model) wholeKey(k ast.Expr) bool {
	info := m.Pass.TypesInfo
	for depth := 0; depth <= maxDepth; depth++ {
		switch e := ast.Unparen(k).(type) {
		case *ast.Ident:
			if _, ok := info.ObjectOf(e).(*types.Const); ok {
				// A constant is its own text, here.
				return false
			}
			// A parameter, a package variable, or a local assigned
			// more than once has no single definition here.
			def := m.keys.definition(info.ObjectOf(e))
			if def == nil {
				return true
			}
			k = def
			continue
		case *ast.SelectorExpr, *ast.IndexExpr, *ast.StarExpr:
			return true
		}
		return false
	}
	return true
}

// onlyTakenField reports whether c takes a key held in a field of its
// receiver that the package uses for nothing else: every read of the
// field is the key of a SET NX or SETNX (an init marker, SET <ns>_lock NX, that
// Init takes once and nothing gives back), or is named in a log line. The field's type's methods
// are all here, and none releases, renews, reads or passes on that key:
// the value guards nothing, and a missing TTL is the marker's design.
func (m *Model) onlyTakenField(c *Call) bool {
	if !c.Acquires() || c.Via != nil || c.Decl == nil || c.Decl.Recv == nil {
		return false
	}
	info := m.Pass.TypesInfo
	sel, ok := ast.Unparen(c.Key()).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	s := info.Selections[sel]
	if s == nil || s.Kind() != types.FieldVal {
		return false
	}
	field := s.Obj()
	takes := map[*ast.Ident]bool{}
	for _, o := range m.Calls {
		// A script's take may compare the value first (a re-entrant
		// acquire): only SET NX and SETNX take without reading.
		if !o.Acquires() || o.Via != nil || o.Command == CmdEval {
			continue
		}
		for _, k := range o.Keys {
			if ks, ok := ast.Unparen(k).(*ast.SelectorExpr); ok {
				takes[ks.Sel] = true
			}
		}
	}
	stores := map[*ast.Ident]bool{}
	for _, f := range m.Pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.CallExpr:
				// A log line that names the key (zap.String("key", e.key))
				// neither gives it back nor checks it.
				if m.logCall(n) {
					ast.Inspect(n, func(n ast.Node) bool {
						if id, ok := n.(*ast.Ident); ok {
							stores[id] = true
						}
						return true
					})
					return false
				}
			case *ast.KeyValueExpr:
				if id, ok := n.Key.(*ast.Ident); ok {
					stores[id] = true
				}
			case *ast.AssignStmt:
				for _, l := range n.Lhs {
					if ls, ok := ast.Unparen(l).(*ast.SelectorExpr); ok {
						stores[ls.Sel] = true
					}
				}
			}
			return true
		})
	}
	for id, obj := range info.Uses {
		if obj == field && !takes[id] && !stores[id] {
			return false
		}
	}
	return true
}

// Rearmed reports whether c, an EXPIRE, sets again the TTL of a key that
// is kept, not given back: c's function says it ends the holding
// (ReleaseLock, Done), or c is deferred by the function that took the key
// itself ("ensure the key expires even if the handler panics"), nothing
// in the package deletes the key (no DEL, DELEX or script on it), some
// acquire of the package takes it with a TTL, and no other EXPIRE of it
// runs in a loop or a goroutine. A job's processing marker or an
// idempotency record kept for retries after the work is done is re-armed,
// not renewed for a holder still at work; a Refresh or Extend method is a
// renewal, whoever calls it.
func (m *Model) Rearmed(c *Call) bool {
	k := c.Key()
	if !c.Command.IsExpire() || k == nil || c.Via != nil || c.Decl == nil {
		return false
	}
	var taker ast.Node
	if !endsHolding(c.Decl.Name.Name) {
		if taker = m.deferrer(c); taker == nil {
			return false
		}
	}
	id := m.KeyID(k)
	fam, famOK := m.counterFamily(k)
	same := func(o ast.Expr) bool {
		if m.KeyID(o) == id {
			return true
		}
		f, ok := m.counterFamily(o)
		return famOK && ok && f == fam
	}
	taken := false
	for _, o := range m.Calls {
		for _, ok := range o.Keys {
			if !same(ok) {
				continue
			}
			switch {
			case o.Command.IsDelete() || o.Command == CmdDelEx || o.Command == CmdEval || o.Via != nil:
				return false
			case o.Command.IsExpire() && (o != c || taker == nil) && m.repeats(o):
				return false
			case o.Acquires():
				taken = taken || !o.NoTTL && (taker == nil || o.Func == taker && o.Pos() < c.Pos())
			}
		}
	}
	return taken
}

// deferrer returns the function that defers c, when c runs once at its
// exit: a defer statement of c itself, or c in a deferred closure, not in
// a loop or a further closure of it.
func (m *Model) deferrer(c *Call) ast.Node {
	if !c.Deferred || c.File == nil {
		return nil
	}
	path, _ := astutil.PathEnclosingInterval(c.File, c.Pos(), c.End())
	deferred := false
	for _, n := range path {
		switch n := n.(type) {
		case *ast.DeferStmt:
			deferred = true
		case *ast.ForStmt, *ast.RangeStmt, *ast.GoStmt:
			return nil
		case *ast.FuncLit:
			if deferred {
				return n
			}
		case *ast.FuncDecl:
			if deferred {
				return n
			}
			return nil
		}
	}
	return nil
}

// repeats reports whether c runs in a loop of its function or in a
// function literal (a goroutine, a timer's callback): a watchdog's
// renewal, not a one-time re-arm.
func (m *Model) repeats(c *Call) bool {
	if c.Func != c.Decl || c.Decl == nil || c.File == nil {
		return true
	}
	path, _ := astutil.PathEnclosingInterval(c.File, c.Pos(), c.End())
	for _, n := range path {
		switch n.(type) {
		case *ast.ForStmt, *ast.RangeStmt:
			return true
		}
	}
	return false
}

// endWords name a function that ends a holding rather than extends it.
var endWords = map[string]bool{"release": true, "unlock": true, "done": true, "finish": true, "complete": true}

func endsHolding(name string) bool {
	for _, w := range splitWords(name) {
		if endWords[w] {
			return true
		}
	}
	return false
}

// logMethods are the names of a logger's methods that write a line.
var logMethods = map[string]bool{
	"print": true, "printf": true, "println": true,
	"info": true, "infof": true, "infow": true, "warn": true, "warnf": true, "warnw": true,
	"warning": true, "warningf": true, "error": true, "errorf": true, "errorw": true,
	"debug": true, "debugf": true, "debugw": true,
}

// logCall reports whether call writes a log line: a function of package
// log or log/slog, fmt's Print and Fprint families, or a logger's method
// of one of logMethods' names that returns nothing.
func (m *Model) logCall(call *ast.CallExpr) bool {
	fn, _ := typeutil.Callee(m.Pass.TypesInfo, call).(*types.Func)
	if fn == nil || fn.Pkg() == nil {
		return false
	}
	sig := fn.Type().(*types.Signature)
	switch path := fn.Pkg().Path(); {
	case path == "log" || path == "log/slog":
		return true
	case path == "fmt":
		return strings.HasPrefix(fn.Name(), "Print") || strings.HasPrefix(fn.Name(), "Fprint")
	case sig.Recv() != nil:
		return sig.Results().Len() == 0 && logMethods[strings.ToLower(fn.Name())]
	}
	return false
}

// privateFamilyOnce reports whether c acquires a key that an unexported
// constant of the package makes (the constant, or the constant followed
// by the caller's parts: beaconPrefix + id), where that constant is named
// nowhere else: no other command of the package touches the key, and no
// caller can name it to release it. A helper that takes the key may drop
// one too (a with-lock helper), so c goes through none that does.
func (m *Model) privateFamilyOnce(c *Call) bool {
	key := c.Key()
	if !c.Acquires() || key == nil || c.Via != nil && m.Drops(c.Via) {
		return false
	}
	head := ast.Unparen(key)
	if b, ok := head.(*ast.BinaryExpr); ok && b.Op == token.ADD {
		for {
			x, ok := ast.Unparen(b.X).(*ast.BinaryExpr)
			if !ok || x.Op != token.ADD {
				break
			}
			b = x
		}
		head = ast.Unparen(b.X)
	}
	id, ok := head.(*ast.Ident)
	if !ok {
		return false
	}
	obj, ok := m.Pass.TypesInfo.Uses[id].(*types.Const)
	if !ok || obj.Exported() || obj.Pkg() != m.Pass.Pkg || obj.Parent() != m.Pass.Pkg.Scope() {
		return false
	}
	for use, o := range m.Pass.TypesInfo.Uses {
		if o == obj && use != id {
			return false
		}
	}
	return true
}

// privateKey reports whether key is an unexported constant of the package
// named nowhere but as a key of the package's commands: no caller that is
// told it holds the key can release it except through a command here.
func (m *Model) privateKey(key ast.Expr) bool {
	id, ok := ast.Unparen(key).(*ast.Ident)
	if !ok {
		return false
	}
	obj, ok := m.Pass.TypesInfo.Uses[id].(*types.Const)
	if !ok || obj.Exported() || obj.Pkg() != m.Pass.Pkg || obj.Parent() != m.Pass.Pkg.Scope() {
		return false
	}
	asKey := map[*ast.Ident]bool{}
	for _, o := range m.Calls {
		for _, k := range o.Keys {
			if kid, ok := ast.Unparen(k).(*ast.Ident); ok {
				asKey[kid] = true
			}
		}
	}
	for use, o := range m.Pass.TypesInfo.Uses {
		if o == obj && !asKey[use] {
			return false
		}
	}
	return true
}

// HoldOff reports whether c, a plain SET of a constant with a TTL, writes
// a hold-off flag: a key built here from a constant text that no other
// command of the package touches (no take, read, renewal or delete; other
// plain SETs of a constant aside) and that c's function hands to no code
// the model does not read. It keeps someone else (another package, a
// scheduler) off for its TTL; this package holds nothing under it, so
// there is no holder for the SET to overwrite.
func (m *Model) HoldOff(c *Call) bool {
	k := c.Key()
	if !c.Overwrites() || c.TTL == nil || k == nil || c.Via != nil || c.Queued || c.Decl == nil || len(c.Keys) != 1 {
		return false
	}
	if _, ok := m.storedConst(c); !ok {
		return false
	}
	text, ok := m.builtKey(k)
	if !ok {
		return false
	}
	id := m.KeyID(k)
	if m.passesKey(c.Decl, c.Expr, id) {
		return false
	}
	for _, o := range m.Calls {
		if o == c {
			continue
		}
		for _, ok2 := range o.Keys {
			t, tok := m.counterFamily(ok2)
			if m.KeyID(ok2) != id && !(tok && t == text) && !m.wholeKey(ok2) {
				continue
			}
			if _, cst := m.storedConst(o); o.Overwrites() && cst && o.Via == nil {
				continue
			}
			return false
		}
	}
	return true
}
