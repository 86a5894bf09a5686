package lua

// The scanner: a script's text as tokens, tolerant of anything a Go
// constant may hold.

import (
	"strings"
)

// kind is the kind of a Lua token.
type kind uint8

// Lua token kinds. The scanner keeps what the lock rules need and nothing
// more: comments and whitespace are dropped, keywords are names.
const (
	nameTok kind = iota + 1
	numberTok
	stringTok
	opTok
)

// Token is one token of a Lua script.
type Token struct {
	Kind kind
	// Text is the name, number or operator as written, or a string's
	// contents with escapes reduced to the escaped character.
	Text string
	Line int // 1-based
	// Off and End are the token's byte range in the script, so that a
	// finding can point into the text and a fix can edit it.
	Off, End int
}

// maxTokens bounds the work on one script: real scripts have a few
// hundred tokens, and a constant that large is not a lock script.
const maxTokens = 1 << 16

// scan splits src into tokens. It is tolerant rather than exact: an
// unterminated string or comment runs to the end of its line or of the
// input, an unknown byte is a one-byte operator, and it never fails.
func scan(src string) []Token {
	var toks []Token
	line := 1
	i := 0
	for i < len(src) && len(toks) < maxTokens {
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
			toks = append(toks, Token{Kind: stringTok, Text: text, Line: start, Off: i, End: end})
			i = end
		case c == '[':
			if lvl, ok := longOpen(src, i); ok {
				body, end := longBody(src, i, lvl)
				toks = append(toks, Token{Kind: stringTok, Text: strings.TrimPrefix(body, "\n"), Line: line, Off: i, End: end})
				line += strings.Count(body, "\n")
				i = end
				continue
			}
			toks = append(toks, Token{Kind: opTok, Text: "[", Line: line, Off: i, End: i + 1})
			i++
		case isNameStart(c):
			j := i + 1
			for j < len(src) && (isNameStart(src[j]) || isDigit(src[j])) {
				j++
			}
			toks = append(toks, Token{Kind: nameTok, Text: src[i:j], Line: line, Off: i, End: j})
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
			toks = append(toks, Token{Kind: numberTok, Text: src[i:j], Line: line, Off: i, End: j})
			i = j
		default:
			n := 1
			for _, op := range []string{"...", "==", "~=", "<=", ">=", "..", "::", "//", "<<", ">>"} {
				if strings.HasPrefix(src[i:], op) {
					n = len(op)
					break
				}
			}
			toks = append(toks, Token{Kind: opTok, Text: src[i : i+n], Line: line, Off: i, End: i + n})
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
