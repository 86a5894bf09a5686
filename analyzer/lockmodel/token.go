package lockmodel

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"github.com/locklint/locklint/analyzer/diag"

	"golang.org/x/tools/go/types/typeutil"
)

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
	fills    map[types.Object]TokenOrigin // buffers filled by a Read
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
		fills:    map[types.Object]TokenOrigin{},
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
	var src TokenOrigin
	switch path := fn.Pkg().Path(); {
	case fn.Name() == "Read" && path == "crypto/rand":
		src = TokenOrigin{Origin: OriginFresh, What: "crypto/rand"}
	case fn.Name() == "Read" && isMathRand(path):
		src = TokenOrigin{Origin: OriginMathRand, What: path + ".Read", At: call}
	case path == "io" && (fn.Name() == "ReadFull" || fn.Name() == "ReadAtLeast") && len(call.Args) > 1:
		if r, ok := ast.Unparen(call.Args[0]).(*ast.SelectorExpr); ok {
			if v, ok := t.info.ObjectOf(r.Sel).(*types.Var); ok && v.Pkg() != nil && v.Pkg().Path() == "crypto/rand" {
				src = TokenOrigin{Origin: OriginFresh, What: "crypto/rand"}
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

const maxTokenDepth = 8

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
	if t.pkgLevel(v) {
		if t.pkgLater[v] {
			return TokenOrigin{}
		}
		what := "package-level variable " + diag.Quote(v.Name())
		if d, ok := t.pkgInit[v]; ok {
			var s TokenOrigin
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
		return TokenOrigin{Origin: OriginOnce, What: what + ", set once per process", At: id}
	}
	if src, ok := t.fills[v]; ok {
		return src
	}
	if t.multi[v] {
		return TokenOrigin{}
	}
	d, ok := t.locals[v]
	switch {
	case !ok:
		return TokenOrigin{}
	case d.val != nil:
		return t.expr(d.val, st, depth+1)
	case d.tuple != nil:
		return t.tuple(d.tuple, d.index)
	}
	return TokenOrigin{}
}

// tuple classifies result i of a multi-value call: host, err := os.Hostname().
func (t *Tokens) tuple(call *ast.CallExpr, i int) TokenOrigin {
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
	return TokenOrigin{}
}

// field classifies a field read: the values stored into it, and whether
// they are stored only where the struct is constructed.
func (t *Tokens) field(e *ast.SelectorExpr, sel *types.Selection, st *tokenState, depth int) TokenOrigin {
	stores := t.fields[sel.Obj()]
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
	return TokenOrigin{Origin: OriginOnce, What: "field " + diag.Quote(e.Sel.Name) + ", set once in " + diag.Quote(ctor.Name.Name), At: ctor.Name}
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
		if recv != nil && recvTypeName(fn) == "Builder" {
			return TokenOrigin{}
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
	return TokenOrigin{}
}

// args concatenates the sources of call arguments; a multi-value call as
// the only argument (uuid.Must(uuid.NewRandom())) is its first result.
func (t *Tokens) args(args []ast.Expr, st *tokenState, depth int) TokenOrigin {
	if len(args) == 1 {
		if call, ok := ast.Unparen(args[0]).(*ast.CallExpr); ok {
			if tup, ok := t.info.TypeOf(call).(*types.Tuple); ok && tup.Len() > 1 {
				return t.tuple(call, 0)
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
	src := alt(srcs)
	if src.Origin.Weak() {
		src.What += ", returned by " + diag.Quote(decl.Name.Name)
	}
	return src
}
