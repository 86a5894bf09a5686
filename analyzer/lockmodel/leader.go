package lockmodel

// Leader leases: a lock a process takes to act for all of them.

import "go/ast"

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
