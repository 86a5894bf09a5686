package lockmodel

// Dedupe markers: a key made for one request, event or message, which
// only a redelivery of the same one contends for.

import (
	"go/ast"
	"go/types"
	"slices"
	"strings"
	"time"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/locklint/locklint/internal/typesx"
)

// requestKey reports whether key has a part that names one request,
// event or message (requestID, event.ID, msg.MessageId), or is made by a
// helper named for dedupe or idempotency: a marker that lets the first
// delivery in and makes its duplicates wait or return the first one's
// result. Its DEL after the result is stored, or on a failure so that the
// sender's retry gets in, gives nothing back to another holder; whatever
// word the key carries ("order:request:lock:<request id>"), usage says
// dedupe. Usage must agree as for ownRecord: no command of the package
// compares the value of a key of its family (its EXPIRE only refreshes
// the one request's record).
func (m *Model) requestKey(key ast.Expr) bool {
	if m.keys == nil || key == nil {
		return false
	}
	return m.requestArg(key, 0)
}

// inFlightLock reports whether key, though one request's, is the lock
// that holds the request's duplicates off while it runs: its name says
// lock, it is taken with a lease short enough to lapse within a slow
// request, and the function that takes it defers its delete on every
// path (not only when the work failed). Its DEL then gives back a lock
// that a retry may hold by then. A marker kept after success, or held
// for a day, is still a record.
func (m *Model) inFlightLock(key keyRef) bool {
	if !m.keys.lockish(key.expr, 0, map[ast.Node]bool{}) {
		return false
	}
	for _, o := range m.Calls {
		if !o.Acquires() || o.Decl == nil || o.Key() == nil || !m.shortLease(o) || m.KeyID(o.Key()) != key.id {
			continue
		}
		for _, d := range m.Calls {
			if d.Decl == o.Decl && d.Deferred && d.Command.IsDelete() && d.Pos() > o.Pos() &&
				d.Key() != nil && m.KeyID(d.Key()) == key.id && !m.undoneOnFailedReturn(d) {
				return true
			}
		}
	}
	return false
}

// maxInFlightLease is the longest lease read as one request's lock rather
// than its record: longer than any request should run.
const maxInFlightLease = 5 * time.Minute

// shortLease reports whether c's TTL is a constant duration of at most
// maxInFlightLease: a lease argument of a client method, or a
// time.Duration given to a helper that forwards it.
func (m *Model) shortLease(c *Call) bool {
	d, ok := m.Lease(c)
	return ok && d <= maxInFlightLease
}

// requestArg is requestKey at a depth: usage is checked on the key's
// family where it has one (a bare parameter has none; its callers' keys
// are checked at the call).
func (m *Model) requestArg(key ast.Expr, depth int) bool {
	if !m.requestPart(key, depth) {
		return false
	}
	ref := m.refOf(key)
	if !ref.famOK {
		return true
	}
	return m.uncheckedFamilyOf(ref, false)
}

// requestPart is requestKey's reading of the key's parts, at a depth. A
// part may be a parameter that every call of its unexported function
// fills with a request's key (releaseRequestLock(requestLockKey, id)).
func (m *Model) requestPart(key ast.Expr, depth int) bool {
	info := m.Pass.TypesInfo
	return m.keyParts(key, depth, func(e ast.Expr, depth int) partVerdict {
		switch e := e.(type) {
		case *ast.Ident:
			obj := info.ObjectOf(e)
			// A variable named for one request's key names it, whatever
			// it is read from (a header, a body field).
			if obj != nil && requestName(obj.Name()) {
				// Unless it is built here, from a text that says lock
				// and not dedupe, of parts that say whose it is: a
				// lock:payment:<user> held per user, whatever the
				// variable is called.
				if def := m.keys.definition(obj); def != nil && m.lockTextBuilt(def) {
					return partWalk
				}
				return partDecides
			}
			if m.keys.definition(obj) != nil {
				return partWalk
			}
			// A key built in either branch of an if: each definition
			// must name the request.
			if defs := m.defs.values(obj); len(defs) > 1 && depth < maxDepth {
				for _, d := range defs {
					if !m.requestPart(d, depth+1) {
						return partStop
					}
				}
				return partDecides
			}
			// AcquireIdempotencyLock(ctx, key): the function's name says
			// whose key it is.
			if p, ok := m.defs.params[obj]; ok && (dedupeName(p.fn.Name()) || m.atEveryCall(p, depth+1, m.requestArg)) {
				return partDecides
			}
			return partStop
		case *ast.SelectorExpr:
			if x, ok := ast.Unparen(e.X).(*ast.Ident); ok && messageName(x.Name) && strings.EqualFold(e.Sel.Name, "id") {
				return partDecides
			}
			if requestName(e.Sel.Name) {
				return partDecides
			}
			return partStop
		case *ast.CallExpr:
			fn, _ := typeutil.Callee(info, e).(*types.Func)
			if fn == nil || fn.Pkg() != m.Pass.Pkg {
				return partWalk
			}
			// The package's own helper: its name, else what it is given.
			if dedupeName(fn.Name()) {
				return partDecides
			}
			return partArgs
		}
		return partWalk
	})
}

// requestName reports whether a name is one request's, event's or
// message's id: requestID, request_id, reqId, eventID, msgID, messageId,
// deliveryID, idempotencyKey.
func requestName(name string) bool {
	n := strings.ToLower(strings.ReplaceAll(name, "_", ""))
	for _, s := range []string{"requestid", "reqid", "eventid", "evtid", "msgid", "messageid", "deliveryid", "idempotencykey", "idempotentkey", "idemkey", "dedupekey", "dedupkey"} {
		if strings.HasSuffix(n, s) {
			return true
		}
	}
	return false
}

// messageName reports whether a variable's name says it holds one
// request, event or message, whose ID field names it.
func messageName(name string) bool {
	switch strings.ToLower(name) {
	case "event", "evt", "ev", "msg", "message", "req", "request", "delivery":
		return true
	}
	return false
}

// dedupeName reports whether a function's name says it makes or takes
// dedupe or idempotency keys (stripeEventDedupeKey,
// AcquireIdempotencyLock).
func dedupeName(name string) bool {
	n := strings.ToLower(name)
	if strings.Contains(n, "dedup") || strings.Contains(n, "idempot") {
		return true
	}
	// IdemKey, idem_set: the word alone, not a prefix of another one.
	return slices.Contains(splitWords(name), "idem")
}

// tokenNamed reports whether key, through local variables, is a variable
// or field named for a secret a client holds: a verification token, a
// code, a nonce (req.VerificationToken, otpCode).
func (m *Model) tokenNamed(key ast.Expr) bool {
	return m.namedFor(key, "token", "code", "otp", "nonce", "captcha", "secret")
}

// secretCompared reports whether every compare of g's reply is with a
// variable or field named for a code a client was sent (code, otpCode,
// req.Captcha): a GET of a verification code, compared with what the
// user typed. A lock's owner check compares with a token or an owner.
func (m *Model) secretCompared(g *Call) bool {
	rcs := m.ownerCompares[g]
	for _, rc := range rcs {
		if !m.namedFor(rc.other, "code", "otp", "captcha", "nonce", "secret") {
			return false
		}
	}
	return len(rcs) > 0
}

// namedFor reports whether e, or a local variable it is defined from,
// is a variable or field whose name ends with one of words, in any
// case: verifyCode := strings.TrimSpace(in.Input("verify_code")) is
// named for a code though what defines it is not.
func (m *Model) namedFor(e ast.Expr, words ...string) bool {
	for range maxDepth {
		var name string
		switch x := ast.Unparen(e).(type) {
		case *ast.Ident:
			name = x.Name
		case *ast.SelectorExpr:
			name = x.Sel.Name
		}
		n := strings.ToLower(name)
		for _, s := range words {
			if strings.HasSuffix(n, s) {
				return true
			}
		}
		id, ok := ast.Unparen(e).(*ast.Ident)
		if !ok {
			return false
		}
		def := m.keys.definition(m.Pass.TypesInfo.ObjectOf(id))
		if def == nil {
			return false
		}
		e = def
	}
	return false
}

// lockTokenKey reports whether key is named by the token another lock is
// taken with: a waiter's own marker or wake-up channel, written under
// the value it stores in the lock it waits for. That value is made for
// one acquisition (or the lock's owner check means nothing), so nobody
// else writes the key.
//
// So is a key of a family that an acquire's call builds from the value
// it stores (a record idKey(id) written beside the resource key that
// holds id): each acquisition names its own.
func (m *Model) lockTokenKey(id, fam string) bool {
	if m.tokenKeys == nil {
		m.tokenKeys, m.tokenFams = map[string]bool{}, map[string]bool{}
		for _, o := range m.Calls {
			if o.Command == CmdEval {
				m.scriptTokenKeys(o)
			}
			if !o.Acquires() || o.Value == nil || o.Key() == nil {
				continue
			}
			if _, ok := constStringOf(m.Pass.TypesInfo, o.Value); ok {
				continue
			}
			if v := m.KeyID(o.Value); v != "" && v != m.KeyID(o.Key()) {
				m.tokenKeys[v] = true
			}
		}
	}
	return id != "" && m.tokenKeys[id] || fam != "" && m.tokenFams[fam]
}

// scriptTokenKeys records the families of the keys of o, a script, that
// are named by a value the script writes into another of its keys (SET
// KEYS[1] ARGV[1] beside KEYS[2] = idKey(id), with id as ARGV[1]).
func (m *Model) scriptTokenKeys(o *Call) {
	text, ok := m.ScriptText(o)
	if !ok {
		return
	}
	for _, w := range LuaCalls(text.Text) {
		if w.Command != "SET" || len(w.Args) < 2 || len(w.Keys) < 1 || w.Keys[0] == 0 {
			continue
		}
		i := argvIndex(w.Args[1])
		if i < 1 || i > len(o.Args) {
			continue
		}
		id, ok := ast.Unparen(o.Args[i-1]).(*ast.Ident)
		if !ok {
			continue
		}
		obj := m.Pass.TypesInfo.Uses[id]
		for j, k := range o.Keys {
			if j+1 == w.Keys[0] {
				continue
			}
			if f, ok := m.counterFamily(k); ok && typesx.Refers(m.Pass.TypesInfo, k, obj) {
				m.tokenFams[f] = true
			}
		}
	}
}

// resolved follows e through the single definitions of local variables
// (token := req.Token; t := token) to the expression they hold, or to
// the first name that has none (a parameter, a variable assigned more
// than once).
func (m *Model) resolved(e ast.Expr) ast.Expr {
	for range maxDepth {
		id, ok := ast.Unparen(e).(*ast.Ident)
		if !ok {
			return e
		}
		def := m.keys.definition(m.Pass.TypesInfo.ObjectOf(id))
		if def == nil {
			return e
		}
		e = def
	}
	return e
}

// lockTextBuilt reports whether e builds a key (a concatenation or
// fmt.Sprintf) from a constant text that names a lock and no dedupe or
// idempotency, and a part named for a user or an account, whose
// requests all contend for it.
func (m *Model) lockTextBuilt(e ast.Expr) bool {
	info := m.Pass.TypesInfo
	var texts []string
	switch e := ast.Unparen(e).(type) {
	case *ast.BinaryExpr:
		ast.Inspect(e, func(n ast.Node) bool {
			if x, ok := n.(ast.Expr); ok {
				if s, ok := constStringOf(info, x); ok {
					texts = append(texts, s)
					return false
				}
			}
			return true
		})
	case *ast.CallExpr:
		fn, _ := typeutil.Callee(info, e).(*types.Func)
		if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != "fmt" || !strings.HasPrefix(fn.Name(), "Sprint") || len(e.Args) == 0 {
			return false
		}
		if s, ok := constStringOf(info, e.Args[0]); ok {
			texts = append(texts, s)
		}
	}
	said := false
	for _, t := range texts {
		if dedupeName(t) {
			return false
		}
		said = said || m.Words.MatchText(t)
	}
	if !said {
		return false
	}
	whose := false
	ast.Inspect(e, func(n ast.Node) bool {
		var name string
		switch n := n.(type) {
		case *ast.Ident:
			name = n.Name
		case *ast.SelectorExpr:
			name = n.Sel.Name
		default:
			return true
		}
		for _, w := range splitWords(name) {
			switch w {
			case "user", "uid", "account", "customer", "member", "player":
				whose = true
			}
		}
		return !whose
	})
	return whose
}
