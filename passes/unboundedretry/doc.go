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
// A loop is bounded when one of its exits (the loop condition, a break, a
// return, a goto, a panic) is guarded by a context (ctx.Done() in a
// select, ctx.Err(), context.Canceled), by time (a deadline compared with
// time.Now, time.Since or time.Until; time.After or a timer channel in a
// select), by a shutdown channel received in a select, or by an attempt
// counter the loop increments and compares (for i := 0; i < n; i++,
// attempts++ then if attempts > max). Ranges over an integer are bounded.
// time.Sleep, a ticker used for pacing, a counter that is never compared
// and an exit on a Redis error are not bounds: none of them ends the wait
// while the lock is held by someone else.
//
// Acquisition is an acquire command (SETNX, SET NX) or a call to a
// function that acquires and returns a bool or an error, in this package
// or another: such functions carry a fact, so a loop around
// locker.TryLock(ctx, id) is found when TryLock lives elsewhere. A call
// whose result is discarded is not a retry. Loops over a slice, map,
// string or non-time channel make one attempt per item and are not retry
// loops; a loop with no exit at all is a long-running worker, not a
// retry, and is left alone. Each loop is reported once, at the innermost
// unbounded loop around the acquisition.
package unboundedretry
