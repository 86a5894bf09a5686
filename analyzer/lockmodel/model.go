package lockmodel

import (
	"go/ast"
	"go/types"
	"reflect"
	"sync"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/cfg"
)

// Model is the result of Analyzer: every Redis command in a package.
type Model struct {
	Pass  *analysis.Pass
	Calls []*Call
	Words *Words

	keys *keyIndex
	defs *defIndex

	// dropped are the identities and families of the keys the package hands to a
	// function of another package that drops the key it is given
	// (held.go), built once on first use.
	dropped     map[string]bool
	droppedOnce sync.Once
	// graphs are the control-flow graphs the passes asked for (Graph).
	graphsMu sync.Mutex
	graphs   map[*ast.BlockStmt]*cfg.CFG
	byID     map[*ast.CallExpr]*Call
	// loops are recorded while the syntax is walked, for the passes that
	// would otherwise walk it again.
	loops      []Loop
	funcNames  map[*ast.FuncDecl]bool
	forwarders map[*types.Func]*Forwarder
	// keyNS is the function the package builds every key with, if any
	// (keyNamespace).
	keyNS *types.Func
	// keyPrefix is the constant the package puts first in every key it
	// builds from a parameter, if any (keyPrefixConst).
	keyPrefix *types.Const
	// impls caches implementations; passes ask for them concurrently.
	implsMu sync.Mutex
	impls   map[*types.Func][]*types.Func
	// layers caches throughInterface, and reach the packages it looks
	// through; passes ask concurrently too.
	layersMu sync.Mutex
	layers   map[*types.Func][]*types.Func
	reach    []*types.Package
	// takes is whether some command of the package takes a key
	// exclusively (takesAny).
	takes bool
	// dataKeys are the identities of keys the package reads as data and
	// never acquires: a setting or a report, whatever its name says.
	dataKeys map[string]bool
	// windowKeys are the families of keys the package counts in a window
	// and never acquires: a lockout's count, whatever its name says.
	windowKeys map[string]bool
	// recordKeys are the families of keys the package writes only as
	// values it reads back or counts: records and gauges, not locks.
	recordKeys map[string]bool
	// unconsulted are the families of keys the package only writes with a
	// plain SET and deletes (unconsultedRecords).
	unconsulted map[string]bool
	// runKeys are the families of keys that every take makes fresh for
	// its run (runFamilies).
	runKeys map[string]bool
	// paired are the commands and key families a caller takes and drops
	// through helpers (pairs).
	paired pairing
	// readFams are the key families the package reads as data or counts
	// (readFamilies); methods index the takes and deletes of methods by
	// receiver type and key family (siblingTakeDrop).
	readFams map[string]bool
	methods  map[methodFamily]*takeDrop
	// plainRecs are the families written with a plain SET and never
	// taken (plainRecords).
	plainRecs map[string]bool
	// obtains are the calls of the lock library's acquire, and of an
	// Obtainer of another package of the module (Obtains).
	obtains []*ast.CallExpr
	// valueFuncs are the calls of another lock library's option that
	// gives it the function its values are made by.
	valueFuncs []ValueFunc
	// ctorTokens are the calls of other packages' constructors that keep
	// an argument as a lock's token (CtorTokens).
	ctorTokens []CtorToken
	// notObtained are the error variables of other packages that their
	// Obtainer returns when another holds the lock (NotObtained facts).
	notObtained map[types.Object]bool
	// ownerCompares are, for each GET whose reply is compared with a
	// value that is not constant, those compares (cur != id).
	ownerCompares map[*Call][]replyCompare
	// constCompares are, for each GET whose reply is compared with a
	// constant, those constants' values.
	constCompares map[*Call][]string
	// kept are the slices that only ever receive acquired keys
	// (keptSlices).
	kept map[types.Object]bool
	// ownedTaken are the identities of the keys the package takes with NX
	// and deletes only behind an atomic owner check (ownedTakenIDs), once
	// warm has built them; nil before.
	ownedTaken map[string]bool
	// ownedRelease are the package's functions that release a key they
	// are passed owner checked, with that parameter's index
	// (ownedReleasers).
	ownedRelease map[*types.Func]int
	// randSeeded caches randPerProcess: 1 yes, -1 no, 0 not asked;
	// randReseeded, found with it, says the package calls rand.Seed.
	randSeeded   int8
	randReseeded bool
	// collections are the keys the package sends set or sorted-set
	// commands to, and collectionIDs their identities, once asked.
	collections []ast.Expr
	// consulted are the keys of the client's other commands (EXISTS, TTL,
	// HGET...), which the model does not read: each still looks at its
	// key (unconsultedRecords).
	consulted     []ast.Expr
	collectionIDs map[string]bool
	// probes caches Probe.
	probes map[*Call]bool
	// drops are the functions whose own body deletes a key (Drops).
	drops map[*types.Func]bool
	// handed are the identities and built texts of the string arguments
	// of calls that send no command (handsOn), made on first use.
	handed *handedKeys
	// tokenKeys are the identities of the values that acquires store in
	// other keys (lockTokenKey), once asked.
	tokenKeys map[string]bool
	// tokenFams are the families (counterFamily) of keys an acquire's
	// call names by the token it stores (lockTokenKey), once asked.
	tokenFams map[string]bool
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
	FactTypes:        []analysis.Fact{(*Forwarder)(nil), (*TokenHelper)(nil), (*TokenParam)(nil), (*Obtainer)(nil), (*NotObtained)(nil), (*TakesLock)(nil), (*DropsKey)(nil), (*ScriptVar)(nil), (*Forwards)(nil)},
	RunDespiteErrors: true,
}

// words is the lock-word flag shared by all passes through the model.
var words = defaultWordSet()

func init() {
	Analyzer.Flags.Var(words, "lockwords", "comma-separated lock words that mark a Redis key as a lock (a plain list replaces the defaults; +word adds, -word removes)")
}

func run(pass *analysis.Pass) (any, error) {
	m := &Model{Pass: pass, Words: words, byID: map[*ast.CallExpr]*Call{}, ownerCompares: map[*Call][]replyCompare{}, constCompares: map[*Call][]string{}}
	// Fast path: a package that cannot reach a Redis client, and declares
	// or imports no Redis port (port.go), costs one walk over its import
	// graph and a look at its own and its direct imports' interface types,
	// not its syntax.
	if !reachesClient(pass.Pkg) && !importsLockLibrary(pass.Pkg) && !declaresPort(pass) {
		if HoldsMainModuleFacts(pass) {
			m.defs = newDefIndex(pass.Files, pass.TypesInfo, pass.Pkg)
			exportTokenHelpers(m)
			exportScriptVars(m)
			exportForwards(m)
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
	b.dropParsedCompares()
	// Passes run concurrently on one model, so what they read is built
	// here.
	for _, c := range m.Calls {
		if c.Command == CmdEval {
			m.scriptAcquire(c)
		}
	}
	m.takes = m.anyAcquire()
	m.ownedRelease = m.ownedReleasers()
	// Also without an acquire of its own: a call through the package's
	// own interface is known as one by the error it is tested against.
	m.notObtained = importNotObtained(pass)
	m.missTested()
	m.kept = m.keptSlices()
	for _, c := range m.Calls {
		if d := c.Decl; d != nil {
			if _, done := m.funcNames[d]; !done {
				m.funcNames[d] = m.namesLock(d)
			}
		}
	}
	m.dataKeys = m.readNotAcquired()
	m.windowKeys = m.windowedNotAcquired()
	m.recordKeys = m.recordsNotAcquired()
	m.unconsulted = m.unconsultedRecords()
	m.runKeys = m.runFamilies()
	m.readFams = m.readFamilies()
	m.plainRecs = m.plainRecords()
	m.methods = m.methodTakesAndDrops()
	m.paired = m.pairs()
	m.ctorTokens = m.ctorCalls()
	m.findDrops()
	m.warm()
	exportTokenParams(m)
	exportTakers(m)
	if HoldsMainModuleFacts(pass) {
		exportTokenHelpers(m)
		exportScriptVars(m)
		exportObtainers(m)
		exportWrappedObtainers(m)
		exportInterfaceObtainers(m)
		exportForwards(m)
	}
	return m, nil
}

// warm fills the caches that LockKey fills on first use, so that the
// passes, which run concurrently on one model, only read them.
func (m *Model) warm() {
	m.collectionKey("")
	m.lockTokenKey("", "")
	for _, c := range m.Calls {
		m.Probe(c)
	}
	m.ownedTaken = m.ownedTakenIDs()
}
