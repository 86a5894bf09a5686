// Package handlelock pins data keys written inside functions named for a
// lock: getWithDistributedLock takes its lock through a handle (the
// lock's key is inside it) and reads, then refills, the cache key under
// it; DeductStockWithOptimisticLock is a versioned update, an optimistic
// lock with no holder, whose helper sets the record's EXPIRE. Neither
// key is a lock. The twin renews a lock key with a plain EXPIRE.
package handlelock

import (
	"context"
	"time"

	"github.com/go-redis/redis/v8"
	"github.com/google/uuid"
)

type Mutex struct {
	rdb   *redis.Client
	key   string
	token string
}

func (l *Mutex) TryAcquire(ctx context.Context) (bool, error) {
	l.token = uuid.NewString()
	return l.rdb.SetNX(ctx, l.key, l.token, 10*time.Second).Result()
}

var releaseScript = redis.NewScript(`if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) end return 0`)

func (l *Mutex) Release(ctx context.Context) error {
	return releaseScript.Run(ctx, l.rdb, []string{l.key}, l.token).Err()
}

type Cache struct {
	rdb *redis.Client
}

// Near miss (silent): the lock is the handle's; key is the cache entry.
func (c *Cache) getWithDistributedLock(ctx context.Context, key string, load func() string) (string, error) {
	lock := &Mutex{rdb: c.rdb, key: "lock:" + key}
	if ok, err := lock.TryAcquire(ctx); err != nil || !ok {
		return "", err
	}
	defer lock.Release(ctx)
	if v, err := c.rdb.Get(ctx, key).Result(); err == nil && v != "" {
		return v, nil
	}
	v := load()
	return v, c.rdb.Set(ctx, key, v, time.Minute).Err()
}

func (c *Cache) Get(ctx context.Context, key string, load func() string) (string, error) {
	return c.getWithDistributedLock(ctx, key, load)
}

func (c *Cache) setStock(ctx context.Context, key string, n, version int) error {
	if err := c.rdb.HSet(ctx, key, "stock", n, "version", version).Err(); err != nil {
		return err
	}
	return c.rdb.Expire(ctx, key, time.Hour).Err()
}

// Near miss (silent): an optimistic lock holds nothing.
func (c *Cache) DeductStockWithOptimisticLock(ctx context.Context, key string, n, version int) error {
	cur, err := c.rdb.HGet(ctx, key, "version").Int()
	if err != nil || cur != version {
		return err
	}
	return c.setStock(ctx, key, n, version+1)
}

// Must report: a lock renewed with no owner check.
func (c *Cache) RenewLock(ctx context.Context, name string) error {
	return c.rdb.Expire(ctx, "lock:"+name, 10*time.Second).Err() // want "EXPIRE of lock key"
}

type Store interface {
	Get(key string) (interface{}, error)
	Set(key string, v interface{}) error
}

type redisStore struct{ rdb *redis.Client }

func (s redisStore) Get(key string) (interface{}, error) {
	return s.rdb.Get(context.Background(), key).Result()
}

func (s redisStore) Set(key string, v interface{}) error {
	return s.rdb.Set(context.Background(), key, v, time.Minute).Err()
}

// Near miss (silent): a reply tested against nil is tested for presence,
// not compared with an owner's token.
func Refill(s redisStore, key string, load func() interface{}) (interface{}, error) {
	if v, err := s.Get(key); err == nil && v != nil {
		return v, nil
	}
	v := load()
	return v, s.Set(key, v)
}

var _ Store = redisStore{}
