package lockmodel

// What the model records of one command found in the source.

import (
	"go/ast"
	"go/token"
	"go/types"
)

// Call is one Redis command found in the source.
type Call struct {
	Command Command
	Flags   Flags
	Client  Client
	// Module is the client's import path, e.g. github.com/redis/go-redis/v9.
	Module string
	// Method is the client method that sends or builds the command; it is
	// for suggested fixes, which must know what they rewrite.
	Method string

	// Expr is the call expression that sends the command (for rueidis, the
	// builder chain's last call).
	Expr *ast.CallExpr
	// Recv is the client, pipeline or connection the command goes through.
	Recv ast.Expr
	// Ctx is the context argument, when the API takes one.
	Ctx ast.Expr

	Keys  []ast.Expr // KEYS: the key(s) the command touches, in order
	Value ast.Expr   // the value written by SET/SETNX
	TTL   ast.Expr   // the expiry argument, nil when absent
	// Stored is the text of the constant a helper's call writes when the
	// helper fixes its value itself (Value is nil), if StoredKnown.
	Stored      string
	StoredKnown bool
	// Lease is true when the call is a go-redis method whose TTL argument
	// is a lease length (a time.Duration: SetNX, Expire, PExpire), which a
	// suggested fix may move or pass on.
	Lease bool
	// NoTTL is true when the command sets no expiry: the argument is absent,
	// constant zero or KeepTTL on a key that NX says did not exist, or a
	// variable that is zero unless TTLBranch runs.
	NoTTL bool
	// TTLBranch is the if statement that alone gives a zero TTL variable
	// a value (ttl := 0; if opts.TTL != nil { ttl = *opts.TTL }): the
	// acquire has no expiry unless it runs. Nil otherwise.
	TTLBranch *ast.IfStmt
	// EndsNow is true for an EXPIRE-family command that removes the key
	// at once: EXPIRE or PEXPIRE with a constant of zero or less,
	// EXPIREAT or PEXPIREAT with the present time. It is a delete in
	// effect, not a renewal.
	EndsNow bool
	// Match is the IFEQ comparison value (SET IFEQ, DELEX IFEQ).
	Match ast.Expr
	// Script is the Lua source of an EVAL, as written where it is given:
	// the EVAL argument, or the argument of the NewScript / NewLuaScript
	// call that made the script object run here. It is nil for EVALSHA
	// and FCALL, which name a script instead of sending it; ScriptText
	// reads the text when it is constant or embedded.
	Script ast.Expr
	// Args are a script's ARGV values, when the call lists them.
	Args []ast.Expr
	// KeysArg and ArgsArg are an EVAL's KEYS and ARGV arguments as
	// written (a slice, a parameter), which a wrapper may take from its
	// caller; nil when the client's API has none.
	KeysArg, ArgsArg ast.Expr
	// ScriptValue is the literal a script's acquire stores instead of an
	// ARGV (SET KEYS[1] 1 NX), as the script writes it; "" otherwise.
	ScriptValue string

	// Queued is true when the command is sent through a pipeline or a
	// transaction: its result is unknown until the batch executes, so the
	// commands after it are not conditional on it.
	Queued bool
	// Tx is true inside MULTI/EXEC (TxPipeline, TxPipelined, redigo MULTI).
	Tx bool
	// Watched holds the keys of an enclosing WATCH when the command is
	// queued in that WATCH's transaction.
	Watched []ast.Expr
	// WatchAt is where that WATCH starts to watch: the WATCH command, or
	// the start of a Watch callback. A read before it is not covered.
	WatchAt token.Pos

	// Func is the innermost enclosing function (*ast.FuncDecl or
	// *ast.FuncLit); Decl is the outermost one, nil at package level.
	Func ast.Node
	Decl *ast.FuncDecl
	// Deferred is true when the call runs at function exit: a defer
	// statement or a closure that is deferred.
	Deferred bool
	File     *ast.File
	// Stmt is the statement the call is part of, and Outer the largest
	// expression around the call that only chains on its result
	// (rdb.Del(ctx, k).Err()); suggested fixes rewrite these.
	Stmt  ast.Stmt
	Outer ast.Expr
	// Read is true for a GET whose reply is not compared with anything:
	// the value is used as data (returned, parsed, shown), not checked.
	Read bool
	// TakesFirst is true for an INCR whose reply is compared with 1, or a
	// GETSET whose old value is compared with "": used as an acquire, the
	// caller that made the counter 1 (found the key empty) holds the key.
	TakesFirst bool
	// Window is true for an INCR whose count is only compared with 1 to
	// set the key's TTL, or is compared with a limit: a lockout or
	// rate-limit window's counter.
	Window bool
	// Via is the user function or method the command is sent through (a
	// wrapper interface, a forwarding helper), or nil for a client call.
	// Suggested fixes leave these alone: they would rewrite the wrapper.
	Via *types.Func
	// ViaLock is true when Via's own name says lock (TryLock(ctx, key,
	// token)): the key passed to it is a lock key.
	ViaLock bool
	// Compared is true for a GET whose reply is compared with == or !=,
	// directly or through the variable it is assigned to: an owner check.
	Compared bool
	// Record is true for a command of a record store's method, or of a
	// forwarder to one, on a key its caller gives (recordstore.go): the
	// key holds a record, not a lock.
	Record bool
}

// Key returns the first key, or nil.
func (c *Call) Key() ast.Expr {
	if len(c.Keys) == 0 {
		return nil
	}
	return c.Keys[0]
}

// Verb names the command c sends as its code writes it: GETSET for a
// plain SET that returns the value it overwrote (GETSET, SET ... GET),
// the command's name otherwise.
func (c *Call) Verb() string {
	if c.Command == CmdSet && c.Flags&FlagGet != 0 && c.Flags&FlagIFEQ == 0 {
		return "GETSET"
	}
	return c.Command.String()
}

// TakesOver reports whether c, a plain SET that returns the old value
// (GETSET), follows an acquire of the same key in its function: the old
// "expiry in the value" lock's takeover of a key whose stored time has
// passed, itself an acquire, with no owner check.
func (m *Model) TakesOver(c *Call) bool {
	if c.Verb() != "GETSET" || c.Key() == nil {
		return false
	}
	for _, a := range m.Calls {
		if a.Func == c.Func && a.Acquires() && a.Pos() < c.Pos() && a.Key() != nil && m.SameKey(a, a.Key(), c, c.Key()) {
			return true
		}
	}
	return false
}

// Acquires reports whether the call is an acquire: SETNX, SET NX, or a
// script that takes KEYS[1] (see scriptAcquire).
func (c *Call) Acquires() bool {
	if c.Flags&FlagUnknown != 0 {
		return false
	}
	return c.Command == CmdSetNX || ((c.Command == CmdSet || c.Command == CmdEval) && c.Flags&FlagNX != 0)
}

// Pos and End give the call's range, for ReportRangef.
func (c *Call) Pos() token.Pos { return c.Expr.Pos() }
func (c *Call) End() token.Pos { return c.Expr.End() }
