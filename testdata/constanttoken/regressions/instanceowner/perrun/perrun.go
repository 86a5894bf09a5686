// Package perrun is instanceowner's near miss: the same layers, with an
// owner drawn for each run, and a leader lease that stores the
// instance's id, drawn once by its constructor.
package perrun

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
	return r.rdb.SetNX(ctx, "job:lock:"+key, owner, ttl).Result()
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
	rdb        *redis.Client
	locks      *Locks
	instanceID string
}

func NewScheduler(rdb *redis.Client) *Scheduler {
	return &Scheduler{rdb: rdb, locks: &Locks{backend: &RedisBackend{rdb: rdb}, ttl: time.Minute}, instanceID: uuid.New().String()}
}

func (s *Scheduler) Execute(ctx context.Context, job string, fn func(context.Context) error) error {
	return s.locks.Run(ctx, job, uuid.NewString(), fn)
}

func (s *Scheduler) Campaign(ctx context.Context) (bool, error) {
	return s.rdb.SetNX(ctx, "scheduler:leader", s.instanceID, 15*time.Second).Result()
}
