// Package unboundedretry defines an Analyzer that reports loops that retry
// a lock acquisition with no bound: no deadline, no context and no limit
// on the number of attempts.
//
// # Analyzer unboundedretry
//
// unboundedretry: report lock acquisition retried in a loop that only success can end
//
// A loop that retries SETNX until it succeeds waits as long as someone
// else holds the lock. When that holder is stuck, or the key was written
// with no TTL, or Redis is unreachable, the loop never ends: the request
// hangs, its goroutine and connection leak, and the caller cannot cancel
// it. With a constant sleep, every waiting worker also retries in
// lockstep, and they all hit Redis at once each time the lock frees.
//
//	for {
//		if rdb.SetNX(ctx, "lock:job", token, ttl).Val() {
//			break
//		}
//		time.Sleep(100 * time.Millisecond) // forever, and in step with every other worker
//	}
//
// Bound the wait and randomize it. fix.Obtain from
// github.com/locklint/locklint/analyzer/fix with fix.WithMaxWait retries
// for that long (fix.WithWait: until the context's deadline), with
// exponential backoff and full jitter, and returns ErrNotObtained when the
// time is up:
//
//	lock, err := fix.Obtain(ctx, rdb, "lock:job", ttl, fix.WithMaxWait(5*time.Second))
//
// Package fix takes a go-redis v9 client; for go-redis v8, redigo,
// rueidis and valkey-go the message names lock.WithMaxWait from the library's
// core, github.com/locklint/locklint/analyzer/fix/lock, with the client's
// adapter (fixredigo.Conn and the like), and for a client with no adapter
// (go-redis v6 and v7, garyburd/redigo, goframe) the core alone.
//
// The acquisitions are SETNX, SET NX and acquire scripts, the helpers
// that send one, and other lock libraries' acquires: redsync's Mutex
// Lock, LockContext, TryLock and TryLockContext, and bsm/redislock's
// Obtain. Each of those tries a bounded number of times and reports
// failure, so a loop that calls one again until it succeeds waits as
// long as the lock is held.
//
// A loop is bounded when one of its exits (the loop condition, a break, a
// return, a goto, a panic) is guarded by one of:
//
//   - a context: ctx.Done() in a select, ctx.Err(), context.Canceled, or
//     the acquisition's own error when the context it takes was made with
//     context.WithTimeout or WithDeadline (or derived from one) before the
//     loop, on every path to it: the acquisition fails once the deadline
//     passes (a context with no deadline, one that may or may not have
//     one, or one made afresh in each iteration is no bound);
//   - the clock against an instant fixed before the loop or in its
//     init: a comparison holding exactly one clock reading taken in the
//     loop, such as time.Now().After(deadline), time.Since(start) > limit
//     (for start := time.Now(); time.Since(start) < limit; is one) or
//     time.Until(deadline) > 0 (a deadline recomputed from the clock in
//     the loop moves with it and bounds nothing; so does one that is never
//     compared with a fresh reading);
//   - a timer or time.After channel made before the loop or in its init,
//     or a shutdown channel, received in a select (a time.After made in
//     the loop starts again every iteration);
//   - a flag that a timer sets: one that a function given to
//     time.AfterFunc, or a goroutine after a receive from a time channel
//     or a sleep, writes, started before the loop on every path to it,
//     and that the loop does not write itself;
//   - an attempt counter the loop steps and compares (for i := 0; i < n;
//     i++, attempts++ then if attempts > max, n%batch == 0 in an inner
//     loop whose counter an outer loop bounds); a counter declared in the
//     body, or reset there on every iteration, bounds nothing;
//   - a helper that does one of these, in this package or another (it
//     carries a fact), a method or a closure assigned once to a local
//     variable: one whose boolean result (or error, when it has no
//     boolean) depends on a context, also when it sends commands itself
//     (a single-flight follower that reads the leader's lock and returns
//     the context's error once it is done); on the clock against its receiver,
//     its arguments or the variables it captures, when those are not
//     rebuilt in the loop (w := newWindow(d) before the loop, then
//     w.Over()), directly or through another such helper asked about
//     what it holds (r.w.Over(), not newWindow(d).Over()); on an attempt argument the loop steps (policy.Allow(i));
//     on a budget its pointer receiver holds and the call spends
//     (b.Take(); a value receiver spends a copy); or on integer fields of
//     its receiver that the loop steps. A helper whose result is the same
//     constant on every return (a policy whose Next never says stop)
//     bounds nothing.
//
// A select case on a ticker made before the loop whose body leaves the
// loop (a return, or a break or goto to a label outside it) ends the wait
// at the first tick, and is a bound.
//
// time.Sleep, a ticker used for pacing, a counter that is never compared
// and an exit on a Redis error (but the deadline's, above) are not
// bounds: none of them ends the wait while the lock is held by someone
// else. Ranges over an integer
// (for range n, for i := range cfg.Attempts) are bounded.
//
// Acquisition is an acquire command (SETNX, SET NX) or a call to a
// function that acquires and returns a bool or an error, in this package
// or another: such functions carry a fact, so a loop around
// locker.TryLock(ctx, id) is found when TryLock lives elsewhere. So do the
// methods of the package's interfaces that an implementation in the
// package acquires through (a Manager whose AcquireLock is SETNX behind
// New), and functions that hand an acquirer, as a function value, to a
// poll or retry helper of another package that returns an error
// (PollUntilContextCancel(ctx, period, true, l.tryLock)). A call
// whose result is discarded is not a retry.
//
// A retry loop is one where a failed acquire leads back to another
// acquire and a successful one leaves the loop. The outcome is read on
// the control-flow graph: the acquire's bool is true on success, its
// error nil, a SET reply "OK"; conditions on them are followed along the
// path; a condition the outcome decides in a way not read (a count the
// work returns) is followed both ways on success when neither way can
// leave the loop (it only chooses whether to sleep before the next
// pass). A loop that goes on after getting the lock acquires once per
// iteration and is not a retry: a periodic job that tries the lock on
// each tick, logs when it is busy and waits for the next tick; a claim
// per item that skips a busy one; a for b.Loop() benchmark that fails on
// a busy lock. A loop that goes on after getting the lock only because
// the exit it has for that can never be taken (if err != nil && ok, when
// every error comes with false) is a retry all the same. Nor is a loop
// whose key comes from a value received in the iteration (j := <-jobs):
// a failure moves on to the next item. Loops over a slice, map, string
// or non-time channel make
// one attempt per item and are not retry loops; a loop with no exit at
// all is a long-running worker, not a retry, and is left alone, unless
// it never blocks of its own (no sleep, receive, send or select) and its
// acquisition takes a context from outside the loop: once that context
// is done every attempt fails at once, and the loop spins for ever. That
// loop is reported as repeating the acquisition with no exit. Each loop
// is reported once, at the innermost unbounded loop around the
// acquisition.
//
// Retry by recursion is reported too: a function that, after a failed
// acquire, calls itself again (usually after a sleep), where no branch
// that decides whether to make that call is a bound. An attempt
// parameter that the call passes stepped (attempt+1, left-1), a context
// passed down unchanged and tested (ctx.Done() in a select, ctx.Err()),
// or a deadline passed down unchanged and compared with the clock bound
// it. As in a loop, an exit on the acquire's own error under the
// caller's context is none: that context may have no deadline, and the
// calls go on while the lock is held. A walk that recurses
// whether or not it got the lock is not a retry, nor is a call that
// passes another value for a parameter the function switches or
// branches on (a fallback to a plan it handles otherwise).
package unboundedretry
