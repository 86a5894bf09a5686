// Package donebranch pins a release in the branch that runs once its
// context is done: a writer that waits for readers to drain gives its
// writer key back when the wait is cancelled, under the very context
// just seen to be done, so the client fails the script without sending
// it and the writer key stays for its TTL, blocking every reader and
// writer. The near misses release under a context of their own, or in
// the branch where the wait ran out but the context is live.
package donebranch

import (
	"context"
	"errors"
	"time"

	"github.com/redis/go-redis/v9"
)

const unlock = `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) end return 0`

var errReaders = errors.New("readers did not drain")

type RW struct{ rdb *redis.Client }

func (rw *RW) readers(ctx context.Context, key string) int64 {
	return rw.rdb.HLen(ctx, "readers:"+key).Val()
}

func (rw *RW) Lock(ctx context.Context, key, token string, wait time.Duration) error { // want Lock:"releases under parameter 0"
	writer := "writer:" + key
	ok, err := rw.rdb.SetNX(ctx, writer, token, 5*time.Minute).Result()
	if err != nil || !ok {
		return errors.Join(err, errors.New("writer held"))
	}
	deadline := time.Now().Add(wait)
	for rw.readers(ctx, key) > 0 {
		if time.Now().After(deadline) {
			rw.rdb.Eval(ctx, unlock, []string{writer}, token)
			return errReaders
		}
		select {
		case <-ctx.Done():
			rw.rdb.Eval(ctx, unlock, []string{writer}, token) // want "EVAL under `ctx` in the branch where `ctx` is done \\(line 41\\)"
			return ctx.Err()
		case <-time.After(10 * time.Millisecond):
		}
	}
	return nil
}

func (rw *RW) LockErr(ctx context.Context, key, token string) error { // want LockErr:"releases under parameter 0"
	writer := "writer:" + key
	ok, err := rw.rdb.SetNX(ctx, writer, token, 5*time.Minute).Result()
	if err != nil || !ok {
		return errors.Join(err, errors.New("writer held"))
	}
	for rw.readers(ctx, key) > 0 {
		if ctx.Err() != nil {
			rw.rdb.Del(ctx, writer) // want "DEL under `ctx` in the branch where `ctx` is done \\(line 57\\)"
			return ctx.Err()
		}
		time.Sleep(10 * time.Millisecond)
	}
	return nil
}

// Near miss (silent): the clean-up has a context of its own.
func (rw *RW) LockDetached(ctx context.Context, key, token string) error {
	writer := "writer:" + key
	ok, err := rw.rdb.SetNX(ctx, writer, token, 5*time.Minute).Result()
	if err != nil || !ok {
		return errors.Join(err, errors.New("writer held"))
	}
	for rw.readers(ctx, key) > 0 {
		select {
		case <-ctx.Done():
			ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Second)
			rw.rdb.Eval(ctx, unlock, []string{writer}, token)
			cancel()
			return errors.New("cancelled")
		case <-time.After(10 * time.Millisecond):
		}
	}
	return nil
}
