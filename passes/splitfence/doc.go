// Package splitfence defines an Analyzer that reports fencing tokens drawn
// from a counter in a separate round trip from the lock acquire.
//
// # Analyzer splitfence
//
// splitfence: report a fence counter INCR that is not atomic with the lock acquire
//
// A fencing token is a number that grows with every acquisition of a lock;
// the protected resource rejects writes that carry a number smaller than
// one it has already accepted, which stops a holder whose lease expired
// while it was paused. That works only if each number is issued to the
// acquisition it belongs to. Drawn with an INCR after the SETNX, in a
// second round trip, it is not: a holder that pauses between the two
// draws its fence after its lease expired and another holder acquired
// and drew its own, so the stale holder now carries the newest fence and
// the resource accepts its late write.
//
//	if ok, _ := rdb.SetNX(ctx, "lock:{sku42}", token, ttl).Result(); ok {
//		fence, _ := rdb.Incr(ctx, "lock:{sku42}:fence").Result() // a pause before this line: a stale holder gets the newest fence
//		return store.Write(ctx, fence, v)
//	}
//
// An INCR before the acquire is no better: fences are then not ordered
// like acquisitions, and a holder can win the lock with a smaller fence
// than the stale holder it replaced. Issue the fence in the same Lua
// script as the acquire, as fix.Obtain from
// github.com/locklint/locklint/analyzer/fix does with WithFencing (a
// counter key derived from the lock key, in the same Cluster slot) or
// WithFenceKey (a counter key of your own):
//
//	l, err := fix.Obtain(ctx, rdb, "lock:{sku42}", ttl, fix.WithFencing())
//	if err != nil {
//		return err
//	}
//	defer l.Release(ctx)
//	return store.Write(l.Context(), l.Fence(), v)
//
// Package fix takes a go-redis v9 client; for go-redis v8, redigo,
// rueidis and valkey-go the message names lock.WithFencing from the
// library's core, github.com/locklint/locklint/analyzer/fix/lock, with the
// client's adapter (fixredigo.Conn and the like), and for a client with no
// adapter (go-redis v6 and v7, garyburd/redigo, goframe) the core alone.
//
// The analyzer reports an INCR (or INCRBY) of a fence counter in a
// function that also acquires a lock key with SETNX / SET NX, or calls a
// function of the package that does, and in an unexported helper that
// such a function calls after its acquire (an acquireEpoch(ctx,
// leaderEpochKey(topic)) whose every call names the counter). A counter is a fence counter when
// its key names a fence ("fence", "fencing"), when it names the lock and
// a counter of its owners ("lock:{sku}:epoch", lockKey+":seq": "token",
// "epoch", "generation", "gen", "seq", "sequence", "version", "term"), or
// when its reply is stored in a variable or field named for a fence
// (fence, l.token), unless that reply is written into the function's own
// lock value (owner + "|" + n, compared again on release): a number that
// only makes the value unique is a token's part, not a fence, unless the
// key or the variable names a fence. A version counter of the data itself ("doc:42:version")
// is work done under the lock, not a fence, and is left alone, as are
// INCRs of rate-limit and statistics keys.
//
// An INCR queued with the SET NX in one MULTI/EXEC (TxPipelined, a redigo
// MULTI, a rueidis DoMulti between Multi and Exec) is atomic with the
// acquire and stays silent: it also runs when NX fails, which leaves gaps
// in the fences, but a fencing resource compares fences and does not mind
// gaps. So does an INCR queued in a transaction that WATCHes the lock key,
// since EXEC aborts if the lock changed hands, and an INCR inside a Lua
// script, which is the fix. A plain pipeline is not a transaction and is
// reported: its commands are sent together but run one by one (on a
// Cluster the two keys may even sit on different nodes), so the fence is
// not tied to the acquisition it numbers.
//
// There is no suggested fix: moving to fix.Obtain with fencing changes how
// the lock is held and released, and the fence must reach the resource.
package splitfence
