// Package getdelrelease pins a release that reads the lock's value,
// compares it with the caller's in Go and then deletes the key with
// GETDEL: a delete with no condition in a second round trip, so a lease
// that lapses between the two lets it delete the next holder's lock.
// Reported at the GETDEL. The near misses consume one-time records with
// GETDEL: a verification code compared after it is taken, and a quote
// reserved under a lock word and read back whole; neither is held by
// anyone.
package getdelrelease

import (
	"context"
	"errors"
	"time"

	"github.com/redis/go-redis/v9"
)

var ErrNotOwner = errors.New("lock held by another service")

type Locks struct {
	rdb *redis.Client
}

func (l *Locks) Lock(ctx context.Context, user, owner string) (bool, error) {
	return l.rdb.SetNX(ctx, "user:lock:"+user, owner, 10*time.Second).Result()
}

// Must report: the compare and the delete are two round trips.
func (l *Locks) Unlock(ctx context.Context, user, owner string) error {
	key := "user:lock:" + user
	v, err := l.rdb.Get(ctx, key).Result()
	if err != nil {
		return err
	}
	if v != owner {
		return ErrNotOwner
	}
	return l.rdb.GetDel(ctx, key).Err() // want "GET on line 32 and this GETDEL of lock key `key` are two round trips"
}

// Near miss (silent): a one-time code, taken and then compared.
func (l *Locks) Verify(ctx context.Context, phone, code string) (bool, error) {
	want, err := l.rdb.GetDel(ctx, "verify:code:"+phone).Result()
	if err != nil {
		return false, err
	}
	return want == code, nil
}

// Near miss (silent): a quote reserved under a lock word, consumed whole.
func (l *Locks) Reserve(ctx context.Context, id string, quote []byte) error {
	return l.rdb.Set(ctx, "rate:lock:"+id, quote, time.Minute).Err()
}

func (l *Locks) Consume(ctx context.Context, id string) ([]byte, error) {
	return l.rdb.GetDel(ctx, "rate:lock:"+id).Bytes()
}
