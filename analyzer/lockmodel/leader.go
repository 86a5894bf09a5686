package lockmodel

// Leader leases: a lock a process takes to act for all of them.

import (
	"go/ast"
	"go/types"

	"github.com/locklint/locklint/internal/typesx"
)

// LeaderKey reports whether key is a leader lease ("cron:leader",
// "election:" + shard): a lock a process takes to act for all of them. Its
// holder is the process, so an identity drawn once per process is a token
// unique to its holder, and a standby that waits for the lease without a
// deadline waits by design.
func (m *Model) LeaderKey(key ast.Expr) bool {
	return m.keys != nil && key != nil && m.keys.names(key, leaderWords, 0, map[ast.Node]bool{})
}

// LeaderName reports whether a function's name speaks of leadership
// (tryBecomeLeader, campaign helpers named for the election).
func (m *Model) LeaderName(name string) bool { return leaderWords.MatchText(name) }

// leaderWords mark a leader lease among lock keys: its holder is a
// process, not a critical section, so the process's own identity is its
// token and a standby waits for it without end. A "singleton" key is the
// lease of the one replica that runs a scheduler or a consumer.
var leaderWords = newWords([]string{"leader", "election", "elector", "elect", "singleton"})

// LeaderAcquire reports whether c takes a leader lease: its key says so
// (LeaderKey), or the function that takes it says what the take makes the
// process, in the name of a variable or field it writes (s.IsMaster =
// true, isLeader := ok), of the lease's TTL (masterKeepTime) or of the
// function itself (TryAcquireMaster): a job master's key "spr:" + job is
// a leader lease all the same.
func (m *Model) LeaderAcquire(c *Call) bool {
	if m.LeaderKey(c.Key()) {
		return true
	}
	if c.Func == nil {
		return false
	}
	named := func(e ast.Expr) bool {
		found := false
		ast.Inspect(e, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok && roleWords.MatchText(id.Name) {
				switch m.Pass.TypesInfo.ObjectOf(id).(type) {
				case *types.Var, *types.Const:
					found = true
				}
			}
			return !found
		})
		return found
	}
	if c.TTL != nil && named(c.TTL) {
		return true
	}
	// A function named for the role it takes (TryAcquireMaster,
	// becomeLeader) takes a lease for its process.
	if c.Decl != nil && roleWords.MatchText(c.Decl.Name.Name) {
		return true
	}
	found := false
	ast.Inspect(c.Func, func(n ast.Node) bool {
		if as, ok := n.(*ast.AssignStmt); ok {
			for _, l := range as.Lhs {
				if id := namedIdent(l); id != nil && roleWords.MatchText(id.Name) && typesx.IsBool(m.Pass.TypesInfo.TypeOf(id)) {
					found = true
				}
			}
		}
		return !found
	})
	return found
}

// roleWords name the role a leader lease gives its holder, in the names
// of flags and TTLs around the take.
var roleWords = newWords([]string{"leader", "master", "primary", "elected", "singleton"})
