package lockmodel

import (
	"go/ast"
	"go/types"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/locklint/locklint/internal/typesx"
)

// evalKeys returns the key expressions of a KEYS slice argument: the
// elements of a []string{...} literal, given directly or through a local
// variable assigned once. Anything else (a slice built with append, a
// parameter) leaves the keys unknown.
func (b *builder) evalKeys(e ast.Expr) []ast.Expr {
	if e == nil {
		return nil
	}
	if lit := b.compositeOf(e); lit != nil {
		if _, ok := b.pass.TypesInfo.TypeOf(lit).Underlying().(*types.Slice); ok {
			return sliceElems(lit)
		}
	}
	return nil
}

// maxScriptHops bounds how many variables a script object is followed
// through (var s = t; var t = redis.NewScript(src)).
const maxScriptHops = 4

// scriptMaker returns the NewScript / NewLuaScript call that made the
// script object e, followed through variables assigned once (local or
// package-level) and struct fields stored exactly once.
func (b *builder) scriptMaker(e ast.Expr) (*ast.CallExpr, *types.Func) {
	info := b.pass.TypesInfo
	for range maxScriptHops {
		e = ast.Unparen(e)
		switch x := e.(type) {
		case *ast.CallExpr:
			fn, _ := typeutil.Callee(info, x).(*types.Func)
			if fn == nil || fn.Pkg() == nil || clientPaths[fn.Pkg().Path()] == 0 || fn.Type().(*types.Signature).Recv() != nil {
				return nil, nil
			}
			if !strings.HasPrefix(fn.Name(), "NewScript") && !strings.HasPrefix(fn.Name(), "NewLuaScript") {
				return nil, nil
			}
			return x, fn
		case *ast.Ident:
			e = b.m.keys.single(info.ObjectOf(x))
		case *ast.SelectorExpr:
			sel := info.Selections[x]
			if sel == nil || sel.Kind() != types.FieldVal {
				return nil, nil
			}
			e = b.m.defs.fieldValue(sel.Obj())
			if e == nil {
				return nil, nil
			}
		default:
			return nil, nil
		}
		if e == nil {
			return nil, nil
		}
	}
	return nil, nil
}

// scriptSource returns the source argument of the call that made the
// script object e, or nil.
func (b *builder) scriptSource(e ast.Expr) ast.Expr {
	call, fn := b.scriptMaker(e)
	if call == nil {
		return nil
	}
	return arg(call, params(fn), "src", "script")
}

// single returns the one value a variable is ever given: the definition of
// a local variable, or the initializer of an unexported package-level
// variable that nothing assigns again.
func (k *keyIndex) single(obj types.Object) ast.Expr {
	if d := k.definition(obj); d != nil {
		return d
	}
	v, ok := obj.(*types.Var)
	if !ok || v.IsField() || v.Exported() || v.Pkg() == nil || v.Parent() != v.Pkg().Scope() {
		return nil
	}
	return k.m.defs.value(obj)
}

// loadedScript returns the script text expression behind sha, a SHA that
// go-redis's ScriptLoad returned: through a variable given one value or a
// struct field given one value (ScriptLoad(ctx, src).Val(), or the first
// result of .Result()), the src argument. nil otherwise.
func (b *builder) loadedScript(sha ast.Expr) ast.Expr {
	info := b.pass.TypesInfo
	e := sha
	for range maxScriptHops {
		switch x := ast.Unparen(e).(type) {
		case *ast.Ident:
			obj, _ := info.ObjectOf(x).(*types.Var)
			if obj == nil {
				return nil
			}
			if d, ok := b.m.defs.only(obj); ok && d.tuple != nil && d.index == 0 {
				e = d.tuple
				continue
			}
			if e = b.m.keys.single(obj); e == nil {
				return nil
			}
		case *ast.SelectorExpr:
			sel := info.Selections[x]
			if sel == nil || sel.Kind() != types.FieldVal {
				return nil
			}
			if e = b.m.defs.fieldValue(sel.Obj()); e == nil {
				return nil
			}
		case *ast.CallExpr:
			// .Val() or .Result() of the command ScriptLoad returns.
			sel, ok := ast.Unparen(x.Fun).(*ast.SelectorExpr)
			if !ok {
				return nil
			}
			if inner, ok := ast.Unparen(sel.X).(*ast.CallExpr); ok && (sel.Sel.Name == "Val" || sel.Sel.Name == "Result") {
				x, sel = inner, nil
				if s, ok := ast.Unparen(x.Fun).(*ast.SelectorExpr); ok {
					sel = s
				}
			}
			fn, _ := typeutil.Callee(info, x).(*types.Func)
			if sel == nil || fn == nil || fn.Name() != "ScriptLoad" || fn.Pkg() == nil || clientPaths[fn.Pkg().Path()] != GoRedis {
				return nil
			}
			return arg(x, params(fn), "script")
		default:
			return nil
		}
	}
	return nil
}

// redigoScript records (*redis.Script).Do/Send/DoContext(conn,
// keysAndArgs...): the first keyCount arguments are the keys, keyCount
// being NewScript's constant first argument.
func (b *builder) redigoScript(call *ast.CallExpr, ps map[string]int, name string) *Call {
	c := &Call{Command: CmdEval, Method: name, Expr: call, Recv: arg(call, ps, "c"), Ctx: arg(call, ps, "ctx")}
	c.Queued = name == "Send"
	mk, fn := b.scriptMaker(recvOf(call))
	if mk == nil {
		return c
	}
	mps := params(fn)
	c.Script = arg(mk, mps, "src")
	n, ok := b.constInt(arg(mk, mps, "keyCount"))
	if !ok {
		return c
	}
	// With keysAndArgs..., variadic gives the elements of a literal slice.
	if args := variadic(call, ps, "keysAndArgs"); n <= len(args) {
		c.Keys, c.Args = args[:n], args[n:]
	}
	return c
}

// rueidisLua records (*rueidis.Lua).Exec(ctx, client, keys, args).
func (b *builder) rueidisLua(call *ast.CallExpr, fn *types.Func) *Call {
	if fn.Name() != "Exec" {
		return nil
	}
	ps := params(fn)
	c := &Call{Command: CmdEval, Method: fn.Name(), Expr: call, Recv: arg(call, ps, "c"), Ctx: arg(call, ps, "ctx")}
	c.Keys = b.evalKeys(arg(call, ps, "keys"))
	c.Args = b.evalKeys(arg(call, ps, "args"))
	c.Script = b.scriptSource(recvOf(call))
	return c
}

// ScriptText is the text of a Lua script the model could read.
type ScriptText struct {
	Text string
	// At is where findings inside the script are reported: the literal or
	// constant expression that holds the text, or the name of the
	// //go:embed variable.
	At ast.Node
	// File is the embedded file, as named in the //go:embed directive; ""
	// when the text is Go source.
	File string
}

// maxScriptSize bounds the embedded files read: a lock script is a few
// hundred bytes.
const maxScriptSize = 1 << 20

// ScriptText returns the Lua text of an EVAL when it is known: a constant
// (literals, named constants, concatenations of them), or a string
// variable filled by //go:embed, followed through variables given one
// value.
func (m *Model) ScriptText(c *Call) (ScriptText, bool) {
	if m.keys == nil || c.Script == nil {
		return ScriptText{}, false
	}
	return m.scriptText(c.Script, 0)
}

func (m *Model) scriptText(e ast.Expr, depth int) (ScriptText, bool) {
	info := m.Pass.TypesInfo
	if depth > maxScriptHops {
		return ScriptText{}, false
	}
	e = ast.Unparen(e)
	if s, ok := constStringOf(info, e); ok {
		at := ast.Node(e)
		// A named constant: report where its text is written.
		if id, ok := e.(*ast.Ident); ok {
			if d := m.defs.value(info.ObjectOf(id)); d != nil {
				if _, isConst := info.ObjectOf(id).(*types.Const); isConst && info.ObjectOf(id).Pkg() == m.Pass.Pkg {
					at = d
				}
			}
		}
		return ScriptText{Text: s, At: at}, true
	}
	// string(src), src being an embedded []byte.
	if call, ok := e.(*ast.CallExpr); ok && len(call.Args) == 1 {
		if tv, ok := info.Types[call.Fun]; ok && tv.IsType() && typesx.IsString(tv.Type) {
			return m.scriptText(call.Args[0], depth+1)
		}
	}
	if sel, ok := e.(*ast.SelectorExpr); ok {
		// consts.UnlockScript: a variable of another package.
		if v, ok := info.Uses[sel.Sel].(*types.Var); ok && info.Selections[sel] == nil {
			if text, ok := m.importedScript(v); ok {
				return ScriptText{Text: text, At: sel}, true
			}
		}
		return ScriptText{}, false
	}
	id, ok := e.(*ast.Ident)
	if !ok {
		return ScriptText{}, false
	}
	obj, _ := info.ObjectOf(id).(*types.Var)
	if obj == nil {
		return ScriptText{}, false
	}
	if name, file, text, ok := m.embedded(obj); ok {
		return ScriptText{Text: text, At: name, File: file}, true
	}
	if d := m.keys.single(obj); d != nil {
		return m.scriptText(d, depth+1)
	}
	return ScriptText{}, false
}

// embedded reads the file a package-level string or []byte variable is filled with
// by //go:embed. The analysis drivers let Pass.ReadFile read only the
// package's own source files, so the file is read directly, after the
// checks the go command makes of embed patterns: a relative path inside
// the package directory, one regular file.
func (m *Model) embedded(v *types.Var) (*ast.Ident, string, string, bool) {
	if v.Pkg() != m.Pass.Pkg || v.Parent() != v.Pkg().Scope() || !(typesx.IsString(v.Type()) || isBytes(v.Type())) {
		return nil, "", "", false
	}
	for _, f := range m.Pass.Files {
		for _, d := range f.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok {
				continue
			}
			for _, s := range gd.Specs {
				vs, ok := s.(*ast.ValueSpec)
				if !ok || len(vs.Names) != 1 || m.Pass.TypesInfo.Defs[vs.Names[0]] != v {
					continue
				}
				doc := vs.Doc
				if doc == nil && len(gd.Specs) == 1 {
					doc = gd.Doc
				}
				pats := embedPatterns(doc)
				if len(pats) == 0 {
					return nil, "", "", false
				}
				tf := m.Pass.Fset.File(vs.Pos())
				if tf == nil {
					return nil, "", "", false
				}
				file, text, ok := m.readEmbed(filepath.Dir(tf.Name()), pats)
				return vs.Names[0], file, text, ok
			}
		}
	}
	return nil, "", "", false
}

func isBytes(t types.Type) bool {
	s, ok := t.Underlying().(*types.Slice)
	if !ok {
		return false
	}
	b, ok := s.Elem().Underlying().(*types.Basic)
	return ok && b.Kind() == types.Byte
}

// embedPatterns returns the patterns of the //go:embed lines of doc.
func embedPatterns(doc *ast.CommentGroup) []string {
	if doc == nil {
		return nil
	}
	var out []string
	for _, c := range doc.List {
		rest, ok := strings.CutPrefix(c.Text, "//go:embed")
		if !ok || (rest != "" && rest[0] != ' ' && rest[0] != '\t') {
			continue
		}
		for rest = strings.TrimSpace(rest); rest != ""; rest = strings.TrimSpace(rest) {
			var p string
			if rest[0] == '"' || rest[0] == '`' {
				end := strings.IndexByte(rest[1:], rest[0])
				if end < 0 {
					return nil
				}
				q, err := strconv.Unquote(rest[:end+2])
				if err != nil {
					return nil
				}
				p, rest = q, rest[end+2:]
			} else {
				p, rest, _ = strings.Cut(rest, " ")
				if i := strings.IndexByte(p, '\t'); i >= 0 {
					p, rest = p[:i], p[i+1:]+" "+rest
				}
			}
			out = append(out, p)
		}
	}
	return out
}

// readEmbed reads the one file the patterns match in dir.
func (m *Model) readEmbed(dir string, pats []string) (string, string, bool) {
	var files []string
	for _, p := range pats {
		p = strings.TrimPrefix(p, "all:")
		if !fs.ValidPath(p) || strings.Contains(p, `\`) || p == "." {
			return "", "", false
		}
		matches, err := filepath.Glob(filepath.Join(dir, filepath.FromSlash(p)))
		if err != nil {
			return "", "", false
		}
		files = append(files, matches...)
	}
	if len(files) != 1 {
		return "", "", false
	}
	path := files[0]
	rel, err := filepath.Rel(dir, path)
	if err != nil || strings.HasPrefix(rel, "..") {
		return "", "", false
	}
	data, err := m.Pass.ReadFile(path)
	if err != nil {
		st, serr := os.Lstat(path)
		if serr != nil || !st.Mode().IsRegular() || st.Size() > maxScriptSize {
			return "", "", false
		}
		if data, err = os.ReadFile(path); err != nil {
			return "", "", false
		}
	}
	if len(data) > maxScriptSize {
		return "", "", false
	}
	return filepath.ToSlash(rel), string(data), true
}
