// Package lockoutcounter pins an account lockout counter whose key says
// "lock": failed logins are counted with INCR, the first one starts the
// window's TTL, and an operator clears the count with DEL. Nothing is
// taken, so the DEL resets a count and no owner can be checked. The twin
// key is a lock taken with INCR (the caller that makes it 1 holds it),
// whose plain DEL removes whoever holds it now.
package lockoutcounter

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

const maxFailures = 5

func failuresKey(user string) string { return "auth:lock:" + user }

// RecordFailure counts a failed login; the count only starts the window.
func RecordFailure(ctx context.Context, rdb *redis.Client, user string) error {
	k := failuresKey(user)
	n, err := rdb.Incr(ctx, k).Result()
	if err != nil {
		return err
	}
	if n == 1 {
		rdb.Expire(ctx, k, 15*time.Minute)
	}
	return nil
}

// LockedOut reads the count back as data.
func LockedOut(ctx context.Context, rdb *redis.Client, user string) bool {
	n, _ := rdb.Get(ctx, failuresKey(user)).Int()
	return n >= maxFailures
}

// Unblock is the operator's reset of the count.
func Unblock(ctx context.Context, rdb *redis.Client, user string) {
	rdb.Del(ctx, failuresKey(user))
}

// The direct form: the window starts in the condition itself.
func RecordSignupAttempt(ctx context.Context, rdb *redis.Client, ip string) {
	if rdb.Incr(ctx, "signup:lock:"+ip).Val() == 1 {
		rdb.PExpire(ctx, "signup:lock:"+ip, time.Hour)
	}
}

func ClearSignupAttempts(ctx context.Context, rdb *redis.Client, ip string) {
	rdb.Del(ctx, "signup:lock:"+ip)
}

// Must report: INCR taken as a lock, released with a plain DEL.
func RunReport(ctx context.Context, rdb *redis.Client, id string, work func()) bool {
	k := "report:lock:" + id
	n, err := rdb.Incr(ctx, k).Result()
	if err != nil || n != 1 {
		return false
	}
	rdb.Expire(ctx, k, time.Minute)
	defer rdb.Del(ctx, k) // want "DEL of lock key `k` without an owner check"
	work()
	return true
}

// One helper makes both kinds of key: its constant argument tells them
// apart, so the lock's DEL is still reported beside the count's reset.
func key(kind, id string) string { return "svc:lock:" + kind + ":" + id }

func RecordRefusal(ctx context.Context, rdb *redis.Client, ip string) {
	if n, _ := rdb.Incr(ctx, key("refusals", ip)).Result(); n == 1 {
		rdb.Expire(ctx, key("refusals", ip), time.Hour)
	}
}

func ResetRefusals(ctx context.Context, rdb *redis.Client, ip string) {
	rdb.Del(ctx, key("refusals", ip))
}

func UnlockJob(ctx context.Context, rdb *redis.Client, job string) {
	rdb.Del(ctx, key("job", job)) // want "DEL of lock key `key\\(\"job\", job\\)` without an owner check"
}

// A tracker whose count of 1 starts the window and whose count is also
// held against its threshold and handed back; the reset on a good login
// clears a count.
type Tracker struct {
	rdb         *redis.Client
	maxFailures int
}

func lockKey(user string) string { return "app:auth:lockout:" + user }

func (t *Tracker) RecordFailure(ctx context.Context, user string) (int, error) {
	k := lockKey(user)
	count, err := t.rdb.Incr(ctx, k).Result()
	if err != nil {
		return 0, err
	}
	if count == 1 {
		_ = t.rdb.Expire(ctx, k, 15*time.Minute)
	}
	if int(count) >= t.maxFailures {
		if err := t.rdb.Expire(ctx, k, time.Hour).Err(); err != nil {
			return int(count), err
		}
	}
	return int(count), nil
}

func (t *Tracker) Reset(ctx context.Context, user string) error {
	return t.rdb.Del(ctx, lockKey(user)).Err()
}
