package lua

// How a script answers: whether every way out of it returns a number, so
// that a lost acquire reaches the caller as a reply (0), never as an
// error or a nil reply (which go-redis gives as redis.Nil).

// NumberReplies reports whether every return of src returns a number
// literal, src raises no error of its own (error(), redis.error_reply,
// a {err = ...} table), and every path through its top level ends in a
// return: the last statement is one, or an if whose branches, an else
// among them, all end in one. A script that can fall off its end
// answers nil.
func NumberReplies(src string) bool {
	toks := scan(src)
	returns := 0
	for i, t := range toks {
		if t.Kind != nameTok {
			continue
		}
		switch t.Text {
		case "error", "error_reply", "err":
			return false
		case "return":
			returns++
			if i+1 >= len(toks) || toks[i+1].Kind != numberTok {
				return false
			}
		}
	}
	return returns > 0 && endsInReturn(toks, 0, len(toks))
}

// endsInReturn reports whether the block toks[i:j] ends in a return on
// every path, as NumberReplies describes.
func endsInReturn(toks []Token, i, j int) bool {
	depth := 0
	lastIf, lastEnd := -1, -1
	for k := i; k < j; k++ {
		t := toks[k]
		if t.Kind != nameTok {
			continue
		}
		switch t.Text {
		case "return":
			if depth == 0 {
				// A return ends its block in Lua: nothing follows it.
				return true
			}
		case "if":
			if depth == 0 {
				lastIf = k
			}
			depth++
		case "function", "do", "repeat":
			depth++
		case "end", "until":
			depth--
			if depth == 0 {
				lastEnd = k
			}
		}
	}
	// The block's last statement must be that if: its end is the last
	// token.
	if lastIf < 0 || lastEnd != j-1 || lastEnd < lastIf {
		return false
	}
	// Split the if's branches at its own then, elseif and else.
	depth, start, hasElse := 0, -1, false
	for k := lastIf + 1; k < lastEnd; k++ {
		t := toks[k]
		if t.Kind != nameTok {
			continue
		}
		switch t.Text {
		case "if", "function", "do", "repeat":
			depth++
		case "end", "until":
			depth--
		case "then", "else", "elseif":
			if depth != 0 {
				continue
			}
			if start >= 0 && t.Text != "then" && !endsInReturn(toks, start, k) {
				return false
			}
			if t.Text == "else" {
				hasElse = true
				start = k + 1
			} else if t.Text == "then" {
				start = k + 1
			} else {
				start = -1
			}
		}
	}
	return hasElse && start >= 0 && endsInReturn(toks, start, lastEnd)
}
