// Package unguardedscript defines an Analyzer that reports Lua scripts
// that delete or renew a lock key without checking who holds it.
//
// # Analyzer unguardedscript
//
// unguardedscript: report DEL/UNLINK/EXPIRE/PEXPIRE of a lock key in a Lua script with no owner check
//
// Moving a release into a Lua script makes it atomic, not safe: the script
// must still check that the lock is this holder's. A script that deletes
// or renews the key outright has the bug of a plain DEL or PEXPIRE: if
// this holder paused past its lease and another worker took the lock, the
// script removes or extends that worker's lock.
//
//	var unlock = redis.NewScript(`return redis.call('DEL', KEYS[1])`)
//	unlock.Run(ctx, rdb, []string{"lock:" + job})
//
// Compare the value with the holder's token in the same script:
//
//	var unlock = redis.NewScript(`if redis.call('GET', KEYS[1]) == ARGV[1] then
//	  return redis.call('DEL', KEYS[1])
//	end
//	return 0`)
//	unlock.Run(ctx, rdb, []string{"lock:" + job}, token)
//
// or call fix.Release and fix.Refresh from
// github.com/locklint/locklint/analyzer/fix, which do that (or DELEX IFEQ
// and SET IFEQ where the server has them); for other clients, lock.Release
// and lock.Refresh from its core, analyzer/fix/lock, with the client's
// adapter.
//
// The script text is read when it is constant (literals, constants,
// concatenations of them) or a string variable filled by //go:embed, and
// given directly to EVAL or through redis.NewScript / rueidis.NewLuaScript,
// a variable or a struct field. Keys are KEYS[n], directly or through a
// local (local key = KEYS[1]); redis.call and redis.pcall, in any case.
// An owner check is a read of the same key (GET, HGET, HEXISTS...)
// compared with == or ~= against a value that is not a literal (ARGV[1],
// a local), before the write, or a field of the reply decoded with
// cjson.decode or cmsgpack.unpack so compared (local lock =
// cjson.decode(val); if lock.owner == ARGV[1]); a reply compared with a
// constant reads a state, not an owner.
//
// A script is about a lock when the Go key passed at that KEYS index is a
// lock key (see the lockwords flag), when the script itself acquires the
// key (SETNX, SET ... NX), or when it names the key through a Lua local
// with a lock word (local lock_key = KEYS[1]). A write after the script's
// own acquire of the key (SETNX then EXPIRE in one script) is atomic and
// not reported, and neither is a key named by the lock's own token (a
// record idKey(id) that the acquire script writes beside the lock key
// holding id: no other acquisition names it), nor the TTL of a key the script counts with
// INCR first (a sequence or a rate window), or keeps members in (a
// sorted set of a semaphore's leases, a list), which no holder owns.
// Nor is a delete, after the owner check of a key the script takes, of
// a record the script keeps beside that lock: a key it writes only with
// a plain SET and that nothing in the package takes (a ticket's key
// naming the seat its ticket holds, cleared with the seat's hold).
//
// The finding is reported where the script's text is written (the
// literal, the constant, or the //go:embed variable) and names the Lua
// line. The check is token based, not a Lua parser: it does not see
// whether the write sits inside the if of the comparison.
package unguardedscript
