// Package lockouthelper pins a mail service's account lockout: a failed
// login counts with INCR, and when the count reaches five the counter's
// function calls LockAccount, which writes "account_lock:<email>" with a
// plain SET for 30 minutes; the login reads its TTL, and UnlockAccount
// deletes it. The flag is a state written by whoever saw the fifth
// failure, through a helper every call of which sits under the count:
// nobody holds it, so the SET without NX is no acquire: silent. The twin
// is a job lock whose helper, called around work and not under a count,
// writes the key with a plain SET: reported.
package lockouthelper

import (
	"context"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
)

type Limiter struct{ rdb *redis.Client }

func (l *Limiter) CheckAccountLock(ctx context.Context, email string) (bool, error) {
	ttl, err := l.rdb.TTL(ctx, fmt.Sprintf("account_lock:%s", email)).Result()
	return ttl > 0, err
}

func (l *Limiter) LockAccount(ctx context.Context, email string, d time.Duration) error {
	lockKey := fmt.Sprintf("account_lock:%s", email)
	return l.rdb.Set(ctx, lockKey, "1", d).Err()
}

func (l *Limiter) UnlockAccount(ctx context.Context, email string) error {
	lockKey := fmt.Sprintf("account_lock:%s", email)
	return l.rdb.Del(ctx, lockKey).Err()
}

func (l *Limiter) IncrementFailed(ctx context.Context, email string) (int64, error) {
	failKey := fmt.Sprintf("login_fail:%s", email)
	n, err := l.rdb.Incr(ctx, failKey).Result()
	if err != nil {
		return 0, err
	}
	if n == 1 {
		l.rdb.Expire(ctx, failKey, time.Hour)
	}
	if n >= 5 {
		l.LockAccount(ctx, email, 30*time.Minute)
	}
	return n, nil
}

// Must report: the helper guards a job, and no count decides its calls.
func (l *Limiter) LockJob(ctx context.Context, job string) error {
	lockKey := fmt.Sprintf("job_lock:%s", job)
	return l.rdb.Set(ctx, lockKey, "1", time.Minute).Err() // want "SET of lock key"
}

func (l *Limiter) UnlockJob(ctx context.Context, job string) error {
	return l.rdb.Del(ctx, fmt.Sprintf("job_lock:%s", job)).Err()
}

func (l *Limiter) RunJob(ctx context.Context, job string, work func()) error {
	if err := l.LockJob(ctx, job); err != nil {
		return err
	}
	defer l.UnlockJob(ctx, job)
	work()
	return nil
}
