package lua

import (
	"strings"
	"testing"
)

// FuzzLuaCalls feeds arbitrary text to the scanner and call finder: a
// constant in the analyzed code may be any string, so neither may panic,
// and every token keeps a line inside the input.
func FuzzLuaCalls(f *testing.F) {
	for _, s := range []string{
		`if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0`,
		"local k = KEYS[1]\nredis.pcall('PEXPIRE', k, ARGV[1])",
		"--[[ unterminated",
		"[==[ unterminated long string",
		`"unterminated \`,
		"redis.call(",
		"redis.call('del', KEYS[",
		"a, b, c = KEYS[1], KEYS[2]",
		"= == ~= redis . call ( ) ) ) ==",
		"1e+ 0x1p- .5 ...",
		"local v = redis.call('GET', KEYS[1]) if not v == nil or nil ~= (v) then end",
		"redis.setresp(3) redis.setresp( if redis.call('GET') == nil",
		"\xff\xfe redis.call('DEL', KEYS[99999999999999999999])",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		lines := strings.Count(src, "\n") + 1
		for _, tok := range scan(src) {
			if tok.Line < 1 || tok.Line > lines {
				t.Fatalf("token %q on line %d of %d", tok.Text, tok.Line, lines)
			}
		}
		for _, c := range Calls(src) {
			if len(c.Keys) != len(c.Args) || len(c.Names) != len(c.Args) {
				t.Fatalf("keys %v names %v for %d args", c.Keys, c.Names, len(c.Args))
			}
			for _, k := range c.Keys {
				if k < 0 {
					t.Fatalf("negative key index %d", k)
				}
			}
			for _, n := range c.NilChecks {
				if n.NilOff < 0 || n.NilEnd > len(src) || src[n.NilOff:n.NilEnd] != "nil" {
					t.Fatalf("nil check range [%d:%d] of %d bytes", n.NilOff, n.NilEnd, len(src))
				}
			}
		}
	})
}
