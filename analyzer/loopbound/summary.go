package loopbound

// Which helpers can bound a retry: their summaries, and the facts that carry them.

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"github.com/locklint/locklint/analyzer/lockmodel"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"
)

// boundKind is what a helper's result depends on, as far as ending a
// retry goes.
type boundKind uint8

const (
	_ boundKind = iota
	// kindContext: a context's state or a channel it is given; it
	// changes on its own.
	kindContext
	// kindClock: a fresh clock reading against what it is given (a
	// receiver holding a deadline, a deadline argument, a captured one).
	kindClock
	// kindAttempts: an attempt number it is given, against a limit.
	kindAttempts
	// kindBudget: a count its pointer receiver holds and it steps.
	kindBudget
	// kindFields: fields of its receiver, which the caller's loop may
	// step (for ; !a.exhausted(); a.n++).
	kindFields
)

var kindNames = [...]string{kindContext: "context", kindClock: "clock", kindAttempts: "attempts", kindBudget: "budget", kindFields: "fields"}

// summary says when a call to a function or closure is a bound: its
// kind, and the inputs it depends on (parameter indices, -1 for the
// receiver; captured variables for a closure).
type summary struct {
	kind   boundKind
	params []int
	names  []string
	free   []types.Object
}

// Bound is the fact that a function's boolean result (or its error
// result, when it has no boolean) can end a retry loop that calls it,
// so that a budget, a deadline window or a retry policy in another
// package bounds the loop as the same check written inline would.
type Bound struct {
	Kind   string
	Params []int    // the inputs: parameter indices, -1 for the receiver
	Names  []string // their names, for the fact's text
}

func (*Bound) AFact() {}

// Scope: a retry policy or window may live in a package of the service
// that never touches Redis; outside the main module, only packages that
// reach a client carry one.
func (*Bound) Scope() lockmodel.FactScope { return lockmodel.MainModuleScope }

func (b *Bound) String() string {
	if len(b.Names) == 0 {
		return "bound: " + b.Kind
	}
	return "bound: " + b.Kind + " on " + strings.Join(b.Names, ", ")
}

func (b *Bound) summary() *summary {
	for k, name := range kindNames {
		if name == b.Kind && k != 0 {
			return &summary{kind: boundKind(k), params: b.Params, names: b.Names}
		}
	}
	return nil
}

// summaries holds the package's helper summaries and reads those of
// other packages from facts.
type summaries struct {
	pass   *analysis.Pass
	funcs  map[*types.Func]*summary
	locals map[types.Object]*summary // closures assigned once to a local variable
	// decls are the package's functions, summarized when first asked
	// about (done) so that a helper resting on another declared later is
	// seen, and a package's unexported helpers cost nothing unless used.
	decls map[*types.Func]*ast.FuncDecl
	done  map[*types.Func]bool
}

// local returns the summary of a function of this package.
func (s *summaries) local(fn *types.Func) *summary {
	if !s.done[fn] {
		s.done[fn] = true // a cycle of helpers reads as no bound
		if fd := s.decls[fn]; fd != nil {
			if sm := s.summarize(fn.Type().(*types.Signature), fd.Body, nil); sm != nil {
				s.funcs[fn] = sm
			}
		}
	}
	return s.funcs[fn]
}

func (s *summaries) of(call *ast.CallExpr) *summary {
	switch obj := typeutil.Callee(s.pass.TypesInfo, call).(type) {
	case *types.Func:
		fn := obj.Origin()
		if fn.Pkg() == s.pass.Pkg {
			return s.local(fn)
		}
		if fn.Pkg() != nil {
			var f Bound
			if s.pass.ImportObjectFact(fn, &f) {
				return f.summary()
			}
		}
	case *types.Var:
		return s.locals[obj]
	}
	return nil
}

// summarize finds the package's helpers that can bound a retry and
// exports their facts. Closures are summarized only when closures is
// true: they matter only in packages that acquire.
func summarize(pass *analysis.Pass, closures bool, skip map[*types.Func]bool) *summaries {
	s := &summaries{pass: pass, funcs: map[*types.Func]*summary{}, locals: map[types.Object]*summary{},
		decls: map[*types.Func]*ast.FuncDecl{}, done: map[*types.Func]bool{}}
	info := pass.TypesInfo
	var fns []*types.Func
	for _, f := range pass.Files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			if fn, _ := info.Defs[fd.Name].(*types.Func); fn != nil {
				fns = append(fns, fn)
				if !skip[fn] {
					s.decls[fn] = fd
				}
			}
		}
	}
	// Another package can call only what is exported; in a package that
	// acquires, every helper is summarized, for its own loops and tests.
	for _, fn := range fns {
		if !closures && !fn.Exported() {
			continue
		}
		if sm := s.local(fn); sm != nil {
			pass.ExportObjectFact(fn, &Bound{Kind: kindNames[sm.kind], Params: sm.params, Names: sm.names})
		}
	}
	if closures {
		for _, f := range pass.Files {
			for _, d := range f.Decls {
				if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
					s.closures(fd.Body)
				}
			}
		}
	}
	return s
}

// closures summarizes the function literals in body that are assigned
// to a local variable once (check := func() bool { ... }).
func (s *summaries) closures(body *ast.BlockStmt) {
	info := s.pass.TypesInfo
	lits := map[types.Object]*ast.FuncLit{}
	assigned := map[types.Object]int{}
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			for i, l := range n.Lhs {
				obj := varOf(info, l)
				if id, ok := l.(*ast.Ident); ok && info.Defs[id] != nil {
					obj = info.Defs[id]
				}
				if obj == nil {
					continue
				}
				assigned[obj]++
				if len(n.Lhs) == len(n.Rhs) {
					if fl, ok := n.Rhs[i].(*ast.FuncLit); ok {
						lits[obj] = fl
					}
				}
			}
		case *ast.ValueSpec:
			for i, id := range n.Names {
				obj := info.Defs[id]
				assigned[obj]++
				if len(n.Values) == len(n.Names) {
					if fl, ok := n.Values[i].(*ast.FuncLit); ok {
						lits[obj] = fl
					}
				}
			}
		case *ast.UnaryExpr:
			if n.Op == token.AND { // &check may be written through
				if obj := varOf(info, n.X); obj != nil {
					assigned[obj] += 2
				}
			}
		}
		return true
	})
	for obj, fl := range lits {
		if assigned[obj] != 1 {
			continue
		}
		if sig, ok := info.TypeOf(fl).(*types.Signature); ok {
			if sm := s.summarize(sig, fl.Body, fl); sm != nil {
				s.locals[obj] = sm
			}
		}
	}
}
