package plainpexpire

import (
	_ "embed"
	"fmt"
	"go/ast"

	"golang.org/x/tools/go/analysis"

	"github.com/locklint/locklint/analyzer/diag"
	"github.com/locklint/locklint/analyzer/edit"
	"github.com/locklint/locklint/analyzer/lockmodel"
)

//go:embed doc.go
var doc string

// Analyzer reports lease renewals of a lock key with no atomic owner check.
var Analyzer = &analysis.Analyzer{
	Name:     "plainpexpire",
	Doc:      diag.Doc(doc),
	URL:      "https://github.com/locklint/locklint/blob/main/docs/analyzers/plainpexpire.md",
	Requires: []*analysis.Analyzer{lockmodel.Analyzer},
	Run:      run,
}

var tests bool

func init() {
	Analyzer.Flags.BoolVar(&tests, "tests", false, "also report renewals in _test.go files")
}

func run(pass *analysis.Pass) (any, error) {
	m := pass.ResultOf[lockmodel.Analyzer].(*lockmodel.Model)
	if !m.Relevant() {
		return nil, nil
	}
	// The EXPIRE of SETNX-then-EXPIRE is setnxexpire's finding.
	paired := map[*lockmodel.Call]bool{}
	for _, p := range m.SplitAcquires() {
		paired[p.Expire] = true
	}
	for _, c := range m.Calls {
		if !c.Renews() || paired[c] || m.AcquireTTL(c) || (!tests && m.IsTestFile(c)) {
			continue
		}
		k := c.Key()
		if k == nil || !m.IsLockKey(c, k) || m.Watches(c, k) || m.Counted(k) || m.HolderRecord(c) || m.StateWrite(c) || m.TTLRepair(c) || m.Rearmed(c) || m.HoldOff(c) {
			continue
		}
		if c.Overwrites() && c.TTL == nil && m.NoLease(c, k) {
			// A heartbeat's plain SET of a lock that has no lease: it
			// extends nothing and rewrites a value only its holder
			// writes; the missing lease is the acquire's defect
			// (setnxexpire).
			continue
		}
		report(pass, m, c, k)
	}
	return nil, nil
}

// useRefresh is the remedy of a renewal: one atomic, owner-checked
// command, through the library entry for c's client. Why a plain or a
// two-step renewal extends or takes the next holder's lock is the doc's.
func useRefresh(lib lockmodel.Library) string {
	return "renew with " + diag.Use(lib, "Refresh") + " (SET IFEQ or compare-and-PEXPIRE)"
}

func report(pass *analysis.Pass, m *lockmodel.Model, c *lockmodel.Call, k ast.Expr) {
	key := diag.KeyText(m, c, k)
	lib := m.Library(c)
	d := analysis.Diagnostic{Pos: c.Pos(), End: c.End()}
	g := m.CompareRead(c, k)
	switch {
	case m.TakesOver(c):
		d.Message = fmt.Sprintf("%s of lock key %s takes it over with no owner check and drops its TTL; acquire with SET NX PX (%s)", c.Verb(), key, diag.Use(lib, "Obtain"))
	case g != nil:
		d.Message = fmt.Sprintf("GET on line %d and this %s of lock key %s are two round trips; %s",
			diag.Line(pass.Fset, g.Pos()), c.Verb(), key, useRefresh(lib))
		d.Related = []analysis.RelatedInformation{{Pos: g.Pos(), End: g.End(), Message: "owner read here, in a separate round trip"}}
	case c.Overwrites() && acquiredElsewhere(m, c, k):
		d.Message = fmt.Sprintf("%s of lock key %s without NX or IFEQ overwrites whoever holds it; %s", c.Verb(), key, useRefresh(lib))
	case c.Overwrites():
		d.Message = fmt.Sprintf("%s of lock key %s without NX overwrites whoever holds it; acquire with SET NX PX (%s)", c.Verb(), key, diag.Use(lib, "Obtain"))
	default:
		d.Message = fmt.Sprintf("%s of lock key %s without an owner check; %s", c.Command, key, useRefresh(lib))
	}
	if a, src, shared := m.SharedValue(c, k); shared && !c.Overwrites() && !m.TakesOver(c) {
		// As at a release: the remedy takes the lock with the library
		// too, and refresh offers no rewrite that compares this value.
		d.Related = append(d.Related, diag.SharedValue(a, src, lib))
	}
	if fix, ok := refresh(pass, m, c, k); ok {
		d.SuggestedFixes = []analysis.SuggestedFix{fix}
	}
	diag.Report(pass, d)
}

// acquiredElsewhere reports whether the package acquires the same key with
// SETNX / SET NX, which makes a plain SET of it a renewal.
func acquiredElsewhere(m *lockmodel.Model, c *lockmodel.Call, k ast.Expr) bool {
	id := m.KeyID(k)
	for _, a := range m.Calls {
		if a != c && a.Acquires() && a.Key() != nil && m.KeyID(a.Key()) == id {
			return true
		}
	}
	return false
}

// refresh rewrites a go-redis Expire or PExpire whose token is known into
// the library's Refresh(ctx, client, key, token, ttl) for c's client:
// fix.Refresh for go-redis v9, lock.Refresh with the adapter for v8.
// EXPIREAT and PEXPIREAT take a time, not a lease length, and are left to
// the reader, as is a TTL that is not a time.Duration (redigo's seconds,
// rueidis's builder).
func refresh(pass *analysis.Pass, m *lockmodel.Model, c *lockmodel.Call, k ast.Expr) (analysis.SuggestedFix, bool) {
	if !c.Lease || !c.Command.IsExpire() {
		return analysis.SuggestedFix{}, false
	}
	if c.Ctx == nil || c.TTL == nil || !edit.IsDuration(pass.TypesInfo.TypeOf(c.TTL)) {
		return analysis.SuggestedFix{}, false
	}
	token := m.ReleaseToken(c, k)
	if token == "" {
		return analysis.SuggestedFix{}, false
	}
	src := func(e ast.Expr) string { return diag.Source(pass.Fset, e) }
	title := "Renew with " + diag.UseTitle(m.Library(c), "Refresh") + " (owner-checked SET IFEQ or compare-and-PEXPIRE)"
	return edit.LibraryCall(pass, m, c, "Refresh", title, src(c.Ctx), src(k), token, src(c.TTL))
}
