package lua

// The calls: each redis.call and redis.pcall, its command and arguments,
// and the KEYS they name, directly or through a variable.

import (
	"strconv"
	"strings"
)

// Call is one redis.call or redis.pcall in a script.
type Call struct {
	// Command is the upper-cased command name when it is a string
	// literal, "" otherwise.
	Command string
	Line    int
	// At is the index of the call's first token: calls and checks are
	// ordered by it.
	At int
	// Args are the arguments after the command name.
	Args [][]Token
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
	// AbsentExit is, when that first test asks whether the reply is
	// absent (not reply, reply == false) and the block it guards
	// returns, the token index where that block ends: past it, the script
	// runs only when the key is there. 0 otherwise.
	AbsentExit int
	// RESP3 is set when the script switched the replies of its calls to
	// RESP3 before this one (redis.setresp(3), or with a protocol that is
	// not the constant 2): a null reply is then Lua nil, not false.
	RESP3 bool
	// NilChecks are the comparisons of the reply itself, not of a part
	// of it or of a function of it, with nil, in source order.
	NilChecks []NilCheck
	// Returned is set when the script returns the reply: a return
	// statement on one line holds the call, or a variable it was ever
	// assigned to (return f, return {f, v}, return tonumber(f)).
	Returned bool
}

// NilCheck is one comparison of a call's reply with nil:
// redis.call('GET', KEYS[1]) == nil, nil ~= v after local v = redis.call(...).
type NilCheck struct {
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
func (c *Call) Key() int {
	if len(c.Keys) == 0 {
		return 0
	}
	return c.Keys[0]
}

// HasFlag reports whether a literal argument after the key is flag,
// case-insensitively (SET key v NX PX ms).
func (c *Call) HasFlag(flag string) bool {
	for i, a := range c.Args {
		if i > 0 && len(a) == 1 && a[0].Kind == stringTok && strings.EqualFold(a[0].Text, flag) {
			return true
		}
	}
	return false
}

// Calls finds the redis.call and redis.pcall invocations of a script,
// in source order, with the KEYS each argument names and the comparisons
// of their replies.
func Calls(src string) []*Call {
	toks := scan(src)
	var calls []*Call
	callEnd := map[int]*Call{}   // index of the closing paren -> call
	callStart := map[int]*Call{} // index of "redis" -> call
	alias := map[string]int{}    // variable -> KEYS index
	resp3 := false
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		if t.Kind == opTok && t.Text == "=" {
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
		c := &Call{Line: t.Line, At: i, CheckedAt: -1, AbsentAt: -1, RESP3: resp3}
		args, end := callArgs(toks, i+3)
		if len(args) > 0 {
			if a := args[0]; len(a) == 1 && a[0].Kind == stringTok {
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
func setResp(toks []Token, i int) (string, bool) {
	if i+4 >= len(toks) || toks[i].Kind != nameTok || toks[i].Text != "redis" || (i > 0 && isOp(toks[i-1], ".", ":")) {
		return "", false
	}
	if !isOp(toks[i+1], ".") || toks[i+2].Kind != nameTok || toks[i+2].Text != "setresp" || !isOp(toks[i+3], "(") {
		return "", false
	}
	if i+5 < len(toks) && toks[i+4].Kind == numberTok && isOp(toks[i+5], ")") {
		return toks[i+4].Text, true
	}
	return "", true
}

func isRedisCall(toks []Token, i int) bool {
	if i+3 >= len(toks) || toks[i].Kind != nameTok || toks[i].Text != "redis" || (i > 0 && isOp(toks[i-1], ".", ":")) {
		return false
	}
	return isOp(toks[i+1], ".") && toks[i+2].Kind == nameTok && (toks[i+2].Text == "call" || toks[i+2].Text == "pcall") && isOp(toks[i+3], "(")
}

func isOp(t Token, ops ...string) bool {
	if t.Kind != opTok {
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
func callArgs(toks []Token, open int) ([][]Token, int) {
	var args [][]Token
	depth := 0
	start := open + 1
	// Arguments are a few tokens; an unclosed call must not make every
	// later call rescan the rest of the script.
	limit := min(len(toks), open+1+maxArgTokens)
	for j := open + 1; j < limit; j++ {
		t := toks[j]
		if t.Kind != opTok {
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
func keyOf(a []Token, alias map[string]int) (int, string) {
	if n := keysIndex(a); n > 0 && len(a) == 4 {
		return n, ""
	}
	if len(a) == 1 && a[0].Kind == nameTok {
		if n, ok := alias[a[0].Text]; ok {
			return n, a[0].Text
		}
	}
	return 0, ""
}

// keysIndex returns n when a starts with KEYS[n] for a constant n >= 1.
func keysIndex(a []Token) int { return TableIndex(a, "KEYS") }

// TableIndex returns n when the tokens are table[n] with a constant n >= 1,
// or 0.
func TableIndex(a []Token, table string) int {
	if len(a) < 4 || a[0].Kind != nameTok || a[0].Text != table || !isOp(a[1], "[") || a[2].Kind != numberTok || !isOp(a[3], "]") {
		return 0
	}
	n, err := strconv.Atoi(a[2].Text)
	if err != nil || n < 1 {
		return 0
	}
	return n
}

// Literal reports whether a is one string or number literal: a value the
// script writes the same on every run.
func Literal(a []Token) bool {
	return len(a) == 1 && (a[0].Kind == stringTok || a[0].Kind == numberTok)
}

// maxAssignNames bounds the walk back over "a, b, c =".
const maxAssignNames = 32

// assign records the variables an assignment at toks[eq] ("=") binds to
// KEYS[n] as aliases of that key; any other binding forgets the alias.
// Scopes are ignored: a script reuses a name for another key rarely
// enough, and then the alias is only lost, never wrong for long.
func assign(toks []Token, eq int, alias map[string]int) {
	var names []string
	for j := eq - 1; j >= 0 && len(names) < maxAssignNames; j -= 2 {
		if toks[j].Kind != nameTok {
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
		if j < len(toks) && toks[j].Kind == opTok && !isOp(toks[j], ",", ";") {
			return // KEYS[1] .. ":suffix" is another key
		}
		alias[n] = k
		if j >= len(toks) || !isOp(toks[j], ",") {
			return
		}
		j++
	}
}
