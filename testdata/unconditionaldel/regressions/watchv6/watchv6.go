// Package watchv6 pins issue 32's shape 5 on go-redis v6 (the
// +incompatible module path): a lock type releases by WATCHing its key,
// reading and comparing the token, and queueing the DEL with the Tx's
// Pipelined, which in v6 is MULTI/EXEC (Tx.Pipeline executes through
// processTxPipeline). EXEC aborts when the key changed after the WATCH,
// so the release is atomic. The twin sends the DEL on the Tx itself, with
// no MULTI: the WATCH then guards nothing and the compare is a separate
// round trip.
package watchv6

import (
	"errors"
	"time"

	"github.com/go-redis/redis"
	"github.com/google/uuid"
)

var ErrNotHeld = errors.New("lock not held")

type Mutex struct {
	client redis.UniversalClient
	key    string
	token  string
}

func (m *Mutex) Lock(ttl time.Duration) error {
	m.token = uuid.NewString()
	ok, err := m.client.SetNX(m.key, m.token, ttl).Result()
	if err != nil {
		return err
	}
	if !ok {
		return errors.New("lock held by another")
	}
	return nil
}

// Near miss (silent): v6's Tx.Pipelined is MULTI/EXEC under the WATCH.
func (m *Mutex) Unlock() error {
	return m.client.Watch(func(tx *redis.Tx) error {
		cur, err := tx.Get(m.key).Result()
		if err == redis.Nil {
			return ErrNotHeld
		}
		if err != nil {
			return err
		}
		if cur != m.token {
			return ErrNotHeld
		}
		_, err = tx.Pipelined(func(pipe redis.Pipeliner) error {
			pipe.Del(m.key)
			return nil
		})
		return err
	}, m.key)
}

// Must report: the DEL goes out on the watched connection with no MULTI.
func (m *Mutex) UnlockNoMulti() error {
	return m.client.Watch(func(tx *redis.Tx) error {
		if tx.Get(m.key).Val() != m.token {
			return ErrNotHeld
		}
		return tx.Del(m.key).Err() // want "GET on line \\d+ and this DEL of lock key `m\\.key` are two round trips"
	}, m.key)
}
