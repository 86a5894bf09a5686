package loopbound

// What a value is known to be after an acquire succeeded or failed.

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"sort"
	"strings"

	"github.com/locklint/locklint/analyzer/lockmodel"
	"github.com/locklint/locklint/internal/typesx"
)

// outcome is what a value is known to be after an acquire succeeded or
// failed: the reading of "if ok", "if err != nil" on one side of the
// acquire.
type outcome uint8

const (
	unknown outcome = iota // independent of the acquire
	tainted                // depends on the acquire in a way not modelled
	isTrue
	isFalse
	isNil
	notNil
	// A SET reply: "OK" when it set the key, something else when NX
	// refused it.
	replyOK
	replyOther
)

// outcomes evaluates conditions along a path that starts at an acquire,
// assuming it succeeded (or failed).
type outcomes struct {
	info    *types.Info
	acquire *ast.CallExpr
	result  ast.Expr // the acquire, or the chain on its reply (SetNX(...).Val())
	// quietErr: a lost acquire leaves the error nil (the model's Miss says
	// the miss shows in the reply), so the error says nothing of it.
	quietErr bool
	// command is true for a Redis command, whose reply may say success
	// ("OK"); an acquirer says it with its bool or error, and its other
	// results (a lock handle) say nothing about it.
	command bool
	success bool
	// errored: the acquire failed with an error (Redis down, a timeout)
	// rather than finding the key taken.
	errored bool
	// tags maps a case expression of a tag switch to the tag.
	tags map[ast.Expr]ast.Expr
}

func newOutcomes(m *lockmodel.Model, call *ast.CallExpr, tags map[ast.Expr]ast.Expr, success bool) *outcomes {
	o := &outcomes{info: m.Pass.TypesInfo, acquire: call, result: call, success: success, tags: tags}
	if c := m.CallOf(call); c != nil {
		o.command = true
		o.quietErr = m.Miss(c).InReply()
		if c.Outer != nil {
			o.result = c.Outer
		}
	}
	return o
}

// newErrorOutcomes is newOutcomes for an acquire that failed with an
// error: its error is not nil, and it took nothing.
func newErrorOutcomes(m *lockmodel.Model, call *ast.CallExpr, tags map[ast.Expr]ast.Expr) *outcomes {
	o := newOutcomes(m, call, tags, false)
	o.errored = true
	return o
}

// results returns the outcome of each result of the acquire: a bool is
// true on success and false on contention; an error is nil on success,
// and on contention non-nil unless a bool says it (SetNX().Result()).
func (o *outcomes) results() []outcome {
	var ts []types.Type
	switch t := o.info.TypeOf(o.result).(type) {
	case *types.Tuple:
		for i := range t.Len() {
			ts = append(ts, t.At(i).Type())
		}
	case nil:
	default:
		ts = []types.Type{t}
	}
	hasBool, says := false, false
	for _, t := range ts {
		hasBool = hasBool || typesx.IsBool(t)
		says = says || typesx.IsBool(t) || typesx.IsError(t)
	}
	out := make([]outcome, len(ts))
	for i, t := range ts {
		switch {
		case o.errored && typesx.IsError(t):
			out[i] = notNil
		case o.errored && typesx.IsBool(t):
			out[i] = isFalse
		case o.errored && o.command && isReply(t):
			out[i] = replyOther
		case typesx.IsBool(t) && o.success:
			out[i] = isTrue
		case typesx.IsBool(t):
			out[i] = isFalse
		case typesx.IsError(t) && o.success:
			out[i] = isNil
		case typesx.IsError(t) && hasBool:
			out[i] = isNil
		case typesx.IsError(t) && !o.quietErr:
			out[i] = notNil
		case !o.command && !says && lockmodel.LockHandle(t) && o.success:
			// A helper with no bool or error says a miss with a nil lock.
			out[i] = notNil
		case !o.command && !says && lockmodel.LockHandle(t):
			out[i] = isNil
		case o.command && isReply(t) && o.success:
			out[i] = replyOK
		case o.command && isReply(t):
			out[i] = replyOther
		case o.command:
			out[i] = tainted
		default:
			out[i] = unknown
		}
	}
	return out
}

// isReply reports whether t can hold a SET reply: a string or an
// interface (redigo's Do).
func isReply(t types.Type) bool {
	switch u := t.Underlying().(type) {
	case *types.Basic:
		return u.Kind() == types.String
	case *types.Interface:
		return !typesx.IsError(t)
	}
	return false
}

type env map[types.Object]outcome

func (e env) clone() env {
	c := make(env, len(e))
	for k, v := range e {
		c[k] = v
	}
	return c
}

// key is a canonical spelling of what the path knows.
func (e env) key() string {
	var parts []string
	for obj, v := range e {
		if v != unknown {
			parts = append(parts, fmt.Sprintf("%d:%s=%d", obj.Pos(), obj.Name(), v))
		}
	}
	sort.Strings(parts)
	return strings.Join(parts, ",")
}

// value evaluates e on the assumed outcome.
func (o *outcomes) value(e ast.Expr, vars env) outcome {
	e = ast.Unparen(e)
	if e == o.result {
		if r := o.results(); len(r) == 1 {
			return r[0]
		}
		return tainted
	}
	if o.isBoolConst(e) {
		if o.info.Types[e].Value.ExactString() == "true" {
			return isTrue
		}
		return isFalse
	}
	switch e := e.(type) {
	case *ast.Ident:
		if obj := o.info.Uses[e]; obj != nil {
			return vars[obj]
		}
		return unknown
	case *ast.UnaryExpr:
		if e.Op == token.NOT {
			switch v := o.value(e.X, vars); v {
			case isTrue:
				return isFalse
			case isFalse:
				return isTrue
			case unknown:
				return unknown
			}
			return tainted
		}
	case *ast.BinaryExpr:
		switch e.Op {
		case token.LAND, token.LOR:
			x, y := o.value(e.X, vars), o.value(e.Y, vars)
			stop, other := isFalse, isTrue // && is false once one side is
			if e.Op == token.LOR {
				stop, other = isTrue, isFalse
			}
			switch {
			case x == stop || y == stop:
				return stop
			case x == other && y == other:
				return other
			case x == tainted || y == tainted || x == other || y == other:
				return tainted
			}
			return unknown
		case token.EQL, token.NEQ:
			if v, ok := o.compare(e, vars); ok {
				return v
			}
		}
	case *ast.CallExpr:
		// errors.Is(nil, target) is false.
		if fn := funcOf(o.info, e); fn != nil && fn.Pkg() != nil && fn.Pkg().Path() == "errors" && fn.Name() == "Is" && len(e.Args) == 2 {
			if o.value(e.Args[0], vars) == isNil {
				return isFalse
			}
		}
	}
	if o.depends(e, vars) {
		return tainted
	}
	return unknown
}

// compare evaluates x == nil, x != nil, x == true and x == false.
func (o *outcomes) compare(e *ast.BinaryExpr, vars env) (outcome, bool) {
	x, y := e.X, e.Y
	if o.isConst(x) {
		x, y = y, x
	}
	var v outcome
	switch {
	case o.isOK(y):
		switch o.value(x, vars) {
		case replyOK:
			v = isTrue
		case replyOther:
			v = isFalse
		default:
			return 0, false
		}
	case o.isSentinel(y):
		// A nil error is no sentinel: err == redis.ErrNil is false.
		if o.value(x, vars) != isNil {
			return 0, false
		}
		v = isFalse
	case o.isNilExpr(y):
		switch o.value(x, vars) {
		case isNil:
			v = isTrue
		case notNil:
			v = isFalse
		default:
			return 0, false
		}
	case o.isBoolConst(y):
		want := isFalse
		if o.info.Types[y].Value.String() == "true" {
			want = isTrue
		}
		switch xv := o.value(x, vars); xv {
		case isTrue, isFalse:
			v = isFalse
			if xv == want {
				v = isTrue
			}
		default:
			return 0, false
		}
	default:
		return 0, false
	}
	if e.Op == token.NEQ {
		if v == isTrue {
			v = isFalse
		} else {
			v = isTrue
		}
	}
	return v, true
}

func (o *outcomes) isNilExpr(e ast.Expr) bool {
	tv, ok := o.info.Types[e]
	return ok && tv.IsNil()
}

func (o *outcomes) isBoolConst(e ast.Expr) bool {
	tv, ok := o.info.Types[e]
	return ok && tv.Value != nil && typesx.IsBool(tv.Type)
}

func (o *outcomes) isConst(e ast.Expr) bool {
	return o.isNilExpr(e) || o.isBoolConst(e) || o.isOK(e) || o.isSentinel(e)
}

// isOK reports whether e is the constant "OK".
func (o *outcomes) isOK(e ast.Expr) bool {
	tv, ok := o.info.Types[e]
	return ok && tv.Value != nil && tv.Value.ExactString() == `"OK"`
}

// isSentinel reports whether e names a package-level error variable.
func (o *outcomes) isSentinel(e ast.Expr) bool {
	v, ok := varOf(o.info, e).(*types.Var)
	return ok && v.Pkg() != nil && v.Parent() == v.Pkg().Scope() && typesx.IsError(v.Type())
}

// depends reports whether e reads the acquire or a variable that holds
// something known about it.
func (o *outcomes) depends(e ast.Node, vars env) bool {
	return typesx.OutsideClosures(e, func(n ast.Node) (bool, bool) {
		switch n := n.(type) {
		case *ast.CallExpr:
			return n == o.acquire, false
		case *ast.Ident:
			obj := o.info.Uses[n]
			return obj != nil && vars[obj] != unknown, false
		}
		return false, false
	})
}
