// Package leasefirst pins releases deferred under a timeout that the
// work also runs under, where the timeout is longer than the lock's
// lease and nothing renews it: a start-up synchronisation takes its lock
// for 30 s inside a 60 s timeout. When the timeout cuts the release
// short, the lease has already lapsed, so the lock stays no longer for
// it. A timeout shorter than the lease, a lease that something extends,
// or a lease the model cannot read is still reported.
package leasefirst

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

var release = redis.NewScript(`if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) end return 0`)

type Manager struct {
	rdb    *redis.Client
	nodeID string
	ttl    time.Duration
}

func (m *Manager) acquire(ctx context.Context, key string, expiration time.Duration) (bool, error) {
	return m.rdb.SetNX(ctx, key, m.nodeID, expiration).Result()
}

func (m *Manager) unlock(ctx context.Context, key string) error { // want unlock:"releases under parameter 0"
	return release.Run(ctx, m.rdb, []string{key}, m.nodeID).Err()
}

func (m *Manager) sync(ctx context.Context) error { return m.rdb.Incr(ctx, "meta:version").Err() }

// Near miss: a 60 s timeout around a 30 s lease taken through a helper.
func (m *Manager) startupSync() {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	ok, err := m.acquire(ctx, "metadata:sync:lock", 30*time.Second)
	if err != nil || !ok {
		return
	}
	defer m.unlock(ctx, "metadata:sync:lock")
	_ = m.sync(ctx)
}

// Near miss: the lease sent directly, shorter than the timeout.
func (m *Manager) compact() {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if !m.rdb.SetNX(ctx, "lock:compact", m.nodeID, time.Minute).Val() {
		return
	}
	defer release.Run(ctx, m.rdb, []string{"lock:compact"}, m.nodeID)
	_ = m.sync(ctx)
}

// The timeout is shorter than the lease: when the work overruns it, the
// release fails and the lock stays for the rest of its 30 s.
func (m *Manager) rebuild() {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	ok, err := m.acquire(ctx, "lock:rebuild", 30*time.Second)
	if err != nil || !ok {
		return
	}
	defer m.unlock(ctx, "lock:rebuild") // want "deferred `m.unlock`: `ctx` expires with the work's timeout"
	_ = m.sync(ctx)
}

// A renewal keeps the lease past the timeout.
func (m *Manager) migrate() {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	ok, err := m.acquire(ctx, "lock:migrate", 30*time.Second)
	if err != nil || !ok {
		return
	}
	defer m.unlock(ctx, "lock:migrate") // want "deferred `m.unlock`: `ctx` expires with the work's timeout"
	go func() {
		for range time.Tick(10 * time.Second) {
			m.rdb.Expire(ctx, "lock:migrate", 30*time.Second)
		}
	}()
	_ = m.sync(ctx)
}

// A lease the model cannot read.
func (m *Manager) reindex() {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	ok, err := m.acquire(ctx, "lock:reindex", m.ttl)
	if err != nil || !ok {
		return
	}
	defer m.unlock(ctx, "lock:reindex") // want "deferred `m.unlock`: `ctx` expires with the work's timeout"
	_ = m.sync(ctx)
}
