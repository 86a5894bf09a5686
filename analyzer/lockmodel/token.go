package lockmodel

import (
	"github.com/locklint/locklint/analyzer/diag"
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/types/typeutil"
)

// Origin is where the value an acquire stores comes from, as far as the
// type checker and local data flow can tell.
type Origin uint8

// Origins. The kinds after OriginFresh are not unique per acquisition and
// are ordered from the least to the most entropy: a value built from
// several of them has the kind of its strongest part.
const (
	// OriginUnknown is a parameter, a function of another package, or a
	// shape the model does not follow. Passes stay silent on it.
	OriginUnknown Origin = iota
	// OriginFresh is generated per evaluation: crypto/rand, a random UUID,
	// or a helper of this package whose body uses one of them.
	OriginFresh
	// OriginConstant is a literal or a constant.
	OriginConstant
	// OriginProcess is the same for every acquisition of a process: the
	// host name, the process id, an environment variable.
	OriginProcess
	// OriginOnce is computed once and kept: a package-level variable, or a
	// field set only when its struct is constructed.
	OriginOnce
	// OriginClock is read from the clock (time.Now and what is computed
	// from it): two acquisitions in one tick get the same value.
	OriginClock
	// OriginMathRand comes from math/rand or math/rand/v2.
	OriginMathRand
)

// Weak reports whether o is known not to be unique per acquisition.
func (o Origin) Weak() bool { return o >= OriginConstant }

// TokenSource is the origin of an acquire's value, with the part that
// decided it: what it is ("os.Hostname", "package-level variable owner")
// and where (a declaration or a store), for the diagnostic.
type TokenSource struct {
	Origin Origin
	What   string
	At     ast.Node
}

// Tokens classifies the values acquires store. It indexes the package's
// assignments once; build it once per pass with Model.Tokens.
type Tokens struct {
	m    *Model
	info *types.Info
	// locals holds the single definition of local variables assigned
	// exactly once (x := v, or x, err := f()).
	locals map[types.Object]localDef
	// multi marks local variables assigned more than once or whose
	// address is taken.
	multi map[types.Object]bool
	// pkgVars holds package-level variables of this package: their
	// initializer, and whether a function other than init assigns them.
	pkgInit  map[types.Object]localDef
	pkgLater map[types.Object]bool
	fields   map[types.Object][]fieldStore
	fills    map[types.Object]TokenSource // buffers filled by a Read
	funcs    map[*types.Func]*ast.FuncDecl
}

type localDef struct {
	val   ast.Expr      // x := val
	tuple *ast.CallExpr // x, err := tuple()
	index int
}

// fieldStore is a value stored into a struct field, and the function that
// stores it (nil at package level).
type fieldStore struct {
	val ast.Expr
	fn  *ast.FuncDecl
}

// Tokens indexes the package for token classification.
func (m *Model) Tokens() *Tokens {
	t := &Tokens{
		m:        m,
		info:     m.Pass.TypesInfo,
		locals:   map[types.Object]localDef{},
		multi:    map[types.Object]bool{},
		pkgInit:  map[types.Object]localDef{},
		pkgLater: map[types.Object]bool{},
		fields:   map[types.Object][]fieldStore{},
		fills:    map[types.Object]TokenSource{},
		funcs:    map[*types.Func]*ast.FuncDecl{},
	}
	if m.keys == nil {
		return t
	}
	for _, f := range m.Pass.Files {
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if fn, ok := t.info.Defs[d.Name].(*types.Func); ok {
					t.funcs[fn] = d
				}
				if d.Body != nil {
					t.index(d.Body, d)
				}
			case *ast.GenDecl:
				t.index(d, nil)
			}
		}
	}
	return t
}

// index records the assignments under n, which sits in fn (nil at
// package level).
func (t *Tokens) index(n ast.Node, fn *ast.FuncDecl) {
	// init, and main of a command, run once per process.
	isInit := fn != nil && fn.Recv == nil && (fn.Name.Name == "init" || fn.Name.Name == "main" && t.m.Pass.Pkg.Name() == "main")
	assign := func(id *ast.Ident, d localDef, counts bool) {
		obj, ok := t.info.ObjectOf(id).(*types.Var)
		if !ok || id.Name == "_" || obj.IsField() {
			return
		}
		if t.pkgLevel(obj) {
			if fn == nil {
				t.pkgInit[obj] = d
			} else if !isInit {
				t.pkgLater[obj] = true
			}
			return
		}
		if !counts {
			return
		}
		if _, seen := t.locals[obj]; seen || (d.val == nil && d.tuple == nil) {
			t.multi[obj] = true
		}
		t.locals[obj] = d
	}
	ast.Inspect(n, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			var tuple *ast.CallExpr
			if len(n.Rhs) == 1 && len(n.Lhs) > 1 {
				tuple, _ = ast.Unparen(n.Rhs[0]).(*ast.CallExpr)
			}
			for i, lhs := range n.Lhs {
				var d localDef
				switch {
				case n.Tok != token.ASSIGN && n.Tok != token.DEFINE:
				case len(n.Lhs) == len(n.Rhs):
					d.val = n.Rhs[i]
				case tuple != nil:
					d.tuple, d.index = tuple, i
				}
				switch l := ast.Unparen(lhs).(type) {
				case *ast.Ident:
					assign(l, d, true)
				case *ast.SelectorExpr:
					if sel := t.info.Selections[l]; sel != nil && sel.Kind() == types.FieldVal {
						t.fields[sel.Obj()] = append(t.fields[sel.Obj()], fieldStore{val: d.val, fn: fn})
					}
				}
			}
		case *ast.ValueSpec:
			for i, id := range n.Names {
				var d localDef
				switch {
				case len(n.Values) == len(n.Names):
					d.val = n.Values[i]
				case len(n.Values) == 1:
					d.tuple, _ = ast.Unparen(n.Values[0]).(*ast.CallExpr)
					d.index = i
				}
				// var x T declares the zero value; a later assignment is
				// the definition.
				assign(id, d, len(n.Values) > 0)
			}
		case *ast.IncDecStmt:
			if id, ok := ast.Unparen(n.X).(*ast.Ident); ok {
				assign(id, localDef{}, true)
			}
		case *ast.RangeStmt:
			for _, e := range []ast.Expr{n.Key, n.Value} {
				if id, ok := e.(*ast.Ident); ok {
					assign(id, localDef{}, true)
				}
			}
		case *ast.UnaryExpr:
			// &x: the variable may change behind our back.
			if id, ok := ast.Unparen(n.X).(*ast.Ident); ok && n.Op == token.AND {
				assign(id, localDef{}, true)
			}
		case *ast.CompositeLit:
			t.composite(n, fn)
		case *ast.CallExpr:
			t.fill(n)
		}
		return true
	})
}

func (t *Tokens) pkgLevel(v *types.Var) bool {
	return v.Pkg() == t.m.Pass.Pkg && v.Parent() == v.Pkg().Scope()
}

// composite records T{field: v} as a store into field.
func (t *Tokens) composite(lit *ast.CompositeLit, fn *ast.FuncDecl) {
	tt := t.info.TypeOf(lit)
	if tt == nil {
		return
	}
	st, ok := tt.Underlying().(*types.Struct)
	if !ok {
		return
	}
	for i, el := range lit.Elts {
		if kv, ok := el.(*ast.KeyValueExpr); ok {
			if id, ok := kv.Key.(*ast.Ident); ok {
				if obj := t.info.ObjectOf(id); obj != nil {
					t.fields[obj] = append(t.fields[obj], fieldStore{val: kv.Value, fn: fn})
				}
			}
		} else if i < st.NumFields() {
			t.fields[st.Field(i)] = append(t.fields[st.Field(i)], fieldStore{val: el, fn: fn})
		}
	}
}

// fill records a buffer filled by crypto/rand or math/rand: Read(b),
// io.ReadFull(rand.Reader, b).
func (t *Tokens) fill(call *ast.CallExpr) {
	fn, _ := typeutil.Callee(t.info, call).(*types.Func)
	if fn == nil || fn.Pkg() == nil || len(call.Args) == 0 {
		return
	}
	buf := call.Args[0]
	var src TokenSource
	switch path := fn.Pkg().Path(); {
	case fn.Name() == "Read" && path == "crypto/rand":
		src = TokenSource{Origin: OriginFresh, What: "crypto/rand"}
	case fn.Name() == "Read" && isMathRand(path):
		src = TokenSource{Origin: OriginMathRand, What: path + ".Read", At: call}
	case path == "io" && (fn.Name() == "ReadFull" || fn.Name() == "ReadAtLeast") && len(call.Args) > 1:
		if r, ok := ast.Unparen(call.Args[0]).(*ast.SelectorExpr); ok {
			if v, ok := t.info.ObjectOf(r.Sel).(*types.Var); ok && v.Pkg() != nil && v.Pkg().Path() == "crypto/rand" {
				src = TokenSource{Origin: OriginFresh, What: "crypto/rand"}
			}
		}
		buf = call.Args[1]
	default:
		return
	}
	if src.Origin == OriginUnknown {
		return
	}
	if s, ok := ast.Unparen(buf).(*ast.SliceExpr); ok {
		buf = s.X
	}
	if id, ok := ast.Unparen(buf).(*ast.Ident); ok {
		if obj := t.info.ObjectOf(id); obj != nil {
			t.fills[obj] = src
		}
	}
}

func isMathRand(path string) bool { return path == "math/rand" || path == "math/rand/v2" }

// Source classifies the value c stores. It is OriginUnknown when c stores
// nothing the model can read.
func (t *Tokens) Source(c *Call) TokenSource {
	if c.Value == nil || t.m.keys == nil {
		return TokenSource{}
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

const maxTokenDepth = 8

func (t *Tokens) expr(e ast.Expr, st *tokenState, depth int) TokenSource {
	e = ast.Unparen(e)
	if depth > maxTokenDepth || st.seen[e] {
		return TokenSource{}
	}
	st.seen[e] = true
	if tv, ok := t.info.Types[e]; ok && tv.Value != nil {
		return TokenSource{Origin: OriginConstant, What: "the constant " + diag.Source(t.m.Pass.Fset, e), At: e}
	}
	switch e := e.(type) {
	case *ast.Ident:
		return t.ident(e, st, depth)
	case *ast.SelectorExpr:
		if sel := t.info.Selections[e]; sel != nil {
			if sel.Kind() == types.FieldVal {
				return t.field(e, sel, st, depth)
			}
			return TokenSource{}
		}
		// A qualified identifier: another package's variable.
		return TokenSource{}
	case *ast.BinaryExpr:
		return concat(t.expr(e.X, st, depth+1), t.expr(e.Y, st, depth+1))
	case *ast.SliceExpr:
		return t.expr(e.X, st, depth+1)
	case *ast.CallExpr:
		return t.call(e, st, depth)
	}
	return TokenSource{}
}

func (t *Tokens) ident(id *ast.Ident, st *tokenState, depth int) TokenSource {
	v, ok := t.info.ObjectOf(id).(*types.Var)
	if !ok || v.Pkg() == nil {
		return TokenSource{}
	}
	if t.pkgLevel(v) {
		if t.pkgLater[v] {
			return TokenSource{}
		}
		what := "package-level variable " + v.Name()
		if d, ok := t.pkgInit[v]; ok {
			var s TokenSource
			switch {
			case d.val != nil:
				s = t.expr(d.val, st, depth+1)
			case d.tuple != nil:
				s = t.tuple(d.tuple, d.index)
			}
			if s.Origin == OriginConstant || s.Origin == OriginProcess || s.Origin > OriginOnce {
				s.What = what + ", " + s.What
				return s
			}
		}
		return TokenSource{Origin: OriginOnce, What: what + ", set once per process", At: id}
	}
	if src, ok := t.fills[v]; ok {
		return src
	}
	if t.multi[v] {
		return TokenSource{}
	}
	d, ok := t.locals[v]
	switch {
	case !ok:
		return TokenSource{}
	case d.val != nil:
		return t.expr(d.val, st, depth+1)
	case d.tuple != nil:
		return t.tuple(d.tuple, d.index)
	}
	return TokenSource{}
}

// tuple classifies result i of a multi-value call: host, err := os.Hostname().
func (t *Tokens) tuple(call *ast.CallExpr, i int) TokenSource {
	fn, _ := typeutil.Callee(t.info, call).(*types.Func)
	if fn == nil || fn.Pkg() == nil || i != 0 {
		return TokenSource{}
	}
	switch lookup(fn) {
	case apiProcess:
		return TokenSource{Origin: OriginProcess, What: fn.Pkg().Path() + "." + fn.Name(), At: call}
	case apiFresh:
		return TokenSource{Origin: OriginFresh, What: fn.FullName()}
	}
	return TokenSource{}
}

// field classifies a field read: the values stored into it, and whether
// they are stored only where the struct is constructed.
func (t *Tokens) field(e *ast.SelectorExpr, sel *types.Selection, st *tokenState, depth int) TokenSource {
	stores := t.fields[sel.Obj()]
	if len(stores) == 0 {
		return TokenSource{}
	}
	var srcs []TokenSource
	for _, s := range stores {
		if s.val == nil {
			return TokenSource{}
		}
		inner := &tokenState{decl: s.fn, seen: st.seen}
		srcs = append(srcs, t.expr(s.val, inner, depth+1))
	}
	src := alt(srcs)
	if src.Origin.Weak() || st.handle {
		if src.Origin.Weak() {
			src.What = "field " + e.Sel.Name + ", " + src.What
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
	return TokenSource{Origin: OriginOnce, What: "field " + e.Sel.Name + ", set once in " + ctor.Name.Name, At: ctor.Name}
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

func (t *Tokens) call(call *ast.CallExpr, st *tokenState, depth int) TokenSource {
	if tv, ok := t.info.Types[call.Fun]; ok && tv.IsType() {
		return t.args(call.Args, st, depth)
	}
	fn, _ := typeutil.Callee(t.info, call).(*types.Func)
	if fn == nil || fn.Pkg() == nil {
		return TokenSource{}
	}
	path, name := fn.Pkg().Path(), fn.Name()
	recv := fn.Type().(*types.Signature).Recv()
	withRecv := func() TokenSource {
		parts := []TokenSource{t.args(call.Args, st, depth)}
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
			return TokenSource{Origin: OriginFresh, What: "crypto/rand"}
		}
		return TokenSource{Origin: OriginFresh, What: fn.FullName()}
	case a == apiMathRand, recv != nil && isMathRand(path):
		return TokenSource{Origin: OriginMathRand, What: path, At: call}
	case a == apiClock:
		return TokenSource{Origin: OriginClock, What: fn.Pkg().Name() + "." + name, At: call}
	case a == apiProcess:
		return TokenSource{Origin: OriginProcess, What: fn.Pkg().Name() + "." + name, At: call}
	case a == apiPassThrough:
		return t.args(call.Args, st, depth)
	case a == apiNameBased:
		// A name-based UUID is as unique as the name it hashes.
		if len(call.Args) == 2 {
			return t.expr(call.Args[1], st, depth+1)
		}
		return TokenSource{}
	case known && recv != nil:
		// A method of a known package's type (t.Unix(), id.String()) is
		// as unique as its receiver and arguments.
		return withRecv()
	case known:
		return TokenSource{}
	case path == "fmt" && strings.HasPrefix(name, "Sprint"),
		path == "strconv", path == "strings", path == "bytes", path == "encoding/hex",
		path == "encoding/base64", path == "encoding/base32":
		if recv != nil && recvTypeName(fn) == "Builder" {
			return TokenSource{}
		}
		if recv != nil && (path == "encoding/base64" || path == "encoding/base32") {
			// base64.StdEncoding.EncodeToString(b): the encoding is fixed.
			return t.args(call.Args, st, depth)
		}
		return withRecv()
	}
	if decl := t.funcs[fn.Origin()]; decl != nil && decl.Body != nil {
		return t.helper(decl, st, depth)
	}
	return TokenSource{}
}

// args concatenates the sources of call arguments; a multi-value call as
// the only argument (uuid.Must(uuid.NewRandom())) is its first result.
func (t *Tokens) args(args []ast.Expr, st *tokenState, depth int) TokenSource {
	if len(args) == 1 {
		if call, ok := ast.Unparen(args[0]).(*ast.CallExpr); ok {
			if tup, ok := t.info.TypeOf(call).(*types.Tuple); ok && tup.Len() > 1 {
				return t.tuple(call, 0)
			}
		}
	}
	parts := make([]TokenSource, 0, len(args))
	for _, a := range args {
		parts = append(parts, t.expr(a, st, depth+1))
	}
	return concat(parts...)
}

// helper classifies what a function of this package returns: fresh when
// its body draws from crypto/rand or a UUID generator, else the values of
// its return statements, any of which may be the token.
func (t *Tokens) helper(decl *ast.FuncDecl, st *tokenState, depth int) TokenSource {
	if st.seen[decl] {
		return TokenSource{}
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
		return TokenSource{Origin: OriginFresh, What: decl.Name.Name}
	}
	if len(rets) == 0 {
		return TokenSource{}
	}
	inner := &tokenState{decl: decl, seen: st.seen}
	srcs := make([]TokenSource, 0, len(rets))
	for _, r := range rets {
		srcs = append(srcs, t.expr(r, inner, depth+1))
	}
	src := alt(srcs)
	if src.Origin.Weak() {
		src.What += ", returned by " + decl.Name.Name
	}
	return src
}

// concat combines the parts of one value: any fresh part makes it fresh;
// otherwise it has the kind of its strongest part. An unknown part makes
// it unknown, unless a clock or math/rand part is what the value counts on
// for uniqueness: a caller's prefix (a name, a host) does not rescue
// prefix+time.Now().UnixNano()+rand.Int63(). No parts (a constant format)
// is a constant.
func concat(parts ...TokenSource) TokenSource {
	for _, p := range parts {
		if p.Origin == OriginFresh {
			return p
		}
	}
	best := TokenSource{Origin: OriginConstant, What: "a constant"}
	unknown := false
	for _, p := range parts {
		if p.Origin == OriginUnknown {
			unknown = true
			continue
		}
		if p.Origin >= best.Origin {
			best = p
		}
	}
	if unknown && best.Origin < OriginClock {
		return TokenSource{}
	}
	return best
}

// alt combines values one of which is the token: weak only when all are.
func alt(srcs []TokenSource) TokenSource {
	if len(srcs) == 0 {
		return TokenSource{}
	}
	best := srcs[0]
	for _, s := range srcs[1:] {
		if !s.Origin.Weak() || !best.Origin.Weak() {
			if s.Origin == OriginFresh && best.Origin == OriginFresh {
				continue
			}
			return TokenSource{}
		}
		if s.Origin > best.Origin {
			best = s
		}
	}
	return best
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
			if !ok || t.pkgLevel(v) || t.multi[v] {
				other = true
				return
			}
			if d, ok := t.locals[v]; ok && d.val != nil {
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
