package lua

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestScanLuaStringsAndComments(t *testing.T) {
	src := "-- comment 'not a string'\n--[==[ long\ncomment ]==]\nlocal s = [[a\nb]] .. \"q\\\"x\" .. 'y' -- tail\nreturn s"
	var got []string
	for _, tok := range scan(src) {
		got = append(got, tok.Text)
	}
	want := []string{"local", "s", "=", "a\nb", "..", `q"x`, "..", "y", "return", "s"}
	if len(got) != len(want) {
		t.Fatalf("tokens %q, want %q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("tokens %q, want %q", got, want)
		}
	}
	if last := scan(src); last[len(last)-1].Line != 6 {
		t.Errorf("last token on line %d, want 6", last[len(last)-1].Line)
	}
}

func TestLuaCallsOwnerCheck(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		checked   bool
	}{
		{"compareARGV", `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end`, true},
		{"reversed", `if ARGV[1] ~= redis.call("GET", KEYS[1]) then return 0 end`, true},
		{"viaLocal", "local v = redis.call('GET', KEYS[1])\nif v == ARGV[1] then end", true},
		{"tostring", `if tostring(redis.call('get', KEYS[1])) == ARGV[1] then end`, true},
		{"hexists", `if redis.call('hexists', KEYS[1], ARGV[2]) == 0 then return nil end`, true},
		{"constant", `if redis.call('get', KEYS[1]) == "1" then end`, false},
		{"nilCheck", `if redis.call('get', KEYS[1]) == false then end`, false},
		{"notCompared", `local v = redis.call('get', KEYS[1]) return v`, false},
		{"prefixOfLocal", "local h = redis.call('GET', KEYS[2])\nif h and string.sub(h, 1, string.len(ARGV[1])) == ARGV[1] then end", true},
		{"tostringOfLocal", "local v = redis.call('GET', KEYS[1])\nif tostring(v) == ARGV[1] then end", true},
		{"prefixConstant", "local h = redis.call('GET', KEYS[1])\nif string.sub(h, 1, 3) == 'job' then end", false},
		{"otherFirstArg", "local h = redis.call('GET', KEYS[1])\nif string.rep(ARGV[2], 2) == ARGV[1] then end", false},
		{"decodedField", "local v = redis.call('GET', KEYS[1])\nlocal lock = cjson.decode(v)\nif lock.owner == ARGV[1] then end", true},
		{"decodedFieldReversed", "local v = redis.call('GET', KEYS[1])\nlocal t = cmsgpack.unpack(v)\nif ARGV[1] ~= t.owner then return 0 end", true},
		{"decodedFieldConstant", "local v = redis.call('GET', KEYS[1])\nlocal t = cjson.decode(v)\nif t.state == 'done' then end", false},
		{"decodedOther", "local v = redis.call('GET', KEYS[1])\nlocal t = cjson.decode(ARGV[2])\nif t.owner == ARGV[1] then end", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			calls := Calls(tc.src)
			if len(calls) == 0 {
				t.Fatal("no calls")
			}
			if got := calls[0].CheckedAt >= 0; got != tc.checked {
				t.Errorf("checked = %v, want %v", got, tc.checked)
			}
		})
	}
}

func TestLuaCheckedBeforeDelete(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		checked   bool
	}{
		{"compareAndDelete", `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end`, true},
		{"otherKeyCompared", `if redis.call('get', KEYS[2]) == ARGV[1] then return redis.call('del', KEYS[1]) end`, false},
		{"comparedAfter", "redis.call('del', KEYS[1])\nif redis.call('get', KEYS[1]) == ARGV[1] then end", false},
		{"constantCompared", `if redis.call('get', KEYS[1]) == "1" then return redis.call('del', KEYS[1]) end`, false},
		{"plainDelete", `return redis.call('del', KEYS[1])`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			calls := Calls(tc.src)
			var del *Call
			for _, c := range calls {
				if c.Removes() {
					del = c
				}
			}
			if del == nil {
				t.Fatal("no delete")
			}
			if got := Checked(calls, del, 1); got != tc.checked {
				t.Errorf("Checked = %v, want %v", got, tc.checked)
			}
		})
	}
}

func TestLuaCallsKeys(t *testing.T) {
	src := "local lock_key, fence = KEYS[1], KEYS[2]\nlocal other = KEYS[1] .. ':x'\n" +
		"redis.pcall('DEL', lock_key)\nredis.call('incr', fence)\nredis.call('del', other, KEYS[3], KEYS[n])"
	calls := Calls(src)
	if len(calls) != 3 {
		t.Fatalf("%d calls, want 3", len(calls))
	}
	if c := calls[0]; c.Command != "DEL" || c.Key() != 1 || c.Names[0] != "lock_key" || c.Line != 3 {
		t.Errorf("call 0 = %+v", c)
	}
	if c := calls[1]; c.Command != "INCR" || c.Key() != 2 {
		t.Errorf("call 1 = %+v", c)
	}
	if c := calls[2]; len(c.Keys) != 3 || c.Keys[0] != 0 || c.Keys[1] != 3 || c.Keys[2] != 0 {
		t.Errorf("call 2 keys = %v, want [0 3 0]", c.Keys)
	}
}

func TestLuaCallsSetNX(t *testing.T) {
	calls := Calls(`if not redis.call("SET", KEYS[1], ARGV[1], "nx", "PX", ARGV[2]) then return 0 end`)
	if len(calls) != 1 || !calls[0].HasFlag("NX") || calls[0].HasFlag("XX") {
		t.Fatalf("calls = %+v", calls)
	}
}

// acquiresCase is a script and, for each of its calls, whether
// Acquires says it takes its key.
type acquiresCase struct {
	src  string
	want []bool
}

func checkAcquires(t *testing.T, cases []acquiresCase) {
	t.Helper()
	for _, tc := range cases {
		calls := Calls(tc.src)
		if len(calls) != len(tc.want) {
			t.Fatalf("%s: %d calls, want %d", tc.src, len(calls), len(tc.want))
		}
		for i, w := range tc.want {
			if got := Acquires(calls, i); got != w {
				t.Errorf("%s: Acquires(%d) = %v, want %v", tc.src, i, got, w)
			}
		}
	}
}

// A hash lock is taken by writing the holder's field after an EXISTS of
// the key; the same write with no EXISTS, or of another key, takes
// nothing.
func TestLuaAcquiresHashLock(t *testing.T) {
	cases := []acquiresCase{
		{`if redis.call('EXISTS', KEYS[1]) == 0 then redis.call('HINCRBY', KEYS[1], ARGV[1], 1) end`, []bool{false, true}},
		{`if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end redis.call('HSET', KEYS[1], ARGV[1], 1)`, []bool{false, true}},
		{`redis.call('HINCRBY', KEYS[1], ARGV[1], 1)`, []bool{false}},
		{`if redis.call('EXISTS', KEYS[2]) == 0 then redis.call('HSET', KEYS[1], ARGV[1], 1) end`, []bool{false, false}},
		{`if redis.call('EXISTS', KEYS[1]) == 0 then redis.call('HDEL', KEYS[1], ARGV[1]) end`, []bool{false, false}},
		// A reentrant unlock steps the hold count down, then deletes.
		{`if redis.call('EXISTS', KEYS[1]) == 0 then return -2 end if redis.call('HINCRBY', KEYS[1], ARGV[1], -1) ~= 0 then return 0 end redis.call('DEL', KEYS[1]) redis.call('PUBLISH', KEYS[2], ARGV[2])`, []bool{false, false, false, false}},
	}
	checkAcquires(t, cases)
}

// A SET after a GET of the same key whose reply is tested for nothing
// takes the key when it is free (the caller's own value often let in
// again); a SET after a GET compared only with a value is a refresh.
func TestLuaAcquiresAfterAbsentGet(t *testing.T) {
	cases := []acquiresCase{
		{`local value = redis.call('get', KEYS[1]); if value ~= false and value ~= ARGV[1] then return 0 end; if redis.call('psetex', KEYS[1], ARGV[2], ARGV[1]) then return 1 else return 0 end`, []bool{false, true}},
		{`redis.call('setex', KEYS[1], ARGV[2], ARGV[1])`, []bool{false}},
		{`local v = redis.call('get', KEYS[1]) if not v or v == ARGV[1] then return redis.call('set', KEYS[1], ARGV[1], 'PX', ARGV[2]) end return 0`, []bool{false, true}},
		{`if redis.call('GET', KEYS[1]) == false then redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2]) return 1 end return 0`, []bool{false, true}},
		{`local v = redis.call('GET', KEYS[1]) if v ~= nil and v ~= false then return 0 end redis.call('SET', KEYS[1], ARGV[1])`, []bool{false, true}},
		{`if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2]) end return 0`, []bool{false, false}},
		{`local v = redis.call('GET', KEYS[2]) if not v then redis.call('SET', KEYS[1], ARGV[1]) end`, []bool{false, false}},
		// Absent, the script returns: it sets the key only when it is
		// there (an update of a record), which takes nothing.
		{`local v = redis.call('GET', KEYS[1]) if not v then local n = redis.call('GET', KEYS[2]) return {-1, n} end redis.call('SET', KEYS[1], 'failed')`, []bool{false, false, false}},
		{`local v = redis.call('GET', KEYS[1]) if v == false then return 0 end redis.call('SETEX', KEYS[1], ARGV[2], ARGV[1])`, []bool{false, false}},
		{`local v = redis.call('GET', KEYS[1]) if not v then return 0 else redis.call('SET', KEYS[1], ARGV[1]) end`, []bool{false, false}},
		{`local v = redis.call('GET', KEYS[1]) if not v then redis.call('SET', KEYS[1], ARGV[1]) return 1 end return 0`, []bool{false, true}},
		{`local v = redis.call('GET', KEYS[1]) if not v then for i = 1, 2 do if i == 3 then return 9 end end end redis.call('SET', KEYS[1], ARGV[1])`, []bool{false, true}},
		{`redis.call('SET', KEYS[1], ARGV[1]) local v = redis.call('GET', KEYS[1]) if not v then return 0 end`, []bool{false, false}},
	}
	checkAcquires(t, cases)
}

// The lock library's own scripts are the reference forms.
func TestLuaCallsFixScripts(t *testing.T) {
	files, _ := filepath.Glob("../../../fix/lock/scripts/*.lua")
	if len(files) == 0 {
		t.Fatal("no scripts")
	}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range Calls(string(src)) {
			if (c.Command == "DEL" || c.Command == "PEXPIRE") && c.Key() == 1 {
				// release.lua and refresh.lua compare GET KEYS[1] first;
				// handoff.lua and leave.lua the first element of an MGET.
				found := false
				for _, g := range Calls(string(src)) {
					if g.ReadsOwner() && g.Key() == 1 && g.CheckedAt >= 0 && g.CheckedAt < c.At {
						found = true
					}
				}
				if !found {
					t.Errorf("%s:%d: %s KEYS[1] without an owner check", f, c.Line, c.Command)
				}
			}
		}
	}
}

// An adversarial constant (calls that never close) stays linear.
func TestLuaCallsUnclosedIsBounded(t *testing.T) {
	src := strings.Repeat("redis.call(", 20000)
	start := time.Now()
	if n := len(Calls(src)); n != maxTokens/4 {
		t.Fatalf("%d calls, want %d (the token limit)", n, maxTokens/4)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("took %v", d)
	}
}

// A reply is compared with nil when the reply itself, directly or
// through a local it was assigned to, is one operand and nil the other;
// a function of it, a part of it, or a value that is no reply is not.
func TestLuaNilChecks(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		want      string // the checks of the first call: op, "not" when negated
	}{
		{"direct", `if redis.call('GET', KEYS[1]) == nil then return 1 end`, "=="},
		{"reversed", `if nil == redis.call('GET', KEYS[1]) then return 1 end`, "=="},
		{"notEqual", `if redis.call('GET', KEYS[1]) ~= nil then return 0 end`, "~="},
		{"local", "local v = redis.call('GET', KEYS[1])\nif v == nil then return 1 end", "=="},
		{"localReversed", "local v = redis.call('GET', KEYS[1])\nif nil ~= v then return 0 end", "~="},
		{"parenthesised", `if (redis.call('GET', KEYS[1])) == nil then end`, "=="},
		{"pcall", `if redis.pcall('GET', KEYS[1]) == nil then end`, "=="},
		{"not", "local v = redis.call('GET', KEYS[1])\nif not v == nil then end", "== not"},
		{"notCall", `if not redis.call('GET', KEYS[1]) == nil then end`, "== not"},
		{"twice", "local v = redis.call('GET', KEYS[1])\nif v == nil or v ~= nil then end", "== ~="},
		{"orFalse", "local v = redis.call('GET', KEYS[1])\nif v == nil or v == false then end", ""},
		{"orNot", "local v = redis.call('GET', KEYS[1])\nif not v or v == nil then end", ""},
		{"orBooleanFalse", "local v = redis.call('GET', KEYS[1])\nif v == nil or (type(v) == 'boolean' and v == false) then end", ""},
		{"andNotFalse", "local v = redis.call('GET', KEYS[1])\nif v ~= nil and false ~= v then end", ""},
		{"falseElsewhere", "local v = redis.call('GET', KEYS[1])\nif v == false then end\nif v == nil then end", "=="},
		{"falseOfAnother", "local v = redis.call('GET', KEYS[1])\nlocal w = ARGV[1]\nif v == nil or w == false then end", "=="},
		{"mgetElement", "local r = redis.call('MGET', KEYS[1], KEYS[2])\nlocal held = r[1]\nif held == nil then end", "=="},
		{"false", `if redis.call('GET', KEYS[1]) == false then end`, ""},
		{"notV", "local v = redis.call('GET', KEYS[1])\nif not v then end", ""},
		{"argv", "local v = redis.call('GET', KEYS[1])\nif v == ARGV[1] then end", ""},
		{"tonumberArg", "redis.call('GET', KEYS[1])\nif tonumber(ARGV[1]) == nil then end", ""},
		{"tonumberReply", `if tonumber(redis.call('GET', KEYS[1])) == nil then end`, ""},
		{"tonumberReplyRight", `if nil == tonumber(redis.call('GET', KEYS[1])) then end`, ""},
		{"tonumberLocal", "local v = redis.call('GET', KEYS[1])\nif tonumber(v) == nil then end", ""},
		{"field", "local t = redis.call('HGETALL', KEYS[1])\nif t.x == nil then end", ""},
		{"pcallErr", "local r = redis.pcall('GET', KEYS[1])\nif r.err == nil then end", ""},
		{"index", "if redis.call('LRANGE', KEYS[1], 0, 0)[1] == nil then end", ""},
		{"indexRight", "if nil == redis.call('LRANGE', KEYS[1], 0, 0)[1] then end", ""},
		{"concat", "if 'x' .. redis.call('GET', KEYS[1]) == nil then end", ""},
		{"reassigned", "local v = redis.call('GET', KEYS[1])\nv = ARGV[1]\nif v == nil then end", ""},
		{"setresp", "redis.setresp(3)\nif redis.call('GET', KEYS[1]) == nil then end", ""},
		{"setrespBack", "redis.setresp(3)\nredis.setresp(2)\nif redis.call('GET', KEYS[1]) == nil then end", "=="},
		{"setrespAfter", "local v = redis.call('GET', KEYS[1])\nredis.setresp(3)\nif v == nil then end", "=="},
		{"comment", "-- if redis.call('GET', KEYS[1]) == nil\nredis.call('GET', KEYS[1])", ""},
		{"string", "local s = \"redis.call('GET', KEYS[1]) == nil\"\nredis.call('GET', KEYS[1])", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			calls := Calls(tc.src)
			if len(calls) == 0 {
				t.Fatal("no calls")
			}
			var got []string
			for _, n := range calls[0].NilChecks {
				got = append(got, n.Op)
				if n.Not {
					got = append(got, "not")
				}
				if w := tc.src[n.NilOff:n.NilEnd]; w != "nil" {
					t.Errorf("range [%d:%d] is %q, want nil", n.NilOff, n.NilEnd, w)
				}
			}
			if g := strings.Join(got, " "); g != tc.want {
				t.Errorf("nil checks %q, want %q", g, tc.want)
			}
		})
	}
}

// Every token's range is its text in the script, so that a fix can edit it.
func TestScanLuaOffsets(t *testing.T) {
	src := "local v = redis.call(\"GET\", KEYS[1]) -- c\n--[[ x ]] if v == nil then return [[a]] end"
	for _, tok := range scan(src) {
		raw := src[tok.Off:tok.End]
		switch tok.Kind {
		case stringTok:
			if !strings.Contains(raw, tok.Text) {
				t.Errorf("string %q at [%d:%d] = %q", tok.Text, tok.Off, tok.End, raw)
			}
		default:
			if raw != tok.Text {
				t.Errorf("token %q at [%d:%d] = %q", tok.Text, tok.Off, tok.End, raw)
			}
		}
	}
}

// A literal argument is one string or number: the value a script writes
// the same on every run. ARGV[1], a variable or an expression is not.
func TestLiteral(t *testing.T) {
	calls := Calls(`redis.call('SET', KEYS[1], 1, 'NX')
redis.call('SET', KEYS[1], "held", 'NX')
redis.call('SET', KEYS[1], ARGV[1], 'NX')
redis.call('SET', KEYS[1], v, 'NX')
redis.call('SET', KEYS[1], 1 + n, 'NX')`)
	want := []bool{true, true, false, false, false}
	if len(calls) != len(want) {
		t.Fatalf("%d calls, want %d", len(calls), len(want))
	}
	for i, w := range want {
		if got := Literal(calls[i].Args[1]); got != w {
			t.Errorf("call %d: Literal(%v) = %v, want %v", i, calls[i].Args[1], got, w)
		}
	}
}

// A fence steps by one; an INCRBY by an argument or by another literal
// moves a quantity.
func TestLuaFences(t *testing.T) {
	cases := []struct {
		src  string
		want bool
	}{
		{`redis.call('INCR', KEYS[2])`, true},
		{`redis.call('incrby', KEYS[2], 1)`, true},
		{`redis.call('INCRBY', KEYS[2], '1')`, true},
		{`redis.call('INCRBY', KEYS[1], ARGV[1])`, false},
		{`redis.call('INCRBY', KEYS[1], 5)`, false},
		{`redis.call('DECRBY', KEYS[1], ARGV[1])`, false},
		{`redis.call('GET', KEYS[1])`, false},
	}
	for _, tc := range cases {
		calls := Calls(tc.src)
		if len(calls) != 1 {
			t.Fatalf("%s: %d calls, want 1", tc.src, len(calls))
		}
		if got := calls[0].Fences(); got != tc.want {
			t.Errorf("%s: Fences() = %v, want %v", tc.src, got, tc.want)
		}
	}
}

// A reply is returned by the script when a return statement holds the
// call or a variable it was assigned to; a counter stepped and then
// reset, with a constant returned, is not.
func TestLuaReturned(t *testing.T) {
	for _, c := range []struct {
		src  string
		want bool
	}{
		{"if redis.call('SET', KEYS[1], ARGV[1], 'NX') then return redis.call('INCR', KEYS[2]) end return 0", true},
		{"local f = redis.call('INCR', KEYS[2])\nreturn f", true},
		{"local f = redis.call('INCR', KEYS[2])\nf = tonumber(f) + 1\nreturn {f, ARGV[1]}", true},
		{"return tonumber(redis.call('INCR', KEYS[2]))", true},
		{"local count = redis.call('INCR', KEYS[1])\nif count == 1 then\n  redis.call('PEXPIRE', KEYS[1], ARGV[1])\nend\nreturn 1", false},
		{"local count = redis.call('INCR', KEYS[1])\nif count > 5 then return 0 end\nreturn 1", false},
		{"local n = redis.call('INCR', KEYS[1])\nreturn redis.status_reply('OK')", false},
	} {
		var incr *Call
		for _, lc := range Calls(c.src) {
			if lc.Command == "INCR" {
				incr = lc
			}
		}
		if incr == nil {
			t.Fatalf("%q: no INCR", c.src)
		}
		if incr.Returned != c.want {
			t.Errorf("%q: Returned = %v, want %v", c.src, incr.Returned, c.want)
		}
	}
}

func TestNumberReplies(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want bool
	}{
		{"if redis.call('GET', KEYS[1]) == false then redis.call('SET', KEYS[1], ARGV[1]) return 1 end return 0", true},
		{"local v = redis.call('GET', KEYS[1])\nif v == false then\n return 1\nelseif v == ARGV[1] then\n return 1\nelse\n return 0\nend", true},
		{"if redis.call('SETNX', KEYS[1], ARGV[1]) == 1 then return 1 end", false},                           // falls off: nil
		{"if redis.call('GET', KEYS[1]) == false then return 1 elseif x then return 2 end", false},           // no else
		{"if redis.call('GET', KEYS[1]) == false then return 1 end return nil", false},                       // nil
		{"if redis.call('GET', KEYS[1]) == false then return 1 end return redis.error_reply('busy')", false}, // an error
		{"return redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2])", false},                           // OK or nil
		{"for i = 1, 3 do if x then return 1 end end return 0", true},
		{"if a then if b then return 1 else return 2 end else return 0 end", true},
		{"if a then if b then return 1 end else return 0 end", false},
		{"", false},
	} {
		if got := NumberReplies(tc.src); got != tc.want {
			t.Errorf("NumberReplies(%q) = %v, want %v", tc.src, got, tc.want)
		}
	}
}
