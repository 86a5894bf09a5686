// Package plainpexpire defines an Analyzer that reports lock leases
// extended or rewritten without an atomic check of who holds the lock.
//
// # Analyzer plainpexpire
//
// plainpexpire: report EXPIRE/PEXPIRE and plain SET of a lock key with no atomic owner check
//
// A lease renewal (a watchdog, a Refresh or Extend method) must extend the
// lock only while this holder still owns it. A plain PEXPIRE does not
// know who that is: if this holder paused (GC, a slow call, a network
// stall) past its lease, the key expired and another worker acquired it,
// and the PEXPIRE now extends that worker's lock. If this holder then
// crashes, the other worker's lease is whatever this one asked for.
//
//	for range ticker.C {
//		rdb.PExpire(ctx, "lock:job", 30*time.Second) // extends whoever holds the lock now
//	}
//
// Reading the value first and extending after a comparison is two round
// trips and has the same race between them:
//
//	if rdb.Get(ctx, key).Val() == token {
//		rdb.PExpire(ctx, key, ttl) // the lock may have passed to someone else by now
//	}
//
// A SET of a lock key without NX is worse: it overwrites whoever holds the
// lock with this holder's value. As the acquire itself, two workers that
// SET the key both think they hold the lock; as a renewal of a key that is
// acquired elsewhere with NX, a holder whose lease expired takes the lock
// back from the next holder. So does GETSET (the old "expiry in the
// value" lock's takeover of a key whose stored time has passed), which
// also drops the key's TTL. Acquire with SET NX PX (fix.Obtain) and renew
// with an owner check.
//
// Renew with one atomic, owner-checked command: SET key token IFEQ token
// PX ttl on servers that have it, or a compare-and-PEXPIRE Lua script.
// fix.Refresh and (*fix.Lock).Refresh from
// github.com/locklint/locklint/analyzer/fix do that and pick what the
// server supports:
//
//	for range ticker.C {
//		if err := fix.Refresh(ctx, rdb, "lock:job", token, 30*time.Second); err != nil {
//			return err // the lock is lost: stop the work it protects
//		}
//	}
//
// Package fix takes a go-redis v9 client; for go-redis v8, redigo, rueidis
// and valkey-go the message names the core, lock.Refresh from
// github.com/locklint/locklint/analyzer/fix/lock, and the client's
// adapter (fixgoredis8.Client, fixredigo.Conn, fixrueidis.Client,
// fixvalkey.Client). Clients with no adapter (go-redis v6 and v7,
// garyburd/redigo, goframe) are told lock.Refresh, which takes a
// lock.Client of their own.
//
// An expiry that ends the key at once (EXPIREAT with the present time,
// EXPIRE 0) renews nothing: it is a delete, which unconditionaldel
// reports.
//
// A Refresh, Renew or Extend method renews a lock when its type is named
// for one, or when the type's other methods acquire (SET NX) a key their
// caller names and release one (a bus driver's Acquire, Release and
// Refresh), whatever the key is called; a method named Expire does not,
// as a client wrapper's Expire serves every key.
//
// Keys that are not locks (sessions, caches, rate limits) are left alone,
// as are renewals through a Lua script, SET with IFEQ or IFDEQ (go-redis
// SetIFEQ, SetIFDEQ, SetArgs with Mode IFEQ or IFDEQ), a
// GET-compare-PEXPIRE queued in the transaction of a WATCH on the key, an
// EXPIRE that setnxexpire already reports as the second half of
// SETNX-then-EXPIRE (not one on the take's miss after a GET compared
// with the holder's value, which renews a lease the take did not set
// and is reported as two round trips; the miss is the else of a test of
// the take's reply, or what follows an if on its success that returns),
// an EXPIRE that runs only when a TTL read found the
// key with none (ttl == -1: a waiter bounding a key whose holder died
// between its SETNX and its EXPIRE, which cuts no holder's lease), an
// EXPIRE in a function that ends the holding (ReleaseLock, Done), or
// deferred by the function that took the key itself, of a key that
// nothing in the package deletes and no loop renews (a processing marker
// kept for redeliveries after the job is done, an idempotency record
// whose TTL the middleware sets again on the way out), a plain SET with
// no TTL of a lock that nothing in the package gives a lease (a task's
// heartbeat timestamp on a key taken with SET NX and no expiry: there is
// nothing to extend, and the missing lease is setnxexpire's), a plain
// SET that only a holder of another key makes (in the function that acquired it,
// or one that every caller reaches only after an acquire: a record of
// who holds it, or a version written beside it), a plain SET of a
// constant other than every constant the package's acquires of the key
// store (an idempotency claim's "processing" overwritten with
// "processed": the record's next state, where a renewal writes the
// holder's value again; or with the result the taking function made
// after its take, the payment's id), a SET of a key whose value the package reads
// back and decodes as a record (an idempotency store's Commit of the
// response over its in-flight entry, which its Load decodes), a plain
// SET with a TTL of a constant to a key built here from a constant text
// that no other command of the package touches and that the function
// hands to no other code (a hold-off flag that keeps another package's
// scheduler off a device for its receive window: this package holds
// nothing under it), and writes in _test.go
// files, which often set up a lock held by someone else (set -tests to
// check those too).
//
// When the token the lock was acquired with is known at the renewal (the
// value of a SETNX / SET NX of the same key in the same function, or in a
// method of the same type) and the call is a go-redis v9 or v8 Expire or
// PExpire with a duration whose error alone is used, the suggested fix
// rewrites it to fix.Refresh (v9) or to lock.Refresh through
// fixgoredis8.Client (v8). redigo and rueidis take the TTL as a number of
// seconds or milliseconds, which the fix does not convert.
package plainpexpire
