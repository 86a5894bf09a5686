// Package instanceowner pins a scheduler's instance id, a UUID drawn once
// by its constructor, passed down as the owner of every job's lock: the
// job lock's acquire sits behind an interface of the package (Backend)
// and a layer that forwards the owner (Locks.Run), and the value is the
// one every run of the instance stores. A run whose lease lapsed passes
// the owner check of the lock the same instance took next for that job.
// The near misses: an owner drawn for each run, and the same drawn-once
// identity on a leader lease, whose holder is the process.
package instanceowner

import (
	"context"
	"time"

	"github.com/google/uuid"
	"github.com/redis/go-redis/v9"
)

type Backend interface {
	AcquireLock(ctx context.Context, key string, ttl time.Duration, owner string) (bool, error)
	ReleaseLock(ctx context.Context, key, owner string) error
}

type RedisBackend struct{ rdb *redis.Client }

var release = redis.NewScript(`if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) end return 0`)

func (r *RedisBackend) AcquireLock(ctx context.Context, key string, ttl time.Duration, owner string) (bool, error) {
	return r.rdb.SetNX(ctx, "job:lock:"+key, owner, ttl).Result() // want "lock key `\"job:lock:\" \\+ key` acquired with a non-unique token \\(parameter `owner`, .*field `instanceID`, set once in `NewScheduler`"
}

func (r *RedisBackend) ReleaseLock(ctx context.Context, key, owner string) error {
	return release.Run(ctx, r.rdb, []string{"job:lock:" + key}, owner).Err()
}

type Locks struct {
	backend Backend
	ttl     time.Duration
}

func (l *Locks) Run(ctx context.Context, job, owner string, fn func(context.Context) error) error {
	ok, err := l.backend.AcquireLock(ctx, job, l.ttl, owner)
	if err != nil || !ok {
		return err
	}
	defer l.backend.ReleaseLock(context.Background(), job, owner)
	return fn(ctx)
}

type Scheduler struct {
	locks      *Locks
	instanceID string
}

func NewScheduler(rdb *redis.Client) *Scheduler {
	return &Scheduler{locks: &Locks{backend: &RedisBackend{rdb: rdb}, ttl: time.Minute}, instanceID: uuid.New().String()}
}

func (s *Scheduler) Execute(ctx context.Context, job string, fn func(context.Context) error) error {
	return s.locks.Run(ctx, job, s.instanceID, fn)
}
