// Package unconditionaldel defines an Analyzer that reports lock releases
// that delete the lock key without checking who owns it.
//
// # Analyzer unconditionaldel
//
// unconditionaldel: report DEL/UNLINK/GETDEL of a lock key with no atomic owner check
//
// A lock is released by the holder that took it. A plain DEL does not know
// who that is: if this holder paused (GC, a slow call, a network stall)
// past its lease, the key expired and another worker acquired it, and the
// DEL now deletes that worker's lock. A third worker then gets in too, and
// mutual exclusion is gone.
//
//	defer rdb.Del(ctx, "lock:job")
//
// An expiry that ends the key at once (EXPIREAT with the present time,
// EXPIRE 0) is a DEL by another name, and is reported as one; so is
// GETDEL, which deletes whatever the key holds and returns it.
//
// Reading the value first and deleting after a comparison is two round
// trips and has the same race between them:
//
//	if rdb.Get(ctx, key).Val() == token {
//		rdb.Del(ctx, key) // the lock may have passed to someone else by now
//	}
//
// A comparison with a part of the key's own name ("otp:" + order, kept
// only when the value equals order) while every acquire of keys of that
// shape stores something else never holds: the delete it guards never
// runs, the key is a record, and nothing is reported.
//
// A compare-and-delete script given, as its owner, the value a GET has
// just read from the key it deletes checks nothing: the key always holds
// what was read from it (but for a change between the two round trips),
// so the script deletes whoever holds the lock, and is reported too.
//
// Release with one atomic, owner-checked command: DELEX key IFEQ token on
// Redis 8.4+, or the compare-and-delete Lua script on older servers.
// fix.Release from github.com/locklint/locklint/analyzer/fix does both
// and picks the one the server supports:
//
//	defer fix.Release(ctx, rdb, "lock:job", token)
//
// Package fix takes a go-redis v9 client. For go-redis v8, redigo, rueidis
// and valkey-go the message names the library's core, package lock
// (github.com/locklint/locklint/analyzer/fix/lock), and the client's
// adapter, each a module of its own:
//
//	defer lock.Release(ctx, fixredigo.Conn(conn), "lock:job", token)
//
// (fixgoredis8.Client, fixredigo.Conn or fixredigo.Pool,
// fixrueidis.Client, fixvalkey.Client). go-redis v6 and v7,
// garyburd/redigo and goframe have no adapter; their message names
// lock.Release, which takes a lock.Client the code would implement.
//
// Keys that are not locks (caches, sessions, one request's dedupe
// record (not a key built from a lock text and a user's or account's
// id, lock:payment:<user>, whatever its variable is called: all the
// user's requests contend for it), a verification code read, compared with what the user typed
// (code, otpCode, req.Captcha, or a local defined from the request:
// verifyCode := strings.TrimSpace(in.Input("verify_code"))) and deleted, or, in a package that takes
// no key exclusively, compared with a value made there rather than a
// token a caller or a handle holds, a marker whose take is undone only
// when the work failed
// (err != nil, or a handler's recorded errors: len(c.Errors) > 0),
// however many failure paths delete it, directly or through an undo
// that deletes nothing else (a function literal bound for it, rollback
// := func() { ... }, or a helper of the package called only on such
// paths, clearPending(user)), while the success branch returns
// with the key kept, a key whose value the package reads back and
// decodes as a record (json.Unmarshal of a GET: an idempotency store's
// entry, a player's queued parameters; not a key-value helper's
// GetObj(key), whose key is whatever its callers name under a prefix),
// and every key given to a store type that decodes what it reads) are
// left alone. Such an undo is a release when
// another function of the package gives the same keys back and the take's
// lease is short enough to lapse within a slow request (at most five
// minutes): a longer lease, or one set out of sight in a script, cannot
// have lapsed on the failure path that follows the take. One DEL that
// clears a record written with a plain SET together with a flag taken
// with SETNX (a disconnect marker and its takeover flag) resets state
// and gives back no lock; nor does a DEL sent right before its
// function's SETNX of the same key whose reply nothing reads (a sign-in
// code replaced: the write always lands, so the NX takes nothing from
// anyone; a tested reply is a take, and the DEL before it deletes
// whoever holds the lock). Nor does a loop
// that only deletes the keys its
// own function took and kept in a local slice, in the branch that then
// returns an error (a request that takes one hold per seat gives back
// those it took when a later seat is held by another): they were taken
// a few round trips before, by this call. A lockout flag set with SETNX
// whose reply nobody reads, when a count of failures reaches its limit
// (the count read from an INCR, also one queued in a MULTI), is a state
// like one set with a plain SET: its DEL after a good login is a reset,
// also when the flag's key comes in as a parameter from one key maker
// per flow. One request's key is a lock all the same when its name
// says so, its lease is short enough to lapse within a slow request (at
// most five minutes) and its taker defers the delete on every path: an
// idempotency middleware's in-flight lock, whose plain DEL removes a
// retry's lock. Also left alone are releases through a Lua script, DELEX
// with IFEQ, a GET-compare-DEL queued in the transaction of a WATCH on
// the key (a DEL sent straight on the watched connection, with no MULTI,
// is no such release), a delete in a function named
// for forcing a release (ForceRelease beside an owner-checked Release,
// which deletes whoever holds the key by design) or whose doc comment
// says it forces one ("Unlock force-clears the migration lock"), a
// delete in the branch of an if whose condition names forcing (if
// req.Force, if c.Query("force") == "1": an operator clearing a lock a
// dead run left), the
// release of a lock
// that every acquire takes with no TTL and nothing gives one (no lease can
// lapse, so no later holder can be deleted; setnxexpire reports the
// acquire; Lock(key) and Unlock(key) of one type are one key; so is a
// delete, in the function that took the key with no TTL, of a key that
// nothing gives one, in a package whose other locks have leases), a probe
// (a key that says nothing of a lock, written with SETNX and deleted by
// the next statement), a delete on a guard clause right after its own
// function's take of a lease of ten seconds or more and the check of its
// reply, in a function that releases the key again after the work (an
// if with no else that ends the path, with only assignments,
// declarations and other such guards between the take and it: a
// poller's exit on an expired task or a missing channel, before the
// work starts; nothing between can outlast the lease, and the lock's
// defect is reported once, at the release after the work), a key named
// by another lock's token (a waiter's
// own marker), a key the package uses as a set or a sorted set, a sweep
// that deletes only keys a TTL read found with no expiry (ttl == -1, or
// -2 as well) in a package whose every acquire sets a TTL, a reset (a
// function that deletes two or more fixed lock keys, sends nothing else
// and takes none of them, called by no function that took one first: a
// cron process clearing its job locks before its scheduler starts), and
// cleanup in _test.go files (set -tests to check those too).
//
// When the token the lock was acquired with is known at the DEL (the value
// of a SETNX / SET NX of the same key in the same function, or in a method
// of the same type), the call takes a context and only its error is used,
// the suggested fix rewrites it to fix.Release, or to lock.Release with
// the client's adapter, adding the imports. A client with no adapter, a
// receiver the adapter does not take (a pipeline, a redis.Cmdable, a
// rueidis dedicated connection) and redigo's Do, which takes no context,
// get no fix. Nor does a lock taken with a value every holder stores (a
// constant, the host name or process id, a clock reading: what
// constanttoken calls non-unique): an owner check with that value passes
// for every holder, so the remedy takes the lock with fix.Obtain too. The
// finding's second place, the acquire (the one in the same function or
// type, or the take a caller pairs the delete's helper with), says so,
// and constanttoken, when nothing compares that value, leaves the lock's
// one defect to this finding:
//
//	if !rdb.SetNX(ctx, "lock:job", "1", time.Minute).Val() { // taken with the constant "1", which every holder stores; take it with fix.Obtain
//		return
//	}
//	defer rdb.Del(ctx, "lock:job") // DEL of lock key "lock:job" without an owner check; release with fix.Release (...)
package unconditionaldel
