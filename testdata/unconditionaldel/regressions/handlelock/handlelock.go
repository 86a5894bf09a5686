// Package handlelock pins a record fetched and removed under a lock that
// fetchAndRemoveWithLock takes through a handle: the lock's key is
// inside the handle, and the key its commands touch is the record, whose
// GET (tested against nil) and DEL are no owner check and no release.
// The twin releases the handle's own key with a plain DEL.
package handlelock

import (
	"errors"
	"time"

	"github.com/go-redis/redis"
	"github.com/google/uuid"
)

type Lock struct {
	rdb   *redis.Client
	key   string
	token string
}

func NewLock(rdb *redis.Client, key string) *Lock {
	return &Lock{rdb: rdb, key: key, token: uuid.NewString()}
}

func (l *Lock) Acquire() (bool, error) {
	return l.rdb.SetNX(l.key, l.token, 10*time.Second).Result()
}

// Must report: the handle's release deletes whoever holds the key.
func (l *Lock) Release() error {
	return l.rdb.Del(l.key).Err() // want "DEL of lock key"
}

type Manager struct {
	rdb *redis.Client
}

func (s *Manager) fetch(key string) (string, error) { return s.rdb.Get(key).Result() }

func (s *Manager) remove(key string) error { return s.rdb.Del(key).Err() }

// Near miss (silent): the record under the lock.
func (s *Manager) fetchAndRemoveWithLock(key string) (string, error) {
	lock := NewLock(s.rdb, "Lock"+key)
	ok, err := lock.Acquire()
	if err != nil || !ok {
		return "", errors.New("busy")
	}
	defer lock.Release()
	v, err := s.fetch(key)
	if err != nil || v == "" {
		return "", err
	}
	return v, s.remove(key)
}

func (s *Manager) Pop(key string) (string, error) { return s.fetchAndRemoveWithLock(key) }
