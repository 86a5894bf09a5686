package lockmodel

// What a call's result is worth as a token: a known API's, what a
// formatting or encoding call is given, or what a helper returns.

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/locklint/locklint/internal/typesx"
)

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
	withRecv := func() TokenOrigin { return t.withRecv(call, recv != nil, st, depth) }
	known := knowledge[path] != nil
	switch a := lookup(fn); {
	case a == apiFresh:
		if path == "crypto/rand" {
			return origin(OriginFresh, SourcePath, "crypto/rand", nil)
		}
		return origin(OriginFresh, SourcePath, fn.FullName(), nil)
	case a == apiMathRand, recv != nil && isMathRand(path):
		return origin(OriginMathRand, SourcePath, path, call)
	case a == apiClock:
		return origin(OriginClock, SourceFunc, fn.Pkg().Name()+"."+name, call)
	case a == apiProcess:
		return origin(OriginProcess, SourceFunc, fn.Pkg().Name()+"."+name, call)
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
	if impls := t.implemented(fn); impls != nil {
		return t.implementedOrigin(impls, st, depth)
	}
	if src, ok := t.importedHelper(fn, call); ok {
		return src
	}
	return TokenOrigin{}
}

// withRecv is the origin of a call that is as unique as its arguments
// and, for a method, its receiver.
func (t *Tokens) withRecv(call *ast.CallExpr, method bool, st *tokenState, depth int) TokenOrigin {
	parts := []TokenOrigin{t.args(call.Args, st, depth)}
	if method {
		if x := recvOf(call); x != nil {
			parts = append(parts, t.expr(x, st, depth+1))
		}
	}
	return concat(parts...)
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
		src.Trail.Helper = decl.Name.Name
	}
	return src
}

// implemented returns the declarations of the implementations in the
// package of fn, a method of an interface the package declares, or nil
// when it has none or one has no body to read.
func (t *Tokens) implemented(fn *types.Func) []*ast.FuncDecl {
	if fn.Pkg() != t.m.Pass.Pkg {
		return nil
	}
	impls := t.m.implementations(fn)
	decls := make([]*ast.FuncDecl, 0, len(impls))
	for _, impl := range impls {
		decl := t.m.defs.funcs[impl.Origin()]
		if decl == nil || decl.Body == nil {
			return nil
		}
		decls = append(decls, decl)
	}
	if len(decls) == 0 {
		return nil
	}
	return decls
}

// implementedOrigin is the origin of what a call of an interface method
// returns, read through its implementations in the package (a getter of
// the field the value is kept in): one decides; several decide only when
// all are weak, or all fresh, as the return statements of one helper do.
func (t *Tokens) implementedOrigin(impls []*ast.FuncDecl, st *tokenState, depth int) TokenOrigin {
	srcs := make([]TokenOrigin, 0, len(impls))
	for _, decl := range impls {
		srcs = append(srcs, t.helper(decl, st, depth))
	}
	return alt(srcs)
}

// helperOrigin is the origin of what decl returns.
func (t *Tokens) helperOrigin(decl *ast.FuncDecl, st *tokenState, depth int) TokenOrigin {
	key := helperKey{decl, st.handle && decl.Recv != nil}
	if src, ok := st.helpers[key]; ok {
		return src
	}
	if st.seen[decl] {
		return TokenOrigin{}
	}
	st.seen[decl] = true
	src := t.helperWalk(decl, st, depth)
	st.helpers[key] = src
	return src
}

func (t *Tokens) helperWalk(decl *ast.FuncDecl, st *tokenState, depth int) TokenOrigin {
	// A method (a getter of the struct the key is read from) keeps the
	// acquire's handle; a function's value is its own.
	return t.bodyWalk(decl.Body, decl.Name.Name, st.within(decl, st.handle && decl.Recv != nil), depth)
}

// bodyWalk is the origin of what body returns, read in inner's function.
func (t *Tokens) bodyWalk(body *ast.BlockStmt, name string, inner *tokenState, depth int) TokenOrigin {
	fresh := false
	var addrs string
	var rets []ast.Expr
	stepped := map[types.Object]bool{}
	typesx.OutsideClosures(body, func(n ast.Node) (bool, bool) {
		switch n := n.(type) {
		case *ast.IncDecStmt:
			if n.Tok == token.INC {
				t.markStepped(stepped, n.X, nil)
			}
		case *ast.AssignStmt:
			if len(n.Lhs) == 1 && len(n.Rhs) == 1 && (n.Tok == token.ADD_ASSIGN || n.Tok == token.ASSIGN) {
				t.markStepped(stepped, n.Lhs[0], n.Rhs[0])
			}
		case *ast.Ident:
			if obj := t.info.Uses[n]; obj != nil && obj.Pkg() != nil {
				fresh = fresh || freshPackages[obj.Pkg().Path()]
				if fn, ok := obj.(*types.Func); ok && hostAddrFuncs[fn.FullName()] {
					addrs = fn.FullName()
				}
			}
		case *ast.ReturnStmt:
			if len(n.Results) > 0 {
				rets = append(rets, n.Results[0])
			}
		}
		return false, false
	})
	if fresh {
		return origin(OriginFresh, SourceFunc, name, nil)
	}
	if len(rets) == 0 {
		return TokenOrigin{}
	}
	srcs := make([]TokenOrigin, 0, len(rets))
	for _, r := range rets {
		srcs = append(srcs, t.expr(r, inner, depth+1))
	}
	src := alt(srcs)
	if src.Origin == OriginClock && len(stepped) > 0 && slices.ContainsFunc(rets, func(r ast.Expr) bool { return t.refersAny(r, stepped) }) {
		// A snowflake: the clock joined with a sequence the helper steps
		// on each call (and a machine id): unique per call, not per tick.
		return TokenOrigin{}
	}
	if addrs != "" && (src.Origin == OriginUnknown || src.Origin == OriginConstant) {
		// An address read off the host's interfaces (a placeholder when
		// there is none) names the host, as its name does.
		return origin(OriginProcess, SourceFunc, addrs, nil)
	}
	return src
}

// ValueFunc is a call of another lock library's option that gives it the
// function its lock values are made by (redsync.WithGenValueFunc(f)).
type ValueFunc struct {
	Call *ast.CallExpr
	Decl *ast.FuncDecl // the function the call is in, if any
}

// ValueFuncs returns the package's ValueFunc calls.
func (m *Model) ValueFuncs() []ValueFunc { return m.valueFuncs }

// ClassifyValueFunc returns the origin of the values v's function
// returns: a function literal's, or a function's of this package.
func (t *Tokens) ClassifyValueFunc(v ValueFunc) TokenOrigin {
	if t.m.keys == nil {
		return TokenOrigin{}
	}
	st := newTokenState(v.Decl, false)
	switch f := ast.Unparen(v.Call.Args[0]).(type) {
	case *ast.FuncLit:
		if v.Decl == nil {
			return TokenOrigin{}
		}
		return t.bodyWalk(f.Body, "", st, 0)
	case *ast.Ident:
		fn, _ := t.info.Uses[f].(*types.Func)
		if fn == nil {
			return TokenOrigin{}
		}
		if decl := t.m.defs.funcs[fn.Origin()]; decl != nil && decl.Body != nil {
			return t.helper(decl, st, 0)
		}
	}
	return TokenOrigin{}
}

// markStepped records in stepped the field or package variable that lhs
// names when the statement steps it: x++, x += n, or x = x + n (also
// masked, (x + 1) & mask).
func (t *Tokens) markStepped(stepped map[types.Object]bool, lhs, rhs ast.Expr) {
	var obj types.Object
	switch l := ast.Unparen(lhs).(type) {
	case *ast.SelectorExpr:
		if sel := t.info.Selections[l]; sel != nil && sel.Kind() == types.FieldVal {
			obj = sel.Obj()
		}
	case *ast.Ident:
		if v, ok := t.info.Uses[l].(*types.Var); ok && v.Pkg() != nil && v.Parent() == v.Pkg().Scope() {
			obj = v
		}
	}
	if obj == nil {
		return
	}
	if rhs != nil {
		plus := false
		ast.Inspect(rhs, func(n ast.Node) bool {
			if be, ok := n.(*ast.BinaryExpr); ok && be.Op == token.ADD && t.refersAny(be, map[types.Object]bool{obj: true}) {
				plus = true
			}
			return !plus
		})
		if !plus {
			return
		}
	}
	stepped[obj] = true
}

// refersAny reports whether e names one of objs, as a field selection or
// an identifier.
func (t *Tokens) refersAny(e ast.Node, objs map[types.Object]bool) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.SelectorExpr:
			if sel := t.info.Selections[n]; sel != nil && objs[sel.Obj()] {
				found = true
			}
		case *ast.Ident:
			if objs[t.info.Uses[n]] {
				found = true
			}
		}
		return !found
	})
	return found
}
