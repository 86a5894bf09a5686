package lockmodel

import (
	"strconv"
	"strings"
)

// luaKind is the kind of a Lua token.
type luaKind uint8

// Lua token kinds. The scanner keeps what the lock rules need and nothing
// more: comments and whitespace are dropped, keywords are names.
const (
	luaName luaKind = iota + 1
	luaNumber
	luaString
	luaOp
)

// luaToken is one token of a Lua script.
type luaToken struct {
	Kind luaKind
	// Text is the name, number or operator as written, or a string's
	// contents with escapes reduced to the escaped character.
	Text string
	Line int // 1-based
	// Off and End are the token's byte range in the script, so that a
	// finding can point into the text and a fix can edit it.
	Off, End int
}

// maxLuaTokens bounds the work on one script: real scripts have a few
// hundred tokens, and a constant that large is not a lock script.
const maxLuaTokens = 1 << 16

// scanLua splits src into tokens. It is tolerant rather than exact: an
// unterminated string or comment runs to the end of its line or of the
// input, an unknown byte is a one-byte operator, and it never fails.
func scanLua(src string) []luaToken {
	var toks []luaToken
	line := 1
	i := 0
	for i < len(src) && len(toks) < maxLuaTokens {
		c := src[i]
		switch {
		case c == '\n':
			line++
			i++
		case c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v':
			i++
		case c == '-' && strings.HasPrefix(src[i:], "--"):
			i += 2
			if lvl, ok := longOpen(src, i); ok {
				body, end := longBody(src, i, lvl)
				line += strings.Count(body, "\n")
				i = end
				continue
			}
			for i < len(src) && src[i] != '\n' {
				i++
			}
		case c == '"' || c == '\'':
			start := line
			text, end, nl := quoted(src, i)
			line += nl
			toks = append(toks, luaToken{Kind: luaString, Text: text, Line: start, Off: i, End: end})
			i = end
		case c == '[':
			if lvl, ok := longOpen(src, i); ok {
				body, end := longBody(src, i, lvl)
				toks = append(toks, luaToken{Kind: luaString, Text: strings.TrimPrefix(body, "\n"), Line: line, Off: i, End: end})
				line += strings.Count(body, "\n")
				i = end
				continue
			}
			toks = append(toks, luaToken{Kind: luaOp, Text: "[", Line: line, Off: i, End: i + 1})
			i++
		case isNameStart(c):
			j := i + 1
			for j < len(src) && (isNameStart(src[j]) || isDigit(src[j])) {
				j++
			}
			toks = append(toks, luaToken{Kind: luaName, Text: src[i:j], Line: line, Off: i, End: j})
			i = j
		case isDigit(c) || (c == '.' && i+1 < len(src) && isDigit(src[i+1])):
			j := i + 1
			for j < len(src) {
				d := src[j]
				// 1e-3, 0x1p+4: a sign right after an exponent letter.
				if (d == '+' || d == '-') && strings.IndexByte("eEpP", src[j-1]) >= 0 {
					j++
					continue
				}
				if !isDigit(d) && !isNameStart(d) && d != '.' {
					break
				}
				j++
			}
			toks = append(toks, luaToken{Kind: luaNumber, Text: src[i:j], Line: line, Off: i, End: j})
			i = j
		default:
			n := 1
			for _, op := range []string{"...", "==", "~=", "<=", ">=", "..", "::", "//", "<<", ">>"} {
				if strings.HasPrefix(src[i:], op) {
					n = len(op)
					break
				}
			}
			toks = append(toks, luaToken{Kind: luaOp, Text: src[i : i+n], Line: line, Off: i, End: i + n})
			i += n
		}
	}
	return toks
}

func isNameStart(c byte) bool {
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c >= 0x80
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// longOpen reports whether a long bracket [[, [=[, [==[ ... opens at i,
// and its level.
func longOpen(src string, i int) (int, bool) {
	if i >= len(src) || src[i] != '[' {
		return 0, false
	}
	j := i + 1
	for j < len(src) && src[j] == '=' {
		j++
	}
	if j < len(src) && src[j] == '[' {
		return j - i - 1, true
	}
	return 0, false
}

// longBody returns the contents of the long bracket opening at i and the
// offset after its close, or after the input when it is not closed.
func longBody(src string, i, level int) (string, int) {
	start := i + level + 2
	if start > len(src) {
		return "", len(src)
	}
	closer := "]" + strings.Repeat("=", level) + "]"
	end := strings.Index(src[start:], closer)
	if end < 0 {
		return src[start:], len(src)
	}
	return src[start : start+end], start + end + len(closer)
}

// quoted reads the short string opening at i. It returns the contents,
// the offset after the closing quote, and the newlines consumed (escaped
// ones; an unescaped newline ends an unterminated string).
func quoted(src string, i int) (string, int, int) {
	q := src[i]
	var sb strings.Builder
	nl := 0
	j := i + 1
	for j < len(src) {
		c := src[j]
		switch {
		case c == q:
			return sb.String(), j + 1, nl
		case c == '\n':
			return sb.String(), j, nl
		case c == '\\' && j+1 < len(src):
			if src[j+1] == '\n' {
				nl++
			}
			sb.WriteByte(src[j+1])
			j += 2
			continue
		}
		sb.WriteByte(c)
		j++
	}
	return sb.String(), j, nl
}

// LuaCall is one redis.call or redis.pcall in a script.
type LuaCall struct {
	// Command is the upper-cased command name when it is a string
	// literal, "" otherwise.
	Command string
	Line    int
	// At is the index of the call's first token: calls and checks are
	// ordered by it.
	At int
	// Args are the arguments after the command name.
	Args [][]luaToken
	// Keys holds, for each argument, the KEYS index it names (1-based),
	// directly (KEYS[2]) or through a variable assigned from one (local
	// key = KEYS[2]); 0 when it names none or the index is not constant.
	Keys []int
	// Names holds, for each argument, the variable it was named through,
	// or "".
	Names []string
	// CheckedAt is the token index of the first == or ~= comparison of the
	// call's reply that can check an owner: against a value that is not a
	// literal (ARGV[1], a variable), or a call that itself passes such a
	// value (HEXISTS KEYS[1] ARGV[1]). -1 when there is none.
	CheckedAt int
	// AbsentAt is the token index of the first test of whether the call
	// returned nothing: not reply, reply == nil or false (or ~=). A script
	// that tests a GET so tells a free key from a held one. -1 when none.
	AbsentAt int
	// RESP3 is set when the script switched the replies of its calls to
	// RESP3 before this one (redis.setresp(3), or with a protocol that is
	// not the constant 2): a null reply is then Lua nil, not false.
	RESP3 bool
	// NilChecks are the comparisons of the reply itself, not of a part
	// of it or of a function of it, with nil, in source order.
	NilChecks []LuaNilCheck
}

// LuaNilCheck is one comparison of a call's reply with nil:
// redis.call('GET', KEYS[1]) == nil, nil ~= v after local v = redis.call(...).
type LuaNilCheck struct {
	Op   string // "==" or "~="
	Line int    // the line of the operator
	// Not is set for not reply == nil, which Lua reads as
	// (not reply) == nil: the not applies first.
	Not bool
	// NilOff and NilEnd are the byte range of the nil operand in the
	// script.
	NilOff, NilEnd int
}

// Key returns the KEYS index of the first key argument, or 0.
func (c *LuaCall) Key() int {
	if len(c.Keys) == 0 {
		return 0
	}
	return c.Keys[0]
}

// HasFlag reports whether a literal argument after the key is flag,
// case-insensitively (SET key v NX PX ms).
func (c *LuaCall) HasFlag(flag string) bool {
	for i, a := range c.Args {
		if i > 0 && len(a) == 1 && a[0].Kind == luaString && strings.EqualFold(a[0].Text, flag) {
			return true
		}
	}
	return false
}

// LuaCalls finds the redis.call and redis.pcall invocations of a script,
// in source order, with the KEYS each argument names and the comparisons
// of their replies.
func LuaCalls(src string) []*LuaCall {
	toks := scanLua(src)
	var calls []*LuaCall
	callEnd := map[int]*LuaCall{}   // index of the closing paren -> call
	callStart := map[int]*LuaCall{} // index of "redis" -> call
	alias := map[string]int{}       // variable -> KEYS index
	resp3 := false
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		if t.Kind == luaOp && t.Text == "=" {
			assign(toks, i, alias)
			continue
		}
		if p, ok := setResp(toks, i); ok {
			resp3 = p != "2"
			continue
		}
		if !isRedisCall(toks, i) {
			continue
		}
		c := &LuaCall{Line: t.Line, At: i, CheckedAt: -1, AbsentAt: -1, RESP3: resp3}
		args, end := callArgs(toks, i+3)
		if len(args) > 0 {
			if a := args[0]; len(a) == 1 && a[0].Kind == luaString {
				c.Command = strings.ToUpper(strings.TrimSpace(a[0].Text))
			}
			c.Args = args[1:]
		}
		for _, a := range c.Args {
			k, name := keyOf(a, alias)
			c.Keys = append(c.Keys, k)
			c.Names = append(c.Names, name)
		}
		calls = append(calls, c)
		callStart[i] = c
		callEnd[end] = c
	}
	checks(toks, callStart, callEnd)
	return calls
}

// setResp reports whether toks[i] begins redis.setresp(p), and the
// protocol p as written when it is one number ("" otherwise).
func setResp(toks []luaToken, i int) (string, bool) {
	if i+4 >= len(toks) || toks[i].Kind != luaName || toks[i].Text != "redis" || (i > 0 && isOp(toks[i-1], ".", ":")) {
		return "", false
	}
	if !isOp(toks[i+1], ".") || toks[i+2].Kind != luaName || toks[i+2].Text != "setresp" || !isOp(toks[i+3], "(") {
		return "", false
	}
	if i+5 < len(toks) && toks[i+4].Kind == luaNumber && isOp(toks[i+5], ")") {
		return toks[i+4].Text, true
	}
	return "", true
}

func isRedisCall(toks []luaToken, i int) bool {
	if i+3 >= len(toks) || toks[i].Kind != luaName || toks[i].Text != "redis" || (i > 0 && isOp(toks[i-1], ".", ":")) {
		return false
	}
	return isOp(toks[i+1], ".") && toks[i+2].Kind == luaName && (toks[i+2].Text == "call" || toks[i+2].Text == "pcall") && isOp(toks[i+3], "(")
}

func isOp(t luaToken, ops ...string) bool {
	if t.Kind != luaOp {
		return false
	}
	for _, op := range ops {
		if t.Text == op {
			return true
		}
	}
	return false
}

// callArgs splits the arguments of the call whose "(" is at open, at
// top-level commas. It returns them and the index of the closing paren
// (len(toks) when the call is not closed within maxArgTokens).
func callArgs(toks []luaToken, open int) ([][]luaToken, int) {
	var args [][]luaToken
	depth := 0
	start := open + 1
	// Arguments are a few tokens; an unclosed call must not make every
	// later call rescan the rest of the script.
	limit := min(len(toks), open+1+maxArgTokens)
	for j := open + 1; j < limit; j++ {
		t := toks[j]
		if t.Kind != luaOp {
			continue
		}
		switch t.Text {
		case "(", "[", "{":
			depth++
		case ")", "]", "}":
			if depth == 0 {
				if j > start || len(args) > 0 {
					args = append(args, toks[start:j])
				}
				return args, j
			}
			depth--
		case ",":
			if depth == 0 {
				args = append(args, toks[start:j])
				start = j + 1
			}
		}
	}
	if start < limit {
		args = append(args, toks[start:limit])
	}
	return args, len(toks)
}

// maxArgTokens bounds the tokens read as one call's arguments.
const maxArgTokens = 1024

// keyOf returns the KEYS index an argument names: KEYS[n], or a variable
// holding KEYS[n].
func keyOf(a []luaToken, alias map[string]int) (int, string) {
	if n := keysIndex(a); n > 0 && len(a) == 4 {
		return n, ""
	}
	if len(a) == 1 && a[0].Kind == luaName {
		if n, ok := alias[a[0].Text]; ok {
			return n, a[0].Text
		}
	}
	return 0, ""
}

// keysIndex returns n when a starts with KEYS[n] for a constant n >= 1.
func keysIndex(a []luaToken) int { return tableIndex(a, "KEYS") }

// tableIndex returns n when the tokens are table[n] with a constant n >= 1,
// or 0.
func tableIndex(a []luaToken, table string) int {
	if len(a) < 4 || a[0].Kind != luaName || a[0].Text != table || !isOp(a[1], "[") || a[2].Kind != luaNumber || !isOp(a[3], "]") {
		return 0
	}
	n, err := strconv.Atoi(a[2].Text)
	if err != nil || n < 1 {
		return 0
	}
	return n
}

// maxAssignNames bounds the walk back over "a, b, c =".
const maxAssignNames = 32

// assign records the variables an assignment at toks[eq] ("=") binds to
// KEYS[n] as aliases of that key; any other binding forgets the alias.
// Scopes are ignored: a script reuses a name for another key rarely
// enough, and then the alias is only lost, never wrong for long.
func assign(toks []luaToken, eq int, alias map[string]int) {
	var names []string
	for j := eq - 1; j >= 0 && len(names) < maxAssignNames; j -= 2 {
		if toks[j].Kind != luaName {
			return // t[1] = ...: not a variable
		}
		if j > 0 && isOp(toks[j-1], ".", ":") {
			return // a.b = ...
		}
		names = append([]string{toks[j].Text}, names...)
		if j == 0 || !isOp(toks[j-1], ",") {
			break
		}
	}
	for _, n := range names {
		delete(alias, n)
	}
	// The right-hand side: KEYS[n], KEYS[m], ... as far as it goes.
	j := eq + 1
	for _, n := range names {
		k := keysIndex(toks[min(j, len(toks)):])
		if k == 0 {
			return
		}
		j += 4
		if j < len(toks) && toks[j].Kind == luaOp && !isOp(toks[j], ",", ";") {
			return // KEYS[1] .. ":suffix" is another key
		}
		alias[n] = k
		if j >= len(toks) || !isOp(toks[j], ",") {
			return
		}
		j++
	}
}

// checks sets CheckedAt on calls whose reply is compared: directly
// (redis.call('GET', KEYS[1]) == ARGV[1], also the other way round and
// through tostring(...)), or through a variable assigned the reply. It
// also records the comparisons of a reply itself with nil.
func checks(toks []luaToken, callStart, callEnd map[int]*LuaCall) {
	byVar := map[string]*LuaCall{}
	shut := make(map[*LuaCall]int, len(callEnd))
	for k, c := range callEnd {
		shut[c] = k
	}
	for j := 0; j < len(toks); j++ {
		if isOp(toks[j], "=") {
			bindReply(toks, j, byVar, callStart)
			continue
		}
		if toks[j].Kind == luaName && toks[j].Text == "not" && j+1 < len(toks) {
			// not reply, or not redis.call(...)
			c, ok := callStart[j+1]
			if !ok && toks[j+1].Kind == luaName && (j+2 >= len(toks) || !isOp(toks[j+2], "(", ".", "[", ":")) {
				c = byVar[toks[j+1].Text]
			}
			if c != nil && c.AbsentAt < 0 {
				c.AbsentAt = j
			}
			continue
		}
		if !isOp(toks[j], "==", "~=") {
			continue
		}
		var c *LuaCall
		other := -1               // the index of the other operand's token next to the operator
		bare, not := false, false // the operand is the reply itself; not reply
		// Reply on the left: walk back over closing parens to a call end.
		for k := j - 1; k >= 0 && k >= j-4; k-- {
			if oc, ok := callEnd[k]; ok {
				c = oc
				bare, not = bareBefore(toks, oc.At, j-1-k)
				break
			}
			if !isOp(toks[k], ")") {
				break
			}
		}
		if c == nil && j > 0 && toks[j-1].Kind == luaName && (j < 2 || !isOp(toks[j-2], ".", ":")) {
			c = byVar[toks[j-1].Text]
			if c != nil {
				bare, not = bareBefore(toks, j-1, 0)
			}
		}
		if c == nil && j > 0 && isOp(toks[j-1], ")") {
			c = wrappedReply(toks, j-1, byVar, callStart)
		}
		if c != nil && j+1 < len(toks) {
			other = j + 1
		}
		if c == nil {
			// Reply on the right: skip "(" and wrappers like tostring(.
			k, parens, wrapped := j+1, 0, false
			for k+1 < len(toks) && (isOp(toks[k], "(") || (toks[k].Kind == luaName && toks[k].Text != "redis" && isOp(toks[k+1], "("))) {
				if isOp(toks[k], "(") {
					k++
					parens++
				} else {
					k += 2
					wrapped = true
				}
			}
			if oc, ok := callStart[k]; ok {
				c = oc
				bare = !wrapped && bareAfter(toks, shut[oc]+1, parens)
			} else if j+1 < len(toks) && toks[j+1].Kind == luaName && (j+2 >= len(toks) || !isOp(toks[j+2], "(", ".", "[", ":")) {
				c = byVar[toks[j+1].Text]
				bare = bareAfter(toks, j+2, 0)
			}
			if c != nil && j > 0 {
				other = j - 1
			}
		}
		if c == nil {
			continue
		}
		if other >= 0 && isName(toks[other], "nil") && bare && !c.RESP3 {
			o := toks[other]
			c.NilChecks = append(c.NilChecks, LuaNilCheck{Op: toks[j].Text, Line: toks[j].Line, Not: not, NilOff: o.Off, NilEnd: o.End})
		}
		if other >= 0 && (isName(toks[other], "nil") || isName(toks[other], "false")) && c.AbsentAt < 0 {
			c.AbsentAt = j
		}
		if c.CheckedAt >= 0 {
			continue
		}
		if (other >= 0 && !literal(toks[other])) || passesValue(c) {
			c.CheckedAt = j
		}
	}
}

func isName(t luaToken, name string) bool { return t.Kind == luaName && t.Text == name }

// luaTighter are the operators that bind tighter than == and ~= (and
// the unary ones): an operand next to one is part of a larger expression,
// not the reply itself.
var luaTighter = map[string]bool{
	"..": true, "+": true, "-": true, "*": true, "/": true, "//": true, "%": true, "^": true,
	"#": true, "&": true, "|": true, "~": true, "<<": true, ">>": true,
	"==": true, "~=": true, "<": true, ">": true, "<=": true, ">=": true,
}

// luaKeywords are the names that are not values: a "(" after one opens a
// parenthesised expression, not a function call.
var luaKeywords = map[string]bool{
	"and": true, "break": true, "do": true, "else": true, "elseif": true, "end": true, "for": true,
	"function": true, "goto": true, "if": true, "in": true, "local": true, "not": true, "or": true,
	"repeat": true, "return": true, "then": true, "until": true, "while": true,
}

// bareBefore tells whether the left operand that starts at toks[start],
// inside parens plain parentheses, is that value alone: nothing before
// it binds tighter than the comparison, and the parentheses are not a
// function call's (tonumber(v) == nil tests the number, not the reply).
// not is set when a "not" applies to it first.
func bareBefore(toks []luaToken, start, parens int) (bare, not bool) {
	p := start - 1
	for range parens {
		if p < 0 || !isOp(toks[p], "(") {
			return false, false
		}
		p--
	}
	if p < 0 {
		return true, false
	}
	t := toks[p]
	switch {
	case isName(t, "not"):
		return true, true
	case t.Kind == luaOp && luaTighter[t.Text]:
		return false, false
	case parens > 0 && (t.Kind == luaString || (t.Kind == luaName && !luaKeywords[t.Text]) || isOp(t, ")", "]", "}")):
		return false, false
	}
	return true, false
}

// bareAfter tells whether the right operand that ends just before
// toks[end], inside parens plain parentheses, is that value alone:
// the parentheses close there and nothing after binds tighter (an index,
// a field, a call, arithmetic, a concatenation).
func bareAfter(toks []luaToken, end, parens int) bool {
	q := end
	for range parens {
		if q >= len(toks) || !isOp(toks[q], ")") {
			return false
		}
		q++
	}
	if q >= len(toks) {
		return true
	}
	t := toks[q]
	if t.Kind == luaString || isOp(t, "[", ".", ":", "(", "{") {
		return false
	}
	// Comparisons are left-associative: nil == v == x compares v first.
	return !(t.Kind == luaOp && luaTighter[t.Text] && !luaComparisons[t.Text])
}

var luaComparisons = map[string]bool{"==": true, "~=": true, "<": true, ">": true, "<=": true, ">=": true}

// wrappedReply returns the call whose reply is the first argument of a
// function call that closes at shut: string.sub(v, 1, n) == ARGV[1] (the
// owner as a prefix of the value), tostring(v) == ARGV[1].
func wrappedReply(toks []luaToken, shut int, byVar map[string]*LuaCall, callStart map[int]*LuaCall) *LuaCall {
	depth := 0
	for k := shut; k > 0; k-- {
		switch {
		case isOp(toks[k], ")"):
			depth++
		case isOp(toks[k], "("):
			depth--
		}
		if depth > 0 {
			continue
		}
		if toks[k-1].Kind != luaName || k+1 >= shut {
			return nil
		}
		if c, ok := callStart[k+1]; ok {
			return c
		}
		if toks[k+1].Kind == luaName && isOp(toks[k+2], ",", ")") {
			return byVar[toks[k+1].Text]
		}
		return nil
	}
	return nil
}

// bindReply tracks "local v = redis.call(...)" for checks, and the first
// element of a multi-key read: "local held, queue = r[1], r[2]" after
// "local r = redis.call('MGET', KEYS[1], KEYS[2])" makes held the read of
// KEYS[1].
func bindReply(toks []luaToken, eq int, byVar map[string]*LuaCall, callStart map[int]*LuaCall) {
	if eq == 0 || toks[eq-1].Kind != luaName {
		return
	}
	if eq >= 2 && isOp(toks[eq-2], ".", ":") {
		return
	}
	// The names before "=", last first.
	var names []string
	for k := eq - 1; k >= 0 && toks[k].Kind == luaName; k -= 2 {
		names = append([]string{toks[k].Text}, names...)
		if k < 1 || !isOp(toks[k-1], ",") {
			break
		}
	}
	for _, n := range names {
		delete(byVar, n)
	}
	if c, ok := callStart[eq+1]; ok && len(names) == 1 {
		byVar[names[0]] = c
		return
	}
	// name = r[1] or a list of them, one expression per name.
	k := eq + 1
	for i := 0; i < len(names) && k+3 < len(toks); i++ {
		r, open, idx, shut := toks[k], toks[k+1], toks[k+2], toks[k+3]
		if r.Kind != luaName || !isOp(open, "[") || idx.Kind != luaNumber || !isOp(shut, "]") {
			return
		}
		if c := byVar[r.Text]; c != nil && c.Command == "MGET" && idx.Text == "1" {
			byVar[names[i]] = c
		}
		k += 4
		if k >= len(toks) || !isOp(toks[k], ",") {
			return
		}
		k++
	}
}

// literal reports whether t is a constant operand: a string, a number,
// nil, true or false. A reply compared with a constant reads a state, not
// an owner.
func literal(t luaToken) bool {
	switch t.Kind {
	case luaString, luaNumber:
		return true
	case luaName:
		return t.Text == "nil" || t.Text == "true" || t.Text == "false"
	}
	return isOp(t, "-")
}

// passesValue reports whether a call passes a non-literal argument after
// its key: HEXISTS KEYS[1] ARGV[1] checks an owner whatever it is
// compared with.
func passesValue(c *LuaCall) bool {
	for i, a := range c.Args {
		if i == 0 {
			continue
		}
		for _, t := range a {
			if t.Kind == luaName && !literal(t) {
				return true
			}
		}
	}
	return false
}
