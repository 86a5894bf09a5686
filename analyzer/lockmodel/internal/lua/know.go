package lua

import "strings"

// What the Lua commands a script sends do to a lock, in one place, so that
// the passes ask the model instead of naming commands; and whether a
// script takes its key as SET NX does.

var (
	removes    = map[string]bool{"DEL": true, "UNLINK": true, "HDEL": true} // HDEL: a hash lock's owner field
	extends    = map[string]bool{"EXPIRE": true, "PEXPIRE": true, "EXPIREAT": true, "PEXPIREAT": true}
	increments = map[string]bool{"INCR": true, "INCRBY": true}
	// hashTakes are the writes that create a hash lock with its
	// holder's field (a reentrant lock keeps a hold count per holder):
	// after an EXISTS of the key they take it, as SET does.
	hashTakes = map[string]bool{"HSET": true, "HSETNX": true, "HINCRBY": true, "HMSET": true}
	// members are the commands of a collection of members (a sorted
	// set, a set, a list, a stream): a semaphore's leases, a queue. The
	// key's TTL is the collection's, which no one holder owns.
	members = map[string]bool{
		"ZADD": true, "ZREM": true, "ZSCORE": true, "ZCARD": true, "ZCOUNT": true, "ZRANGE": true, "ZRANGEBYSCORE": true,
		"ZREMRANGEBYSCORE": true, "ZREMRANGEBYRANK": true, "ZINCRBY": true, "ZRANK": true, "ZPOPMIN": true, "ZPOPMAX": true,
		"SADD": true, "SREM": true, "SCARD": true, "SMEMBERS": true, "SPOP": true,
		"LPUSH": true, "RPUSH": true, "LPOP": true, "RPOP": true, "LLEN": true, "LRANGE": true, "LREM": true, "LTRIM": true,
		"XADD": true, "XLEN": true, "XDEL": true, "XTRIM": true,
	}
	// ownerReads are the reads whose reply, compared with the holder's
	// token, checks the owner: GET for string locks, HGET/HEXISTS for hash
	// locks (reentrant locks keep the owner as a field).
	ownerReads = map[string]bool{
		"GET": true, "HGET": true, "HEXISTS": true, "HMGET": true, "SISMEMBER": true, "ZSCORE": true, "LINDEX": true,
		"MGET": true, // its first element, the read of its first key
	}
)

// Removes reports whether the call deletes its key (or a hash lock's
// field) unconditionally.
func (c *Call) Removes() bool { return removes[c.Command] }

// Extends reports whether the call sets its key's TTL.
func (c *Call) Extends() bool { return extends[c.Command] }

// Collects reports whether the call adds, removes, counts or lists the
// members of a collection at its key.
func (c *Call) Collects() bool { return members[c.Command] }

// Increments reports whether the call is a counter increment: in a lock
// script, a fence.
func (c *Call) Increments() bool { return increments[c.Command] }

// Fences reports whether the call can issue a fence: INCR, or INCRBY by
// the literal 1. An INCRBY by an argument moves a quantity (a stock, a
// quota bucket), which nobody compares as a fence.
func (c *Call) Fences() bool {
	switch c.Command {
	case "INCR":
		return true
	case "INCRBY":
		return len(c.Args) == 2 && Literal(c.Args[1]) && c.Args[1][0].Text == "1"
	}
	return false
}

// Stores reports whether the call writes its key's value whoever holds
// it: a SET without NX, a record's write.
func (c *Call) Stores() bool { return c.Command == "SET" && !c.HasFlag("NX") }

// TakesHash reports whether the call writes a hash lock's holder field,
// which creates the key when it is absent.
func (c *Call) TakesHash() bool { return hashTakes[c.Command] }

// ReadsOwner reports whether the call's reply can be compared with a token
// to check the owner.
func (c *Call) ReadsOwner() bool { return ownerReads[c.Command] }

// Acquires reports whether calls[i] takes its key only if it is free:
// SETNX, SET NX, or a SET after an EXISTS of the same key or after a GET
// of it whose reply the script tests for nothing (the free case, often
// with the caller's own value let in again); or, for a
// reentrant hash lock, a write of the holder's field (HINCRBY, HSET)
// after an EXISTS of the key, the acquire Redisson made common.
func Acquires(calls []*Call, i int) bool {
	a := calls[i]
	switch {
	case a.Command == "SETNX":
		return true
	case a.Command == "SETEX" || a.Command == "PSETEX":
		// SET with a TTL and no condition: a take only after the script
		// found the key free.
		return existsBefore(calls[:i], a.Key()) || absentBefore(calls[:i], a)
	case a.Command == "SET":
		if a.HasFlag("NX") {
			return true
		}
		if a.HasFlag("XX") || a.HasFlag("IFEQ") {
			return false
		}
		return existsBefore(calls[:i], a.Key()) || absentBefore(calls[:i], a)
	case a.TakesHash():
		// A hold count stepped down before the key is deleted is a
		// reentrant unlock (HEXISTS, HINCRBY -1, DEL at zero).
		return existsBefore(calls[:i], a.Key()) && !deletedAfter(calls[i+1:], a.Key())
	}
	return false
}

// deletedAfter reports whether one of calls deletes KEYS[k].
func deletedAfter(calls []*Call, k int) bool {
	for _, b := range calls {
		if (b.Command == "DEL" || b.Command == "UNLINK") && b.Key() == k {
			return true
		}
	}
	return false
}

// existsBefore reports whether one of calls asks whether KEYS[k] exists.
func existsBefore(calls []*Call, k int) bool {
	if k == 0 {
		return false
	}
	for _, b := range calls {
		if b.Command == "EXISTS" && b.Key() == k {
			return true
		}
	}
	return false
}

// absentBefore reports whether one of calls is a GET of a's key whose
// reply is tested for nothing before a: the script sets the key when it
// found it free. A GET compared only with a value (a compare-and-refresh)
// is no such test.
func absentBefore(calls []*Call, a *Call) bool {
	k := a.Key()
	if k == 0 {
		return false
	}
	for _, b := range calls {
		// A script that returns when the key is absent sets it only
		// when it is there: an update, not a take.
		if b.Command == "GET" && b.Key() == k && b.AbsentAt >= 0 && b.AbsentAt < a.At && !(b.AbsentExit > 0 && a.At > b.AbsentExit) {
			return true
		}
	}
	return false
}

// Checked reports whether the script compares a read of KEYS[k] with a
// value that can be an owner's before w: the guard of a compare-and-delete
// or a compare-and-renew.
func Checked(calls []*Call, w *Call, k int) bool {
	if k == 0 {
		return false
	}
	for _, g := range calls {
		if g.ReadsOwner() && g.Key() == k && g.CheckedAt >= 0 && g.CheckedAt < w.At {
			return true
		}
	}
	return false
}

// SetsTTL reports whether the script gives a's key a TTL: in the SET
// itself or with an EXPIRE-family command on it.
func SetsTTL(calls []*Call, a *Call) bool {
	if a.Command == "SETEX" || a.Command == "PSETEX" {
		return true
	}
	for _, f := range []string{"PX", "EX", "PXAT", "EXAT"} {
		if a.HasFlag(f) {
			return true
		}
	}
	for _, b := range calls {
		if strings.Contains(b.Command, "EXPIRE") && b.Key() == a.Key() {
			return true
		}
	}
	return false
}

// CommandNames returns the commands whose meaning for a lock this file
// knows, for the contract that passes never quote one themselves.
func CommandNames() []string {
	var out []string
	for _, m := range []map[string]bool{removes, extends, increments, ownerReads} {
		for name := range m {
			out = append(out, name)
		}
	}
	return out
}
