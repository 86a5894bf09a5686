package lockmodel

// What an acquire's value is worth as a token: where it comes from,
// through variables, parameters and fields, and how unique that is.

import (
	"go/ast"
	"go/types"
	"slices"

	"github.com/locklint/locklint/internal/typesx"
	"golang.org/x/tools/go/types/typeutil"
)

// Tokens classifies the values acquires store, reading the package's one
// definition index; build it once per pass with Model.Tokens.
type Tokens struct {
	m    *Model
	info *types.Info
}

// Tokens returns the classifier of the values acquires store.
func (m *Model) Tokens() *Tokens {
	return &Tokens{m: m, info: m.Pass.TypesInfo}
}

// runsOnce reports whether fn runs once per process: init, and main of a
// command.
func (t *Tokens) runsOnce(fn *ast.FuncDecl) bool {
	return fn.Recv == nil && (fn.Name.Name == "init" || fn.Name.Name == "main" && t.m.Pass.Pkg.Name() == "main")
}

func (t *Tokens) pkgLevel(v *types.Var) bool {
	return v.Pkg() == t.m.Pass.Pkg && v.Parent() == v.Pkg().Scope()
}

func isMathRand(path string) bool { return path == "math/rand" || path == "math/rand/v2" }

// Classify returns the origin of the value c stores. It is OriginUnknown when c stores
// nothing the model can read.
func (t *Tokens) Classify(c *Call) TokenOrigin {
	if t.m.keys == nil {
		return TokenOrigin{}
	}
	if c.Value == nil {
		if c.ScriptValue != "" {
			return t.scriptValue(c)
		}
		return TokenOrigin{}
	}
	st := newTokenState(c.Decl, t.handleKey(c.Key(), c.Decl))
	return t.expr(c.Value, st, 0)
}

type tokenState struct {
	decl *ast.FuncDecl // the function the value is read in
	// handle is true when the acquire's key is made of fields of its own
	// struct: the struct stands for one lock, and is usually made for one
	// acquisition.
	handle bool
	seen   map[ast.Node]bool
	// helpers holds what a helper returned, once its walk is done, so
	// that a second call of it (two constructors calling randomString)
	// gets the same answer instead of the cycle guard's unknown.
	helpers map[helperKey]TokenOrigin
}

type helperKey struct {
	decl   *ast.FuncDecl
	handle bool
}

// newTokenState is the state of one walk from a value, read in decl.
func newTokenState(decl *ast.FuncDecl, handle bool) *tokenState {
	return &tokenState{decl: decl, handle: handle, seen: map[ast.Node]bool{}, helpers: map[helperKey]TokenOrigin{}}
}

// within is st for a value read in another function of the same walk.
func (st *tokenState) within(decl *ast.FuncDecl, handle bool) *tokenState {
	return &tokenState{decl: decl, handle: handle, seen: st.seen, helpers: st.helpers}
}

// maxTokenDepth bounds the walk from a stored value to its sources: deep
// enough for a struct field set in a constructor from a helper that
// formats what two more helpers return (a pid and a goroutine id).
const maxTokenDepth = 16

func (t *Tokens) expr(e ast.Expr, st *tokenState, depth int) TokenOrigin {
	e = ast.Unparen(e)
	if depth > maxTokenDepth || st.seen[e] {
		return TokenOrigin{}
	}
	st.seen[e] = true
	if tv, ok := t.info.Types[e]; ok && tv.Value != nil {
		return origin(OriginConstant, SourceConstant, typesx.Source(t.m.Pass.Fset, e), e)
	}
	switch e := e.(type) {
	case *ast.Ident:
		return t.ident(e, st, depth)
	case *ast.SelectorExpr:
		if sel := t.info.Selections[e]; sel != nil {
			if sel.Kind() == types.FieldVal {
				return t.field(e, sel, st, depth)
			}
			return TokenOrigin{}
		}
		// A qualified identifier: another package's variable.
		return TokenOrigin{}
	case *ast.BinaryExpr:
		return concat(t.expr(e.X, st, depth+1), t.expr(e.Y, st, depth+1))
	case *ast.SliceExpr:
		return t.expr(e.X, st, depth+1)
	case *ast.IndexExpr:
		// letters[rand.Intn(len(letters))]: as unique as the index.
		return concat(t.expr(e.X, st, depth+1), t.expr(e.Index, st, depth+1))
	case *ast.CallExpr:
		return t.call(e, st, depth)
	}
	return TokenOrigin{}
}

func (t *Tokens) ident(id *ast.Ident, st *tokenState, depth int) TokenOrigin {
	v, ok := t.info.ObjectOf(id).(*types.Var)
	if !ok || v.Pkg() == nil {
		return TokenOrigin{}
	}
	defs := t.m.defs
	if t.pkgLevel(v) {
		if defs.changedLater(v, t.runsOnce) {
			return TokenOrigin{}
		}
		step := Step{Kind: StepVar, Name: v.Name()}
		var s TokenOrigin
		if d, ok := defs.initial(v); ok {
			switch {
			case d.val != nil:
				s = t.expr(d.val, st, depth+1)
			case d.tuple != nil:
				s = t.tuple(d.tuple, d.index, st, depth)
			}
			if s.Origin == OriginConstant || s.Origin == OriginProcess || s.Origin > OriginOnce {
				s.Trail = s.Trail.through(step)
				return s
			}
		}
		once := origin(OriginOnce, SourceSetOnce, "", id)
		once.Trail = once.Trail.through(step)
		once.Drawn = s.Origin == OriginFresh
		return once
	}
	if src, ok := defs.fills[v]; ok {
		return src
	}
	if defs.counter(v) {
		// Every process counts from the same start: worker 3 of one
		// replica stores what worker 3 of the next one does.
		return origin(OriginProcess, SourceCounter, v.Name(), id)
	}
	if p, ok := defs.params[v]; ok && len(defs.vars[v]) == 0 {
		return t.param(v, p, st, depth)
	}
	d, ok := defs.only(v)
	var base TokenOrigin
	switch {
	case !ok:
		return t.everyDef(v, st, depth)
	case d.val != nil:
		base = t.expr(d.val, st, depth+1)
	case d.tuple != nil:
		base = t.tuple(d.tuple, d.index, st, depth)
	}
	// b := make([]byte, n); b[i] = letters[rand.Intn(len(letters))]: the
	// elements stored are part of the value.
	if stores := defs.elems[v]; len(stores) > 0 {
		parts := []TokenOrigin{base}
		for _, s := range stores {
			if s.val == nil {
				return TokenOrigin{}
			}
			parts = append(parts, t.expr(s.val, st, depth+1))
		}
		return concat(parts...)
	}
	return base
}

// everyDef classifies a local assigned more than once by all that is
// assigned to it: weak only when every value is (a random-string loop's
// cache := src.Int63(), refilled with src.Int63() and shifted, is
// math/rand). A shift or sum of the variable keeps what it holds; an
// address taken lets it change unseen.
func (t *Tokens) everyDef(v *types.Var, st *tokenState, depth int) TokenOrigin {
	var srcs []TokenOrigin
	stepped := false
	for _, x := range t.m.defs.vars[v] {
		switch {
		case x.addr:
			return TokenOrigin{}
		case x.val != nil:
			srcs = append(srcs, t.expr(x.val, st, depth+1))
		case x.tuple != nil:
			srcs = append(srcs, t.tuple(x.tuple, x.index, st, depth))
		case !x.zero:
			stepped = true
		}
	}
	for _, s := range srcs {
		// A constant stepped (i++, n += k) is a count, no constant.
		if s.Origin == OriginUnknown || stepped && s.Origin == OriginConstant {
			return TokenOrigin{}
		}
	}
	return alt(srcs)
}

// param classifies a parameter by what every caller passes, when the
// function's callers are all in sight (it is unexported and only called).
// An exported function's callers here are only some of its callers; one
// of them (outside the tests) that passes a weak value acquires with it,
// whatever the others pass, so that value is the parameter's.
func (t *Tokens) param(v *types.Var, p param, st *tokenState, depth int) TokenOrigin {
	// A forwarder's calls stand for its command, with the caller's value:
	// the finding belongs at each caller, once.
	if f := t.m.forwarders[p.fn.Origin()]; f != nil && f.Value == p.index {
		return TokenOrigin{}
	}
	calls, ok := t.m.defs.callers(p.fn)
	some := false
	if !ok && (p.fn.Exported() || p.fn.Type().(*types.Signature).Recv() != nil) {
		// A method is called directly and through the package's
		// interfaces it implements (a Backend's AcquireLock).
		for _, c := range append(t.m.defs.calls[p.fn], t.m.interfaceCalls(p.fn)...) {
			if !t.m.InTestFile(c.call) {
				calls = append(calls, c)
			}
		}
		ok, some = len(calls) > 0, true
	}
	decl := t.m.defs.funcs[p.fn]
	if !ok || decl == nil || st.seen[decl.Type] {
		return TokenOrigin{}
	}
	st.seen[decl.Type] = true
	defer delete(st.seen, decl.Type)
	srcs := make([]TokenOrigin, 0, len(calls))
	for _, c := range calls {
		if len(c.call.Args) <= p.index || c.call.Ellipsis.IsValid() {
			if some {
				continue
			}
			return TokenOrigin{}
		}
		cst := st.within(c.fn, st.handle)
		src := t.expr(c.call.Args[p.index], cst, depth+1)
		if some && src.Origin.Weak() {
			srcs = []TokenOrigin{src}
			break
		}
		srcs = append(srcs, src)
	}
	if some && (len(srcs) == 0 || !srcs[0].Origin.Weak()) {
		return TokenOrigin{}
	}
	o := alt(srcs)
	if o.Origin.Weak() {
		// Through several functions, the first parameter and what was
		// given in the end say enough.
		if th := o.Trail.Through; len(th) > 0 && th[0].Kind == StepParam {
			o.Trail.Through = th[1:]
		}
		o.Trail = o.Trail.through(Step{Kind: StepParam, Name: v.Name()})
	}
	return o
}

// tuple classifies result i of a multi-value call: host, err := os.Hostname().
func (t *Tokens) tuple(call *ast.CallExpr, i int, st *tokenState, depth int) TokenOrigin {
	fn, _ := typeutil.Callee(t.info, call).(*types.Func)
	if fn == nil || fn.Pkg() == nil || i != 0 {
		return TokenOrigin{}
	}
	switch lookup(fn) {
	case apiProcess:
		return origin(OriginProcess, SourceFunc, fn.Pkg().Name()+"."+fn.Name(), call)
	case apiFresh:
		return origin(OriginFresh, SourcePath, fn.FullName(), nil)
	}
	if fn.Pkg().Path() == "strconv" {
		// id, err := strconv.ParseUint(s, 10, 64): as unique as s.
		return t.args(call.Args, st, depth)
	}
	if fn.Type().(*types.Signature).Recv() != nil && knowledge[fn.Pkg().Path()] != nil {
		// b, err := time.Now().MarshalText(): a known type's method, read
		// as call reads one with a single result.
		return t.withRecv(call, true, st, depth)
	}
	// id, err := newID(): a helper's first result, as call reads it.
	if decl := t.m.defs.funcs[fn.Origin()]; decl != nil && decl.Body != nil {
		return t.helper(decl, st, depth)
	}
	if src, ok := t.importedHelper(fn, call); ok {
		return src
	}
	return TokenOrigin{}
}

// field classifies a field read: the values stored into it, and whether
// they are stored only where the struct is constructed.
func (t *Tokens) field(e *ast.SelectorExpr, sel *types.Selection, st *tokenState, depth int) TokenOrigin {
	stores := t.m.defs.fields[sel.Obj()]
	inTest := func(s fieldStore) bool { return s.val != nil && t.m.InTestFile(s.val) }
	if st.decl != nil && !t.m.InTestFile(st.decl) && slices.ContainsFunc(stores, inTest) {
		// A test stores fixed values on purpose (a mock node's id): not
		// what the code it tests is given.
		stores = slices.DeleteFunc(slices.Clone(stores), inTest)
	}
	if len(stores) == 0 {
		return TokenOrigin{}
	}
	var srcs []TokenOrigin
	for _, s := range stores {
		if s.val == nil {
			return TokenOrigin{}
		}
		inner := st.within(s.fn, false)
		srcs = append(srcs, t.expr(s.val, inner, depth+1))
	}
	src := alt(srcs)
	// A host name and a start time, stored where the struct is made, name
	// the instance: read on as a drawn value when only constructors store it.
	instance := src.Instance
	owner := namedOf(sel.Recv())
	if !instance && (src.Origin.Weak() || st.handle) {
		if src.Origin.Weak() {
			src.Trail = src.Trail.through(Step{Kind: StepField, Name: e.Sel.Name})
		}
		// A math/rand draw kept where the struct is made, from a source
		// each process seeds its own way, names the instance as a drawn
		// value does: its words stay math/rand's.
		if src.Origin == OriginMathRand && owner != nil && t.constructor(stores, owner, st) != nil && t.m.randPerProcess() {
			src.Drawn = true
		}
		// So does the clock read there alone: the instance's start time
		// (fmt.Sprintf("agg-%d", time.Now().UnixNano())), which a leader
		// lease may be held by.
		if src.Origin == OriginClock && owner != nil && t.constructor(stores, owner, st) != nil {
			src.Drawn = true
		}
		return src
	}
	if instance {
		src.Trail = src.Trail.through(Step{Kind: StepField, Name: e.Sel.Name})
	}
	if owner == nil {
		return src
	}
	ctor := t.constructor(stores, owner, st)
	if ctor == nil {
		// Set where the value is used, in a method that may run per
		// acquisition, or somewhere we cannot tell: not once.
		return src
	}
	once := origin(OriginOnce, SourceSetOnce, ctor.Name.Name, ctor.Name)
	once.Trail = once.Trail.through(Step{Kind: StepField, Name: e.Sel.Name})
	once.Drawn = src.Origin == OriginFresh || instance
	once.Given = src.Origin == OriginUnknown
	return once
}

// constructor returns the constructor of owner that makes every store
// of a field, or nil when a store is elsewhere (or in st's function).
func (t *Tokens) constructor(stores []fieldStore, owner *types.Named, st *tokenState) *ast.FuncDecl {
	var ctor *ast.FuncDecl
	for _, s := range stores {
		if s.fn == nil || s.fn == st.decl || !constructs(t.info, s.fn, owner) {
			return nil
		}
		ctor = s.fn
	}
	return ctor
}

// constructs reports whether fn is a constructor of owner: a function (not
// a method of owner) that returns owner or a pointer to it.
func constructs(info *types.Info, fn *ast.FuncDecl, owner *types.Named) bool {
	obj, _ := info.Defs[fn.Name].(*types.Func)
	if obj == nil {
		return false
	}
	sig := obj.Type().(*types.Signature)
	if r := sig.Recv(); r != nil && namedOf(r.Type()) == owner {
		return false
	}
	for i := range sig.Results().Len() {
		r := sig.Results().At(i).Type()
		if namedOf(r) == owner {
			return true
		}
		// NewRedisLock(...) DistributedLock { return &redisLock{...} }:
		// the interface the type is handed out as.
		if iface, ok := r.Underlying().(*types.Interface); ok && iface.NumMethods() > 0 && !typesx.IsError(r) &&
			(types.Implements(owner, iface) || types.Implements(types.NewPointer(owner), iface)) {
			return true
		}
	}
	return false
}

// constPrefix reports whether v, a package-level variable, starts as a
// constant and no function that may run more than once changes it.
func (t *Tokens) constPrefix(v *types.Var) bool {
	d, ok := t.m.defs.initial(v)
	if !ok || d.val == nil || t.m.defs.changedLater(v, t.runsOnce) {
		return false
	}
	tv, ok := t.info.Types[d.val]
	return ok && tv.Value != nil
}

// handleKey reports whether key is built from the fields of one struct
// value and constants only (l.key, "lock:"+l.name): that struct stands
// for one lock, and a token set when it is made is per lock, not per
// process. A key that takes a parameter (l.prefix+name) or is a constant
// of its own is not a handle's.
func (t *Tokens) handleKey(key ast.Expr, decl *ast.FuncDecl) bool {
	if key == nil {
		return false
	}
	fieldSeen, other := false, false
	var walk func(e ast.Expr, depth int)
	walk = func(e ast.Expr, depth int) {
		if depth > maxTokenDepth || other {
			return
		}
		e = ast.Unparen(e)
		if tv, ok := t.info.Types[e]; ok && tv.Value != nil {
			return
		}
		switch e := e.(type) {
		case *ast.SelectorExpr:
			if sel := t.info.Selections[e]; sel != nil && sel.Kind() == types.FieldVal {
				fieldSeen = true
				return
			}
			other = true
		case *ast.Ident:
			v, ok := t.info.ObjectOf(e).(*types.Var)
			if ok && t.pkgLevel(v) && t.constPrefix(v) {
				// var KeyLockPrefix = "redis_lock:": the same for
				// every handle, as a constant is.
				return
			}
			if !ok || t.pkgLevel(v) {
				other = true
				return
			}
			if d, ok := t.m.defs.only(v); ok && d.val != nil {
				walk(d.val, depth+1)
				return
			}
			other = true
		case *ast.BinaryExpr:
			walk(e.X, depth+1)
			walk(e.Y, depth+1)
		case *ast.CallExpr:
			for _, a := range e.Args {
				walk(a, depth+1)
			}
			if tv, ok := t.info.Types[e.Fun]; ok && tv.IsType() {
				return
			}
			if x := recvOf(e); x != nil {
				if sel := t.info.Selections[ast.Unparen(e.Fun).(*ast.SelectorExpr)]; sel != nil && sel.Kind() == types.MethodVal {
					// l.key(): a method of the handle builds its key.
					fieldSeen = true
				}
			}
		default:
			other = true
		}
	}
	walk(key, 0)
	return fieldSeen && !other
}
