package lockmodel

// Key families: which keys are counted in a window or read as data, and
// so are no locks whatever their names say, grouped by the helper or
// skeleton that makes them.

import (
	"go/ast"
	"go/types"
	"slices"
	"strconv"
	"strings"

	"github.com/locklint/locklint/internal/typesx"
	"golang.org/x/tools/go/types/typeutil"
)

// readNotAcquired returns the identities of the keys that some GET reads
// as data and nothing acquires. A name says lock; such usage says
// otherwise: "config:next_prize_lock" read back as a setting, or the
// leader's name that followers read to find it, is a value, and its SET
// and DEL are writes of a value. A key that one function builds from its
// parameter with the package's key maker (join(lockPrefix, key)) is of
// the family that maker's keys are: a read of it in Unlock is of the lock
// that Lock takes with the same maker, not of a value.
func (m *Model) readNotAcquired() map[string]bool {
	read := map[string]bool{}
	fams := map[string]string{}
	for _, c := range m.Calls {
		// A DECR's reply is a count: the key is a counter (active
		// transactions), whatever its name.
		if (c.Read || c.Command == CmdDecr) && c.Key() != nil {
			id := m.KeyID(c.Key())
			read[id] = true
			if call := m.keyCall(c.Key()); call != nil && m.makerFunc(call) != nil {
				if f, ok := m.counterFamily(c.Key()); ok {
					fams[id] = f
				}
			}
		}
	}
	if len(read) == 0 {
		return nil
	}
	acquired := map[string]bool{}
	for _, c := range m.Calls {
		if (c.Acquires() || c.TakesFirst) && c.Key() != nil {
			delete(read, m.KeyID(c.Key()))
			if len(fams) == 0 {
				continue
			}
			if f, ok := m.counterFamily(c.Key()); ok {
				acquired[f] = true
			}
		}
	}
	for id, f := range fams {
		if acquired[f] {
			delete(read, id)
		}
	}
	return read
}

// windowedNotAcquired returns the families of the keys that some INCR
// counts in a window (Call.Window), or that a plain SET writes when a
// count reaches its limit (setOnCount), and nothing acquires: a
// lockout's "login:lock:" + user, counted in one function and cleared
// with DEL in another, is a counter, and its DEL a reset. Families, not identities:
// the count and its reset are usually apart, each with its own user.
func (m *Model) windowedNotAcquired() map[string]bool {
	var counted map[string]bool
	for _, c := range m.Calls {
		if c.Window || m.setOnCount(c) {
			for _, fam := range m.familiesAt(c, c.Key()) {
				if counted == nil {
					counted = map[string]bool{}
				}
				counted[fam] = true
			}
		}
	}
	if counted == nil {
		return nil
	}
	for _, c := range m.Calls {
		if (c.Acquires() || c.TakesFirst) && !m.setOnCount(c) {
			if fam, ok := m.counterFamily(c.Key()); ok {
				delete(counted, fam)
			}
		}
	}
	return counted
}

// setOnCount reports whether c is a plain SET under a condition on what
// an INCR of its function returned: the flag a lockout raises when the
// failures reach the limit (n >= 5), written by whoever saw that count
// and cleared by a good login. Nobody holds it. A SETNX whose reply
// nobody reads counts too: it only keeps the first lockout's TTL, and no
// taker asks whether it got the key. The SET may be a helper's
// (LockAccount) that every caller calls under such a condition, among
// the calls in this package.
func (m *Model) setOnCount(c *Call) bool {
	if c.Command != CmdSet || c.Key() == nil || c.Flags&FlagNX != 0 && (c.Queued || !m.replyUnread(c)) {
		return false
	}
	if m.underCount(FuncBody(c.Func), func(o *Call) bool { return o.Func == c.Func }, c.Expr) {
		return true
	}
	d, ok := c.Func.(*ast.FuncDecl)
	if !ok {
		return false
	}
	fn, _ := m.Pass.TypesInfo.Defs[d.Name].(*types.Func)
	if fn == nil {
		return false
	}
	// Another package may call an exported helper too; the calls in
	// sight say what the flag is for.
	sites := m.defs.onlyCalled(fn)
	if sites == nil {
		return false
	}
	for _, s := range sites {
		if s.fn == nil || !m.underCount(s.fn.Body, func(o *Call) bool { return o.Decl == s.fn }, s.call) {
			return false
		}
	}
	return true
}

// underCount reports whether e sits in the body of an if of body whose
// condition reads the reply of an INCR of the function (in).
func (m *Model) underCount(body *ast.BlockStmt, in func(*Call) bool, e ast.Expr) bool {
	if body == nil {
		return false
	}
	info := m.Pass.TypesInfo
	counts := map[types.Object]bool{}
	for _, o := range m.Calls {
		// A queued INCR's reply is read after the pipeline ran (incr.Val()).
		if o.Command != CmdIncr || !in(o) {
			continue
		}
		if as, ok := o.Stmt.(*ast.AssignStmt); ok && len(as.Lhs) > 0 {
			if id, ok := as.Lhs[0].(*ast.Ident); ok && id.Name != "_" {
				counts[info.ObjectOf(id)] = true
			}
		}
	}
	if len(counts) == 0 {
		return false
	}
	return typesx.OutsideClosures(body, func(n ast.Node) (bool, bool) {
		ifs, ok := n.(*ast.IfStmt)
		if !ok || !contains(ifs.Body, e) {
			return false, false
		}
		for obj := range counts {
			if typesx.Refers(info, ifs.Cond, obj) {
				return true, false
			}
		}
		return false, false
	})
}

// recordsNotAcquired returns the families of the keys that the package
// reads back as data (a GET or GETDEL whose value is used, not compared,
// or a script that returns what it read, consumedKeys)
// and that nothing takes, compares or runs a script on: a "rate lock"
// record stored under lock:quote:<id> and consumed with its quote, a
// gauge of active transactions read for a status page, whatever their
// names say.
// Families, not identities: the write and the read are usually apart,
// each with its own id.
func (m *Model) recordsNotAcquired() map[string]bool {
	var used map[string]bool
	consumed := map[*Call]bool{}
	for _, c := range m.Calls {
		keys := []ast.Expr{c.Key()}
		if c.Command == CmdEval {
			keys = m.consumedKeys(c)
			consumed[c] = len(keys) > 0
		}
		if !c.Read && !consumed[c] {
			continue
		}
		for _, k := range keys {
			if fam, ok := m.counterFamily(k); ok {
				if used == nil {
					used = map[string]bool{}
				}
				used[fam] = true
			}
		}
	}
	if used == nil {
		return nil
	}
	for _, c := range m.Calls {
		if consumed[c] {
			continue
		}
		if c.Acquires() || c.TakesFirst || c.Compared || c.Command == CmdEval || c.Command == CmdDelEx || c.Flags&FlagIFEQ != 0 {
			for _, k := range c.Keys {
				if fam, ok := m.counterFamily(k); ok {
					delete(used, fam)
				}
			}
		}
	}
	return used
}

// counterFamily is keyFamily, except that a key made by a function of
// the package (failuresKey(user), directly or through a local) is of
// that function's family, with its constant arguments (key("fail", user)
// and key("lock", job) are two): its keys are one kind, whatever their
// text.
func (m *Model) counterFamily(key ast.Expr) (string, bool) {
	if key == nil || m.keys == nil {
		return "", false
	}
	if call := m.keyCall(key); call != nil {
		var maker string
		if fn := m.makerFunc(call); fn != nil {
			maker = "func " + fn.FullName()
		} else if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
			// A key builder injected into a struct field (s.keyFunc(chat)):
			// the field's keys are one kind, whichever function fills it.
			if v := m.Pass.TypesInfo.Selections[sel]; v != nil && v.Kind() == types.FieldVal && v.Obj().Pkg() == m.Pass.Pkg {
				maker = "field " + m.keys.idOf(v.Obj())
			}
		}
		if maker != "" {
			return m.callText(maker, call), true
		}
	}
	return m.keyFamily(key)
}

// callText is the text of a key that maker makes in call: its constant
// arguments quoted, the others "*".
func (m *Model) callText(maker string, call *ast.CallExpr) string {
	var sb strings.Builder
	sb.WriteString(maker + "(")
	for i, a := range call.Args {
		if i > 0 {
			sb.WriteString(",")
		}
		if v, ok := constStringOf(m.Pass.TypesInfo, a); ok {
			sb.WriteString(strconv.Quote(v))
		} else {
			sb.WriteString("*")
		}
	}
	sb.WriteString(")")
	return sb.String()
}

// familiesAt are key's counterFamily, or, for a parameter of c's
// function that only its callers here name, the families of what they
// pass (recordFailure(ctx, failKey, lockKey) called with lockKey :=
// bindLockKey(qq) in one flow and unbindLockKey(qq) in another); nil
// when one of them has none.
func (m *Model) familiesAt(c *Call, key ast.Expr) []string {
	if fam, ok := m.counterFamily(key); ok {
		return []string{fam}
	}
	_, _, args, ok := m.paramArgs(c, key)
	if !ok {
		return nil
	}
	var fams []string
	for _, a := range args {
		f, ok := m.counterFamily(a)
		if !ok || f == "" {
			return nil
		}
		if !slices.Contains(fams, f) {
			fams = append(fams, f)
		}
	}
	return fams
}

// keyCall returns the call that key is, directly or through the one
// definition of each local it names, or nil.
func (m *Model) keyCall(key ast.Expr) *ast.CallExpr {
	e := key
	for range maxDepth {
		id, ok := ast.Unparen(e).(*ast.Ident)
		if !ok {
			break
		}
		def := m.keys.definition(m.Pass.TypesInfo.ObjectOf(id))
		if def == nil {
			break
		}
		e = def
	}
	call, _ := ast.Unparen(e).(*ast.CallExpr)
	return call
}

// makerFunc returns the function that call makes a family of keys with:
// a function of the package, or another package's key maker; nil for
// any other call.
func (m *Model) makerFunc(call *ast.CallExpr) *types.Func {
	if fn, _ := typeutil.Callee(m.Pass.TypesInfo, call).(*types.Func); fn != nil && fn.Pkg() == m.Pass.Pkg || m.foreignKeyMaker(call) {
		return fn
	}
	return nil
}

// foreignKeyMaker reports whether call is a function or method of
// another package of the service that returns a string and whose name
// or a constant argument says lock: a key maker of one kind of key
// (rediskey.GuildTokenLock(guild, token)), or a client wrapper prefixing
// the service's namespace to a constant (rdb.Key("lock:scheduler:promo")).
// A variadic one joins whatever it is given, so only its constant
// arguments say the kind.
func (m *Model) foreignKeyMaker(call *ast.CallExpr) bool {
	info := m.Pass.TypesInfo
	fn, _ := typeutil.Callee(info, call).(*types.Func)
	if fn == nil || fn.Pkg() == nil {
		return false
	}
	path := fn.Pkg().Path()
	if first, _, _ := strings.Cut(path, "/"); !strings.Contains(first, ".") && !inModule(m.Pass, path) {
		return false // the standard library
	}
	sig := fn.Signature()
	if sig.Results().Len() != 1 || !typesx.IsString(sig.Results().At(0).Type()) || sig.Params().Len() == 0 {
		return false
	}
	// Only a maker whose name or constant says lock: a family joins a
	// take in one function to a delete in another, and a lock named by
	// neither (asynq's PausedKey, a queue's pause flag) stays what its
	// name says.
	if !sig.Variadic() && m.Words.MatchText(fn.Name()) {
		return true
	}
	for _, a := range call.Args {
		if s, ok := constStringOf(info, a); ok && m.Words.MatchText(s) {
			return true
		}
	}
	return false
}

// readFamilies returns the families (counterFamily) of the keys the
// package reads as data (a GET whose reply is not compared, a reply used
// as a value) or counts: cache entries and counters, not locks.
func (m *Model) readFamilies() map[string]bool {
	fams := map[string]bool{}
	for _, o := range m.Calls {
		// A GET compared only with what a user typed reads a code as
		// data too (see secretCompared).
		if o.Command.ReadsValue() && (!o.Compared || m.secretCompared(o)) || o.Command == CmdIncr || o.Read {
			if f, ok := m.counterFamily(o.Key()); ok {
				fams[f] = true
			}
		}
	}
	return fams
}

// consumedKeys returns the keys that c, a script, reads and gives back
// to its caller, deleting them or not, with nothing compared, taken or
// extended on the way: a GET-and-DEL that hands a usage lease's value to
// the one caller that gets there first. What it returns is data, not a
// holder's token.
func (m *Model) consumedKeys(c *Call) []ast.Expr {
	text, ok := m.ScriptText(c)
	if !ok {
		return nil
	}
	calls := LuaCalls(text.Text)
	var out []ast.Expr
	for i, w := range calls {
		if w.CheckedAt >= 0 || w.Extends() || LuaAcquires(calls, i) {
			return nil
		}
		if k := w.Key(); w.Command == "GET" && w.Returned && k > 0 && k <= len(c.Keys) {
			out = append(out, c.Keys[k-1])
		}
	}
	return out
}

// unconsultedRecords returns the families of keys that the package only
// writes with a plain SET, straight through a client it reads, and
// deletes in other functions: no command of the package takes, reads,
// compares, watches, renews or scripts one, nor does any of the client's
// other commands (EXISTS, TTL) name one. A key nobody consults excludes
// nobody: a claim mirrored after a database claim (task:lock:<id> set to
// the reviewer once SELECT ... FOR UPDATE SKIP LOCKED has given the task,
// deleted on submit) is a record of who holds the row, whatever its name
// says. A function that writes and deletes the key is work under it, and
// a function named for a lock writes its acquire (a plain SETEX Acquire):
// both stay locks.
func (m *Model) unconsultedRecords() map[string]bool {
	sets := map[string]map[*ast.FuncDecl]bool{}
	dels := map[string]map[*ast.FuncDecl]bool{}
	ruled := map[string]bool{}
	in := func(by map[string]map[*ast.FuncDecl]bool, fams []string, d *ast.FuncDecl) {
		for _, f := range fams {
			if by[f] == nil {
				by[f] = map[*ast.FuncDecl]bool{}
			}
			by[f][d] = true
		}
	}
	for _, c := range m.Calls {
		direct := c.Via == nil && c.Client != GoFrame && c.Flags&FlagUnknown == 0
		for _, k := range c.Keys {
			fams := m.familiesAt(c, k)
			switch {
			case direct && c.Overwrites() && c.Flags&(FlagGet|FlagXX) == 0 && len(c.Keys) == 1:
				in(sets, fams, c.Decl)
			case direct && (c.Command == CmdDel || c.Command == CmdUnlink):
				in(dels, fams, c.Decl)
			default:
				for _, f := range fams {
					ruled[f] = true
				}
			}
		}
	}
	for _, k := range m.consulted {
		if f, ok := m.counterFamily(k); ok {
			ruled[f] = true
		}
	}
	var out map[string]bool
	for f, ds := range sets {
		if f == "" || ruled[f] || len(dels[f]) == 0 {
			continue
		}
		ok := true
		for d := range ds {
			ok = ok && d != nil && !dels[f][d] && !m.funcNames[d]
		}
		if ok && !dels[f][nil] {
			if out == nil {
				out = map[string]bool{}
			}
			out[f] = true
		}
	}
	return out
}
