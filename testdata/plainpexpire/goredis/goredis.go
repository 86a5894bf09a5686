package goredis

import (
	"context"
	"fmt"
	"log"
	"time"

	"github.com/redis/go-redis/v9"
)

const leaseTTL = 30 * time.Second

// A watchdog goroutine that keeps the lease alive while the job runs.
func runExclusive(ctx context.Context, rdb *redis.Client, jobID, token string, work func(context.Context)) error {
	key := fmt.Sprintf("lock:job:%s", jobID)
	ok, err := rdb.SetNX(ctx, key, token, leaseTTL).Result()
	if err != nil || !ok {
		return fmt.Errorf("job %s is running elsewhere", jobID)
	}
	done := make(chan struct{})
	go func() {
		ticker := time.NewTicker(leaseTTL / 3)
		defer ticker.Stop()
		for {
			select {
			case <-done:
				return
			case <-ticker.C:
				if err := rdb.PExpire(ctx, key, leaseTTL).Err(); err != nil { // want "PEXPIRE of lock key `key` without an owner check"
					log.Printf("renew %s: %v", key, err)
				}
			}
		}
	}()
	work(ctx)
	close(done)
	return nil
}

// Near miss: the same watchdog, renewing through the owner-checked script.
var refreshScript = redis.NewScript(`
if redis.call("GET", KEYS[1]) == ARGV[1] then
	return redis.call("PEXPIRE", KEYS[1], ARGV[2])
end
return 0`)

func watchdogScript(ctx context.Context, rdb redis.UniversalClient, key, token string, stop <-chan struct{}) {
	ticker := time.NewTicker(leaseTTL / 3)
	defer ticker.Stop()
	for {
		select {
		case <-stop:
			return
		case <-ticker.C:
			n, err := refreshScript.Run(ctx, rdb, []string{key}, token, leaseTTL.Milliseconds()).Int()
			if err != nil || n == 0 {
				return
			}
		}
	}
}

// A lock type whose Refresh extends the lease by the key alone. The token
// is known from TryLock, so the fix rewrites the call.
type Mutex struct {
	rdb   *redis.Client
	key   string
	token string
}

func (m *Mutex) TryLock(ctx context.Context) (bool, error) {
	return m.rdb.SetNX(ctx, m.key, m.token, leaseTTL).Result()
}

func (m *Mutex) Refresh(ctx context.Context, ttl time.Duration) error {
	return m.rdb.PExpire(ctx, m.key, ttl).Err() // want "PEXPIRE of lock key `m\\.key` without an owner check; renew with `fix\\.Refresh` \\(SET IFEQ or compare-and-PEXPIRE\\)$"
}

func (m *Mutex) Extend(ctx context.Context) {
	m.rdb.Expire(ctx, m.key, leaseTTL) // want "EXPIRE of lock key `m\\.key` without an owner check"
}

// EXPIREAT takes a time, not a lease length: reported, no fix.
func (m *Mutex) ExtendUntil(ctx context.Context, until time.Time) error {
	return m.rdb.ExpireAt(ctx, m.key, until).Err() // want "EXPIREAT of lock key `m\\.key` without an owner check"
}

// Near miss: SET IFEQ renews only while the value is still our token.
func (m *Mutex) RefreshIFEQ(ctx context.Context, ttl time.Duration) error {
	return m.rdb.SetIFEQ(ctx, m.key, m.token, m.token, ttl).Err()
}

// Near miss: SetArgs with Mode IFEQ is the same command.
func (m *Mutex) RefreshArgs(ctx context.Context, ttl time.Duration) error {
	return m.rdb.SetArgs(ctx, m.key, m.token, redis.SetArgs{Mode: "IFEQ", MatchValue: m.token, TTL: ttl}).Err()
}

// Renewal on a ticker through a UniversalClient, key from a helper.
func leaderKey(service string) string { return "leader:" + service }

func keepLeadership(ctx context.Context, rdb redis.UniversalClient, service string) {
	ticker := time.NewTicker(5 * time.Second)
	defer ticker.Stop()
	for range ticker.C {
		rdb.Expire(ctx, leaderKey(service), 15*time.Second) // want "EXPIRE of lock key `leaderKey\\(service\\)` without an owner check"
	}
}

// Near miss: sliding expiry of a session key is not a lease.
func touchSession(ctx context.Context, rdb *redis.Client, sid string) {
	rdb.Expire(ctx, "session:"+sid, 24*time.Hour)
}

// Near miss: a rate-limit window.
func allow(ctx context.Context, rdb *redis.Client, user string) bool {
	key := fmt.Sprintf("ratelimit:%s:%d", user, time.Now().Unix()/60)
	n := rdb.Incr(ctx, key).Val()
	if n == 1 {
		rdb.Expire(ctx, key, time.Minute)
	}
	return n <= 100
}

// Near miss: the EXPIRE of SETNX-then-EXPIRE is setnxexpire's finding.
func acquireThenExpire(ctx context.Context, rdb *redis.Client, token string) bool {
	ok, _ := rdb.SetNX(ctx, "lock:report", token, 0).Result()
	if ok {
		rdb.Expire(ctx, "lock:report", leaseTTL)
	}
	return ok
}

// Suppressed with a reason.
func (m *Mutex) forceExtend(ctx context.Context) {
	//locklint:ignore plainpexpire operator tool, run by hand on a stuck lock
	m.rdb.Expire(ctx, m.key, time.Hour)
}
