package lockmodel

// The stores the definition index records besides assignments: writes
// into a text buffer, composite literals, and buffers filled by a random
// read.

import (
	"go/ast"
	"go/types"
	"strings"

	"golang.org/x/tools/go/types/typeutil"
)

// write records b.WriteString(v) and its kin on a local bytes.Buffer or
// strings.Builder as a store of v into b.
func (d *defIndex) write(call *ast.CallExpr, fn *ast.FuncDecl) {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok || len(call.Args) != 1 || !strings.HasPrefix(sel.Sel.Name, "Write") {
		return
	}
	id, ok := ast.Unparen(sel.X).(*ast.Ident)
	if !ok {
		return
	}
	m, ok := d.info.Uses[sel.Sel].(*types.Func)
	if !ok || !isTextBuffer(m) {
		return
	}
	if obj := d.info.ObjectOf(id); obj != nil {
		d.elems[obj] = append(d.elems[obj], fieldStore{val: call.Args[0], fn: fn})
	}
}

// isTextBuffer reports whether m is a method of bytes.Buffer or
// strings.Builder.
func isTextBuffer(m *types.Func) bool {
	if m.Pkg() == nil {
		return false
	}
	switch recvTypeName(m) {
	case "Buffer":
		return m.Pkg().Path() == "bytes"
	case "Builder":
		return m.Pkg().Path() == "strings"
	}
	return false
}

// composite records T{field: v} as a store into field.
func (d *defIndex) composite(lit *ast.CompositeLit, fn *ast.FuncDecl) {
	t := d.info.TypeOf(lit)
	if t == nil {
		return
	}
	st, ok := t.Underlying().(*types.Struct)
	if !ok {
		return
	}
	for i, el := range lit.Elts {
		if kv, ok := el.(*ast.KeyValueExpr); ok {
			if id, ok := kv.Key.(*ast.Ident); ok {
				if obj := d.info.ObjectOf(id); obj != nil {
					d.fields[obj] = append(d.fields[obj], fieldStore{val: kv.Value, fn: fn})
				}
			}
		} else if i < st.NumFields() {
			d.fields[st.Field(i)] = append(d.fields[st.Field(i)], fieldStore{val: el, fn: fn})
		}
	}
}

// fill records a buffer filled by crypto/rand or math/rand: Read(b),
// io.ReadFull(rand.Reader, b).
func (d *defIndex) fill(call *ast.CallExpr) {
	fn, _ := typeutil.Callee(d.info, call).(*types.Func)
	if fn == nil || fn.Pkg() == nil || len(call.Args) == 0 {
		return
	}
	buf := call.Args[0]
	var src TokenOrigin
	switch path := fn.Pkg().Path(); {
	case fn.Name() == "Read" && path == "crypto/rand":
		src = origin(OriginFresh, SourcePath, "crypto/rand", nil)
	case fn.Name() == "Read" && isMathRand(path):
		src = origin(OriginMathRand, SourcePath, path+".Read", call)
	case path == "runtime" && fn.Name() == "Stack":
		// "goroutine 18 [running]:": the goroutine id.
		src = origin(OriginProcess, SourceGoroutineID, "", call)
	case path == "io" && (fn.Name() == "ReadFull" || fn.Name() == "ReadAtLeast") && len(call.Args) > 1:
		if r, ok := ast.Unparen(call.Args[0]).(*ast.SelectorExpr); ok {
			if v, ok := d.info.ObjectOf(r.Sel).(*types.Var); ok && v.Pkg() != nil && v.Pkg().Path() == "crypto/rand" {
				src = origin(OriginFresh, SourcePath, "crypto/rand", nil)
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
		if obj := d.info.ObjectOf(id); obj != nil {
			d.fills[obj] = src
		}
	}
}

// share records that the field e selects may change through its address.
func (d *defIndex) share(e ast.Expr) {
	if s, ok := ast.Unparen(e).(*ast.SelectorExpr); ok {
		if sel := d.info.Selections[s]; sel != nil && sel.Kind() == types.FieldVal {
			d.shared[sel.Obj()] = true
		}
	}
}

// unset reports whether e reads a field that holds its zero value wherever
// it is read: nothing in the package stores into it or shares its address,
// and no other package can, since the field is unexported, or the struct
// it is selected from is an unexported field that is itself unset
// (s.opts.TTL, with opts never set). A field of a generic type, or one
// reached through an embedded field, is not followed.
func (d *defIndex) unset(e ast.Expr) bool {
	s, ok := ast.Unparen(e).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	sel := d.info.Selections[s]
	if sel == nil || sel.Kind() != types.FieldVal || len(sel.Index()) != 1 {
		return false
	}
	f, ok := sel.Obj().(*types.Var)
	if !ok || f.Origin() != f || f.Pkg() == nil || len(d.fields[f]) > 0 || d.shared[f] {
		return false
	}
	if f.Pkg() == d.pkg && !f.Exported() {
		return true
	}
	if isPointer(d.info.TypeOf(s.X)) {
		// A nil holder has no field to read.
		return false
	}
	return d.unset(s.X)
}
