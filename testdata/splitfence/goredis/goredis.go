package goredis

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
)

const ttl = 30 * time.Second

var errBusy = errors.New("busy")

// The fence is drawn after the acquire, in a second round trip.
func afterSetNX(ctx context.Context, rdb *redis.Client, sku, token string) (int64, error) {
	ok, err := rdb.SetNX(ctx, "lock:{"+sku+"}", token, ttl).Result()
	if err != nil || !ok {
		return 0, errBusy
	}
	return rdb.Incr(ctx, "lock:{"+sku+"}:fence").Result() // want "INCR of fence `\"lock:\\{\" \\+ sku \\+ \"\\}:fence\"` after the SET NX on line 18 is a separate round trip; use `fix\\.WithFencing`"
}

// Before the acquire: fences are not ordered like acquisitions.
func beforeSetNX(ctx context.Context, rdb *redis.Client, name, token string) (int64, error) {
	fence, err := rdb.Incr(ctx, fmt.Sprintf("fence:%s", name)).Result() // want "INCR of fence `fmt\\.Sprintf\\(\"fence:%s\", name\\)` before the SETNX on line 31 is a separate round trip"
	if err != nil {
		return 0, err
	}
	if !rdb.SetNX(ctx, fmt.Sprintf("lock:%s", name), token, 0).Val() {
		return 0, errBusy
	}
	return fence, nil
}

// SET NX through SetArgs, INCRBY of the fencing counter.
func setArgs(ctx context.Context, rdb redis.UniversalClient, job, token string) (int64, error) {
	if err := rdb.SetArgs(ctx, "jobs:"+job+":lock", token, redis.SetArgs{Mode: "NX", TTL: ttl}).Err(); err != nil {
		return 0, err
	}
	return rdb.IncrBy(ctx, "jobs:"+job+":fencing", 1).Result() // want "INCR of fence `\"jobs:\" \\+ job \\+ \":fencing\"` after the SET NX on line 39 is a separate round trip"
}

// A counter of the lock's owners, named after the lock key.
func epoch(ctx context.Context, rdb *redis.Client, lockKey, token string) int64 {
	if !rdb.SetNX(ctx, lockKey, token, ttl).Val() {
		return 0
	}
	return rdb.Incr(ctx, lockKey+":epoch").Val() // want "INCR of fence `lockKey \\+ \":epoch\"` after the SET NX on line 47 is a separate round trip"
}

// A leader's term, next to the leader key.
func leaderTerm(ctx context.Context, rdb redis.UniversalClient, svc, id string) (int64, bool) {
	if !rdb.SetNX(ctx, "leader:{"+svc+"}", id, ttl).Val() {
		return 0, false
	}
	return rdb.Incr(ctx, "leader:{"+svc+"}:generation").Val(), true // want "INCR of fence `\"leader:\\{\" \\+ svc \\+ \"\\}:generation\"` after the SET NX on line 55 is a separate round trip"
}

// The key says nothing, but the reply is the fence.
func namedReply(ctx context.Context, rdb *redis.Client, job, token string) (int64, error) {
	if !rdb.SetNX(ctx, "lock:"+job, token, ttl).Val() {
		return 0, errBusy
	}
	fence, err := rdb.Incr(ctx, "jobs:"+job+":n").Result() // want "INCR of fence `\"jobs:\" \\+ job \\+ \":n\"` after the SET NX on line 63 is a separate round trip"
	return fence, err
}

// Stored into a field named for the token.
type Lease struct {
	Name  string
	Token int64
}

func leaseToken(ctx context.Context, rdb *redis.Client, name, owner string) *Lease {
	if !rdb.SetNX(ctx, "lease:"+name, owner, ttl).Val() {
		return nil
	}
	return &Lease{Name: name, Token: rdb.Incr(ctx, "lease:"+name+":counter").Val()} // want "INCR of fence `\"lease:\" \\+ name \\+ \":counter\"` after the SET NX on line 77 is a separate round trip"
}

// Methods of a locker type, the fence key a field.
type FencedLock struct {
	rdb      redis.UniversalClient
	key      string
	fenceKey string
	token    string
}

func (l *FencedLock) Lock(ctx context.Context) (int64, error) {
	ok, err := l.rdb.SetNX(ctx, l.key, l.token, ttl).Result()
	if err != nil {
		return 0, err
	}
	if !ok {
		return 0, errBusy
	}
	return l.rdb.Incr(ctx, l.fenceKey).Result() // want "INCR of fence `l\\.fenceKey` after the SET NX on line 92 is a separate round trip"
}

// The acquire is in a helper of the package.
func (l *FencedLock) tryLock(ctx context.Context) (bool, error) {
	return l.rdb.SetNX(ctx, l.key, l.token, ttl).Result()
}

func (l *FencedLock) LockViaHelper(ctx context.Context) (int64, error) {
	if ok, err := l.tryLock(ctx); err != nil || !ok {
		return 0, errBusy
	}
	return l.rdb.Incr(ctx, l.fenceKey).Result() // want "INCR of fence `l\\.fenceKey` after `tryLock` on line 108 is a separate round trip"
}

// Queued in one pipeline, but a pipeline is not a transaction.
func pipelined(ctx context.Context, rdb *redis.ClusterClient, sku, token string) (int64, error) {
	var fence *redis.IntCmd
	var ok *redis.BoolCmd
	_, err := rdb.Pipelined(ctx, func(pipe redis.Pipeliner) error {
		ok = pipe.SetNX(ctx, "lock:{"+sku+"}", token, ttl)
		fence = pipe.Incr(ctx, "lock:{"+sku+"}:fence") // want "INCR of fence `\"lock:\\{\" \\+ sku \\+ \"\\}:fence\"` is pipelined with the SET NX on line 119, not in a transaction"
		return nil
	})
	if err != nil || !ok.Val() {
		return 0, errBusy
	}
	return fence.Val(), nil
}

// The acquire is a command of its own; only the INCR is in a transaction.
func txAfter(ctx context.Context, rdb *redis.Client, sku, token string) error {
	if !rdb.SetNX(ctx, "lock:"+sku, token, ttl).Val() {
		return errBusy
	}
	_, err := rdb.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
		pipe.Incr(ctx, "fence:"+sku) // want "INCR of fence `\"fence:\" \\+ sku` after the SET NX on line 131 is a separate round trip"
		pipe.Set(ctx, "audit:"+sku, token, 0)
		return nil
	})
	return err
}

// Inside a closure of the acquiring function.
func inClosure(ctx context.Context, rdb *redis.Client, token string, retry func(func() error) error) (int64, error) {
	if !rdb.SetNX(ctx, "mutex:billing", token, ttl).Val() {
		return 0, errBusy
	}
	var fence int64
	err := retry(func() error {
		var err error
		fence, err = rdb.Incr(ctx, "mutex:billing:fence").Result() // want "INCR of fence `\"mutex:billing:fence\"` after the SET NX on line 144 is a separate round trip"
		return err
	})
	return fence, err
}

// The fence is known by the constant's name, not by its text.
const fenceCounterPrefix = "fc:"

func namedConst(ctx context.Context, rdb *redis.Client, sku, token string) (int64, error) {
	if !rdb.SetNX(ctx, "lock:{"+sku+"}", token, ttl).Val() {
		return 0, errBusy
	}
	return rdb.Incr(ctx, fenceCounterPrefix+sku).Result() // want "INCR of fence `fenceCounterPrefix \\+ sku` after the SET NX on line 160 is a separate round trip"
}

// ... or by the type whose field holds the key.
type FenceCounter struct{ key string }

func (c *FenceCounter) next(ctx context.Context, rdb *redis.Client, sku, token string) (int64, error) {
	if !rdb.SetNX(ctx, "lock:{"+sku+"}", token, ttl).Val() {
		return 0, errBusy
	}
	return rdb.Incr(ctx, c.key).Result() // want "INCR of fence `c\\.key` after the SET NX on line 170 is a separate round trip"
}

// Near misses.

// A counter type that names no fence.
type HitCounter struct{ key string }

func (c *HitCounter) next(ctx context.Context, rdb *redis.Client, sku, token string) int64 {
	if !rdb.SetNX(ctx, "lock:{"+sku+"}", token, ttl).Val() {
		return 0
	}
	return rdb.Incr(ctx, c.key).Val()
}

// The fix: acquire and INCR in one script.
var acquireFenced = redis.NewScript(`
if not redis.call("SET", KEYS[1], ARGV[1], "NX", "PX", ARGV[2]) then return 0 end
return redis.call("INCR", KEYS[2])`)

func script(ctx context.Context, rdb *redis.Client, sku, token string) (int64, error) {
	return acquireFenced.Run(ctx, rdb, []string{"lock:{" + sku + "}", "lock:{" + sku + "}:fence"}, token, ttl.Milliseconds()).Int64()
}

// SET NX and INCR in one MULTI/EXEC: atomic; the INCR also runs when NX
// fails, leaving a gap in the fences, which is harmless.
func txTogether(ctx context.Context, rdb *redis.Client, sku, token string) (int64, error) {
	var ok *redis.BoolCmd
	var fence *redis.IntCmd
	_, err := rdb.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
		ok = pipe.SetNX(ctx, "lock:{"+sku+"}", token, ttl)
		fence = pipe.Incr(ctx, "lock:{"+sku+"}:fence")
		return nil
	})
	if err != nil || !ok.Val() {
		return 0, errBusy
	}
	return fence.Val(), nil
}

// The same with a TxPipeline variable.
func txPipeline(ctx context.Context, rdb redis.UniversalClient, sku, token string) (int64, error) {
	pipe := rdb.TxPipeline()
	ok := pipe.SetNX(ctx, "lock:{"+sku+"}", token, ttl)
	fence := pipe.Incr(ctx, "lock:{"+sku+"}:fence")
	if _, err := pipe.Exec(ctx); err != nil || !ok.Val() {
		return 0, errBusy
	}
	return fence.Val(), nil
}

// The INCR in a transaction that WATCHes the lock, after checking the
// owner: EXEC aborts if the lock changed hands.
func watched(ctx context.Context, rdb *redis.Client, key, token string) (int64, error) {
	if !rdb.SetNX(ctx, key, token, ttl).Val() {
		return 0, errBusy
	}
	var fence *redis.IntCmd
	err := rdb.Watch(ctx, func(tx *redis.Tx) error {
		if tx.Get(ctx, key).Val() != token {
			return errBusy
		}
		_, err := tx.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
			fence = pipe.Incr(ctx, key+":fence")
			return nil
		})
		return err
	}, key)
	if err != nil {
		return 0, err
	}
	return fence.Val(), nil
}

// Counters that are not fences, next to an acquire.
func rateLimit(ctx context.Context, rdb *redis.Client, user, token string) error {
	if !rdb.SetNX(ctx, "lock:user:"+user, token, ttl).Val() {
		return errBusy
	}
	rdb.Incr(ctx, "ratelimit:"+user)
	rdb.Incr(ctx, "lock:stats:attempts")
	return nil
}

// The data's own version, bumped under the lock: the protected work.
func bumpVersion(ctx context.Context, rdb *redis.Client, doc, token string) (int64, error) {
	if !rdb.SetNX(ctx, "lock:doc:"+doc, token, ttl).Val() {
		return 0, errBusy
	}
	version, err := rdb.Incr(ctx, "doc:"+doc+":version").Result()
	return version, err
}

// "leaderboard" is not a lock word: its version is data.
func leaderboard(ctx context.Context, rdb *redis.Client, token string) {
	if rdb.SetNX(ctx, "lock:scores", token, ttl).Val() {
		rdb.Incr(ctx, "leaderboard:version")
	}
}

// A fence counter with no acquire in the function.
func nextFence(ctx context.Context, rdb *redis.Client, name string) int64 {
	return rdb.Incr(ctx, "fence:"+name).Val()
}

// A fence counter next to a SETNX of a key that is not a lock.
func dedupe(ctx context.Context, rdb *redis.Client, id string) int64 {
	if !rdb.SetNX(ctx, "seen:"+id, 1, time.Hour).Val() {
		return 0
	}
	return rdb.Incr(ctx, "seen:fence").Val()
}

// Suppressed with a reason.
func suppressed(ctx context.Context, rdb *redis.Client, token string) int64 {
	if !rdb.SetNX(ctx, "lock:report", token, ttl).Val() {
		return 0
	}
	//locklint:ignore splitfence the report store does not check fences; the number only labels the run
	return rdb.Incr(ctx, "lock:report:fence").Val()
}
