package lockmodel

// Keys that hold sets: a lock is a string key, so a key the package adds
// members to, ranges over or counts as a set or a sorted set is data (a
// queue, an index, a pending list), whatever the function that deletes
// it is called.

import "strings"

// setCommand reports whether u, a command name in upper case, works on a
// set or a sorted set.
func setCommand(u string) bool {
	if strings.HasPrefix(u, "Z") {
		return true
	}
	switch u {
	case "SADD", "SREM", "SMEMBERS", "SISMEMBER", "SMISMEMBER", "SCARD", "SPOP", "SRANDMEMBER", "SMOVE", "SSCAN",
		"SINTER", "SINTERSTORE", "SINTERCARD", "SUNION", "SUNIONSTORE", "SDIFF", "SDIFFSTORE":
		return true
	}
	return false
}

// collectionKey reports whether id is the identity of a key the package
// uses as a set or a sorted set, and never as a string: taken, written,
// read, counted or passed to a script (a ZCARD of a lock key by mistake
// does not make the lock a set).
func (m *Model) collectionKey(id string) bool {
	if len(m.collections) == 0 {
		return false
	}
	if m.collectionIDs == nil {
		m.collectionIDs = map[string]bool{}
		for _, k := range m.collections {
			m.collectionIDs[m.KeyID(k)] = true
		}
		for _, c := range m.Calls {
			switch c.Command {
			case CmdSetNX, CmdSet, CmdGet, CmdGetDel, CmdDelEx, CmdIncr, CmdDecr, CmdEval:
				for _, k := range c.Keys {
					delete(m.collectionIDs, m.KeyID(k))
				}
			}
		}
	}
	return id != "" && m.collectionIDs[id]
}
