// Package lock is a small Redis lock library, the target of locklint's
// suggested fixes, for any Redis client: it sends its commands through
// Client, a small interface of its own. Package fix (module
// github.com/locklint/locklint/analyzer/fix) takes go-redis v9 clients
// directly and gives the same API under its own name; fixgoredis8,
// fixredigo, fixrueidis and fixvalkey make a Client of a go-redis v8,
// redigo, rueidis or valkey-go client, each in a module of its own, so
// that a service's module graph holds only the client it uses. This
// module requires nothing outside the standard library.
//
// # API
//
//	c := fixredigo.Pool(pool) // or fix.Client(rdb), fixrueidis.Client(rc), ...
//	l, err := lock.Obtain(ctx, c, "lock:{sku42}", 30*time.Second,
//		lock.WithFencing(), lock.WithMaxWait(5*time.Second))
//	if err != nil {
//		return err // errors.Is(err, lock.ErrNotObtained): someone else has it
//	}
//	defer l.Release(ctx)
//	return store.Write(l.Context(), l.Fence(), feed)
//
// or, with renewal and release handled:
//
//	err := lock.Do(ctx, c, "lock:{sku42}", 30*time.Second, func(ctx context.Context) error {
//		return rebuild(ctx)
//	})
//
// Hand-rolled code that keeps its own token can use the function forms
// Release(ctx, client, key, token) and Refresh(ctx, client, key, token, ttl).
//
// # What it guarantees
//
//   - Acquire is SET key token NX PX ttl (or one script doing the same
//     plus the fence INCR), one round trip per attempt; a first attempt
//     that finds the key taken reads it (GET) to tell its own earlier copy
//     from another owner, and a wait's later polls send SET NX PX GET (the
//     script before Redis 7.0), one round trip each. The token is 128 random bits from crypto/rand, fresh per
//     acquisition. A lease is always set: a zero or negative TTL is an
//     error, never a permanent lock.
//   - Acquire is idempotent. go-redis re-sends a command whose reply it
//     lost (MaxRetries, 3 by default), and so may any client or proxy
//     that retries; a copy that finds the caller's own
//     token counts as the same acquisition and, with fencing, returns the
//     fence issued with it, never a second one: the value of the lock's own
//     counter, which moves only when the lock changes hands, or, for a
//     counter given with WithFenceKey (which other locks may share), the
//     fence recorded next to the lock (same slot, same TTL). When every copy fails, Obtain removes its token before it
//     returns (the error says whether it could).
//   - Release and Refresh act only for the token's owner and never
//     recreate an expired key. Release uses DELEX key IFEQ token on servers
//     that have it (Redis 8.4+) and a compare-and-delete script elsewhere;
//     Refresh uses SET key token IFEQ token PX ttl or a compare-and-PEXPIRE
//     script. Support is learnt from the first reply, per server address
//     and user, and then costs nothing. A key that does not hold the token
//     gives ErrNotHeld. A re-sent Refresh finds its token and extends
//     again, so a lost reply is harmless. A re-sent Release finds the key
//     gone: ErrNotHeld from Release means the token was not in the key when
//     the delete ran, possibly because the first copy had deleted it; after
//     nil or ErrNotHeld the token is not in the key either way.
//   - Release runs even when the caller's context is cancelled: it is
//     detached from cancellation and bounded by a timeout (2 s by default).
//     Once a Lock is released or found not held, later calls send nothing.
//   - Every bound holds with any client, including one built with default
//     options. A client whose Info says it does not end commands at the
//     context's deadline is waited for on a goroutine. go-redis without
//     ContextTimeoutEnabled ignores context deadlines for socket I/O and
//     waits up to its ReadTimeout (3 s by default in go-redis v9.18, 5 s in
//     v9.23) per try, so on such a client the library runs each command on
//     a goroutine and stops waiting at the deadline (clients with
//     ContextTimeoutEnabled are called directly). A context that can be
//     cancelled but has no deadline (a request's, often) gives no client a
//     socket deadline, so a command under it is waited for on a goroutine
//     with every client, and the call returns at the cancellation.
//     A command cut off that way is not cancelled: its goroutine ends when
//     the client gives up on it, within its ReadTimeout, and a cut-off
//     acquire then removes its token if it took the lock (one more
//     ReadTimeout at most). If the network is still down by then, the
//     removal can fail or overtake the acquire in transit, and the token
//     stays until its TTL. InFlight counts such commands. The goroutine
//     costs a handoff per command (an uncontended Obtain and Release cycle
//     took about twice as long on loopback); a client with
//     ContextTimeoutEnabled avoids it. The error says the outcome is unknown: a cut-off
//     Refresh may still extend the lease on the server (never Until), a
//     cut-off Release may still delete the key. A client that does end a
//     command at the deadline may still send it after (its bytes were
//     queued or in transit): an Obtain whose attempt was cut off that way
//     says its token may remain until the lease ends, makes no further
//     attempt, and gives up a lock a release handed to it meanwhile
//     instead of returning it, since the attempt could set the token
//     again after that lock's release. A
//     waiter whose hand-off a release's timeout cut off says the same when
//     its wait ends first: the hand-off may still set its token.
//   - Obtain tries once unless told to wait (WithMaxWait, or WithWait under
//     a context deadline), and never waits unboundedly. Waiting callers
//     queue, first come first served, and do not poll a held lock: a
//     release hands the lock to the next waiter of its process in the same
//     script, or reserves it for the next queued process and wakes it by
//     pub/sub, so the releaser does not win every race (see Obtain). A
//     queued process asks the server again when the lock's lease ends and
//     at the latest after Backoff.Cap, so a missed wake-up or a holder that
//     died delays it that long at most. When an attempt fails with its
//     outcome unknown before the deadline, Obtain spends up to the release
//     timeout (no later than the deadline) removing its token.
//   - With WithFencing, each acquisition gets a fence number greater than
//     every earlier one for that counter (on the assumption below). The
//     acquire and the INCR run in one script, so a fence is issued only
//     with ownership. Lock and counter keys share a hash tag, hence a
//     Cluster slot; a caller-supplied counter key in another slot is
//     rejected with ErrCrossSlot before anything is sent.
//   - Fence counters do not pile up, one per key ever locked: a counter
//     lives 24 hours from its start (its TTL is set then and never renewed,
//     which would cost every fence a command), so none outlives its last
//     fence by more than a day. A fence whose INCR finds the counter below
//     1e15 starts it: the counter is missing (new, expired, evicted or
//     deleted) or from before counters had a life, and it is set to the
//     server's clock, TIME in microseconds since 1970 (about 1.8e15: fences
//     are large from the first, well within int64 and a float64's exact
//     integers), which is the fence issued. Otherwise the INCR is the
//     fence. So a key in use gets a new start once a day, its fences
//     jumping ahead to the clock. The scripts call TIME before writing,
//     which needs scripts replicated by their effects: the default from
//     Redis 5, the only mode from Redis 7.
//   - Lock.Context ends, with cause ErrLost, when a renewal finds the key
//     gone or the local lease (Until) runs out; the lease is measured from
//     the start of the attempt that won, on the monotonic clock, so it ends
//     no later than the server's copy does.
//   - Bad input (nil client, empty key or token, bad TTL, invalid options,
//     an already-cancelled context in Obtain or Refresh) returns a sentinel
//     error before any command is sent.
//
// # What it does not guarantee
//
//   - A lease is not mutual exclusion. A holder paused (GC, CPU starvation,
//     a slow call) past its lease keeps running while the next owner works.
//     Context and the watchdog narrow that window; they cannot close it.
//   - Fencing protects only a resource that checks the fence: it must
//     reject a write whose fence is not greater than the last it accepted,
//     atomically with the write (see FencedResource for the SQL form).
//   - Redis replication is asynchronous. A failover can lose a lock (two
//     owners at once) and recent fence increments (a fence issued twice, or
//     numbers going backwards until the counter passes them again). The
//     downstream check turns the latter into rejected writes, not corrupt
//     ones. WithReplicas (WAIT) and WithFsyncedReplicas (WAITAOF) make
//     the acquire, its fence and each renewal wait until N replicas have
//     them, and fail an Obtain that gets fewer acknowledgments: that
//     narrows the window, but WAIT is not consensus (a replica that
//     acknowledged can still lose the write, or not be the one promoted).
//     Needs beyond that call for a sequence source with stronger
//     failover guarantees.
//   - A counter that starts again issues fences above its old ones on one
//     assumption: between the old start S and the new start S' (both read
//     from the server's clock, in microseconds) no more fences were
//     issued than microseconds passed. The old counter issued S, S+1, ..., S+n-1
//     (a counter from before counters had a life issued fences below 1e15,
//     less than any S), the new one issues S' first, and S+n-1 < S'
//     exactly when n <= S'-S. That holds as long as a key gets fewer than
//     one fence per microsecond on average (a million a second, beyond what
//     a server runs scripts at) and the clock does not go back by more than
//     the margin this leaves: after an expiry, a day less a microsecond per
//     fence issued; after a deletion or an eviction, the time the counter
//     lived less a microsecond per fence. A failover to a server whose
//     clock is behind counts as the clock going back. So use the
//     noeviction maxmemory policy (any other can now evict counters, as
//     it always could locks), and never set a counter by hand. A counter that expires between an acquire and a copy
//     of it re-sent after a lost reply makes that Obtain fail (the fence
//     issued with the lock is gone), never issue a second fence.
//   - This is a single-instance lock, not Redlock.
//
// # Keys
//
// Besides the lock key, WithFencing uses a counter key (which lives a day
// from its start, see above), WithFenceKey also a fence record (the fence issued
// with the current lock, with the lock's TTL), and waiting callers of several processes a queue key (a JSON array of the
// processes' entries, with a TTL of four Backoff.Cap plus the
// reservation time after its last change) and a pub/sub channel. All are
// derived to share the lock key's slot: "lock:{sku42}" ->
// "lock:{sku42}:fence", "lock:{sku42}:fenced", "lock:{sku42}:queue" and
// the channel "lock:{sku42}:wake"; a key without a hash tag is wrapped,
// "feed" -> "{feed}:fence", "{feed}:fenced", "{feed}:queue" and
// "{feed}:wake". While the lock is reserved for a queued process, the lock
// key holds that process's entry instead of a token.
//
// # ACL
//
// A restricted user needs, on the lock, fence, fence record and queue
// keys:
//
//	+set +get +mget +del +pexpire +pttl +incr +time +eval +evalsha
//
// plus +delex on Redis 8.4 and later (without it, release falls back to the
// script; GET, MGET, DEL, PEXPIRE, PTTL, INCR and TIME are called from
// inside the scripts, which Redis checks against the user too: without
// +time, a fenced Obtain fails whenever its counter is missing). Waiters of
// several processes are woken by pub/sub when the user may also
//
//	+publish +spublish +subscribe +ssubscribe +unsubscribe +sunsubscribe +ping &*:wake
//
// (a Cluster client uses the shard forms); without that they find a
// reserved lock by asking again, within Backoff.Cap. The library sends no
// SCRIPT LOAD (EVALSHA falls back to EVAL), no COMMAND and no INFO. A
// Cluster client itself also needs +cluster|slots. WithReplicas needs
// +wait, WithFsyncedReplicas +waitaof.
package lock
