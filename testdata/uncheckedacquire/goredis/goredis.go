package goredis

import (
	"context"
	"errors"
	"time"

	"github.com/redis/go-redis/v9"
)

func work() {}

func unlock(ctx context.Context, rdb *redis.Client, key string) { rdb.Del(ctx, key) }

// The acquire as a statement: the work runs whatever SETNX replied.
func discardedStatement(ctx context.Context, rdb *redis.Client, token string) {
	rdb.SetNX(ctx, "lock:report", token, time.Minute) // want "result of SET NX discarded: the code after it runs whether or not the lock was taken; check it, or use `fix\\.Obtain`$"
	work()
	rdb.Del(ctx, "lock:report")
}

// Near miss: the same acquire, its reply tested.
func checkedStatement(ctx context.Context, rdb *redis.Client, token string) {
	if !rdb.SetNX(ctx, "lock:report", token, time.Minute).Val() {
		return
	}
	work()
	rdb.Del(ctx, "lock:report")
}

// Assigned to _.
func discardedBlank(ctx context.Context, rdb *redis.Client, token string) {
	_ = rdb.SetNX(ctx, "lock:report", token, time.Minute) // want "result of SET NX discarded"
	work()
}

// Only the error is checked: SetNX gives false and a nil error when
// another worker holds the key.
func errOnly(ctx context.Context, rdb *redis.Client, token string) error {
	if err := rdb.SetNX(ctx, "lock:report", token, time.Minute).Err(); err != nil { // want "only the error of SET NX is checked, but a held lock gives false \\(0\\) and no error; check the reply, or use `fix\\.Obtain`$"
		return err
	}
	work()
	return nil
}

// The same through Result, the reply blank.
func errOnlyBlank(ctx context.Context, rdb *redis.Client, token string) error {
	_, err := rdb.SetNX(ctx, "lock:report", token, time.Minute).Result() // want "only the error of SET NX is checked"
	if err != nil {
		return err
	}
	work()
	return nil
}

// Near miss: the error and the reply are both tested.
func errAndOK(ctx context.Context, rdb *redis.Client, token string) error {
	ok, err := rdb.SetNX(ctx, "lock:report", token, time.Minute).Result()
	if err != nil {
		return err
	}
	if !ok {
		return errors.New("busy")
	}
	work()
	return nil
}

// Near miss: SET NX through SetArgs gives redis.Nil as the error when the
// key is held, so the error check is the miss check.
func setArgsErrOnly(ctx context.Context, rdb *redis.Client, token string) error {
	if err := rdb.SetArgs(ctx, "lock:report", token, redis.SetArgs{Mode: "NX", TTL: time.Minute}).Err(); err != nil {
		return err
	}
	work()
	return nil
}

// Near miss: the same through Do.
func doErrOnly(ctx context.Context, rdb *redis.Client, token string) error {
	if err := rdb.Do(ctx, "set", "lock:report", token, "nx", "px", 60000).Err(); err != nil {
		return err
	}
	work()
	return nil
}

// ok is never read.
func okUnread(ctx context.Context, rdb *redis.Client, token string) error {
	ok, err := rdb.SetNX(ctx, "lock:report", token, time.Minute).Result() // want "only the error of SET NX is checked"
	_ = ok
	if err != nil {
		return err
	}
	work()
	return nil
}

// ok and the error both unread.
func bothUnread(ctx context.Context, rdb *redis.Client, token string) {
	ok := rdb.SetNX(ctx, "lock:report", token, time.Minute).Val() // want "`ok` from SET NX is never read: the code after it runs whether or not the lock was taken; return when it is not taken$"
	_ = ok
	work()
	unlock(ctx, rdb, "lock:report")
}

// ok only decides whether the release is deferred; the work runs anyway.
func okChoosesDefer(ctx context.Context, rdb *redis.Client, token string) error {
	ok, err := rdb.SetNX(ctx, "lock:report", token, time.Minute).Result() // want "`ok` from SET NX only decides whether to defer the release: the work runs without the lock too; return when it is not taken$"
	if err != nil {
		return err
	}
	if ok {
		defer rdb.Del(ctx, "lock:report")
	}
	work()
	return nil
}

// Near miss: ok guards the work itself.
func okGuardsWork(ctx context.Context, rdb *redis.Client, token string) {
	ok, _ := rdb.SetNX(ctx, "lock:report", token, time.Minute).Result()
	if ok {
		defer rdb.Del(ctx, "lock:report")
		work()
	}
}

// Near miss: a switch on the reply.
func switched(ctx context.Context, rdb *redis.Client, token string) {
	ok, err := rdb.SetNX(ctx, "lock:report", token, time.Minute).Result()
	switch {
	case err != nil, !ok:
		return
	}
	work()
	rdb.Del(ctx, "lock:report")
}

// Near miss: a retry loop until the lock is taken.
func retried(ctx context.Context, rdb *redis.Client, token string) {
	ok := false
	for !ok {
		ok = rdb.SetNX(ctx, "lock:report", token, time.Minute).Val()
		time.Sleep(10 * time.Millisecond)
	}
	work()
	rdb.Del(ctx, "lock:report")
}

// Near miss: the reply is sent to whoever decides.
func sent(ctx context.Context, rdb *redis.Client, token string, out chan<- bool) {
	ok, _ := rdb.SetNX(ctx, "lock:report", token, time.Minute).Result()
	out <- ok
	work()
	rdb.Del(ctx, "lock:report")
}

type attempt struct{ taken bool }

// Near miss: the reply is stored in a field.
func stored(ctx context.Context, rdb *redis.Client, token string, a *attempt) {
	a.taken = rdb.SetNX(ctx, "lock:report", token, time.Minute).Val()
	work()
	rdb.Del(ctx, "lock:report")
}

// Near miss: returned to a caller that checks it.
func tryLock(ctx context.Context, rdb *redis.Client, token string) (bool, error) {
	return rdb.SetNX(ctx, "lock:report", token, time.Minute).Result()
}

// A helper that returns only the error: false, nil becomes nil, and every
// caller proceeds.
func Lock(ctx context.Context, rdb *redis.Client, key, token string) error {
	return rdb.SetNX(ctx, key, token, time.Minute).Err() // want "`Lock` returns only the error of SET NX, nil when another holds the lock, so its callers proceed; return whether it was taken$"
}

// Near miss: a helper over SET NX through SetArgs, whose error is
// redis.Nil when the key is held.
func LockArgs(ctx context.Context, rdb *redis.Client, key, token string) error {
	return rdb.SetArgs(ctx, key, token, redis.SetArgs{Mode: "NX", TTL: time.Minute}).Err()
}

// Near miss: a default value set if absent, a key nothing deletes.
func defaultConfig(ctx context.Context, rdb *redis.Client) {
	rdb.SetNX(ctx, "config:lock_timeout", "30s", 0)
	work()
}

// Near miss: a one-time marker whose function does nothing after it.
func markOnce(ctx context.Context, rdb *redis.Client, id string) {
	rdb.SetNX(ctx, "lock:migrated:"+id, "1", 24*time.Hour)
}

// Near miss: the acquire is the last thing before returning.
func onlyReturns(ctx context.Context, rdb *redis.Client, token string) error {
	_ = rdb.SetNX(ctx, "lock:report", token, time.Minute)
	return nil
}

// Near miss: a cache key filled if absent and read back, not a lock.
func cacheFill(ctx context.Context, rdb *redis.Client, v string) string {
	rdb.SetNX(ctx, "cache:feed", v, time.Minute)
	work()
	return rdb.Get(ctx, "cache:feed").Val()
}
