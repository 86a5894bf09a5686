package lockmodel

import (
	"go/ast"
	"go/token"
	"go/types"
	"reflect"
	"strings"
	"sync"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/cfg"
)

// Command is a normalized Redis command.
type Command uint8

// The commands the passes reason about. Everything else a client sends is
// CmdOther and is recorded only for its position in pipelines.
const (
	CmdOther Command = iota
	CmdSetNX
	CmdSet
	CmdGet
	CmdDel
	CmdUnlink
	CmdDelEx
	CmdExpire
	CmdPExpire
	CmdExpireAt
	CmdPExpireAt
	CmdIncr
	CmdEval // EVAL, EVALSHA, EVAL_RO and script Run helpers
	CmdMulti
	CmdExec
	CmdWatch
)

var commandNames = [...]string{
	CmdOther:     "OTHER",
	CmdSetNX:     "SETNX",
	CmdSet:       "SET",
	CmdGet:       "GET",
	CmdDel:       "DEL",
	CmdUnlink:    "UNLINK",
	CmdDelEx:     "DELEX",
	CmdExpire:    "EXPIRE",
	CmdPExpire:   "PEXPIRE",
	CmdExpireAt:  "EXPIREAT",
	CmdPExpireAt: "PEXPIREAT",
	CmdIncr:      "INCR",
	CmdEval:      "EVAL",
	CmdMulti:     "MULTI",
	CmdExec:      "EXEC",
	CmdWatch:     "WATCH",
}

func (c Command) String() string {
	if int(c) < len(commandNames) {
		return commandNames[c]
	}
	return "OTHER"
}

// IsExpire reports whether c sets a key's TTL on its own.
func (c Command) IsExpire() bool {
	return c == CmdExpire || c == CmdPExpire || c == CmdExpireAt || c == CmdPExpireAt
}

// Writes reports whether c stores a value (SET, SETNX).
func (c Command) Writes() bool { return c == CmdSet || c == CmdSetNX }

// IsDelete reports whether c removes keys unconditionally.
func (c Command) IsDelete() bool { return c == CmdDel || c == CmdUnlink }

// Flags are the options of a SET-family or DELEX command.
type Flags uint16

// Options recognised on SET and DELEX.
const (
	FlagNX Flags = 1 << iota
	FlagXX
	FlagIFEQ // owner-checked: SET ... IFEQ, DELEX ... IFEQ
	FlagKeepTTL
	FlagGet
	// FlagUnknown marks options the model could not read (a SetArgs
	// variable, a spread argument list); passes stay silent on them.
	FlagUnknown
)

// Client is a Redis client library.
type Client uint8

// The client libraries locklint understands.
const (
	GoRedis Client = iota + 1
	Redigo
	Rueidis
	GoFrame
)

func (c Client) String() string {
	switch c {
	case GoRedis:
		return "go-redis"
	case Redigo:
		return "redigo"
	case Rueidis:
		return "rueidis"
	case GoFrame:
		return "goframe"
	}
	return "unknown"
}

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
	// Lease is true when the call is a go-redis method whose TTL argument
	// is a lease length (a time.Duration: SetNX, Expire, PExpire), which a
	// suggested fix may move or pass on.
	Lease bool
	// NoTTL is true when the command sets no expiry: the argument is absent,
	// constant zero or KeepTTL on a key that NX says did not exist.
	NoTTL bool
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

	// Queued is true when the command is sent through a pipeline or a
	// transaction: its result is unknown until the batch executes, so the
	// commands after it are not conditional on it.
	Queued bool
	// Tx is true inside MULTI/EXEC (TxPipeline, TxPipelined, redigo MULTI).
	Tx bool
	// Watched holds the keys of an enclosing WATCH when the command is
	// queued in that WATCH's transaction.
	Watched []ast.Expr

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
	// TakesFirst is true for an INCR whose reply is compared with 1: used
	// as an acquire, the caller that made the counter 1 holds the key.
	TakesFirst bool
	// Window is true for an INCR whose count is only compared with 1 to
	// set the key's TTL: a lockout or rate-limit window's counter.
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
}

// Key returns the first key, or nil.
func (c *Call) Key() ast.Expr {
	if len(c.Keys) == 0 {
		return nil
	}
	return c.Keys[0]
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

// Model is the result of Analyzer: every Redis command in a package.
type Model struct {
	Pass  *analysis.Pass
	Calls []*Call
	Words *Words

	keys *keyIndex
	defs *defIndex
	// graphs are the control-flow graphs the passes asked for (Graph).
	graphsMu sync.Mutex
	graphs   map[*ast.BlockStmt]*cfg.CFG
	byID     map[*ast.CallExpr]*Call
	// loops are recorded while the syntax is walked, for the passes that
	// would otherwise walk it again.
	loops      []Loop
	funcNames  map[*ast.FuncDecl]bool
	forwarders map[*types.Func]*Forwarder
	// impls caches implementations.
	impls map[*types.Func][]*types.Func
	// dataKeys are the identities of keys the package reads as data and
	// never acquires: a setting or a report, whatever its name says.
	dataKeys map[string]bool
	// windowKeys are the families of keys the package counts in a window
	// and never acquires: a lockout's count, whatever its name says.
	windowKeys map[string]bool
	// paired are the commands and key families a caller takes and drops
	// through helpers (pairs).
	paired pairing
	// readFams are the key families the package reads as data or counts
	// (readFamilies); methods index the takes and deletes of methods by
	// receiver type and key family (siblingTakeDrop).
	readFams map[string]bool
	methods  map[methodFamily]*takeDrop
	// obtains are the calls of the lock library's acquire (Obtains).
	obtains []*ast.CallExpr
}

// Loop is a for or range statement, with the body of the innermost
// function around it.
type Loop struct {
	Stmt ast.Stmt
	Body *ast.BlockStmt
}

// Loops returns the package's loops in source order (an outer loop before
// the loops inside it); nil when the package is not Relevant.
func (m *Model) Loops() []Loop { return m.loops }

// Relevant reports whether the package can reach a Redis client at all.
// Passes may return at once when it is false.
func (m *Model) Relevant() bool { return m.keys != nil }

// CallOf returns the record of a call expression, if it sends a command.
func (m *Model) CallOf(e *ast.CallExpr) *Call { return m.byID[e] }

// Analyzer builds the Model once per package for every locklint pass.
var Analyzer = &analysis.Analyzer{
	Name:             "lockmodel",
	Doc:              "lockmodel: normalize Redis client calls into commands with keys, values and TTLs (internal to locklint)",
	URL:              "https://github.com/locklint/locklint/blob/main/docs/usage.md#how-it-works",
	Run:              run,
	ResultType:       reflect.TypeFor[*Model](),
	FactTypes:        []analysis.Fact{(*Forwarder)(nil), (*TokenHelper)(nil)},
	RunDespiteErrors: true,
}

// words is the lock-word flag shared by all passes through the model.
var words = defaultWordSet()

func init() {
	Analyzer.Flags.Var(words, "lockwords", "comma-separated lock words that mark a Redis key as a lock (a plain list replaces the defaults; +word adds, -word removes)")
}

func run(pass *analysis.Pass) (any, error) {
	m := &Model{Pass: pass, Words: words, byID: map[*ast.CallExpr]*Call{}}
	// Fast path: a package that cannot reach a Redis client, and declares
	// or imports no Redis port (port.go), costs one walk over its import
	// graph and a look at its own and its direct imports' interface types,
	// not its syntax.
	if !reachesClient(pass.Pkg) && !declaresPort(pass) {
		if HoldsMainModuleFacts(pass) {
			m.defs = newDefIndex(pass.Files, pass.TypesInfo, pass.Pkg)
			exportTokenHelpers(m)
		}
		return m, nil
	}
	// The vet driver visits the clients' own packages for facts; there
	// are none to find there.
	var module string
	if pass.Module != nil {
		module = pass.Module.Path
	}
	if InClientModule(pass.Pkg.Path(), module) {
		return m, nil
	}
	// The model walks the syntax itself, after the import check, rather
	// than requiring inspect.Analyzer, which would index every package,
	// including the many that cannot reach a client (see cursor).
	m.defs = newDefIndex(pass.Files, pass.TypesInfo, pass.Pkg)
	m.keys = newKeyIndex(m)
	m.funcNames = map[*ast.FuncDecl]bool{}
	b := &builder{m: m, pass: pass}
	b.collect(pass.Files)
	// Passes run concurrently on one model, so what they read is built
	// here.
	for _, c := range m.Calls {
		if c.Command == CmdEval {
			m.scriptAcquire(c)
		}
	}
	m.dataKeys = m.readNotAcquired()
	m.windowKeys = m.windowedNotAcquired()
	m.readFams = m.readFamilies()
	m.methods = m.methodTakesAndDrops()
	m.paired = m.pairs()
	for _, c := range m.Calls {
		if d := c.Decl; d != nil {
			if _, done := m.funcNames[d]; !done {
				m.funcNames[d] = m.namesLock(d)
			}
		}
	}
	if HoldsMainModuleFacts(pass) {
		exportTokenHelpers(m)
	}
	return m, nil
}

// clientPaths are the import paths whose calls the model understands.
var clientPaths = map[string]Client{
	"github.com/redis/go-redis/v9":           GoRedis,
	"github.com/go-redis/redis/v9":           GoRedis, // the v9 betas' path
	"github.com/go-redis/redis/v8":           GoRedis,
	"github.com/go-redis/redis/v7":           GoRedis,
	"github.com/go-redis/redis":              GoRedis,
	"github.com/gomodule/redigo/redis":       Redigo,
	"github.com/garyburd/redigo/redis":       Redigo, // redigo's old import path
	"github.com/redis/rueidis":               Rueidis,
	"github.com/redis/rueidis/internal/cmds": Rueidis,
	// valkey-go is the rueidis API under the Valkey project.
	"github.com/valkey-io/valkey-go":               Rueidis,
	"github.com/valkey-io/valkey-go/internal/cmds": Rueidis,
	"github.com/gogf/gf/v2/database/gredis":        GoFrame,
}

// reachesClient reports whether pkg imports a client, directly or through
// another package (a user type that embeds *redis.Client makes its callers
// send commands without importing go-redis themselves).
func reachesClient(pkg *types.Package) bool {
	return ReachesClient(pkg, (*types.Package).Path, (*types.Package).Imports, map[*types.Package]bool{})
}

// ReachesClient reports whether p imports a client, directly or through
// other packages, in any package graph: the model's (types.Package) and
// the standalone driver's (go/packages). memo carries answers across calls
// over one graph.
func ReachesClient[P comparable](p P, path func(P) string, imports func(P) []P, memo map[P]bool) bool {
	if r, ok := memo[p]; ok {
		return r
	}
	memo[p] = false // breaks cycles in a broken graph
	r := isClientPath(path(p))
	for _, q := range imports(p) {
		if r {
			break
		}
		r = ReachesClient(q, path, imports, memo)
	}
	memo[p] = r
	return r
}

// FactScope says which packages export a fact type. The standalone
// driver loads those from source and every other package from export
// data, so a fact type must say where it can live.
type FactScope int

const (
	// ClientScope: only packages that reach a Redis client; the model
	// returns before any syntax elsewhere.
	ClientScope FactScope = iota + 1
	// MainModuleScope: those, and the packages of the main module (whose
	// module has no version), where a service keeps its own helpers.
	MainModuleScope
)

// ScopedFact is a fact type that says where it can live.
type ScopedFact interface {
	analysis.Fact
	Scope() FactScope
}

// Scope of the model's facts.
func (*Forwarder) Scope() FactScope { return ClientScope }
func (*Acquirer) Scope() FactScope  { return ClientScope }

// ScopeOf returns where facts of f's type can live; 0 when f does not say,
// and then they may live anywhere.
func ScopeOf(f analysis.Fact) FactScope {
	if s, ok := f.(ScopedFact); ok {
		return s.Scope()
	}
	return 0
}

// InMainModule reports whether pass analyzes a package of the main module
// (or one outside any module): the packages MainModuleScope facts may
// come from.
func InMainModule(pass *analysis.Pass) bool {
	return pass.Module == nil || pass.Module.Version == ""
}

// IsTestFile reports whether c sits in a _test.go file.
func (m *Model) IsTestFile(c *Call) bool { return m.InTestFile(c.Expr) }

// InTestFile reports whether n sits in a _test.go file.
func (m *Model) InTestFile(n ast.Node) bool {
	return strings.HasSuffix(m.Pass.Fset.File(n.Pos()).Name(), "_test.go")
}
