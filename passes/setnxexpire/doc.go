// Package setnxexpire defines an Analyzer that reports locks acquired with
// SETNX (or SET NX without a TTL) whose expiry is set by a separate
// EXPIRE, or never set at all.
//
// # Analyzer setnxexpire
//
// setnxexpire: report SETNX followed by a separate EXPIRE, and lock keys acquired with no TTL
//
// A lock taken with SETNX and given its TTL by a later EXPIRE is two
// commands. If the process dies, is killed or loses its connection between
// them, the key never expires and every later acquire fails forever. The
// EXPIRE also runs when SETNX failed, so it extends the lease of whoever
// holds the lock now; queued with the SETNX in a pipeline or MULTI, it is
// sent whatever the SETNX replies, so it always does. An INCR whose reply
// is compared with 1 is an acquire too, and so is a GETSET whose old
// value is compared with "" (the caller that found the key empty holds
// it): its EXPIRE runs only for the winner, but a crash between the two
// still leaves a key with no TTL.
//
//	ok, _ := rdb.SetNX(ctx, "lock:job", token, 0).Result()
//	rdb.Expire(ctx, "lock:job", 30*time.Second) // a crash before this line leaves a permanent lock
//
// Set the TTL in the acquire itself, which Redis applies atomically
// (SET key token NX PX ttl):
//
//	ok, _ := rdb.SetNX(ctx, "lock:job", token, 30*time.Second).Result()
//
// or use fix.Obtain from github.com/locklint/locklint/analyzer/fix, which
// also generates a fresh token per acquisition and retries with bounded,
// jittered backoff.
//
// Package fix takes a go-redis v9 client; for go-redis v8, redigo,
// rueidis and valkey-go the message names lock.Obtain from the library's
// core, github.com/locklint/locklint/analyzer/fix/lock, with the client's
// adapter (fixredigo.Conn and the like), and for a client with no adapter
// (go-redis v6 and v7, garyburd/redigo, goframe) the core alone.
//
// The analyzer also reports SETNX with no expiry at all on a lock key:
// if the holder dies, the lock is never released. A TTL variable that is
// zero unless one branch sets it (ttl := time.Duration(0); if opts.TTL !=
// nil { ttl = *opts.TTL }) gives no expiry by default, and is reported
// with that branch's line. SETNX without a TTL on a
// key that is not a lock (a one-time marker), or on a lock-named key that
// nothing in the package deletes, expires or releases (an init guard
// taken once for good; a lock function's key is its callers' to release,
// and stays reported), is left alone, as is an
// EXPIRE of the same key in another function, which is a lease renewal
// (see plainpexpire). So is a marker's take and its EXPIRE of a day or
// more, when nothing gives the key back but a delete that undoes the take
// on a failed run (a webhook's "processed" claim kept for a week on
// success): a crash between the two leaves for good a marker that would
// have stayed the week anyway, and keeps out only what it kept out. So
// is a SETNX whose reply nothing reads, followed by an EXPIRE that runs
// whatever it said, on a key that nothing names or uses as a lock (a
// login's session marker, set if absent and re-expired at each login):
// it takes nothing.
//
// The suggested fix moves the TTL into the SetNX call and deletes the
// EXPIRE statement when the TTL expression is in scope at the SetNX and
// the EXPIRE is a statement of its own.
package setnxexpire
