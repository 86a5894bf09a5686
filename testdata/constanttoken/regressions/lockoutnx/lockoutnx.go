// Package lockoutnx pins an anti-guessing lockout of a binding flow: each
// wrong code is counted with INCR in a MULTI (the count and its window),
// and when the count reaches five the flag "bind_lock:<qq>" is set with
// SETNX, whose reply nobody reads (it only keeps the first lockout's
// TTL), then read with EXISTS before any code is compared, and deleted
// with the counter once a code matches. The keys come in as parameters
// from one key maker each. The flag is a state written by whoever saw the
// fifth failure and cleared by whoever binds: no one holds it, so its
// constant value guards nothing: silent. The unbind flow shares the
// helpers with its own keys. The twin takes a mutex on the same user
// with SETNX of a constant around the compare: reported.
package lockoutnx

import (
	"context"
	"errors"
	"time"

	"github.com/redis/go-redis/v9"
)

var ErrLocked = errors.New("too many wrong codes, try again later")

type Binder struct {
	rdb *redis.Client
}

func bindLockKey(qq string) string { return "bind_lock:" + qq }
func bindFailKey(qq string) string { return "bind_fail:" + qq }
func bindCodeKey(qq string) string { return "bind_code:" + qq }

func unbindLockKey(qq string) string { return "unbind_lock:" + qq }
func unbindFailKey(qq string) string { return "unbind_fail:" + qq }

func (b *Binder) checkLock(ctx context.Context, lockKey string) error {
	n, err := b.rdb.Exists(ctx, lockKey).Result()
	if err != nil || n == 0 {
		return nil
	}
	return ErrLocked
}

func (b *Binder) recordFailure(ctx context.Context, failKey, lockKey string) {
	pipe := b.rdb.TxPipeline()
	incr := pipe.Incr(ctx, failKey)
	pipe.Expire(ctx, failKey, 10*time.Minute)
	if _, err := pipe.Exec(ctx); err != nil {
		return
	}
	if incr.Val() >= 5 {
		_ = b.rdb.SetNX(ctx, lockKey, "1", 30*time.Minute).Err()
		_ = b.rdb.Del(ctx, failKey).Err()
	}
}

func (b *Binder) clearFailures(ctx context.Context, failKey, lockKey string) {
	_ = b.rdb.Del(ctx, failKey).Err()
	_ = b.rdb.Del(ctx, lockKey).Err()
}

// Near miss (silent): the lockout's flag is cleared after a good code.
func (b *Binder) Confirm(ctx context.Context, qq, code string) error {
	lockKey := bindLockKey(qq)
	failKey := bindFailKey(qq)
	if err := b.checkLock(ctx, lockKey); err != nil {
		return err
	}
	want, err := b.rdb.Get(ctx, bindCodeKey(qq)).Result()
	if err != nil {
		return err
	}
	if want != code {
		b.recordFailure(ctx, failKey, lockKey)
		return errors.New("wrong code")
	}
	b.clearFailures(ctx, failKey, lockKey)
	return nil
}

// Near miss (silent): the unbind flow's flag, through the same helpers.
func (b *Binder) ConfirmUnbind(ctx context.Context, qq, code, want string) error {
	lockKey := unbindLockKey(qq)
	failKey := unbindFailKey(qq)
	if err := b.checkLock(ctx, lockKey); err != nil {
		return err
	}
	if want != code {
		b.recordFailure(ctx, failKey, lockKey)
		return errors.New("wrong code")
	}
	b.clearFailures(ctx, failKey, lockKey)
	return nil
}

// Must report: a mutex on the user, taken around the bind and given back
// with an owner check that its constant passes for every holder.
func (b *Binder) Bind(ctx context.Context, qq, code string, bind func() error) error {
	key := "bind_mutex:" + qq
	ok, err := b.rdb.SetNX(ctx, key, "1", 5*time.Second).Result() // want "acquired with a non-unique token \\(the constant `\"1\"`\\)"
	if err != nil || !ok {
		return ErrLocked
	}
	defer b.rdb.Eval(ctx, unlock, []string{key}, "1")
	if err := b.Confirm(ctx, qq, code); err != nil {
		return err
	}
	return bind()
}

const unlock = `if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) end return 0`
