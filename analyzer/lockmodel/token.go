package lockmodel

import (
	"go/ast"
	"go/types"
	"strings"

	"github.com/locklint/locklint/analyzer/diag"

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
	if c.Value == nil || t.m.keys == nil {
		return TokenOrigin{}
	}
	st := &tokenState{decl: c.Decl, seen: map[ast.Node]bool{}}
	st.handle = t.handleKey(c.Key(), c.Decl)
	return t.expr(c.Value, st, 0)
}

type tokenState struct {
	decl *ast.FuncDecl // the function the value is read in
	// handle is true when the acquire's key is made of fields of its own
	// struct: the struct stands for one lock, and is usually made for one
	// acquisition.
	handle bool
	seen   map[ast.Node]bool
}

// maxTokenDepth bounds the walk from a stored value to its sources: deep
// enough for a struct field set in a constructor from a helper that
// formats what two more helpers return (a pid and a goroutine id).
const maxTokenDepth = 16

// returnedBy names the helper a weak value came out of: the one the
// caller sees, in place of any helper it called in turn.
func returnedBy(what, helper string) string {
	if i := strings.Index(what, ", returned by "); i >= 0 {
		what = what[:i]
	}
	return what + ", returned by " + diag.Quote(helper)
}

func (t *Tokens) expr(e ast.Expr, st *tokenState, depth int) TokenOrigin {
	e = ast.Unparen(e)
	if depth > maxTokenDepth || st.seen[e] {
		return TokenOrigin{}
	}
	st.seen[e] = true
	if tv, ok := t.info.Types[e]; ok && tv.Value != nil {
		return TokenOrigin{Origin: OriginConstant, What: "the constant " + diag.Code(t.m.Pass.Fset, e), At: e}
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
		what := "package-level variable " + diag.Quote(v.Name())
		var s TokenOrigin
		if d, ok := defs.initial(v); ok {
			switch {
			case d.val != nil:
				s = t.expr(d.val, st, depth+1)
			case d.tuple != nil:
				s = t.tuple(d.tuple, d.index, st, depth)
			}
			if s.Origin == OriginConstant || s.Origin == OriginProcess || s.Origin > OriginOnce {
				s.What = what + ", " + s.What
				return s
			}
		}
		return TokenOrigin{Origin: OriginOnce, What: what + ", set once per process", At: id, Drawn: s.Origin == OriginFresh}
	}
	if src, ok := defs.fills[v]; ok {
		return src
	}
	if defs.counter(v) {
		// Every process counts from the same start: worker 3 of one
		// replica stores what worker 3 of the next one does.
		return TokenOrigin{Origin: OriginProcess, What: "loop counter " + diag.Quote(v.Name()) + ", the same in every process", At: id}
	}
	if p, ok := defs.params[v]; ok && len(defs.vars[v]) == 0 {
		return t.param(v, p, st, depth)
	}
	d, ok := defs.only(v)
	var base TokenOrigin
	switch {
	case !ok:
		return TokenOrigin{}
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
	if !ok && p.fn.Exported() {
		for _, c := range t.m.defs.calls[p.fn] {
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
		cst := &tokenState{decl: c.fn, handle: st.handle, seen: st.seen}
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
		if rest, ok := strings.CutPrefix(o.What, "parameter "); ok {
			if _, given, ok := strings.Cut(rest, ", given "); ok {
				o.What = given
			}
		}
		o.What = "parameter " + diag.Quote(v.Name()) + ", given " + o.What
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
		return TokenOrigin{Origin: OriginProcess, What: diag.Quote(fn.Pkg().Name() + "." + fn.Name()), At: call}
	case apiFresh:
		return TokenOrigin{Origin: OriginFresh, What: fn.FullName()}
	}
	if fn.Pkg().Path() == "strconv" {
		// id, err := strconv.ParseUint(s, 10, 64): as unique as s.
		return t.args(call.Args, st, depth)
	}
	return TokenOrigin{}
}

// field classifies a field read: the values stored into it, and whether
// they are stored only where the struct is constructed.
func (t *Tokens) field(e *ast.SelectorExpr, sel *types.Selection, st *tokenState, depth int) TokenOrigin {
	stores := t.m.defs.fields[sel.Obj()]
	if len(stores) == 0 {
		return TokenOrigin{}
	}
	var srcs []TokenOrigin
	for _, s := range stores {
		if s.val == nil {
			return TokenOrigin{}
		}
		inner := &tokenState{decl: s.fn, seen: st.seen}
		srcs = append(srcs, t.expr(s.val, inner, depth+1))
	}
	src := alt(srcs)
	if src.Origin.Weak() || st.handle {
		if src.Origin.Weak() {
			src.What = "field " + diag.Quote(e.Sel.Name) + ", " + src.What
		}
		return src
	}
	owner := namedOf(sel.Recv())
	if owner == nil {
		return src
	}
	var ctor *ast.FuncDecl
	for _, s := range stores {
		if s.fn == nil || s.fn == st.decl || !constructs(t.info, s.fn, owner) {
			// Set where the value is used, in a method that may run
			// per acquisition, or somewhere we cannot tell: not once.
			return src
		}
		ctor = s.fn
	}
	return TokenOrigin{Origin: OriginOnce, What: "field " + diag.Quote(e.Sel.Name) + ", set once in " + diag.Quote(ctor.Name.Name), At: ctor.Name,
		Drawn: src.Origin == OriginFresh}
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
		if namedOf(sig.Results().At(i).Type()) == owner {
			return true
		}
	}
	return false
}

func (t *Tokens) call(call *ast.CallExpr, st *tokenState, depth int) TokenOrigin {
	if tv, ok := t.info.Types[call.Fun]; ok && tv.IsType() {
		return t.args(call.Args, st, depth)
	}
	fn, _ := typeutil.Callee(t.info, call).(*types.Func)
	if fn == nil || fn.Pkg() == nil {
		return TokenOrigin{}
	}
	path, name := fn.Pkg().Path(), fn.Name()
	recv := fn.Type().(*types.Signature).Recv()
	withRecv := func() TokenOrigin {
		parts := []TokenOrigin{t.args(call.Args, st, depth)}
		if recv != nil {
			if x := recvOf(call); x != nil {
				parts = append(parts, t.expr(x, st, depth+1))
			}
		}
		return concat(parts...)
	}
	known := knowledge[path] != nil
	switch a := lookup(fn); {
	case a == apiFresh:
		if path == "crypto/rand" {
			return TokenOrigin{Origin: OriginFresh, What: "crypto/rand"}
		}
		return TokenOrigin{Origin: OriginFresh, What: fn.FullName()}
	case a == apiMathRand, recv != nil && isMathRand(path):
		return TokenOrigin{Origin: OriginMathRand, What: path, At: call}
	case a == apiClock:
		return TokenOrigin{Origin: OriginClock, What: diag.Quote(fn.Pkg().Name() + "." + name), At: call}
	case a == apiProcess:
		return TokenOrigin{Origin: OriginProcess, What: diag.Quote(fn.Pkg().Name() + "." + name), At: call}
	case a == apiPassThrough:
		return t.args(call.Args, st, depth)
	case a == apiNameBased:
		// A name-based UUID is as unique as the name it hashes.
		if len(call.Args) == 2 {
			return t.expr(call.Args[1], st, depth+1)
		}
		return TokenOrigin{}
	case known && recv != nil:
		// A method of a known package's type (t.Unix(), id.String()) is
		// as unique as its receiver and arguments.
		return withRecv()
	case known:
		return TokenOrigin{}
	case path == "fmt" && strings.HasPrefix(name, "Sprint"),
		path == "strconv", path == "strings", path == "bytes", path == "encoding/hex",
		path == "encoding/base64", path == "encoding/base32":
		if recv != nil && isTextBuffer(fn) {
			// b.String() of a local buffer: what was written into it.
			if name != "String" && name != "Bytes" {
				return TokenOrigin{}
			}
			return t.written(recvOf(call), st, depth)
		}
		if recv != nil && (path == "encoding/base64" || path == "encoding/base32") {
			// base64.StdEncoding.EncodeToString(b): the encoding is fixed.
			return t.args(call.Args, st, depth)
		}
		return withRecv()
	}
	if decl := t.m.defs.funcs[fn.Origin()]; decl != nil && decl.Body != nil {
		return t.helper(decl, st, depth)
	}
	if src, ok := t.importedHelper(fn, call); ok {
		return src
	}
	return TokenOrigin{}
}

// written is the origin of what was written into the buffer x names.
func (t *Tokens) written(x ast.Expr, st *tokenState, depth int) TokenOrigin {
	id, ok := ast.Unparen(x).(*ast.Ident)
	if !ok {
		return TokenOrigin{}
	}
	v, ok := t.info.ObjectOf(id).(*types.Var)
	if !ok || t.pkgLevel(v) {
		return TokenOrigin{}
	}
	stores := t.m.defs.elems[v]
	if len(stores) == 0 {
		return TokenOrigin{}
	}
	parts := make([]TokenOrigin, 0, len(stores))
	for _, s := range stores {
		parts = append(parts, t.expr(s.val, st, depth+1))
	}
	return concat(parts...)
}

// args concatenates the sources of call arguments; a multi-value call as
// the only argument (uuid.Must(uuid.NewRandom())) is its first result.
func (t *Tokens) args(args []ast.Expr, st *tokenState, depth int) TokenOrigin {
	if len(args) == 1 {
		if call, ok := ast.Unparen(args[0]).(*ast.CallExpr); ok {
			if tup, ok := t.info.TypeOf(call).(*types.Tuple); ok && tup.Len() > 1 {
				return t.tuple(call, 0, st, depth)
			}
		}
	}
	parts := make([]TokenOrigin, 0, len(args))
	for _, a := range args {
		parts = append(parts, t.expr(a, st, depth+1))
	}
	return concat(parts...)
}

// helper classifies what a function of this package returns: fresh when
// its body draws from crypto/rand or a UUID generator, else the values of
// its return statements, any of which may be the token.
func (t *Tokens) helper(decl *ast.FuncDecl, st *tokenState, depth int) TokenOrigin {
	src := t.helperOrigin(decl, st, depth)
	if src.Origin.Weak() {
		src.What = returnedBy(src.What, decl.Name.Name)
	}
	return src
}

// helperOrigin is the origin of what decl returns.
func (t *Tokens) helperOrigin(decl *ast.FuncDecl, st *tokenState, depth int) TokenOrigin {
	if st.seen[decl] {
		return TokenOrigin{}
	}
	st.seen[decl] = true
	fresh := false
	var rets []ast.Expr
	ast.Inspect(decl.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.Ident:
			if obj := t.info.Uses[n]; obj != nil && obj.Pkg() != nil {
				fresh = fresh || freshPackages[obj.Pkg().Path()]
			}
		case *ast.ReturnStmt:
			if len(n.Results) > 0 {
				rets = append(rets, n.Results[0])
			}
		}
		return true
	})
	if fresh {
		return TokenOrigin{Origin: OriginFresh, What: decl.Name.Name}
	}
	if len(rets) == 0 {
		return TokenOrigin{}
	}
	inner := &tokenState{decl: decl, seen: st.seen}
	srcs := make([]TokenOrigin, 0, len(rets))
	for _, r := range rets {
		srcs = append(srcs, t.expr(r, inner, depth+1))
	}
	return alt(srcs)
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
