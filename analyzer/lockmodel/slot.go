package lockmodel

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/locklint/locklint/internal/typesx"
)

// hashSlot returns the Redis Cluster slot of key: CRC16 (XMODEM) of its
// hash tag when it has a non-empty one, of the whole key otherwise, mod
// 16384.
func hashSlot(key string) uint16 {
	if open := strings.IndexByte(key, '{'); open >= 0 {
		if end := strings.IndexByte(key[open+1:], '}'); end > 0 {
			key = key[open+1 : open+1+end]
		}
	}
	return crc16(key) % 16384
}

// crc16 is CRC-16/XMODEM, the checksum Redis Cluster hashes keys with.
func crc16(s string) uint16 {
	var c uint16
	for i := 0; i < len(s); i++ {
		c ^= uint16(s[i]) << 8
		for range 8 {
			if c&0x8000 != 0 {
				c = c<<1 ^ 0x1021
			} else {
				c <<= 1
			}
		}
	}
	return c
}

// keyPart is a piece of a key expression: constant text, or a value the
// model cannot read, identified by its KeyID.
type keyPart struct {
	lit    string
	opaque string
}

// keyShape is a key as a sequence of parts.
type keyShape []keyPart

func (s keyShape) add(p ...keyPart) keyShape {
	for _, q := range p {
		if q.opaque == "" && q.lit == "" {
			continue
		}
		if n := len(s); n > 0 && q.opaque == "" && s[n-1].opaque == "" {
			s[n-1].lit += q.lit
			continue
		}
		s = append(s, q)
	}
	return s
}

func (s keyShape) equal(t keyShape) bool {
	if len(s) != len(t) {
		return false
	}
	for i := range s {
		if s[i] != t[i] {
			return false
		}
	}
	return true
}

// literal returns the text of a shape with no opaque part.
func (s keyShape) literal() (string, bool) {
	switch len(s) {
	case 0:
		return "", true
	case 1:
		return s[0].lit, s[0].opaque == ""
	}
	return "", false
}

// shape renders a key expression into parts, following constants,
// concatenation, fmt.Sprintf with a constant format, conversions, local
// variables assigned once, struct fields stored once and one-line helper
// functions of the package (func lockKey(id string) string { return
// "lock:{" + id + "}" }), whose parameters take the caller's arguments.
func (k *keyIndex) shape(e ast.Expr, env map[types.Object]keyShape, depth int) keyShape {
	info := k.m.Pass.TypesInfo
	opaque := func() keyShape { return keyShape{{opaque: k.m.KeyID(e)}} }
	if depth > maxDepth {
		return opaque()
	}
	if s, ok := constStringOf(info, e); ok {
		return keyShape{}.add(keyPart{lit: s})
	}
	switch x := e.(type) {
	case *ast.ParenExpr:
		return k.shape(x.X, env, depth)
	case *ast.Ident:
		obj := info.ObjectOf(x)
		if s, ok := env[obj]; ok {
			return s
		}
		if d := k.definition(obj); d != nil {
			return k.shape(d, env, depth+1)
		}
	case *ast.BinaryExpr:
		if x.Op == token.ADD && typesx.IsString(info.TypeOf(x)) {
			return append(keyShape{}, k.shape(x.X, env, depth+1)...).add(k.shape(x.Y, env, depth+1)...)
		}
	case *ast.SelectorExpr:
		if sel := info.Selections[x]; sel != nil && sel.Kind() == types.FieldVal {
			if v := k.m.defs.fieldValue(sel.Obj()); v != nil {
				return k.shape(v, nil, depth+1)
			}
		}
	case *ast.CallExpr:
		if s, ok := k.callShape(x, env, depth); ok {
			return s
		}
	}
	return opaque()
}

func (k *keyIndex) callShape(call *ast.CallExpr, env map[types.Object]keyShape, depth int) (keyShape, bool) {
	info := k.m.Pass.TypesInfo
	if tv, ok := info.Types[call.Fun]; ok && tv.IsType() {
		if len(call.Args) == 1 && typesx.IsString(tv.Type) && typesx.IsString(info.TypeOf(call.Args[0])) {
			return k.shape(call.Args[0], env, depth), true
		}
		return nil, false
	}
	fn, _ := typeutil.Callee(info, call).(*types.Func)
	if fn == nil {
		return nil, false
	}
	if fn.Pkg() != nil && fn.Pkg().Path() == "fmt" && fn.Name() == "Sprintf" && len(call.Args) > 0 && !call.Ellipsis.IsValid() {
		return k.sprintfShape(call, env, depth)
	}
	_, res := k.m.defs.returned(fn)
	if res == nil || call.Ellipsis.IsValid() {
		return nil, false
	}
	sig := fn.Type().(*types.Signature)
	if sig.Variadic() || sig.Params().Len() != len(call.Args) {
		return nil, false
	}
	inner := map[types.Object]keyShape{}
	for i := range sig.Params().Len() {
		inner[sig.Params().At(i)] = k.shape(call.Args[i], env, depth+1)
	}
	return k.shape(res, inner, depth+1), true
}

// template renders s with each opaque part a "*": "lock:" + id and
// fmt.Sprintf("lock:%s", order) are both lock:*. ok is false for a shape
// without constant text, which says nothing of the key's kind.
func (s keyShape) template() (string, bool) {
	var sb strings.Builder
	lit := false
	for _, p := range s {
		if p.opaque != "" {
			sb.WriteString("*")
			continue
		}
		sb.WriteString(p.lit)
		lit = true
	}
	return sb.String(), lit
}

// sprintfShape reads fmt.Sprintf("lock:{%s}", id). %s, %v and %d print a
// string or an integer the same way, so they are one part; any other verb
// or a width makes the value opaque under its own identity.
func (k *keyIndex) sprintfShape(call *ast.CallExpr, env map[types.Object]keyShape, depth int) (keyShape, bool) {
	info := k.m.Pass.TypesInfo
	tv, ok := info.Types[call.Args[0]]
	if !ok || tv.Value == nil || tv.Value.Kind() != constant.String {
		return nil, false
	}
	format := constant.StringVal(tv.Value)
	args := call.Args[1:]
	var out keyShape
	n := 0
	for i := 0; i < len(format); i++ {
		c := format[i]
		if c != '%' {
			out = out.add(keyPart{lit: string(c)})
			continue
		}
		if i+1 >= len(format) {
			return nil, false
		}
		i++
		switch v := format[i]; v {
		case '%':
			out = out.add(keyPart{lit: "%"})
		case 's', 'v', 'd':
			if n >= len(args) {
				return nil, false
			}
			a := args[n]
			n++
			if typesx.IsString(info.TypeOf(a)) {
				out = out.add(k.shape(a, env, depth+1)...)
			} else {
				out = out.add(keyPart{opaque: k.m.KeyID(a)})
			}
		default:
			return nil, false
		}
	}
	if n != len(args) {
		return nil, false
	}
	return out, true
}

// slotInput returns the part of a key shape that Redis Cluster hashes:
// the hash tag, between the first '{' and the first '}' after it, when it
// is not empty; the whole key otherwise. Opaque parts are taken to hold
// no braces. ok is false when the shape cannot be read: a '{' whose
// closing brace may be inside an opaque part, or no constant text at all
// (a key handed in whole by a caller, who may have tagged it).
func slotInput(s keyShape) (keyShape, bool) {
	hasLit := false
	for _, p := range s {
		if p.opaque == "" {
			hasLit = true
		}
	}
	if !hasLit {
		return nil, false
	}
	for i, p := range s {
		if p.opaque != "" {
			continue
		}
		open := strings.IndexByte(p.lit, '{')
		if open < 0 {
			continue
		}
		// The tag runs from after '{' to the first '}' in what follows.
		var tag keyShape
		rest := append(keyShape{{lit: p.lit[open+1:]}}, s[i+1:]...)
		for _, q := range rest {
			if q.opaque != "" {
				tag = tag.add(q)
				continue
			}
			if end := strings.IndexByte(q.lit, '}'); end >= 0 {
				tag = tag.add(keyPart{lit: q.lit[:end]})
				if len(tag) == 0 {
					return s, true // "{}": the whole key is hashed
				}
				return tag, true
			}
			tag = tag.add(q)
		}
		return nil, false
	}
	return s, true
}

// SameSlot reports whether two key expressions hash to the same Redis
// Cluster slot. same is true when that is proven: the same hash tag, or
// constant keys whose slots are equal. known is false when either key
// cannot be read well enough to tell (see slotInput); passes stay silent
// then.
func (m *Model) SameSlot(a, b ast.Expr) (same, known bool) {
	if m.keys == nil || a == nil || b == nil {
		return false, false
	}
	ia, oka := slotInput(m.keys.shape(a, nil, 0))
	ib, okb := slotInput(m.keys.shape(b, nil, 0))
	if !oka || !okb {
		return false, false
	}
	if ia.equal(ib) {
		return true, true
	}
	la, okLa := ia.literal()
	lb, okLb := ib.literal()
	if okLa && okLb {
		// The tags are already cut out: hash what is left as is.
		return crc16(la)%16384 == crc16(lb)%16384, true
	}
	return false, true
}

// ClusterClient returns the go-redis client type of c's receiver when it
// may talk to a Redis Cluster or shard keys itself: ClusterClient,
// UniversalClient (a ClusterClient when given several addresses) or Ring.
// It is "" for *redis.Client, the other libraries (whose client types do
// not tell), and receivers the model cannot type.
// Ring is ClusterClient's answer for a *redis.Ring, which shards by the
// first key instead of by slot.
const Ring = "Ring"

func (m *Model) ClusterClient(c *Call) string {
	if c.Client != GoRedis || c.Recv == nil {
		return ""
	}
	switch n := goRedisTypeName(m.Pass.TypesInfo.TypeOf(c.Recv)); n {
	case "ClusterClient", "UniversalClient", "Ring":
		return n
	}
	return ""
}

// UntaggedDerived reports whether one of two keys is the other, handed in
// whole, with constant text added around it and no brace in that text
// (key and key + ":lock-intent", "channel:" + key): the package derives
// a companion key without a hash tag, so the two share a slot only if
// every caller happens to brace the key it passes.
func (m *Model) UntaggedDerived(a, b ast.Expr) bool {
	if m.keys == nil || a == nil || b == nil {
		return false
	}
	sa, sb := m.keys.shape(a, nil, 0), m.keys.shape(b, nil, 0)
	return derivedFrom(sa, sb) || derivedFrom(sb, sa)
}

// derivedFrom reports whether d is base, one opaque part, with brace-free
// constant text before or after it.
func derivedFrom(base, d keyShape) bool {
	if len(base) != 1 || base[0].opaque == "" || len(d) < 2 || len(d) > 3 {
		return false
	}
	seen := false
	for _, p := range d {
		switch {
		case p == base[0]:
			seen = true
		case p.opaque != "" || strings.ContainsAny(p.lit, "{}"):
			return false
		}
	}
	return seen
}

// AnyClient reports whether c's receiver is a go-redis interface
// (Cmdable, Scripter), which a Cluster client satisfies as well as a
// single node's.
func (m *Model) AnyClient(c *Call) bool {
	if c.Client != GoRedis || c.Recv == nil {
		return false
	}
	t := m.Pass.TypesInfo.TypeOf(c.Recv)
	if goRedisTypeName(t) != "" && types.IsInterface(t) {
		return true
	}
	// A struct of the package that embeds one (type Client struct{
	// redis.UniversalClient }): the method is the interface's.
	sel, ok := ast.Unparen(c.Expr.Fun).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	s := m.Pass.TypesInfo.Selections[sel]
	if s == nil || s.Kind() != types.MethodVal || len(s.Index()) < 2 {
		return false
	}
	fn, _ := s.Obj().(*types.Func)
	if fn == nil {
		return false
	}
	recv := fn.Type().(*types.Signature).Recv()
	return recv != nil && types.IsInterface(recv.Type()) && fn.Pkg() != nil && clientPaths[fn.Pkg().Path()] == GoRedis
}
