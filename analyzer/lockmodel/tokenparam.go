package lockmodel

// Tokens given to another package's constructor: a lock package's
// NewMutex(client, key, owner) keeps owner in the field its Lock stores,
// so the value is decided where the constructor is called.

import (
	"fmt"
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/locklint/locklint/internal/typesx"
)

// TokenParam is the fact that a constructor stores its parameter Param in
// the field (Field) that an acquire of a lock key in its package stores
// as the token, and that no other code of the package sets it. A caller
// in another package that passes a constant or a clock reading acquires
// with that value. It is plain data, like the other facts.
type TokenParam struct {
	Param int
	Field string
	// KeyParam is the parameter stored in the field the acquire's key is
	// read from, or -1; Key is the key as the acquire writes it, for
	// messages when there is no such parameter.
	KeyParam int
	Key      string
	// Handle is set when the key is made of the struct's own fields
	// (Tokens.handleKey): the struct stands for one lock.
	Handle bool
	// Module is the client package of the acquire, for the library entry.
	Module string
}

func (*TokenParam) AFact() {}

func (f *TokenParam) String() string {
	return fmt.Sprintf("stores parameter %d as the token of lock key %s (field %s)", f.Param, f.Key, f.Field)
}

// Scope of TokenParam: the constructor's package acquires, so it reaches a
// client.
func (*TokenParam) Scope() FactScope { return ClientScope }

// CtorToken is a call of another package's constructor that has a
// TokenParam fact.
type CtorToken struct {
	Call *ast.CallExpr
	Func *types.Func
	Fact TokenParam
	// decl is the function the call is in.
	decl *ast.FuncDecl
}

// Arg is the value the call gives for the token.
func (ct CtorToken) Arg() ast.Expr { return ct.Call.Args[ct.Fact.Param] }

// KeyArg is the value the call gives for the lock's key, or nil.
func (ct CtorToken) KeyArg() ast.Expr {
	if k := ct.Fact.KeyParam; k >= 0 && k < len(ct.Call.Args) {
		return ct.Call.Args[k]
	}
	return nil
}

// Library is the lock library entry for the client the constructed value
// acquires through.
func (ct CtorToken) Library() Library { return libraryOf(ct.Fact.Module) }

// CtorTokens returns the calls of other packages' constructors that keep
// a parameter as a lock's token, in source order.
func (m *Model) CtorTokens() []CtorToken { return m.ctorTokens }

// ctorCalls finds the calls of other packages' functions with a
// TokenParam fact.
func (m *Model) ctorCalls() []CtorToken {
	var out []CtorToken
	for _, cs := range m.defs.foreign {
		fn, _ := typeutil.Callee(m.Pass.TypesInfo, cs.call).(*types.Func)
		if fn == nil {
			continue
		}
		var f TokenParam
		if !m.Pass.ImportObjectFact(fn.Origin(), &f) || f.Param >= len(cs.call.Args) || cs.call.Ellipsis.IsValid() {
			continue
		}
		out = append(out, CtorToken{Call: cs.call, Func: fn, Fact: f, decl: cs.fn})
	}
	return out
}

// ClassifyArg returns the origin of the token ct's call gives, with the
// steps from the acquire's field to the constructor's parameter.
func (t *Tokens) ClassifyArg(ct CtorToken) TokenOrigin {
	st := newTokenState(ct.decl, ct.Fact.Handle)
	src := t.expr(ct.Arg(), st, 0)
	if src.Origin.Weak() {
		name := ct.Func.Type().(*types.Signature).Params().At(ct.Fact.Param).Name()
		src.Trail = src.Trail.through(Step{Kind: StepParam, Name: name}).through(Step{Kind: StepField, Name: ct.Fact.Field})
	}
	return src
}

// exportTokenParams records a TokenParam fact for each exported
// constructor whose parameter is stored, directly, in the field an
// acquire of a lock key reads its value from, when every store of that
// field is in a constructor: a field a method sets again may hold another
// value by the time the lock is taken.
func exportTokenParams(m *Model) {
	t := m.Tokens()
	done := map[*types.Func]bool{}
	for _, c := range m.Calls {
		if !c.Acquires() || c.Value == nil || m.IsTestFile(c) {
			continue
		}
		field, owner := m.fieldRead(c.Value)
		if field == nil {
			continue
		}
		ctors := m.ctorParams(field, owner)
		if len(ctors) == 0 || !m.IsLockKey(c, c.Key()) || m.Marker(c) {
			continue
		}
		keyField, _ := m.fieldRead(c.Key())
		for fn, i := range ctors {
			if done[fn] || !fn.Exported() {
				continue
			}
			done[fn] = true
			f := &TokenParam{
				Param: i, Field: field.Name(), KeyParam: -1, Key: typesx.Source(m.Pass.Fset, c.Key()),
				Handle: t.handleKey(c.Key(), c.Decl), Module: c.Module,
			}
			if keyField != nil {
				if k, ok := m.ctorParams(keyField, owner)[fn]; ok {
					f.KeyParam = k
				}
			}
			m.Pass.ExportObjectFact(fn, f)
		}
	}
}

// fieldRead returns the field e reads (x.f) and the named type it is a
// field of, or nil.
func (m *Model) fieldRead(e ast.Expr) (*types.Var, *types.Named) {
	sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
	if !ok {
		return nil, nil
	}
	s := m.Pass.TypesInfo.Selections[sel]
	if s == nil || s.Kind() != types.FieldVal {
		return nil, nil
	}
	v, _ := s.Obj().(*types.Var)
	owner := namedOf(s.Recv())
	if v == nil || owner == nil {
		return nil, nil
	}
	return v, owner
}

// ctorParams returns, when every store of field is in a constructor of
// owner, the constructors that store one of their parameters there (one
// nothing assigns again), with its index; nil otherwise.
func (m *Model) ctorParams(field *types.Var, owner *types.Named) map[*types.Func]int {
	info := m.Pass.TypesInfo
	stores := m.defs.fields[field]
	if len(stores) == 0 {
		return nil
	}
	out := map[*types.Func]int{}
	for _, s := range stores {
		if s.val == nil || s.fn == nil || !constructs(info, s.fn, owner) {
			return nil
		}
		id, ok := ast.Unparen(s.val).(*ast.Ident)
		if !ok {
			continue
		}
		v, _ := info.ObjectOf(id).(*types.Var)
		p, ok := m.defs.params[v]
		if !ok || len(m.defs.vars[v]) > 0 || p.fn != info.Defs[s.fn.Name] {
			continue
		}
		if sig := p.fn.Type().(*types.Signature); sig.Variadic() && p.index == sig.Params().Len()-1 {
			continue
		}
		out[p.fn] = p.index
	}
	return out
}
