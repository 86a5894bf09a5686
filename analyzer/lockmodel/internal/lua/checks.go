package lua

// Which comparisons test a call's reply: against a token (an owner
// check), for absence, and with nil.

// checks sets CheckedAt on calls whose reply is compared: directly
// (redis.call('GET', KEYS[1]) == ARGV[1], also the other way round and
// through tostring(...)), or through a variable assigned the reply. It
// also records the comparisons of a reply itself with nil.
func checks(toks []Token, callStart, callEnd map[int]*Call) {
	byVar := map[string]*Call{}
	shut := make(map[*Call]int, len(callEnd))
	for k, c := range callEnd {
		shut[c] = k
	}
	ever := map[string]*Call{} // every variable a reply was assigned to
	// decoded are the locals that hold a reply decoded as JSON or
	// MessagePack (local lock = cjson.decode(val)): a field of one
	// compared with an argument (lock.owner == ARGV[1]) checks the owner.
	decoded := map[string]*Call{}
	for j := 0; j < len(toks); j++ {
		if isOp(toks[j], "=") {
			bindDecoded(toks, j, byVar, decoded)
			bindReply(toks, j, byVar, callStart)
			for n, c := range byVar {
				ever[n] = c
			}
			continue
		}
		if isName(toks[j], "return") {
			returned(toks, j, ever, callStart)
			continue
		}
		if toks[j].Kind == nameTok && toks[j].Text == "not" && j+1 < len(toks) {
			// not reply, or not redis.call(...)
			c, ok := callStart[j+1]
			if !ok && toks[j+1].Kind == nameTok && (j+2 >= len(toks) || !isOp(toks[j+2], "(", ".", "[", ":")) {
				c = byVar[toks[j+1].Text]
			}
			if c != nil && c.AbsentAt < 0 {
				c.AbsentAt, c.AbsentExit = j, exitIfTrue(toks, j)
			}
			continue
		}
		if !isOp(toks[j], "==", "~=") {
			continue
		}
		var c *Call
		name := ""                // the local holding the reply, when the operand is one
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
		if c == nil && j > 0 && toks[j-1].Kind == nameTok && (j < 2 || !isOp(toks[j-2], ".", ":")) {
			c = byVar[toks[j-1].Text]
			if c != nil {
				bare, not = bareBefore(toks, j-1, 0)
				name = toks[j-1].Text
			}
		}
		if c == nil && j > 0 && isOp(toks[j-1], ")") {
			c = wrappedReply(toks, j-1, byVar, callStart)
		}
		if c == nil {
			if d := decodedField(toks, j, decoded); d != nil {
				if d.CheckedAt < 0 {
					d.CheckedAt = j
				}
				continue
			}
		}
		if c != nil && j+1 < len(toks) {
			other = j + 1
		}
		if c == nil {
			// Reply on the right: skip "(" and wrappers like tostring(.
			k, parens, wrapped := j+1, 0, false
			for k+1 < len(toks) && (isOp(toks[k], "(") || (toks[k].Kind == nameTok && toks[k].Text != "redis" && isOp(toks[k+1], "("))) {
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
			} else if j+1 < len(toks) && toks[j+1].Kind == nameTok && (j+2 >= len(toks) || !isOp(toks[j+2], "(", ".", "[", ":")) {
				c = byVar[toks[j+1].Text]
				bare = bareAfter(toks, j+2, 0)
				name = toks[j+1].Text
			}
			if c != nil && j > 0 {
				other = j - 1
			}
		}
		if c == nil {
			continue
		}
		if other >= 0 && isName(toks[other], "nil") && bare && !c.RESP3 && !(name != "" && !not && testsFalse(toks, j, name)) {
			o := toks[other]
			c.NilChecks = append(c.NilChecks, NilCheck{Op: toks[j].Text, Line: toks[j].Line, Not: not, NilOff: o.Off, NilEnd: o.End})
		}
		if other >= 0 && (isName(toks[other], "nil") || isName(toks[other], "false")) && c.AbsentAt < 0 {
			c.AbsentAt = j
			if toks[j].Text == "==" && !not {
				c.AbsentExit = exitIfTrue(toks, j)
			}
		}
		if c.CheckedAt >= 0 {
			continue
		}
		if (other >= 0 && !literal(toks[other])) || passesValue(c) {
			c.CheckedAt = j
		}
	}
}

// exitIfTrue returns, when the test at toks[j] is in an if condition
// whose then-block returns, the index of the token that ends that block
// (its end, else or elseif); 0 otherwise.
func exitIfTrue(toks []Token, j int) int {
	k := j + 1
	for ; k < len(toks) && !isName(toks[k], "then"); k++ {
		if isName(toks[k], "end") || isName(toks[k], "do") || isName(toks[k], "return") {
			return 0
		}
	}
	depth, returns := 0, false
	for k++; k < len(toks); k++ {
		if toks[k].Kind != nameTok {
			continue
		}
		switch toks[k].Text {
		case "if", "for", "while", "function":
			depth++
		case "end":
			if depth == 0 {
				return exitAt(returns, k)
			}
			depth--
		case "else", "elseif":
			if depth == 0 {
				return exitAt(returns, k)
			}
		case "return":
			returns = returns || depth == 0
		}
	}
	return 0
}

func exitAt(returns bool, k int) int {
	if returns {
		return k
	}
	return 0
}

// testsFalse reports whether the condition around the comparison at op
// also tests the local name for false (name == false, false ~= name, not
// name): v == nil or v == false is dead in its nil half but does what it
// means, so the nil compare is harmless there. The condition runs from the
// keyword or assignment before op to the keyword after it.
func testsFalse(toks []Token, op int, name string) bool {
	from, to := op, op
	for from > 0 && !conditionEdge(toks[from-1]) {
		from--
	}
	for to+1 < len(toks) && !conditionEdge(toks[to+1]) {
		to++
	}
	for k := from; k <= to; k++ {
		if !isName(toks[k], name) || (k+1 < len(toks) && isOp(toks[k+1], "(", ".", "[", ":")) {
			continue
		}
		if k > 0 && isName(toks[k-1], "not") {
			return true
		}
		if k+2 < len(toks) && isOp(toks[k+1], "==", "~=") && isName(toks[k+2], "false") {
			return true
		}
		if k >= 2 && isOp(toks[k-1], "==", "~=") && isName(toks[k-2], "false") {
			return true
		}
	}
	return false
}

// conditionEdge reports whether t ends or starts a statement around a
// condition: a keyword other than and, or, not, true, false and nil, an
// assignment or a semicolon.
func conditionEdge(t Token) bool {
	switch {
	case t.Kind == nameTok:
		return keywords[t.Text] && t.Text != "and" && t.Text != "or" && t.Text != "not"
	case t.Kind == opTok:
		return t.Text == "=" || t.Text == ";"
	}
	return false
}

func isName(t Token, name string) bool { return t.Kind == nameTok && t.Text == name }

// tighter are the operators that bind tighter than == and ~= (and
// the unary ones): an operand next to one is part of a larger expression,
// not the reply itself.
var tighter = map[string]bool{
	"..": true, "+": true, "-": true, "*": true, "/": true, "//": true, "%": true, "^": true,
	"#": true, "&": true, "|": true, "~": true, "<<": true, ">>": true,
	"==": true, "~=": true, "<": true, ">": true, "<=": true, ">=": true,
}

// keywords are the names that are not values: a "(" after one opens a
// parenthesised expression, not a function call.
var keywords = map[string]bool{
	"and": true, "break": true, "do": true, "else": true, "elseif": true, "end": true, "for": true,
	"function": true, "goto": true, "if": true, "in": true, "local": true, "not": true, "or": true,
	"repeat": true, "return": true, "then": true, "until": true, "while": true,
}

// bareBefore tells whether the left operand that starts at toks[start],
// inside parens plain parentheses, is that value alone: nothing before
// it binds tighter than the comparison, and the parentheses are not a
// function call's (tonumber(v) == nil tests the number, not the reply).
// not is set when a "not" applies to it first.
func bareBefore(toks []Token, start, parens int) (bare, not bool) {
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
	case t.Kind == opTok && tighter[t.Text]:
		return false, false
	case parens > 0 && (t.Kind == stringTok || (t.Kind == nameTok && !keywords[t.Text]) || isOp(t, ")", "]", "}")):
		return false, false
	}
	return true, false
}

// bareAfter tells whether the right operand that ends just before
// toks[end], inside parens plain parentheses, is that value alone:
// the parentheses close there and nothing after binds tighter (an index,
// a field, a call, arithmetic, a concatenation).
func bareAfter(toks []Token, end, parens int) bool {
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
	if t.Kind == stringTok || isOp(t, "[", ".", ":", "(", "{") {
		return false
	}
	// Comparisons are left-associative: nil == v == x compares v first.
	return !(t.Kind == opTok && tighter[t.Text] && !comparisons[t.Text])
}

var comparisons = map[string]bool{"==": true, "~=": true, "<": true, ">": true, "<=": true, ">=": true}

// wrappedReply returns the call whose reply is the first argument of a
// function call that closes at shut: string.sub(v, 1, n) == ARGV[1] (the
// owner as a prefix of the value), tostring(v) == ARGV[1].
func wrappedReply(toks []Token, shut int, byVar map[string]*Call, callStart map[int]*Call) *Call {
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
		if toks[k-1].Kind != nameTok || k+1 >= shut {
			return nil
		}
		if c, ok := callStart[k+1]; ok {
			return c
		}
		if toks[k+1].Kind == nameTok && isOp(toks[k+2], ",", ")") {
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
func bindReply(toks []Token, eq int, byVar map[string]*Call, callStart map[int]*Call) {
	if eq == 0 || toks[eq-1].Kind != nameTok {
		return
	}
	if eq >= 2 && isOp(toks[eq-2], ".", ":") {
		return
	}
	// The names before "=", last first.
	var names []string
	for k := eq - 1; k >= 0 && toks[k].Kind == nameTok; k -= 2 {
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
		if r.Kind != nameTok || !isOp(open, "[") || idx.Kind != numberTok || !isOp(shut, "]") {
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
func literal(t Token) bool {
	switch t.Kind {
	case stringTok, numberTok:
		return true
	case nameTok:
		return t.Text == "nil" || t.Text == "true" || t.Text == "false"
	}
	return isOp(t, "-")
}

// passesValue reports whether a call passes a non-literal argument after
// its key: HEXISTS KEYS[1] ARGV[1] checks an owner whatever it is
// compared with.
func passesValue(c *Call) bool {
	for i, a := range c.Args {
		if i == 0 {
			continue
		}
		for _, t := range a {
			if t.Kind == nameTok && !literal(t) {
				return true
			}
		}
	}
	return false
}

// returned marks the calls whose reply the return statement at toks[ret]
// gives back: a call on its line, or a variable one was assigned to.
func returned(toks []Token, ret int, ever map[string]*Call, callStart map[int]*Call) {
	for k := ret + 1; k < len(toks) && toks[k].Line == toks[ret].Line; k++ {
		if isName(toks[k], "end") || isName(toks[k], "else") || isName(toks[k], "elseif") {
			return
		}
		if c, ok := callStart[k]; ok {
			c.Returned = true
			continue
		}
		if toks[k].Kind == nameTok && (k == 0 || !isOp(toks[k-1], ".", ":")) {
			if c := ever[toks[k].Text]; c != nil {
				c.Returned = true
			}
		}
	}
}

// bindDecoded tracks "local t = cjson.decode(v)" (or cmsgpack.unpack)
// where v holds a reply; any other assignment to t ends it.
func bindDecoded(toks []Token, eq int, byVar, decoded map[string]*Call) {
	if eq == 0 || toks[eq-1].Kind != nameTok || eq >= 2 && isOp(toks[eq-2], ".", ":", ",") {
		return
	}
	name := toks[eq-1].Text
	delete(decoded, name)
	if eq+6 >= len(toks) {
		return
	}
	lib, dot, fn, open, arg, shut := toks[eq+1], toks[eq+2], toks[eq+3], toks[eq+4], toks[eq+5], toks[eq+6]
	if !isOp(dot, ".") || !isOp(open, "(") || !isOp(shut, ")") || arg.Kind != nameTok {
		return
	}
	if !(isName(lib, "cjson") && isName(fn, "decode") || isName(lib, "cmsgpack") && isName(fn, "unpack")) {
		return
	}
	if c := byVar[arg.Text]; c != nil {
		decoded[name] = c
	}
}

// decodedField returns the call whose decoded reply has a field compared
// at the operator toks[j] with an operand that is no constant:
// t.owner == ARGV[1], or ARGV[1] == t.owner.
func decodedField(toks []Token, j int, decoded map[string]*Call) *Call {
	field := func(k int) *Call {
		if k < 0 || k+2 >= len(toks) || toks[k].Kind != nameTok || !isOp(toks[k+1], ".") || toks[k+2].Kind != nameTok {
			return nil
		}
		if k > 0 && isOp(toks[k-1], ".", ":") {
			return nil
		}
		return decoded[toks[k].Text]
	}
	if c := field(j - 3); c != nil && j+1 < len(toks) && !literal(toks[j+1]) {
		return c
	}
	if c := field(j + 1); c != nil && j > 0 && !literal(toks[j-1]) && !(j+4 < len(toks) && isOp(toks[j+4], ".", "[", "(")) {
		return c
	}
	return nil
}
