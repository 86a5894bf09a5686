// Package loopbound defines an Analyzer that finds the loops that retry
// a lock acquisition and what, if anything, ends them: a context (the
// acquisition's own, when it has a deadline), a deadline, a timer or
// shutdown channel, a flag a timer sets, an attempt counter, or a helper
// in this package or another that reads one. It reports nothing; its
// Result serves passes such as unboundedretry, the way ctrlflow serves
// lostcancel, and its facts carry each function's acquisitions and bounds
// to the packages that call it.
package loopbound

import (
	"go/ast"
	"go/types"
	"reflect"

	"golang.org/x/tools/go/analysis"

	"github.com/locklint/locklint/analyzer/lockmodel"
)

// Analyzer finds lock acquisitions retried by a loop or by recursion, and
// their bounds.
var Analyzer = &analysis.Analyzer{
	Name:       "loopbound",
	Doc:        "loopbound: find lock acquisitions retried by loops and recursion, and what bounds them\n\nloopbound reports nothing; its Result says, for each loop that retries an acquisition, whether an exit ends it and on what.",
	URL:        "https://github.com/locklint/locklint/tree/main/analyzer/loopbound",
	Requires:   []*analysis.Analyzer{lockmodel.Analyzer},
	Run:        run,
	ResultType: reflect.TypeFor[*Result](),
	FactTypes:  []analysis.Fact{(*lockmodel.Acquirer)(nil), (*Bound)(nil)},
}

// By is what ends a loop, or that nothing does.
type By uint8

const (
	// Nothing: some exit exists, and none is guarded by a bound.
	Nothing By = iota
	// NoExit: the loop has no exit at all (a long-running worker).
	NoExit
	// Context: a context's Done, Err or Cause, or its errors; or the
	// error of an acquisition whose context has a deadline set before
	// the loop.
	Context
	// Clock: a fresh clock reading against an instant fixed before the
	// loop or in its init.
	Clock
	// Channel: a receive from a timer made before the loop or from a
	// shutdown channel.
	Channel
	// Attempts: a counter the loop steps, or a helper that compares one.
	Attempts
	// Budget: a helper that spends a count its receiver holds.
	Budget
	// Flag: a flag that a timer's goroutine, started before the loop,
	// sets.
	Flag
)

var byNames = [...]string{Nothing: "nothing", NoExit: "no exit", Context: "context", Clock: "clock", Channel: "channel", Attempts: "attempts", Budget: "budget", Flag: "flag"}

func (b By) String() string { return byNames[b] }

// Bounded reports whether an exit ends the loop in bounded time.
func (b By) Bounded() bool { return b > NoExit }

// Loop is a loop that retries an acquisition: a failed attempt can lead
// to the next iteration, a successful one cannot.
type Loop struct {
	Stmt ast.Stmt // a *ast.ForStmt, or a *ast.RangeStmt over a time channel
	// Retried are the acquisitions the loop retries, in source order,
	// those of loops inside it included.
	Retried []*ast.CallExpr
	By      By
	// Waits: the loop blocks between iterations (a sleep, a receive from
	// a time channel); ConstantPause: one such wait is of a constant
	// duration (time.Sleep(d), <-time.After(d)).
	Waits, ConstantPause bool
	// Spins: the loop has no exit and never blocks of its own, and an
	// acquisition in it takes a context from outside the loop, which it
	// never tests: once that context is done every attempt fails at once,
	// and the loop spins for ever. Retried holds that acquisition.
	Spins bool
}

// Recursion is a function that, after a failed acquisition, calls itself
// again.
type Recursion struct {
	Decl    *ast.FuncDecl
	Self    *ast.CallExpr // the first call of itself
	Retried *ast.CallExpr
	By      By
}

// Result is what the analyzer found in a package.
type Result struct {
	// Loops are the retry loops, an inner loop before the loop around it.
	Loops      []*Loop
	Recursions []*Recursion
	// Acquisitions says which calls acquire a lock, here or through a
	// function of another package.
	Acquisitions *lockmodel.Acquisitions
}

func run(pass *analysis.Pass) (any, error) {
	m := pass.ResultOf[lockmodel.Analyzer].(*lockmodel.Model)
	res := &Result{}
	if !m.Relevant() {
		// A retry policy or deadline window may live in a package that
		// never touches Redis; its facts are what its callers' loops need.
		if lockmodel.HoldsMainModuleFacts(pass) {
			summarize(pass, false, nil)
		}
		return res, nil
	}
	acq := m.Acquisitions(func(fn *types.Func) (lockmodel.Acquirer, bool) {
		var f lockmodel.Acquirer
		ok := pass.ImportObjectFact(fn, &f)
		return f, ok
	})
	res.Acquisitions = acq
	fns, facts := acq.Funcs()
	acquirers := map[*types.Func]bool{}
	for i, fn := range fns {
		pass.ExportObjectFact(fn, facts[i])
		acquirers[fn] = true
	}
	// An acquirer's own result is the success it reports, not a bound.
	sums := summarize(pass, true, acquirers)
	redis := func(call *ast.CallExpr) bool {
		return m.CallOf(call) != nil || acq.Acquires(call)
	}

	loops := m.Loops()
	for i := len(loops) - 1; i >= 0; i-- {
		if l := retryLoop(pass, m, acq, loops[i], redis, sums); l != nil {
			res.Loops = append(res.Loops, l)
		}
	}
	res.Recursions = recursions(pass, m, acq, sums, redis)
	return res, nil
}

// retryLoop returns what the loop retries and what bounds it; nil when it
// retries no acquisition.
func retryLoop(pass *analysis.Pass, m *lockmodel.Model, acq *lockmodel.Acquisitions, loop lockmodel.Loop, redis func(*ast.CallExpr) bool, sums *summaries) *Loop {
	if !canRetry(pass, loop.Stmt) {
		return nil
	}
	tries := attempts(pass, m, acq, loop.Stmt)
	if len(tries) == 0 {
		return nil
	}
	l := newLoopGraph(newLoopScope(pass, loop.Stmt, redis, sums), m.Graph(loop.Body), loop.Stmt)
	if retried := l.retried(m, tries); len(retried) > 0 {
		tries = retried
	} else if spin := spinsWhenDone(pass, l, tries); spin != nil {
		return &Loop{Stmt: loop.Stmt, Retried: []*ast.CallExpr{spin}, By: NoExit, Spins: true}
	} else {
		return nil
	}
	l.armed = newArmed(pass, m, loop.Stmt, tries)
	out := &Loop{Stmt: loop.Stmt, Retried: tries, By: NoExit, Waits: waits(pass, loop.Stmt), ConstantPause: constantPause(pass, loop.Stmt)}
	if exits := l.exits(); len(exits) > 0 {
		out.By = l.bounded(exits)
	}
	return out
}
